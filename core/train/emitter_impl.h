#pragma once
// Private to core/train: the run clock and the Emitter that stamps a training run's events with it.
// Thread affinity: the training thread; Emitter::emit is also called from the system sampler's thread (the
// sink must accept that, as run::EventSink documents).

#include "run/train_events.h"

#include <chrono>
#include <string>

namespace osprey::train::detail {

using Clock = std::chrono::steady_clock;

inline double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Stamps each event with the run clock and forwards it; shared by the loop and the sampler thread.
class Emitter {
public:
    Emitter(run::EventSink& sink) : m_sink(sink), m_start(Clock::now()) {}
    void emit(run::TrainEvent event) {
        event.timeS = secondsSince(m_start);
        m_sink.onEvent(event);
    }
    void log(const std::string& message, const std::string& level = "info") {
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Log;
        event.level = level;
        event.message = message;
        emit(std::move(event));
    }

private:
    run::EventSink& m_sink;
    Clock::time_point m_start;
};

} // namespace osprey::train::detail
