#pragma once
// WarningForwarder: turns the data pipeline's warnings (loader worker threads, skipped files) into
// `log` events of level "warning" in a run's event stream. Thread-safe as far as its sink is.

#include "run/train_events.h"

#include <chrono>
#include <string>

namespace osprey::train {

/// Forwards log events of the loader (worker threads) into the stream, as
/// warning log events timed from the forwarder's creation.
class WarningForwarder {
public:
    explicit WarningForwarder(run::EventSink& sink)
        : m_sink(sink), m_start(std::chrono::steady_clock::now()) {}
    void operator()(const std::string& message) {
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Log;
        event.level = "warning";
        event.message = message;
        event.timeS = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
        m_sink.onEvent(event);
    }

private:
    run::EventSink& m_sink;
    std::chrono::steady_clock::time_point m_start;
};

} // namespace osprey::train
