// One training step of the run: precision and the loss scaler, forward/backward of a loaded batch with
// out-of-memory recovery (halve the images per forward, keep the batch through accumulation), and the
// optimiser step that skips inf/nan gradients.
#include "train/training_run_impl.h"

#include "model/compat_torch_impl.h"
#include "system/cpu_features.h"
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

void Run::setUpPrecision() {
    const bool cuda = m_device.is_cuda();
    m_precision = choosePrecision(m_config.amp, cuda, fastBFloat16(m_device));
    m_scaler = std::make_unique<GradScaler>(m_precision == Precision::Float16);
    if (cuda) {
        // Fixed input sizes: let cuDNN time its algorithms once and keep the fastest.
        model::compat::setCudnnBenchmark(true);
        if (!m_config.amp)
            m_emit.log("amp=false: training in float32");
        else if (m_precision == Precision::BFloat16)
            m_emit.log("AMP: bf16 autocast for training and validation (the GPU supports bfloat16)");
        else
            m_emit.log(
                "AMP: fp16 autocast for training and validation, with a dynamic loss scaler (the GPU has no "
                "bfloat16 support)");
    } else if (!m_config.amp) {
        m_emit.log("amp=false: training in float32");
    } else if (m_precision == Precision::BFloat16) {
        m_emit.log("AMP: bf16 autocast for training and validation on the CPU (it has " +
                   system::cpuBFloat16Instructions() + "); amp=false trains in float32");
    } else if (system::cpuComputesBFloat16()) {
        m_emit.log("AMP: float32 on the CPU: bf16 autocast needs LibTorch 2.x (" +
                   model::compat::torchVersion() +
                   "'s bf16 kernels measured 0.3-1.08x float32 per training step, 2.15's 1.5-2.5x)");
    }
}

std::string Run::outOfMemoryMessage(int batch, const std::string& where) const {
    std::string memory;
    if (const auto info = m_device.is_cuda() ? model::compat::cudaMemoryInfo(m_device.index()) : std::nullopt)
        memory = gib(static_cast<double>(info->freeBytes)) + " free of " +
                 gib(static_cast<double>(info->totalBytes));
    else {
        system::MachineMonitor machine;
        const auto sample = machine.sample();
        memory = gib((sample.ramTotalMb - sample.ramUsedMb) * 1024.0 * 1024.0) + " of RAM free";
    }
    const std::string device = m_device.is_cuda() ? "cuda:" + std::to_string(m_device.index()) : "cpu";
    std::string kept = "no checkpoint was written yet";
    if (std::filesystem::exists(m_lastPath))
        kept = "the last checkpoint " + m_lastPath.string() + " (epoch " + std::to_string(m_state.nextEpoch) +
               ") is kept; resume with resume=true";
    return "out of memory " + where + ": " + m_state.model->spec().name() +
           " at imgsz=" + std::to_string(m_config.imgsz) + " does not fit on " + device + " (" + memory +
           " after freeing the cache; configured batch=" + std::to_string(m_config.batch) + ", " +
           std::to_string(batch) + " per forward); " + kept +
           ". Use a smaller model or imgsz, or free memory used by other programs";
}

Status Run::trainBatch(const HostBatch& batch, int epoch, long long iteration, torch::Tensor& partsSum,
                       int& instances) {
    while (true) {
        const int chunk = m_microBatch > 0 ? std::min(m_microBatch, batch.count) : batch.count;
        if (m_parallel)
            m_parallel->broadcastBuffers(); // rank 0's BatchNorm statistics, as DDP before each forward
        try {
            auto parts = torch::zeros({3});
            instances = 0;
            for (int start = 0; start < batch.count; start += chunk) {
                const int count = std::min(chunk, batch.count - start);
                if (m_inputs.beforeStep)
                    m_inputs.beforeStep({epoch + 1, iteration, count});
                const auto t0 = Clock::now();
                const auto deviceBatch = count == batch.count
                                             ? toDevice(batch, m_device)
                                             : toDevice(sliceBatch(batch, start, count), m_device);
                const auto t1 = Clock::now();
                model::HeadMaps maps;
                {
                    const bool lower = m_precision != Precision::Float32;
                    model::compat::AutocastScope autocast(m_device.type(), autocastType(m_precision), lower);
                    maps = m_criterion->forward(*m_state.model, deviceBatch.images, lower);
                }
                const auto loss = (*m_criterion)(maps, deviceBatch.targets);
                const auto t2 = Clock::now();
                m_scaler->scaleLoss(loss.total).backward();
                const auto t3 = Clock::now();
                parts += loss.parts.to(torch::kCPU) * (static_cast<double>(count) / batch.count);
                instances += deviceBatch.instances;
                m_phases.dataS += std::chrono::duration<double>(t1 - t0).count();
                m_phases.forwardS += std::chrono::duration<double>(t2 - t1).count();
                m_phases.backwardS += std::chrono::duration<double>(t3 - t2).count();
            }
            partsSum += parts;
            return {};
        } catch (const std::exception& error) {
            // Data parallel: halving one rank's batch would break the lockstep of the ranks' steps.
            if (!model::compat::isOutOfMemory(error) || m_parallel)
                throw;
            // The gradients of this accumulation window are partial: drop them and start it again here.
            m_state.optimizer->get().zero_grad();
            m_state.lastOptimizerStep = iteration - 1;
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

void Run::optimizerStep(int epoch, long long iteration) {
    if (m_parallel)
        m_parallel->allreduceGradients(); // identical gradients, so identical steps on every rank
    StepOutcome outcome;
    try {
        if (m_inputs.beforeOptimizerStep)
            m_inputs.beforeOptimizerStep({epoch + 1, iteration, m_config.batch});
        outcome =
            m_scaler->step(m_state.optimizer->get(), m_state.optimizer->parameters(), m_config.gradClipNorm);
    } catch (const std::exception& error) {
        // The optimiser's state (AdamW: two values per parameter) is allocated in its first step, and a
        // step that fails part-way has already updated some parameters: it cannot be retried or halved.
        if (!model::compat::isOutOfMemory(error))
            throw;
        model::compat::emptyCudaCache();
        throw std::runtime_error(outOfMemoryMessage(m_microBatch > 0 ? m_microBatch : m_config.batch,
                                                    "in the optimiser step (its state for " +
                                                        std::to_string(m_state.model->parameters().size()) +
                                                        " tensors is allocated there)"));
    }
    m_state.optimizer->get().zero_grad();
    if (outcome.stepped) {
        m_state.emaUpdater->update();
        return;
    }
    ++m_skippedSteps;
    // fp16 skips a few steps while its scale settles; name the first ones, then count.
    if (m_skippedSteps <= 20)
        m_emit.log(GradScaler::describeSkip(outcome, iteration, epoch + 1), "warning");
    else if (m_skippedSteps % 100 == 0)
        m_emit.log(std::to_string(m_skippedSteps) + " optimiser steps skipped so far for inf/nan gradients",
                   "warning");
}

} // namespace osprey::train::detail
