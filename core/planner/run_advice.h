#pragma once
// Advice while a run goes, from the events it already writes (the Ultralytics articles' monitoring
// advice made concrete). AdviceMonitor is a pure state machine over the event stream: feed it every
// event in order and it returns the `advice` events to add, each kind at most once per run:
//
// - data_pipeline: GPU utilisation under 60 % for 2 minutes of system samples while the CPU is over 80 %
//   busy: the loader cannot keep the GPU fed (more workers, cached images, a smaller imgsz);
// - gpu_memory: GPU memory over 92 % used: a smaller batch (or gradient accumulation) avoids an
//   out-of-memory stop;
// - plateau: validation mAP50-95 not improved for max(3, patience / 3) epochs: patience will stop the run
//   after `patience` such epochs, or stop now and keep best.pt;
// - nan_loss: a training loss became NaN or infinite: the run will not recover (lower lr0, check the
//   labels for empty or inverted boxes, switch off amp);
// - shared_cpu: a CPU run whose other programs keep more than half a core busy beyond the cores it leaves
//   free, for 3 system samples in a row. Compute threads wait on each other at every parallel step, so
//   the run slows down far more than the cores it loses (bench_train modes, 2 cores, one busy with
//   `yes`: bf16 at 2 threads 16.1 images/s against 47.5 idle, at 1 thread 35.6): fewer threads.
//
// AdvisingSink forwards a stream to another sink and inserts the advice. Thread affinity: AdviceMonitor
// belongs to one thread; AdvisingSink is thread-safe (the trainer's sampler thread sends `system`).

#include "run/train_events.h"

#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace osprey::planner {

struct AdviceThresholds {
    double lowGpuUtilPercent = 60;
    double busyCpuPercent = 80;
    double lowUtilSeconds = 120;
    double gpuMemoryShare = 0.92;
    int minPlateauEpochs = 3;
    double sharedCpuCores = 0.5; ///< other programs' cores beyond the run's free ones
    int sharedCpuSamples = 3;
};

class AdviceMonitor {
public:
    explicit AdviceMonitor(AdviceThresholds thresholds = {}) : m_thresholds(thresholds) {}

    /// The advice events this event triggers (usually none).
    std::vector<run::TrainEvent> feed(const run::TrainEvent& event);
    /// Kinds given so far.
    const std::set<std::string>& given() const { return m_given; }

private:
    void sharedCpu(const run::TrainEvent& e, std::vector<run::TrainEvent>& out);
    void give(const run::TrainEvent& at, const std::string& kind, const std::string& message,
              std::vector<run::TrainEvent>& out);

    AdviceThresholds m_thresholds;
    std::set<std::string> m_given;
    int m_patience = 100;
    int m_epoch = 0;
    double m_lowSinceS = -1; ///< start of the current low-utilisation stretch, -1 when none
    double m_bestFitness = -1;
    int m_bestEpoch = 0;
    int m_computeThreads = 0; ///< of a CPU run (run_started); 0 on a GPU
    int m_sharedInRow = 0;    ///< system samples in a row with other programs competing
};

/// Every piece of advice a recorded stream (events.jsonl lines) gives, in order. Lines that are not
/// events are skipped.
std::vector<run::TrainEvent> replayAdvice(const std::vector<std::string>& lines,
                                          AdviceThresholds thresholds = {});

/// Forwards events to `next`, followed by the advice they trigger.
class AdvisingSink : public run::EventSink {
public:
    explicit AdvisingSink(run::EventSink& next) : m_next(next) {}
    void onEvent(const run::TrainEvent& event) override;

private:
    run::EventSink& m_next;
    std::mutex m_mutex;
    AdviceMonitor m_monitor;
};

} // namespace osprey::planner
