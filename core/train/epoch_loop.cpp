#include "train/epoch_loop_impl.h"

#include "model/compat_torch_impl.h"
#include "model/inference_torch_impl.h"
#include "model/predictor.h"
#include "run/run_folder.h"
#include "train/distributed_impl.h"
#include "train/system_sampler.h"
#include "train/trainer_impl.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>

#include <unistd.h>

namespace osprey::train::detail {

namespace {

std::vector<float> flatParameters(torch::nn::Module& module) {
    std::vector<torch::Tensor> flat;
    for (const auto& parameter : module.parameters())
        flat.push_back(parameter.detach().to(torch::kCPU, torch::kFloat).reshape(-1));
    const auto all = torch::cat(flat).contiguous();
    return std::vector<float>(all.data_ptr<float>(), all.data_ptr<float>() + all.numel());
}

std::string hex(std::uint64_t value) {
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

} // namespace

EpochLoop::EpochLoop(const run::TrainConfig& config, const TrainInputs& inputs, Emitter& emitter,
                     RunParts parts)
    : m_config(config), m_inputs(inputs), m_emit(emitter), m_parts(std::move(parts)),
      m_checkpoints(run::RunFolder(inputs.runDir), config, inputs.dataset.classNames, emitter),
      m_step(m_parts, config, inputs, emitter, m_checkpoints.lastPath(), m_phases),
      m_accumulate(m_parts.accumulate) {}

void EpochLoop::emitStarted(std::int64_t parameters, double gflops) {
    run::TrainEvent event;
    event.type = run::TrainEvent::Type::RunStarted;
    event.config = m_config.toMap();
    event.config["optimizer_used"] = toString(m_parts.state.choice.kind);
    event.config["lr_used"] = std::to_string(m_parts.state.choice.lr);
    event.config["world_size"] = std::to_string(m_parts.worldSize);
    const auto& d = m_inputs.dataset;
    event.trainImages = d.trainImages;
    event.valImages = d.valImages;
    event.trainBoxes = d.trainBoxes;
    event.valBoxes = d.valBoxes;
    event.negatives = d.negatives;
    event.classNames = d.classNames;
    event.modelName = m_parts.state.model->spec().name();
    event.parameters = parameters;
    event.gflops = gflops;
    event.runDir = m_inputs.runDir.string();
    event.epochs = m_config.epochs;
    event.startEpoch = m_parts.state.nextEpoch + 1;
    event.pid = static_cast<std::int64_t>(::getpid());
    event.computeThreads = m_parts.device.is_cuda() ? 0 : m_parts.threads;
    m_emit.emit(std::move(event));
}

bool EpochLoop::stopAgreed(double imagesPerS) {
    if (!m_parts.parallel)
        return stopRequested();
    if (imagesPerS < 0)
        return m_parts.parallel->anyRank(stopRequested());
    return m_parts.parallel->anyRank(stopRequested(), imagesPerS, m_rankImagesPerS);
}

void EpochLoop::compareRankWeights() {
    auto& context = *m_inputs.distributed;
    const auto mine = hex(DataParallel::checksum({m_parts.state.model.get(), m_parts.state.ema.get()}));
    if (auto status = context.set("checksum/" + std::to_string(context.rank()), mine); !status) {
        m_emit.log(status.message(), "warning");
        return;
    }
    if (!m_parts.isMain) {
        m_emit.log("Weights checksum on rank " + std::to_string(context.rank()) + ": " + mine);
        return;
    }
    for (int rank = 1; rank < context.worldSize(); ++rank) {
        auto theirs = context.get("checksum/" + std::to_string(rank), 120);
        if (!theirs || theirs.value() != mine) {
            m_emit.log("rank " + std::to_string(rank) + "'s weights differ from rank 0's (checksum " +
                           (theirs ? theirs.value() : theirs.message()) + ", rank 0 " + mine + ")",
                       "warning");
            return;
        }
    }
    m_emit.log("Weights identical on all " + std::to_string(context.worldSize()) +
               " ranks (checksum of the trained and EMA parameters " + mine + ")");
}

double EpochLoop::totalImagesPerS(long long images, double elapsedS) const {
    if (m_parts.parallel && !m_rankImagesPerS.empty()) // the ranks' own figures of the latest batch, summed
        return std::accumulate(m_rankImagesPerS.begin(), m_rankImagesPerS.end(), 0.0);
    return static_cast<double>(images) / std::max(elapsedS, 1e-9);
}

// Returns false when a stop was requested (the current batch was finished first).
Expected<bool> EpochLoop::trainEpoch(int epoch) {
    const int nb = m_parts.batchesPerEpoch;
    const double factor = lrFactor(m_config.schedule, epoch, m_config.epochs, m_config.lrf);
    auto& optimizer = *m_parts.state.optimizer;
    for (int group = 0; group < optimizer.groupCount(); ++group)
        optimizer.setLr(group, optimizer.initialLr(group) * factor);
    const bool mosaic = epoch < m_config.epochs - m_config.closeMosaic && m_config.mosaic > 0;
    if (epoch == m_config.epochs - m_config.closeMosaic && m_config.mosaic > 0)
        m_emit.log("Closing dataloader mosaic for the last " + std::to_string(m_config.closeMosaic) +
                   " epochs");
    m_inputs.train->startEpoch({epoch, mosaic, true});
    m_parts.state.model->train();
    if (m_parts.device.is_cuda())
        model::compat::resetCudaPeak(m_parts.device.index());
    const auto epochStart = Clock::now();
    auto lastBatchEvent = Clock::now() - std::chrono::seconds(1);
    torch::Tensor lossSum = torch::zeros({3});
    long long images = 0;
    int batchIndex = 0;
    bool stoppedHere = false;
    const double communicationStart = m_parts.parallel ? m_parts.parallel->communicationS() : 0.0;
    while (true) {
        auto t0 = Clock::now();
        auto batch = m_inputs.train->next();
        if (!batch)
            break;
        const long long ni = batchIndex + static_cast<long long>(nb) * epoch;
        if (m_parts.warmupIterations > 0 && ni <= m_parts.warmupIterations) {
            const double target = static_cast<double>(m_config.nominalBatch) / m_config.batch;
            m_accumulate =
                std::max(1, static_cast<int>(std::lround(interpolate2(static_cast<double>(ni), 0,
                                                                      m_parts.warmupIterations, 1, target))));
            for (int group = 0; group < optimizer.groupCount(); ++group) {
                const auto values =
                    warmupValues(static_cast<int>(ni), m_parts.warmupIterations, optimizer.isBiasGroup(group),
                                 optimizer.initialLr(group) * factor, m_parts.state.choice.warmupBiasLr,
                                 m_config.warmupMomentum, m_config.momentum);
                optimizer.setLr(group, values.lr);
                optimizer.setMomentum(group, values.momentum);
            }
        }
        auto t1 = Clock::now();
        m_phases.dataS += std::chrono::duration<double>(t1 - t0).count();
        int instances = 0;
        if (auto status = m_step.forwardBackward(*batch, epoch, ni, lossSum, instances); !status)
            return fail(status.error());
        auto t3 = Clock::now();
        if (ni - m_parts.state.lastOptimizerStep >= m_accumulate) {
            m_step.optimizerStep(epoch, ni);
            m_parts.state.lastOptimizerStep = ni;
            if (m_inputs.afterOptimizerStep)
                m_inputs.afterOptimizerStep({epoch + 1, ni, batch->count},
                                            flatParameters(*m_parts.state.model));
        }
        auto t4 = Clock::now();
        m_phases.optimizerS += std::chrono::duration<double>(t4 - t3).count();
        images += batch->count;
        m_phases.images += batch->count;
        ++batchIndex;

        const double elapsed = secondsSince(epochStart);
        const bool stop = stopAgreed(static_cast<double>(images) / std::max(elapsed, 1e-9));
        stoppedHere = stop;
        if (stop || batchIndex == nb || Clock::now() - lastBatchEvent >= std::chrono::milliseconds(200)) {
            lastBatchEvent = Clock::now();
            const auto mean = (lossSum / batchIndex).contiguous();
            run::TrainEvent event;
            event.type = run::TrainEvent::Type::Batch;
            event.epoch = epoch + 1;
            event.epochs = m_config.epochs;
            event.batch = batchIndex;
            event.batches = nb;
            event.boxLoss = mean[0].item<double>();
            event.clsLoss = mean[1].item<double>();
            event.dflLoss = mean[2].item<double>();
            event.instances = instances;
            event.imagesPerS = totalImagesPerS(images, elapsed);
            event.rankImagesPerS = m_rankImagesPerS;
            const double perBatch = elapsed / batchIndex;
            const int remainingEpochs = m_config.epochs - epoch - 1;
            event.etaS = perBatch * ((nb - batchIndex) + static_cast<double>(remainingEpochs) * nb) +
                         m_lastValidationS * (remainingEpochs + 1);
            m_emit.emit(std::move(event));
        }
        if (stop)
            break;
    }
    m_imagesPerS = totalImagesPerS(images, secondsSince(epochStart));
    const auto mean = batchIndex > 0 ? (lossSum / batchIndex).contiguous() : lossSum;
    for (int i = 0; i < 3; ++i)
        m_epochLoss[i] = mean[i].item<double>();
    m_parts.state.elapsedS += secondsSince(epochStart);
    if (m_parts.parallel) // the collectives of the steps, not the wait for rank 0's validation
        m_phases.communicationS += m_parts.parallel->communicationS() - communicationStart;
    return m_parts.parallel ? !stoppedHere : !stopRequested();
}

Status EpochLoop::finishEpoch(int epoch, bool interrupted) {
    // Ultralytics' criterion.update() at the end of the epoch, on every rank: YOLO26's loss weights move
    // on with the epoch, and a rank that kept the first epoch's would send other gradients.
    m_parts.criterion->setCompletedEpochs(epoch + 1);
    if (!m_parts.isMain) {
        m_parts.state.nextEpoch = interrupted ? epoch : epoch + 1; // rank 0 validates and saves
        return {};
    }
    run::EpochMetrics metrics;
    metrics.epoch = epoch + 1;
    metrics.boxLoss = m_epochLoss[0];
    metrics.clsLoss = m_epochLoss[1];
    metrics.dflLoss = m_epochLoss[2];
    metrics.lrPg0 = m_parts.state.optimizer->roleLr(kWeightsGroup);
    metrics.lrPg1 = m_parts.state.optimizer->roleLr(kNormGroup);
    metrics.lrPg2 = m_parts.state.optimizer->roleLr(kBiasGroup);
    bool best = false;
    if (!interrupted) {
        const auto valStart = Clock::now();
        if (m_inputs.val && m_config.validate) {
            const auto val = validateEpoch(
                *m_parts.state.ema, *m_inputs.val, *m_parts.criterion, m_inputs.scorer, m_config,
                m_parts.device, m_parts.precision->precision(), epoch, m_inputs.beforeValidationForward);
            metrics.precision = val.metrics.precision;
            metrics.recall = val.metrics.recall;
            metrics.map50 = val.metrics.map50;
            metrics.map50to95 = val.metrics.map50to95;
            metrics.valBoxLoss = val.boxLoss;
            metrics.valClsLoss = val.clsLoss;
            metrics.valDflLoss = val.dflLoss;
        }
        m_lastValidationS = secondsSince(valStart);
        m_phases.validationS += m_lastValidationS;
        m_parts.state.elapsedS += m_lastValidationS;
        metrics.fitness = metrics.map50to95;
        metrics.timeS = m_parts.state.elapsedS;
        best = metrics.fitness > m_parts.state.bestFitness || m_parts.state.bestEpoch == 0;
        if (best) {
            m_parts.state.bestFitness = metrics.fitness;
            m_parts.state.bestEpoch = epoch + 1;
        }
        m_parts.state.nextEpoch = epoch + 1;
        if (auto status = m_parts.results->append(metrics); !status)
            return status;
        if (auto status = m_parts.tensorboard->epoch(metrics); !status)
            return status;
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Epoch;
        event.epoch = epoch + 1;
        event.epochs = m_config.epochs;
        event.metrics = metrics;
        event.best = best;
        event.imagesPerS = m_imagesPerS;
        event.rankImagesPerS = m_rankImagesPerS;
        if (const auto peak = m_parts.device.is_cuda() ? model::compat::cudaPeakMemory(m_parts.device.index())
                                                       : std::nullopt) {
            event.gpuPeakMemMb = static_cast<double>(peak->allocatedBytes) / (1024.0 * 1024.0);
            m_peakMemMb = std::max(m_peakMemMb, event.gpuPeakMemMb);
        }
        const double perEpoch = m_parts.state.elapsedS / std::max(1, epoch + 1);
        event.etaS = perEpoch * (m_config.epochs - epoch - 1);
        m_emit.emit(std::move(event));
        m_lastMetrics = metrics;
    } else {
        metrics = m_lastMetrics;
        m_parts.state.nextEpoch = epoch; // the interrupted epoch runs again on resume
    }
    const auto saveStart = Clock::now();
    if (auto status = m_checkpoints.write(m_parts.state, metrics, epoch, best); !status)
        return status;
    m_phases.checkpointS += secondsSince(saveStart);
    return {};
}

Expected<TrainResult> EpochLoop::run() {
    std::int64_t parameters = 0;
    for (const auto& p : m_parts.state.model->parameters())
        parameters += p.numel();
    double gflops = 0;
    {
        torch::NoGradGuard noGrad;
        m_parts.state.ema->eval();
        model::OpCounterScope counter;
        m_parts.state.ema->forwardRaw(
            torch::zeros({1, 3, 640, 640}, torch::TensorOptions().device(m_parts.device)));
        gflops = 2.0 * counter.ops() / 1e9;
    }
    emitStarted(parameters, gflops);
    SystemSampler sampler;
    sampler.start([this](const run::TrainEvent& event) { m_emit.emit(event); });
    const auto start = Clock::now();
    int epoch = m_parts.state.nextEpoch;
    for (; epoch < m_config.epochs; ++epoch) {
        auto trained = trainEpoch(epoch);
        if (!trained)
            return fail(trained.error());
        const bool completed = *trained;
        if (auto status = finishEpoch(epoch, !completed); !status)
            return fail(status.error());
        if (m_parts.parallel) // rank 0's validation decides the early stop on every rank
            m_parts.state.bestEpoch = static_cast<int>(m_parts.parallel->fromMain(m_parts.state.bestEpoch));
        if (!completed) {
            m_status = "stopped";
            break;
        }
        if (epoch + 1 - m_parts.state.bestEpoch >= m_config.patience && epoch + 1 < m_config.epochs) {
            m_emit.log("Stopping training early: no improvement in the last " +
                       std::to_string(m_config.patience) + " epochs; best epoch " +
                       std::to_string(m_parts.state.bestEpoch));
            m_status = "early_stopped";
            ++epoch;
            break;
        }
        if (stopAgreed()) {
            m_status = "stopped";
            ++epoch;
            break;
        }
    }
    sampler.stop();
    if (m_parts.parallel)
        compareRankWeights();
    if (m_parts.isMain)
        m_checkpoints.stripBest();
    logTimeSplit();
    TrainResult result;
    result.status = m_status;
    result.epochsCompleted = m_parts.state.nextEpoch;
    result.bestEpoch = m_parts.state.bestEpoch;
    result.bestFitness = std::max(0.0, m_parts.state.bestFitness);
    result.last = m_lastMetrics;
    result.lastWeights = m_checkpoints.lastPath();
    result.bestWeights = m_checkpoints.bestPath();
    result.seconds = secondsSince(start);
    result.phases = m_phases;
    return result;
}

void EpochLoop::logTimeSplit() {
    const auto& p = m_phases;
    const double train = p.dataS + p.forwardS + p.lossS + p.backwardS + p.optimizerS;
    const auto share = [&](double part) { return train > 0 ? 100.0 * part / train : 0.0; };
    std::string communication;
    if (m_parts.parallel) {
        const double batches =
            std::max(1.0, static_cast<double>(p.images) * m_parts.worldSize / m_config.batch);
        char text[160];
        std::snprintf(text, sizeof text, "; rank %d of %d, of which collectives %.2f s (%.1f ms per batch)",
                      m_inputs.distributed->rank(), m_parts.worldSize, p.communicationS,
                      1000.0 * p.communicationS / batches);
        communication = text;
    }
    char line[600];
    std::snprintf(
        line, sizeof line,
        "Time split over %lld training images (%.2f images/s): data %.1f s (%.0f%%), forward %.1f s "
        "(%.0f%%), loss %.1f s (%.0f%%), backward %.1f s (%.0f%%), optimiser+EMA %.1f s (%.0f%%); validation "
        "%.1f s, checkpoints %.1f s%s",
        p.images, train > 0 ? p.images / train : 0.0, p.dataS, share(p.dataS), p.forwardS, share(p.forwardS),
        p.lossS, share(p.lossS), p.backwardS, share(p.backwardS), p.optimizerS, share(p.optimizerS),
        p.validationS, p.checkpointS, communication.c_str());
    m_emit.log(line);
    if (m_peakMemMb > 0)
        m_emit.log("Peak GPU memory of the trainer's tensors: " + std::to_string(std::lround(m_peakMemMb)) +
                   " MiB (precision " + toString(m_parts.precision->precision()) + ", batch " +
                   std::to_string(m_config.batch) +
                   (m_step.microBatch() > 0 ? ", " + std::to_string(m_step.microBatch()) +
                                                  " per forward after running out of memory"
                                            : std::string()) +
                   ")");
}

} // namespace osprey::train::detail
