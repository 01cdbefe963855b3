#include "train/training_run_impl.h"

#include "model/compat_torch_impl.h"
#include "model/inference_torch_impl.h"
#include "model/predictor.h"
#include "model/weights_torch_impl.h"
#include "run/run_files.h"
#include "train/distributed_impl.h"
#include "train/system_sampler.h"
#include "train/trainer_impl.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace osprey::train {

namespace detail {

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

bool Run::stopAgreed(double imagesPerS) {
    if (!m_parallel)
        return stopRequested();
    if (imagesPerS < 0)
        return m_parallel->anyRank(stopRequested());
    return m_parallel->anyRank(stopRequested(), imagesPerS, m_rankImagesPerS);
}

void Run::compareRankWeights() {
    auto& context = *m_inputs.distributed;
    const auto mine = hex(DataParallel::checksum({m_state.model.get(), m_state.ema.get()}));
    if (auto status = context.set("checksum/" + std::to_string(context.rank()), mine); !status) {
        m_emit.log(status.message(), "warning");
        return;
    }
    if (!isMain()) {
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

double Run::totalImagesPerS(long long images, double elapsedS) const {
    if (m_parallel && !m_rankImagesPerS.empty()) // the ranks' own figures of the latest batch, summed
        return std::accumulate(m_rankImagesPerS.begin(), m_rankImagesPerS.end(), 0.0);
    return static_cast<double>(images) / std::max(elapsedS, 1e-9);
}

// Returns false when a stop was requested (the current batch was finished first).
Expected<bool> Run::trainEpoch(int epoch) {
    const int nb = m_batchesPerEpoch;
    const double factor = lrFactor(m_config.schedule, epoch, m_config.epochs, m_config.lrf);
    auto& optimizer = *m_state.optimizer;
    for (int group = 0; group < optimizer.groupCount(); ++group)
        optimizer.setLr(group, optimizer.initialLr(group) * factor);
    const bool mosaic = epoch < m_config.epochs - m_config.closeMosaic && m_config.mosaic > 0;
    if (epoch == m_config.epochs - m_config.closeMosaic && m_config.mosaic > 0)
        m_emit.log("Closing dataloader mosaic for the last " + std::to_string(m_config.closeMosaic) +
                   " epochs");
    m_inputs.train->startEpoch({epoch, mosaic, true});
    m_state.model->train();
    if (m_device.is_cuda())
        model::compat::resetCudaPeak(m_device.index());
    const auto epochStart = Clock::now();
    auto lastBatchEvent = Clock::now() - std::chrono::seconds(1);
    torch::Tensor lossSum = torch::zeros({3});
    long long images = 0;
    int batchIndex = 0;
    bool stoppedHere = false;
    const double communicationStart = m_parallel ? m_parallel->communicationS() : 0.0;
    while (true) {
        auto t0 = Clock::now();
        auto batch = m_inputs.train->next();
        if (!batch)
            break;
        const long long ni = batchIndex + static_cast<long long>(nb) * epoch;
        if (m_warmupIterations > 0 && ni <= m_warmupIterations) {
            const double target = static_cast<double>(m_config.nominalBatch) / m_config.batch;
            m_accumulate = std::max(1, static_cast<int>(std::lround(interpolate2(
                                           static_cast<double>(ni), 0, m_warmupIterations, 1, target))));
            for (int group = 0; group < optimizer.groupCount(); ++group) {
                const auto values =
                    warmupValues(static_cast<int>(ni), m_warmupIterations, optimizer.isBiasGroup(group),
                                 optimizer.initialLr(group) * factor, m_state.choice.warmupBiasLr,
                                 m_config.warmupMomentum, m_config.momentum);
                optimizer.setLr(group, values.lr);
                optimizer.setMomentum(group, values.momentum);
            }
        }
        auto t1 = Clock::now();
        m_phases.dataS += std::chrono::duration<double>(t1 - t0).count();
        int instances = 0;
        if (auto status = trainBatch(*batch, epoch, ni, lossSum, instances); !status)
            return fail(status.error());
        auto t3 = Clock::now();
        if (ni - m_state.lastOptimizerStep >= m_accumulate) {
            optimizerStep(epoch, ni);
            m_state.lastOptimizerStep = ni;
            if (m_inputs.afterOptimizerStep)
                m_inputs.afterOptimizerStep({epoch + 1, ni, batch->count}, flatParameters(*m_state.model));
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
    m_state.elapsedS += secondsSince(epochStart);
    if (m_parallel) // the collectives of the steps, not the wait for rank 0's validation
        m_phases.communicationS += m_parallel->communicationS() - communicationStart;
    return m_parallel ? !stoppedHere : !stopRequested();
}

Status Run::finishEpoch(int epoch, bool interrupted) {
    if (!isMain()) {
        m_state.nextEpoch = interrupted ? epoch : epoch + 1; // rank 0 validates and saves
        return {};
    }
    run::EpochMetrics metrics;
    metrics.epoch = epoch + 1;
    metrics.boxLoss = m_epochLoss[0];
    metrics.clsLoss = m_epochLoss[1];
    metrics.dflLoss = m_epochLoss[2];
    metrics.lrPg0 = m_state.optimizer->roleLr(kWeightsGroup);
    metrics.lrPg1 = m_state.optimizer->roleLr(kNormGroup);
    metrics.lrPg2 = m_state.optimizer->roleLr(kBiasGroup);
    m_criterion->setCompletedEpochs(epoch + 1); // Ultralytics' criterion.update() at the end of the epoch
    bool best = false;
    if (!interrupted) {
        const auto valStart = Clock::now();
        if (m_inputs.val && m_config.validate) {
            const auto val =
                validateEpoch(*m_state.ema, *m_inputs.val, *m_criterion, m_inputs.scorer, m_config, m_device,
                              m_precision, epoch, m_inputs.beforeValidationForward);
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
        m_state.elapsedS += m_lastValidationS;
        metrics.fitness = metrics.map50to95;
        metrics.timeS = m_state.elapsedS;
        best = metrics.fitness > m_state.bestFitness || m_state.bestEpoch == 0;
        if (best) {
            m_state.bestFitness = metrics.fitness;
            m_state.bestEpoch = epoch + 1;
        }
        m_state.nextEpoch = epoch + 1;
        if (auto status = m_results->append(metrics); !status)
            return status;
        if (auto status = m_tensorboard->epoch(metrics); !status)
            return status;
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Epoch;
        event.epoch = epoch + 1;
        event.epochs = m_config.epochs;
        event.metrics = metrics;
        event.best = best;
        event.imagesPerS = m_imagesPerS;
        event.rankImagesPerS = m_rankImagesPerS;
        if (const auto peak =
                m_device.is_cuda() ? model::compat::cudaPeakMemory(m_device.index()) : std::nullopt) {
            event.gpuPeakMemMb = static_cast<double>(peak->allocatedBytes) / (1024.0 * 1024.0);
            m_peakMemMb = std::max(m_peakMemMb, event.gpuPeakMemMb);
        }
        const double perEpoch = m_state.elapsedS / std::max(1, epoch + 1);
        event.etaS = perEpoch * (m_config.epochs - epoch - 1);
        m_emit.emit(std::move(event));
        m_lastMetrics = metrics;
    } else {
        metrics = m_lastMetrics;
        m_state.nextEpoch = epoch; // the interrupted epoch runs again on resume
    }
    const auto saveStart = Clock::now();
    if (auto status =
            saveTrainingCheckpoint(m_state, m_config, m_inputs.dataset.classNames, metrics, m_lastPath);
        !status)
        return status;
    run::TrainEvent saved;
    saved.type = run::TrainEvent::Type::Checkpoint;
    saved.epoch = epoch + 1;
    saved.kind = "last";
    saved.path = m_lastPath.string();
    m_emit.emit(saved);
    if (best) {
        std::error_code error;
        const auto temporary = m_bestPath.string() + ".tmp";
        std::filesystem::copy_file(m_lastPath, temporary, std::filesystem::copy_options::overwrite_existing,
                                   error);
        if (!error)
            std::filesystem::rename(temporary, m_bestPath, error);
        if (error) {
            std::error_code ignored; // a partial copy (disk full) must not stay behind
            std::filesystem::remove(temporary, ignored);
            return fail(m_bestPath.string() + ": cannot write best weights: " + error.message());
        }
        saved.kind = "best";
        saved.path = m_bestPath.string();
        m_emit.emit(saved);
    }
    m_phases.checkpointS += secondsSince(saveStart);
    return {};
}

void Run::stripBest() {
    // Like Ultralytics at the end of training: best.pt becomes an inference file (the EMA weights in
    // float16, no optimizer or RNG state), about 1/8 of the size. last.pt keeps everything for resume.
    if (!isMain() || !std::filesystem::exists(m_bestPath))
        return;
    const auto stripped = model::stripWeights(m_bestPath, m_bestPath, true);
    if (!stripped) {
        m_emit.log("warning: best.pt was left as a full training checkpoint: " + stripped.message());
        return;
    }
    char line[200];
    std::snprintf(line, sizeof line, "Stripped best.pt to %.1f MB (EMA weights in float16, from %.1f MB)",
                  static_cast<double>(stripped->bytesAfter) / 1e6,
                  static_cast<double>(stripped->bytesBefore) / 1e6);
    m_emit.log(line);
}

Expected<TrainResult> Run::execute() {
    if (auto status = setUp(); !status)
        return fail(status.error());
    std::int64_t parameters = 0;
    for (const auto& p : m_state.model->parameters())
        parameters += p.numel();
    double gflops = 0;
    {
        torch::NoGradGuard noGrad;
        m_state.ema->eval();
        model::OpCounterScope counter;
        m_state.ema->forwardRaw(torch::zeros({1, 3, 640, 640}, torch::TensorOptions().device(m_device)));
        gflops = 2.0 * counter.ops() / 1e9;
    }
    emitStarted(parameters, gflops);
    SystemSampler sampler;
    sampler.start([this](const run::TrainEvent& event) { m_emit.emit(event); });
    const auto start = Clock::now();
    int epoch = m_state.nextEpoch;
    for (; epoch < m_config.epochs; ++epoch) {
        auto trained = trainEpoch(epoch);
        if (!trained)
            return fail(trained.error());
        const bool completed = *trained;
        if (auto status = finishEpoch(epoch, !completed); !status)
            return fail(status.error());
        if (m_parallel) // rank 0's validation decides the early stop on every rank
            m_state.bestEpoch = static_cast<int>(m_parallel->fromMain(m_state.bestEpoch));
        if (!completed) {
            m_status = "stopped";
            break;
        }
        if (epoch + 1 - m_state.bestEpoch >= m_config.patience && epoch + 1 < m_config.epochs) {
            m_emit.log("Stopping training early: no improvement in the last " +
                       std::to_string(m_config.patience) + " epochs; best epoch " +
                       std::to_string(m_state.bestEpoch));
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
    if (m_parallel)
        compareRankWeights();
    stripBest();
    {
        const auto& p = m_phases;
        const double train = p.dataS + p.forwardS + p.backwardS + p.optimizerS;
        const auto share = [&](double part) { return train > 0 ? 100.0 * part / train : 0.0; };
        std::string communication;
        if (m_parallel) {
            const double batches =
                std::max(1.0, static_cast<double>(p.images) * worldSize() / m_config.batch);
            char text[160];
            std::snprintf(text, sizeof text,
                          "; rank %d of %d, of which collectives %.2f s (%.1f ms per batch)",
                          m_inputs.distributed->rank(), worldSize(), p.communicationS,
                          1000.0 * p.communicationS / batches);
            communication = text;
        }
        char line[600];
        std::snprintf(
            line, sizeof line,
            "Time split over %lld training images (%.2f images/s): data %.1f s (%.0f%%), forward+loss %.1f s "
            "(%.0f%%), backward %.1f s (%.0f%%), optimiser+EMA %.1f s (%.0f%%); validation %.1f s, "
            "checkpoints %.1f s%s",
            p.images, train > 0 ? p.images / train : 0.0, p.dataS, share(p.dataS), p.forwardS,
            share(p.forwardS), p.backwardS, share(p.backwardS), p.optimizerS, share(p.optimizerS),
            p.validationS, p.checkpointS, communication.c_str());
        m_emit.log(line);
        if (m_peakMemMb > 0)
            m_emit.log(
                "Peak GPU memory of the trainer's tensors: " + std::to_string(std::lround(m_peakMemMb)) +
                " MiB (precision " + toString(m_precision) + ", batch " + std::to_string(m_config.batch) +
                (m_microBatch > 0
                     ? ", " + std::to_string(m_microBatch) + " per forward after running out of memory"
                     : std::string()) +
                ")");
    }
    TrainResult result;
    result.status = m_status;
    result.epochsCompleted = m_state.nextEpoch;
    result.bestEpoch = m_state.bestEpoch;
    result.bestFitness = std::max(0.0, m_state.bestFitness);
    result.last = m_lastMetrics;
    result.lastWeights = m_lastPath;
    result.bestWeights = m_bestPath;
    result.seconds = secondsSince(start);
    result.phases = m_phases;
    return result;
}

} // namespace detail

Expected<TrainResult> runTraining(const run::TrainConfig& config, const TrainInputs& inputs) {
    if (!inputs.events)
        return fail("runTraining: no event sink given");
    detail::Emitter emitter(*inputs.events);
    Expected<TrainResult> result = fail("training did not run");
    try {
        detail::Run run(config, inputs, emitter);
        result = run.execute();
    } catch (const c10::Error& error) {
        result = fail(std::string("torch error: ") + error.what_without_backtrace());
    } catch (const std::exception& error) {
        result = fail(std::string("error: ") + error.what());
    }
    if (!result && inputs.distributed) {
        // A collective fails when another rank died; the launcher records which one and why.
        const auto cause = inputs.distributed->supervisorFailure(3);
        if (!cause.empty())
            result = fail(cause + " (on rank " + std::to_string(inputs.distributed->rank()) + ": " +
                          result.message() + ")");
    }
    run::TrainEvent event;
    if (!result) {
        event.type = run::TrainEvent::Type::Failed;
        event.message = result.message();
        emitter.emit(std::move(event));
        return result;
    }
    event.type = run::TrainEvent::Type::Finished;
    event.status = result->status;
    event.epoch = result->epochsCompleted;
    event.bestEpoch = result->bestEpoch;
    event.bestFitness = result->bestFitness;
    event.bestPath = result->bestWeights.string();
    event.lastPath = result->lastWeights.string();
    std::ostringstream message;
    if (result->status == "stopped")
        message << "Training stopped on request after " << result->epochsCompleted
                << " completed epochs; resume with resume=true. ";
    else if (result->status == "early_stopped")
        message << "Training stopped early after " << result->epochsCompleted << " epochs. ";
    else
        message << result->epochsCompleted << " epochs completed in " << std::lround(result->seconds)
                << " s. ";
    message << "Best fitness (mAP50-95) " << result->bestFitness << " at epoch " << result->bestEpoch << ".";
    event.message = message.str();
    emitter.emit(std::move(event));
    return result;
}

} // namespace osprey::train
