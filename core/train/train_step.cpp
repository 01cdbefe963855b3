#include "train/train_step_impl.h"

#include "model/compat_torch_impl.h"
#include "system/machine_monitor.h"
#include "train/distributed_impl.h"
#include "train/trainer_impl.h"

#include <cstdio>

namespace osprey::train::detail {

namespace {

// Images [start, start + count) of a batch, with their boxes renumbered.
HostBatch sliceBatch(const HostBatch& batch, int start, int count) {
    HostBatch part;
    part.count = count;
    part.width = batch.width;
    part.height = batch.height;
    const size_t imageBytes = static_cast<size_t>(batch.width) * batch.height * 3;
    part.pixels.assign(batch.pixels.begin() + static_cast<std::ptrdiff_t>(imageBytes * start),
                       batch.pixels.begin() + static_cast<std::ptrdiff_t>(imageBytes * (start + count)));
    for (const auto& box : batch.boxes)
        if (box.imageIndex >= start && box.imageIndex < start + count) {
            part.boxes.push_back(box);
            part.boxes.back().imageIndex -= start;
        }
    return part;
}

std::string gib(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return text;
}

} // namespace

TrainStep::TrainStep(RunParts& parts, const run::TrainConfig& config, const TrainInputs& inputs,
                     Emitter& emitter, std::filesystem::path lastWeights, PhaseTimes& phases)
    : m_parts(parts), m_config(config), m_inputs(inputs), m_emit(emitter),
      m_lastWeights(std::move(lastWeights)), m_phases(phases) {}

std::string TrainStep::outOfMemoryMessage(int batch, const std::string& where) const {
    std::string memory;
    if (const auto info =
            m_parts.device.is_cuda() ? model::compat::cudaMemoryInfo(m_parts.device.index()) : std::nullopt)
        memory = gib(static_cast<double>(info->freeBytes)) + " free of " +
                 gib(static_cast<double>(info->totalBytes));
    else {
        system::MachineMonitor machine;
        const auto sample = machine.sample();
        memory = gib((sample.ramTotalMb - sample.ramUsedMb) * 1024.0 * 1024.0) + " of RAM free";
    }
    const std::string device =
        m_parts.device.is_cuda() ? "cuda:" + std::to_string(m_parts.device.index()) : "cpu";
    std::string kept = "no checkpoint was written yet";
    if (std::filesystem::exists(m_lastWeights))
        kept = "the last checkpoint " + m_lastWeights.string() + " (epoch " +
               std::to_string(m_parts.state.nextEpoch) + ") is kept; resume with resume=true";
    return "out of memory " + where + ": " + m_parts.state.model->spec().name() +
           " at imgsz=" + std::to_string(m_config.imgsz) + " does not fit on " + device + " (" + memory +
           " after freeing the cache; configured batch=" + std::to_string(m_config.batch) + ", " +
           std::to_string(batch) + " per forward); " + kept +
           ". Use a smaller model or imgsz, or free memory used by other programs";
}

Status TrainStep::forwardBackward(const HostBatch& batch, int epoch, long long iteration,
                                  torch::Tensor& partsSum, int& instances) {
    while (true) {
        const int chunk = m_microBatch > 0 ? std::min(m_microBatch, batch.count) : batch.count;
        if (m_parts.parallel)
            m_parts.parallel->broadcastBuffers(); // rank 0's BatchNorm statistics, as DDP before each forward
        try {
            auto parts = torch::zeros({3});
            instances = 0;
            for (int start = 0; start < batch.count; start += chunk) {
                const int count = std::min(chunk, batch.count - start);
                if (m_inputs.beforeStep)
                    m_inputs.beforeStep({epoch + 1, iteration, count});
                const auto t0 = Clock::now();
                const auto deviceBatch = count == batch.count
                                             ? toDevice(batch, m_parts.device)
                                             : toDevice(sliceBatch(batch, start, count), m_parts.device);
                const auto t1 = Clock::now();
                model::HeadMaps maps;
                const auto& precision = *m_parts.precision;
                {
                    const bool lower = precision.autocast();
                    model::compat::AutocastScope autocast(m_parts.device.type(),
                                                          autocastType(precision.precision()), lower);
                    maps = m_parts.criterion->forward(*m_parts.state.model, deviceBatch.images, lower);
                }
                const auto tForward = Clock::now();
                const auto loss = (*m_parts.criterion)(maps, deviceBatch.targets);
                const auto t2 = Clock::now();
                precision.scaleLoss(loss.total).backward();
                const auto t3 = Clock::now();
                parts += loss.parts.to(torch::kCPU) * (static_cast<double>(count) / batch.count);
                instances += deviceBatch.instances;
                m_phases.dataS += std::chrono::duration<double>(t1 - t0).count();
                m_phases.forwardS += std::chrono::duration<double>(tForward - t1).count();
                m_phases.lossS += std::chrono::duration<double>(t2 - tForward).count();
                m_phases.backwardS += std::chrono::duration<double>(t3 - t2).count();
            }
            partsSum += parts;
            return {};
        } catch (const std::exception& error) {
            // Data parallel: halving one rank's batch would break the lockstep of the ranks' steps.
            if (!model::compat::isOutOfMemory(error) || m_parts.parallel)
                throw;
            // The gradients of this accumulation window are partial: drop them and start it again here.
            m_parts.state.optimizer->get().zero_grad();
            m_parts.state.lastOptimizerStep = iteration - 1;
            model::compat::emptyCudaCache();
            if (chunk <= 1)
                return fail(outOfMemoryMessage(chunk, "at batch 1, the smallest"));
            m_microBatch = chunk / 2;
            const int steps = (batch.count + m_microBatch - 1) / m_microBatch;
            m_emit.log("Out of memory at batch " + std::to_string(chunk) + " (epoch " +
                           std::to_string(epoch + 1) + ", iteration " + std::to_string(iteration) +
                           "): freed the cache and continuing at batch " + std::to_string(m_microBatch) +
                           " (" + std::to_string(steps) + " forward passes per batch of " +
                           std::to_string(batch.count) + ", so the nominal batch of " +
                           std::to_string(m_config.nominalBatch) +
                           " and the results stay the same, only slower)",
                       "warning");
        }
    }
}

void TrainStep::optimizerStep(int epoch, long long iteration) {
    if (m_parts.parallel)
        m_parts.parallel->allreduceGradients(); // identical gradients, so identical steps on every rank
    StepOutcome outcome;
    try {
        if (m_inputs.beforeOptimizerStep)
            m_inputs.beforeOptimizerStep({epoch + 1, iteration, m_config.batch});
        outcome =
            m_parts.precision->step(m_parts.state.optimizer->get(), m_parts.state.optimizer->parameters(),
                                    m_config.gradClipNorm, iteration, epoch + 1);
    } catch (const std::exception& error) {
        // The optimiser's state (AdamW: two values per parameter) is allocated in its first step, and a
        // step that fails part-way has already updated some parameters: it cannot be retried or halved.
        if (!model::compat::isOutOfMemory(error))
            throw;
        model::compat::emptyCudaCache();
        throw std::runtime_error(outOfMemoryMessage(
            m_microBatch > 0 ? m_microBatch : m_config.batch,
            "in the optimiser step (its state for " +
                std::to_string(m_parts.state.model->parameters().size()) + " tensors is allocated there)"));
    }
    m_parts.state.optimizer->get().zero_grad();
    if (outcome.stepped)
        m_parts.state.emaUpdater->update();
}

} // namespace osprey::train::detail
