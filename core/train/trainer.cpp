#include "train/trainer.h"

#include "model/inference_impl.h"
#include "model/predictor.h"
#include "model/weights_impl.h"
#include "run/run_files.h"
#include "train/system_sampler.h"
#include "train/trainer_impl.h"

#include <ATen/autocast_mode.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace osprey::train {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
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

/// The whole run; one object so that the phases share the state without long parameter lists.
class Run {
public:
    Run(const run::TrainConfig& config, const TrainInputs& inputs, Emitter& emitter)
        : m_config(config), m_inputs(inputs), m_emit(emitter), m_device(torch::kCPU) {}

    Expected<TrainResult> execute();

private:
    void stripBest();
    Status setUp();
    void emitStarted(std::int64_t parameters, double gflops);
    bool trainEpoch(int epoch);
    void optimizerStep();
    Status finishEpoch(int epoch, bool interrupted);
    bool stopRequested() const { return m_inputs.stop && m_inputs.stop->load(); }

    const run::TrainConfig& m_config;
    const TrainInputs& m_inputs;
    Emitter& m_emit;
    torch::Device m_device;
    TrainingState m_state;
    std::unique_ptr<DetectionLoss> m_loss;
    std::unique_ptr<run::ResultsCsv> m_results;
    PhaseTimes m_phases;
    int m_batchesPerEpoch = 0;
    int m_warmupIterations = 0;
    int m_accumulate = 1;
    double m_lastValidationS = 0;
    double m_epochLoss[3] = {0, 0, 0};
    double m_imagesPerS = 0;
    run::EpochMetrics m_lastMetrics;
    std::string m_status = "finished";
    std::filesystem::path m_lastPath, m_bestPath;
    bool m_autocast = false;
};

Status Run::setUp() {
    if (auto status = m_config.check(); !status)
        return status;
    if (!m_inputs.train || !m_inputs.events)
        return fail("training needs a train batch source and an event sink");
    if (m_inputs.dataset.classNames.empty())
        return fail("the project has no classes; add at least one class and label some images");
    if (m_inputs.train->imageCount() == 0)
        return fail(
            "the train split has no usable images (labeled or verified-empty); assign some images to train");
    const int threads = m_config.threads > 0
                            ? m_config.threads
                            : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    model::setComputeThreads(threads); // torch's threads; OpenBLAS pinned to one under them
    auto device = model::parseDevice(m_config.device);
    if (!device)
        return fail(device.error());
    m_device = device.value();
    torch::manual_seed(m_config.seed);
    const int nc = static_cast<int>(m_inputs.dataset.classNames.size());
    auto spec = model::parseModelName(m_config.model, nc);
    if (!spec)
        return fail(spec.error());
    m_state.model = std::make_shared<model::DetectionModel>(spec.value());
    m_state.ema = std::make_shared<model::DetectionModel>(spec.value());
    if (!m_config.weights.empty() && !m_config.resume) {
        auto checkpoint = model::loadCheckpoint(m_config.weights);
        if (!checkpoint)
            return fail(checkpoint.error());
        const auto& state = checkpoint->ema.empty() ? checkpoint->model : checkpoint->ema;
        auto report = model::loadState(*m_state.model, state, model::LoadMode::Pretrained);
        if (!report)
            return fail(m_config.weights + ": " + report.message());
        std::ostringstream message;
        message << "Transferred " << report->loaded.size() << "/" << m_state.model->stateDict().size()
                << " items from pretrained weights " << m_config.weights;
        if (!report->skipped.empty())
            message << "; kept " << report->skipped.size()
                    << " class-output tensors freshly initialised (the class count differs)";
        m_emit.log(message.str());
    }
    m_state.model->to(m_device);
    m_state.ema->to(m_device);
    m_state.model->train();
    m_state.emaUpdater =
        std::make_unique<ModelEma>(m_state.ema, m_state.ema->stateDict(), m_state.model->stateDict());

    m_batchesPerEpoch = std::max(1, m_inputs.train->batchesPerEpoch());
    m_accumulate = accumulateSteps(m_config.batch, m_config.nominalBatch);
    m_warmupIterations = warmupIterations(m_config.warmupEpochs, m_batchesPerEpoch);
    const std::filesystem::path last = m_inputs.runDir / "weights" / "last.pt";
    if (m_config.resume) {
        auto choice = checkpointOptimizer(last);
        if (!choice)
            return fail("resume: " + choice.message());
        m_state.choice = choice.value();
    } else {
        m_state.choice = chooseOptimizer(m_config, m_inputs.train->imageCount(), nc);
    }
    const double decay =
        scaledWeightDecay(m_config.weightDecay, m_config.batch, m_accumulate, m_config.nominalBatch);
    m_state.optimizer = std::make_unique<RecipeOptimizer>(*m_state.model, m_state.choice, decay);
    if (m_config.optimizer == run::OptimizerKind::Auto && !m_config.resume) {
        m_emit.log("optimizer=auto: chose " + toString(m_state.choice.kind) +
                   " (lr=" + std::to_string(m_state.choice.lr) +
                   ", momentum=" + std::to_string(m_state.choice.momentum) +
                   ") from the run length, ignoring lr0 and momentum");
    }
    m_emit.log("optimizer: " + m_state.optimizer->describe());
    if (m_config.resume) {
        if (auto status = loadTrainingCheckpoint(m_state, last); !status)
            return fail("resume: " + status.message());
        if (m_state.nextEpoch >= m_config.epochs)
            return fail("resume: " + last.string() + " already completed " +
                        std::to_string(m_state.nextEpoch) + " of " + std::to_string(m_config.epochs) +
                        " epochs; start a new run or raise epochs");
        m_emit.log("Resuming training from " + last.string() + " at epoch " +
                   std::to_string(m_state.nextEpoch + 1));
    }
    m_loss = std::make_unique<DetectionLoss>(nc, m_state.model->strides(),
                                             LossGains{m_config.boxGain, m_config.clsGain, m_config.dflGain});
    std::error_code error;
    std::filesystem::create_directories(m_inputs.runDir / "weights", error);
    if (error)
        return fail(m_inputs.runDir.string() + ": cannot create the run folder: " + error.message());
    if (auto status = run::writeArgsYaml(m_inputs.runDir / "args.yaml", m_config.toMap()); !status)
        return status;
    m_results = std::make_unique<run::ResultsCsv>(m_inputs.runDir / "results.csv");
    if (m_config.resume) {
        if (auto status = m_results->loadExisting(m_state.nextEpoch); !status)
            return status;
    }
    m_lastPath = m_inputs.runDir / "weights" / "last.pt";
    m_bestPath = m_inputs.runDir / "weights" / "best.pt";
    m_autocast = m_device.is_cuda() && m_config.amp;
    return {};
}

void Run::emitStarted(std::int64_t parameters, double gflops) {
    run::TrainEvent event;
    event.type = run::TrainEvent::Type::RunStarted;
    event.config = m_config.toMap();
    event.config["optimizer_used"] = toString(m_state.choice.kind);
    event.config["lr_used"] = std::to_string(m_state.choice.lr);
    const auto& d = m_inputs.dataset;
    event.trainImages = d.trainImages;
    event.valImages = d.valImages;
    event.trainBoxes = d.trainBoxes;
    event.valBoxes = d.valBoxes;
    event.negatives = d.negatives;
    event.classNames = d.classNames;
    event.modelName = m_state.model->spec().name();
    event.parameters = parameters;
    event.gflops = gflops;
    event.runDir = m_inputs.runDir.string();
    event.epochs = m_config.epochs;
    event.startEpoch = m_state.nextEpoch + 1;
    event.pid = static_cast<std::int64_t>(::getpid());
    m_emit.emit(std::move(event));
}

void Run::optimizerStep() {
    auto parameters = m_state.optimizer->parameters();
    torch::nn::utils::clip_grad_norm_(parameters, m_config.gradClipNorm);
    m_state.optimizer->get().step();
    m_state.optimizer->get().zero_grad();
    m_state.emaUpdater->update();
}

// Returns false when a stop was requested (the current batch was finished first).
bool Run::trainEpoch(int epoch) {
    const int nb = m_batchesPerEpoch;
    const double scheduled =
        m_state.choice.lr * lrFactor(m_config.schedule, epoch, m_config.epochs, m_config.lrf);
    for (int group = 0; group < 3; ++group)
        m_state.optimizer->setLr(group, scheduled);
    const bool mosaic = epoch < m_config.epochs - m_config.closeMosaic && m_config.mosaic > 0;
    if (epoch == m_config.epochs - m_config.closeMosaic && m_config.mosaic > 0)
        m_emit.log("Closing dataloader mosaic for the last " + std::to_string(m_config.closeMosaic) +
                   " epochs");
    m_inputs.train->startEpoch({epoch, mosaic, true});
    m_state.model->train();
    const auto epochStart = Clock::now();
    auto lastBatchEvent = Clock::now() - std::chrono::seconds(1);
    torch::Tensor lossSum = torch::zeros({3});
    long long images = 0;
    int batchIndex = 0;
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
            for (int group = 0; group < 3; ++group) {
                const auto values =
                    warmupValues(static_cast<int>(ni), m_warmupIterations, group == kBiasGroup, scheduled,
                                 m_config.warmupBiasLr, m_config.warmupMomentum, m_state.choice.momentum);
                m_state.optimizer->setLr(group, values.lr);
                m_state.optimizer->setMomentum(group, values.momentum);
            }
        }
        const auto deviceBatch = toDevice(*batch, m_device);
        auto t1 = Clock::now();
        LossValue loss;
        {
            if (m_autocast) {
                at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
                at::autocast::set_enabled(true);
            }
            const auto raw = m_state.model->forwardRaw(deviceBatch.images);
            if (m_autocast) {
                at::autocast::set_enabled(false);
                at::autocast::clear_cache();
            }
            loss = (*m_loss)(raw, deviceBatch.targets);
        }
        auto t2 = Clock::now();
        loss.total.backward();
        auto t3 = Clock::now();
        if (ni - m_state.lastOptimizerStep >= m_accumulate) {
            optimizerStep();
            m_state.lastOptimizerStep = ni;
        }
        auto t4 = Clock::now();
        m_phases.dataS += std::chrono::duration<double>(t1 - t0).count();
        m_phases.forwardS += std::chrono::duration<double>(t2 - t1).count();
        m_phases.backwardS += std::chrono::duration<double>(t3 - t2).count();
        m_phases.optimizerS += std::chrono::duration<double>(t4 - t3).count();
        lossSum += loss.parts.to(torch::kCPU);
        images += batch->count;
        m_phases.images += batch->count;
        ++batchIndex;

        const double elapsed = secondsSince(epochStart);
        const bool stop = stopRequested();
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
            event.instances = deviceBatch.instances;
            event.imagesPerS = images / std::max(elapsed, 1e-9);
            const double perBatch = elapsed / batchIndex;
            const int remainingEpochs = m_config.epochs - epoch - 1;
            event.etaS = perBatch * ((nb - batchIndex) + static_cast<double>(remainingEpochs) * nb) +
                         m_lastValidationS * (remainingEpochs + 1);
            m_emit.emit(std::move(event));
        }
        if (stop)
            break;
    }
    m_imagesPerS = images / std::max(secondsSince(epochStart), 1e-9);
    const auto mean = batchIndex > 0 ? (lossSum / batchIndex).contiguous() : lossSum;
    for (int i = 0; i < 3; ++i)
        m_epochLoss[i] = mean[i].item<double>();
    m_state.elapsedS += secondsSince(epochStart);
    return !stopRequested();
}

Status Run::finishEpoch(int epoch, bool interrupted) {
    run::EpochMetrics metrics;
    metrics.epoch = epoch + 1;
    metrics.boxLoss = m_epochLoss[0];
    metrics.clsLoss = m_epochLoss[1];
    metrics.dflLoss = m_epochLoss[2];
    metrics.lrPg0 = m_state.optimizer->lr(kWeightsGroup);
    metrics.lrPg1 = m_state.optimizer->lr(kNormGroup);
    metrics.lrPg2 = m_state.optimizer->lr(kBiasGroup);
    bool best = false;
    if (!interrupted) {
        const auto valStart = Clock::now();
        if (m_inputs.val && m_config.validate) {
            const auto val = validateEpoch(*m_state.ema, *m_inputs.val, *m_loss, m_inputs.scorer, m_config,
                                           m_device, epoch);
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
        run::TrainEvent event;
        event.type = run::TrainEvent::Type::Epoch;
        event.epoch = epoch + 1;
        event.epochs = m_config.epochs;
        event.metrics = metrics;
        event.best = best;
        event.imagesPerS = m_imagesPerS;
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
        if (error)
            return fail(m_bestPath.string() + ": cannot write best weights: " + error.message());
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
    if (!std::filesystem::exists(m_bestPath))
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
        const bool completed = trainEpoch(epoch);
        if (auto status = finishEpoch(epoch, !completed); !status)
            return fail(status.error());
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
        if (stopRequested()) {
            m_status = "stopped";
            ++epoch;
            break;
        }
    }
    sampler.stop();
    stripBest();
    {
        const auto& p = m_phases;
        const double train = p.dataS + p.forwardS + p.backwardS + p.optimizerS;
        const auto share = [&](double part) { return train > 0 ? 100.0 * part / train : 0.0; };
        char line[400];
        std::snprintf(
            line, sizeof line,
            "Time split over %lld training images (%.2f images/s): data %.1f s (%.0f%%), forward+loss %.1f s "
            "(%.0f%%), backward %.1f s (%.0f%%), optimiser+EMA %.1f s (%.0f%%); validation %.1f s, "
            "checkpoints %.1f s",
            p.images, train > 0 ? p.images / train : 0.0, p.dataS, share(p.dataS), p.forwardS,
            share(p.forwardS), p.backwardS, share(p.backwardS), p.optimizerS, share(p.optimizerS),
            p.validationS, p.checkpointS);
        m_emit.log(line);
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

} // namespace

Expected<TrainResult> runTraining(const run::TrainConfig& config, const TrainInputs& inputs) {
    if (!inputs.events)
        return fail("runTraining: no event sink given");
    Emitter emitter(*inputs.events);
    Expected<TrainResult> result = fail("training did not run");
    try {
        Run run(config, inputs, emitter);
        result = run.execute();
    } catch (const c10::Error& error) {
        result = fail(std::string("torch error: ") + error.what_without_backtrace());
    } catch (const std::exception& error) {
        result = fail(std::string("error: ") + error.what());
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
