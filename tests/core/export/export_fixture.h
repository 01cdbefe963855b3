#pragma once
// Shared by the ONNX export tests and benchmark: a deterministic, "lively" random detector (BatchNorm
// statistics calibrated on images, so activations neither vanish nor explode and NMS keeps real,
// well-separated detections), letterboxed synthetic inputs, and the parity measures.

#include "model/detector_torch_impl.h"
#include "model/inference_torch_impl.h"
#include "model/weights.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace osprey::test {

/// An RGB uint8 image of coloured rectangles on noise, deterministic in `seed`.
inline std::vector<std::uint8_t> syntheticImage(int width, int height, int seed) {
    torch::manual_seed(static_cast<std::uint64_t>(seed));
    auto image = torch::randint(0, 90, {height, width, 3}, torch::kInt32);
    for (int r = 0; r < 8; ++r) {
        const int w = 20 + static_cast<int>(torch::randint(0, width / 3, {1}).item<int>());
        const int h = 20 + static_cast<int>(torch::randint(0, height / 3, {1}).item<int>());
        const int x = static_cast<int>(torch::randint(0, width - w, {1}).item<int>());
        const int y = static_cast<int>(torch::randint(0, height - h, {1}).item<int>());
        image.narrow(0, y, h).narrow(1, x, w).copy_(torch::randint(80, 256, {1, 1, 3}, torch::kInt32));
    }
    image = image.to(torch::kUInt8).contiguous();
    return {image.data_ptr<std::uint8_t>(), image.data_ptr<std::uint8_t>() + image.numel()};
}

/// Letterboxed [1, 3, imgsz, imgsz] float input from a synthetic `width` x `height` image.
inline torch::Tensor letterboxedInput(int width, int height, int imgsz, int seed) {
    const auto pixels = syntheticImage(width, height, seed);
    model::LetterboxInfo info;
    auto tensor =
        model::letterboxToTensor(model::ImageView{pixels.data(), width, height}, imgsz, 32, false, &info);
    return tensor.value().unsqueeze(0).contiguous();
}

/// Builds `name` with nc classes from `seed`, perturbs the BatchNorm affine terms, calibrates the BatchNorm
/// statistics on a few images (one forward in training mode with momentum 1) and lowers the class biases
/// so that scores spread over 0..1. Not fused.
inline model::Detector livelyDetector(const std::string& name, int numClasses, int seed) {
    torch::manual_seed(static_cast<std::uint64_t>(seed));
    auto detector = model::Detector::create(model::parseModelName(name, numClasses).value()).value();
    auto& network = *detector.impl().model;
    std::vector<torch::Tensor> batch;
    for (int i = 0; i < 4; ++i)
        batch.push_back(letterboxedInput(320, 256, 256, seed * 10 + i));
    torch::manual_seed(static_cast<std::uint64_t>(seed));
    std::vector<torch::nn::BatchNorm2d> norms;
    for (const auto& module : network.modules(false))
        if (auto conv = std::dynamic_pointer_cast<model::Conv>(module); conv && conv->bn)
            norms.push_back(conv->bn);
    network.train();
    {
        // The affine terms first: the calibration pass then normalises each layer with them in place, so
        // the gains do not compound through the depth.
        torch::NoGradGuard noGrad;
        for (auto& bn : norms) {
            bn->weight.uniform_(0.8, 1.6);
            bn->bias.uniform_(-0.3, 0.3);
            bn->options.momentum(1.0);
        }
        network.forwardRaw(torch::cat(batch));
        for (auto& bn : norms)
            bn->options.momentum(0.03);
        for (const auto& item : network.named_parameters()) {
            const auto& key = item.key();
            auto value = item.value();
            if (key.find(".cv3.") != std::string::npos && key.find("bias") != std::string::npos &&
                value.dim() == 1 && value.size(0) == numClasses)
                value.fill_(-1.5);
        }
    }
    network.eval();
    return detector;
}

/// Saves `detector` as an Osprey weights file with class names "shape0", ...
inline void saveDetector(const model::Detector& detector, const std::filesystem::path& path) {
    model::CheckpointMeta meta;
    for (int i = 0; i < detector.spec().numClasses; ++i)
        meta.names.push_back("shape" + std::to_string(i));
    meta.trainArgs["data"] = "synthetic.yaml";
    if (auto saved = model::saveWeights(detector, meta, path); !saved)
        throw std::runtime_error(saved.message());
}

/// Max |a - b| over boxes (rows 0..3) and over scores (rows 4..).
struct Differences {
    double boxesPx = 0, scores = 0;
};
inline Differences differences(const torch::Tensor& a, const torch::Tensor& b) {
    const auto rows = a.size(1);
    return {(a.narrow(1, 0, 4) - b.narrow(1, 0, 4)).abs().max().item<double>(),
            (a.narrow(1, 4, rows - 4) - b.narrow(1, 4, rows - 4)).abs().max().item<double>()};
}

/// How two NMS results compare. Each detection of the first is paired with an unused one of the second of
/// the same class and the highest IoU, at least 0.9; the worst IoU and score difference over the pairs.
///
/// NMS is discontinuous: where two raw outputs agree to within the export's tolerance, a decision taken
/// right at a threshold may still go the other way (a box whose IoU with a kept one is 0.7001 on one side
/// and 0.6999 on the other, a score at the confidence threshold, the last place under max_det), and the
/// box kept on one side only then suppresses others there that the other side keeps. A detection left
/// unpaired is `borderline` when such a decision explains it: on the other side a kept box of its class,
/// scoring at least as high (within `scoreTol`), overlaps it with an IoU within `iouTol` of the IoU
/// threshold; or its score is within `scoreTol` of the confidence threshold; or the other side is full
/// (max_det) and its score is within `scoreTol` of that side's lowest. It is `cascaded` when a box kept on
/// the other side only, itself borderline or cascaded, scoring at least as high, overlaps it above the IoU
/// threshold (the suppression that differs because that box differs). Any other unpaired detection is
/// `unexplained`; tests require none.
struct NmsMatch {
    size_t left = 0, right = 0, paired = 0;
    float minIou = 1, maxScoreDiff = 0;
    size_t borderline = 0;  ///< unpaired on either side, explained by a decision at a threshold
    size_t cascaded = 0;    ///< unpaired on either side, explained by a borderline or cascaded box
    size_t unexplained = 0; ///< unpaired on either side for no such reason
};
inline NmsMatch matchDetections(const torch::Tensor& a, const torch::Tensor& b, float iouTol = 0.005f,
                                float scoreTol = 1e-3f) {
    const model::NmsOptions nms;
    const std::array<std::vector<model::Detection>, 2> kept = {model::nonMaxSuppression(a, nms).at(0),
                                                               model::nonMaxSuppression(b, nms).at(0)};
    NmsMatch match{kept[0].size(), kept[1].size()};
    std::array<std::vector<bool>, 2> paired = {std::vector<bool>(kept[0].size(), false),
                                               std::vector<bool>(kept[1].size(), false)};
    for (size_t i = 0; i < kept[0].size(); ++i) {
        int best = -1;
        float bestIou = 0.9f;
        for (size_t j = 0; j < kept[1].size(); ++j)
            if (!paired[1][j] && kept[1][j].classId == kept[0][i].classId) {
                const float iou = model::boxIou(kept[0][i], kept[1][j]);
                if (iou >= bestIou) {
                    bestIou = iou;
                    best = static_cast<int>(j);
                }
            }
        if (best < 0)
            continue;
        paired[0][i] = paired[1][static_cast<size_t>(best)] = true;
        ++match.paired;
        match.minIou = std::min(match.minIou, bestIou);
        match.maxScoreDiff = std::max(match.maxScoreDiff,
                                      std::abs(kept[0][i].score - kept[1][static_cast<size_t>(best)].score));
    }
    enum class Why { Unknown, Borderline, Cascaded };
    std::array<std::vector<Why>, 2> why = {std::vector<Why>(kept[0].size(), Why::Unknown),
                                           std::vector<Why>(kept[1].size(), Why::Unknown)};
    for (int side = 0; side < 2; ++side) {
        const auto& other = kept[1 - side];
        for (size_t i = 0; i < kept[side].size(); ++i) {
            const auto& detection = kept[side][i];
            if (paired[side][i])
                continue;
            bool borderline = std::abs(detection.score - nms.confThreshold) <= scoreTol ||
                              (static_cast<int>(other.size()) >= nms.maxDetections &&
                               detection.score <= other.back().score + scoreTol);
            for (const auto& box : other)
                borderline = borderline ||
                             (box.classId == detection.classId && box.score >= detection.score - scoreTol &&
                              std::abs(model::boxIou(detection, box) - nms.iouThreshold) <= iouTol);
            if (borderline)
                why[side][i] = Why::Borderline;
        }
    }
    for (bool changed = true; changed;) {
        changed = false;
        for (int side = 0; side < 2; ++side)
            for (size_t i = 0; i < kept[side].size(); ++i) {
                if (paired[side][i] || why[side][i] != Why::Unknown)
                    continue;
                const auto& detection = kept[side][i];
                for (size_t j = 0; j < kept[1 - side].size() && why[side][i] == Why::Unknown; ++j) {
                    const auto& box = kept[1 - side][j];
                    if (!paired[1 - side][j] && why[1 - side][j] != Why::Unknown &&
                        box.classId == detection.classId && box.score >= detection.score - scoreTol &&
                        model::boxIou(detection, box) > nms.iouThreshold - iouTol) {
                        why[side][i] = Why::Cascaded;
                        changed = true;
                    }
                }
            }
    }
    for (int side = 0; side < 2; ++side)
        for (size_t i = 0; i < kept[side].size(); ++i)
            if (!paired[side][i])
                ++(why[side][i] == Why::Borderline ? match.borderline
                   : why[side][i] == Why::Cascaded ? match.cascaded
                                                   : match.unexplained);
    return match;
}

} // namespace osprey::test
