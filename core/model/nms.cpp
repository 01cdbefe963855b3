#include "model/detection.h"

#include "common/xyxy_iou.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace osprey::model {

float boxIou(const Detection& a, const Detection& b) {
    return xyxyIou<float>(a, b);
}

std::vector<int> greedyNms(const std::vector<Detection>& candidates, float iouThreshold, int maxDetections,
                           ClassMode classes) {
    std::vector<int> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return candidates[a].score > candidates[b].score; });
    // A candidate survives iff no kept, higher-scoring box of its class overlaps it, so comparing
    // against the kept boxes alone (grouped by class) gives the textbook result in O(n * kept).
    std::vector<int> kept;
    std::vector<std::vector<int>> keptByClass;
    for (const int index : order) {
        if (static_cast<int>(kept.size()) >= maxDetections)
            break;
        const Detection& box = candidates[static_cast<size_t>(index)];
        const size_t group =
            classes == ClassMode::Agnostic ? 0 : static_cast<size_t>(std::max(box.classId, 0));
        if (group >= keptByClass.size())
            keptByClass.resize(group + 1);
        bool suppressed = false;
        for (const int other : keptByClass[group]) {
            if (boxIou(box, candidates[static_cast<size_t>(other)]) > iouThreshold) {
                suppressed = true;
                break;
            }
        }
        if (suppressed)
            continue;
        kept.push_back(index);
        keptByClass[group].push_back(index);
    }
    return kept;
}

void mapToOriginal(std::vector<Detection>& detections, const LetterboxInfo& letterbox, int originalWidth,
                   int originalHeight) {
    const auto mapX = [&](float x) {
        return std::clamp(static_cast<float>((x - letterbox.padX) / letterbox.scale), 0.0f,
                          static_cast<float>(originalWidth));
    };
    const auto mapY = [&](float y) {
        return std::clamp(static_cast<float>((y - letterbox.padY) / letterbox.scale), 0.0f,
                          static_cast<float>(originalHeight));
    };
    for (auto& detection : detections) {
        detection.x1 = mapX(detection.x1);
        detection.x2 = mapX(detection.x2);
        detection.y1 = mapY(detection.y1);
        detection.y2 = mapY(detection.y2);
    }
}

LetterboxGeometry letterboxGeometry(int width, int height, int targetSize, int stride, bool autoRect) {
    LetterboxGeometry geometry;
    const double scale =
        std::min(static_cast<double>(targetSize) / height, static_cast<double>(targetSize) / width);
    geometry.resizedWidth = static_cast<int>(std::lround(width * scale));
    geometry.resizedHeight = static_cast<int>(std::lround(height * scale));
    double padWidth = targetSize - geometry.resizedWidth;
    double padHeight = targetSize - geometry.resizedHeight;
    if (autoRect) {
        padWidth = std::fmod(padWidth, stride);
        padHeight = std::fmod(padHeight, stride);
    }
    // Odd padding puts the extra pixel at the bottom/right, as Ultralytics' round(d -/+ 0.1) does.
    const int left = static_cast<int>(std::lround(padWidth / 2 - 0.1));
    const int top = static_cast<int>(std::lround(padHeight / 2 - 0.1));
    geometry.outWidth = geometry.resizedWidth + static_cast<int>(padWidth);
    geometry.outHeight = geometry.resizedHeight + static_cast<int>(padHeight);
    geometry.info = LetterboxInfo{scale, static_cast<double>(left), static_cast<double>(top)};
    return geometry;
}

} // namespace osprey::model
