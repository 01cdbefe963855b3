#include "train/trainer_impl.h"

#include "model/compat_torch_impl.h"
#include "model/inference_torch_impl.h"
#include "model/predictor.h"
#include "model/weights_torch_impl.h"
#include "train/device_choice.h"
#include "train/trainer.h"

#include <chrono>
#include <thread>

namespace osprey::train {

DeviceBatch toDevice(const HostBatch& batch, const torch::Device& device) {
    DeviceBatch out;
    out.count = batch.count;
    out.instances = static_cast<int>(batch.boxes.size());
    auto pixels = torch::from_blob(const_cast<std::uint8_t*>(batch.pixels.data()),
                                   {batch.count, batch.height, batch.width, 3}, torch::kUInt8);
    if (device.is_cuda())
        pixels = pixels.pin_memory().to(device, /*non_blocking=*/true);
    out.images = pixels.permute({0, 3, 1, 2}).to(torch::kFloat).div_(255.0).contiguous();
    auto rows = torch::empty({static_cast<int64_t>(batch.boxes.size()), 6});
    auto access = rows.accessor<float, 2>();
    for (size_t i = 0; i < batch.boxes.size(); ++i) {
        const auto& box = batch.boxes[i];
        const auto row = static_cast<int64_t>(i);
        access[row][0] = static_cast<float>(box.imageIndex);
        access[row][1] = static_cast<float>(box.classId);
        access[row][2] = box.x1;
        access[row][3] = box.y1;
        access[row][4] = box.x2;
        access[row][5] = box.y2;
    }
    out.targets = padTargets(rows.to(device), batch.count);
    return out;
}

ValidationResult validateEpoch(model::DetectionModel& network, BatchSource& source, const Criterion& loss,
                               DetectionScorer* scorer, const run::TrainConfig& config,
                               const torch::Device& device, Precision precision, int epoch,
                               const std::function<void(int)>& beforeForward) {
    torch::NoGradGuard noGrad;
    const bool wasTraining = network.is_training();
    network.eval();
    ValidationResult result;
    if (scorer)
        scorer->reset();
    source.startEpoch({epoch, false, false});
    model::NmsOptions nms;
    nms.confThreshold = static_cast<float>(config.valConf);
    nms.iouThreshold = static_cast<float>(config.valIou);
    nms.maxDetections = config.valMaxDet;
    nms.labels = model::LabelMode::Multi;
    int batches = 0;
    torch::Tensor sum = torch::zeros({3});
    int piece = 0; // images per forward after an out-of-memory error (0: the whole batch)
    const bool lower = precision != Precision::Float32;
    // YOLO26 with nms=false scores its NMS-free one-to-one head: the top max_det (anchor, class) scores
    // above conf, as Ultralytics' val with nms=False.
    const bool oneToOne = loss.endToEnd() && !config.valNms;
    struct Output {
        model::HeadMaps maps;
        torch::Tensor decoded; ///< [N, 4 + nc, A] for NMS, or [N, k, 6] end-to-end rows
    };
    const auto forwardOnce = [&](const torch::Tensor& images) {
        Output output;
        {
            model::compat::AutocastScope autocast(device.type(), autocastType(precision), lower);
            output.maps = loss.forward(network, images, lower);
        }
        output.decoded = oneToOne ? network.head().decodeEndToEnd(output.maps.oneToOne, config.valMaxDet)
                                  : network.head().decode(output.maps.oneToMany);
        return output;
    };
    const auto joinLevels = [](const std::vector<Output>& parts, auto branch) {
        std::vector<torch::Tensor> joined;
        for (size_t level = 0; level < (parts.front().maps.*branch).size(); ++level) {
            std::vector<torch::Tensor> maps;
            for (const auto& part : parts)
                maps.push_back((part.maps.*branch)[level]);
            joined.push_back(torch::cat(maps, 0));
        }
        return joined;
    };
    const auto forward = [&](const torch::Tensor& images) {
        while (true) {
            const auto count = static_cast<int>(images.size(0));
            const int step = piece > 0 ? std::min(piece, count) : count;
            try {
                std::vector<Output> parts;
                for (int start = 0; start < count; start += step) {
                    const int n = std::min(step, count - start);
                    if (beforeForward)
                        beforeForward(n);
                    parts.push_back(forwardOnce(step == count ? images : images.narrow(0, start, n)));
                }
                if (parts.size() == 1)
                    return std::move(parts.front());
                Output joined;
                joined.maps.oneToMany = joinLevels(parts, &model::HeadMaps::oneToMany);
                joined.maps.oneToOne = joinLevels(parts, &model::HeadMaps::oneToOne);
                std::vector<torch::Tensor> decoded;
                for (const auto& part : parts)
                    decoded.push_back(part.decoded);
                joined.decoded = torch::cat(decoded, 0);
                return joined;
            } catch (const std::exception& error) {
                if (!model::compat::isOutOfMemory(error) || step <= 1)
                    throw;
                model::compat::emptyCudaCache();
                piece = step / 2;
            }
        }
    };
    while (auto batch = source.next()) {
        const auto deviceBatch = toDevice(*batch, device);
        const auto output = forward(deviceBatch.images);
        sum += loss(output.maps, deviceBatch.targets).parts.to(torch::kCPU);
        ++batches;
        if (!scorer)
            continue;
        const auto detections = oneToOne ? model::endToEndDetections(output.decoded, nms)
                                         : model::nonMaxSuppression(output.decoded, nms);
        scorer->beginBatch(batch->width, batch->height);
        std::vector<std::vector<TargetBox>> truths(static_cast<size_t>(batch->count));
        for (const auto& box : batch->boxes)
            truths[static_cast<size_t>(box.imageIndex)].push_back(box);
        for (int i = 0; i < batch->count; ++i) {
            std::vector<ScoredBox> scored;
            scored.reserve(detections[static_cast<size_t>(i)].size());
            for (const auto& d : detections[static_cast<size_t>(i)])
                scored.push_back({d.x1, d.y1, d.x2, d.y2, d.score, d.classId});
            scorer->addImage(truths[static_cast<size_t>(i)], scored);
        }
    }
    if (batches > 0) {
        sum /= batches;
        result.boxLoss = sum[0].item<double>();
        result.clsLoss = sum[1].item<double>();
        result.dflLoss = sum[2].item<double>();
    }
    if (scorer)
        result.metrics = scorer->compute();
    if (wasTraining)
        network.train();
    return result;
}

Expected<ValidationReport> validateWeights(const std::filesystem::path& weights, BatchSource& source,
                                           DetectionScorer* scorer, int numClasses,
                                           const run::TrainConfig& config) {
    const auto start = std::chrono::steady_clock::now();
    try {
        const int threads = config.threads > 0
                                ? config.threads
                                : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        model::setComputeThreads(threads);
        auto devices = chooseDevices(config.device, probeDevices());
        if (!devices)
            return fail(devices.error());
        const torch::Device device =
            devices->cuda
                ? torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(devices->indices.front()))
                : torch::Device(torch::kCPU);
        auto checkpoint = model::loadCheckpoint(weights);
        if (!checkpoint)
            return fail(checkpoint.error());
        if (checkpoint->meta.spec.numClasses != numClasses)
            return fail(weights.string() + ": the weights detect " +
                        std::to_string(checkpoint->meta.spec.numClasses) + " classes but the project has " +
                        std::to_string(numClasses));
        auto network = model::modelFromCheckpoint(checkpoint.value(), /*preferEma=*/true);
        if (!network)
            return fail(network.error());
        auto& net = *network.value();
        if (!config.valNms && !net.head().endToEnd())
            return fail(
                weights.string() + ": a " + checkpoint->meta.spec.name() +
                " has no NMS-free (one-to-one) head: nms=false is for YOLO26 models; leave nms unset");
        net.to(device);
        const Criterion loss(net, config.epochs, LossGains{config.boxGain, config.clsGain, config.dflGain});
        // Standalone validation is the reference measurement: float32, as Ultralytics' `val` (half=False).
        const auto result = validateEpoch(net, source, loss, scorer, config, device, Precision::Float32, 0);
        ValidationReport report;
        report.metrics = result.metrics;
        report.boxLoss = result.boxLoss;
        report.clsLoss = result.clsLoss;
        report.dflLoss = result.dflLoss;
        report.modelName = checkpoint->meta.spec.name();
        report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return report;
    } catch (const c10::Error& error) {
        return fail(weights.string() + ": validation failed: " + error.what_without_backtrace());
    }
}

} // namespace osprey::train
