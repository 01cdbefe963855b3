#include "planner/run_advice.h"

#include "common/strings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace osprey::planner {

using Type = run::TrainEvent::Type;

void AdviceMonitor::give(const run::TrainEvent& at, const std::string& kind, const std::string& message,
                         std::vector<run::TrainEvent>& out) {
    if (!m_given.insert(kind).second)
        return;
    run::TrainEvent advice;
    advice.type = Type::Advice;
    advice.timeS = at.timeS;
    advice.epoch = m_epoch;
    advice.kind = kind;
    advice.message = message;
    out.push_back(std::move(advice));
}

void AdviceMonitor::sharedCpu(const run::TrainEvent& e, std::vector<run::TrainEvent>& out) {
    if (m_computeThreads <= 0 || e.cpuCores <= 0 || !std::isfinite(e.cpuPercent) ||
        !std::isfinite(e.processCpuPercent))
        return;
    const double others = std::max(0.0, e.cpuPercent - e.processCpuPercent) / 100.0 * e.cpuCores;
    const int free = std::max(0, e.cpuCores - m_computeThreads);
    if (others <= free + m_thresholds.sharedCpuCores) {
        m_sharedInRow = 0;
        return;
    }
    if (++m_sharedInRow < m_thresholds.sharedCpuSamples)
        return;
    const int suggested =
        std::clamp(e.cpuCores - static_cast<int>(std::ceil(others - 0.5)), 1, m_computeThreads);
    char text[400];
    std::snprintf(text, sizeof text,
                  "Other programs are using about %.1f of this machine's %d cores while training computes on "
                  "%d threads: the threads wait on each other, and training slows down more than the lost "
                  "cores explain. While those programs run, threads=%d is likely faster.",
                  others, e.cpuCores, m_computeThreads, suggested);
    give(e, "shared_cpu", text, out);
}

std::vector<run::TrainEvent> AdviceMonitor::feed(const run::TrainEvent& e) {
    std::vector<run::TrainEvent> out;
    char text[400];
    switch (e.type) {
    case Type::RunStarted:
        if (const auto it = e.config.find("patience"); it != e.config.end())
            m_patience = static_cast<int>(parseInt(it->second).value_or(100));
        m_computeThreads = e.computeThreads;
        break;
    case Type::Batch:
    case Type::Epoch: {
        if (e.type == Type::Batch)
            m_epoch = std::max(m_epoch, e.epoch);
        const double box = e.type == Type::Batch ? e.boxLoss : e.metrics.boxLoss;
        const double cls = e.type == Type::Batch ? e.clsLoss : e.metrics.clsLoss;
        const double dfl = e.type == Type::Batch ? e.dflLoss : e.metrics.dflLoss;
        // The reader turns a written null (a non-finite loss) into NaN.
        if (!std::isfinite(box) || !std::isfinite(cls) || !std::isfinite(dfl))
            give(e, "nan_loss",
                 "The training loss became NaN in epoch " + std::to_string(e.epoch) +
                     ": the run will not recover. Stop it and lower lr0, check the labels for empty or "
                     "inverted "
                     "boxes, or train without amp.",
                 out);
        if (e.type == Type::Epoch) {
            m_epoch = e.epoch;
            const double fitness = e.metrics.fitness;
            if (std::isfinite(fitness) && fitness > m_bestFitness + 1e-4) {
                m_bestFitness = fitness;
                m_bestEpoch = e.epoch;
            }
            const int flat = e.epoch - m_bestEpoch;
            const int threshold = std::max(m_thresholds.minPlateauEpochs, m_patience / 3);
            if (m_bestEpoch > 0 && flat >= threshold && e.epoch < e.epochs) {
                std::snprintf(text, sizeof text,
                              "Validation mAP50-95 has not improved for %d epochs (best %.3f in epoch %d): "
                              "patience=%d stops the run after %d such epochs, or stop it now; best.pt keeps "
                              "the best weights.",
                              flat, m_bestFitness, m_bestEpoch, m_patience, m_patience);
                give(e, "plateau", text, out);
            }
        }
        break;
    }
    case Type::System: {
        sharedCpu(e, out);
        if (!e.gpu)
            break;
        if (e.gpuMemTotalMb > 0 && e.gpuMemUsedMb / e.gpuMemTotalMb > m_thresholds.gpuMemoryShare) {
            std::snprintf(
                text, sizeof text,
                "GPU memory is nearly full (%.0f of %.0f MB): a smaller batch, or the same effective "
                "batch through accumulation (nbs), avoids an out-of-memory stop.",
                e.gpuMemUsedMb, e.gpuMemTotalMb);
            give(e, "gpu_memory", text, out);
        }
        const bool starved =
            e.gpuUtilPercent < m_thresholds.lowGpuUtilPercent && e.cpuPercent > m_thresholds.busyCpuPercent;
        if (!starved) {
            m_lowSinceS = -1;
        } else if (m_lowSinceS < 0) {
            m_lowSinceS = e.timeS;
        } else if (e.timeS - m_lowSinceS >= m_thresholds.lowUtilSeconds) {
            std::snprintf(text, sizeof text,
                          "The data pipeline is the bottleneck: the GPU has been under %.0f %% busy for %.0f "
                          "minutes while the CPU is at %.0f %%. Use more workers, cache the images, or a "
                          "smaller imgsz.",
                          m_thresholds.lowGpuUtilPercent, (e.timeS - m_lowSinceS) / 60.0, e.cpuPercent);
            give(e, "data_pipeline", text, out);
        }
        break;
    }
    default:
        break;
    }
    return out;
}

std::vector<run::TrainEvent> replayAdvice(const std::vector<std::string>& lines,
                                          AdviceThresholds thresholds) {
    AdviceMonitor monitor(thresholds);
    std::vector<run::TrainEvent> out;
    for (const auto& line : lines) {
        const auto event = run::parseEvent(line);
        if (!event)
            continue;
        for (auto& advice : monitor.feed(*event))
            out.push_back(std::move(advice));
    }
    return out;
}

void AdvisingSink::onEvent(const run::TrainEvent& event) {
    std::vector<run::TrainEvent> advice;
    {
        std::lock_guard lock(m_mutex);
        advice = m_monitor.feed(event);
    }
    m_next.onEvent(event);
    for (const auto& a : advice)
        m_next.onEvent(a);
}

} // namespace osprey::planner
