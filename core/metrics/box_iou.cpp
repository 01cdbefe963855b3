#include "metrics/box_iou.h"

#include <algorithm>

namespace osprey::metrics {

double boxIou(const BoxXyxy& a, const BoxXyxy& b, PixelConvention convention) {
    const double extra = convention == PixelConvention::PlusOne ? 1.0 : 0.0;
    const double overlapW = std::min(a.x2, b.x2) - std::max(a.x1, b.x1) + extra;
    const double overlapH = std::min(a.y2, b.y2) - std::max(a.y1, b.y1) + extra;
    if (overlapW <= 0 || overlapH <= 0)
        return 0.0;
    const double intersection = overlapW * overlapH;
    const double areaA = (a.x2 - a.x1 + extra) * (a.y2 - a.y1 + extra);
    const double areaB = (b.x2 - b.x1 + extra) * (b.y2 - b.y1 + extra);
    const double unionArea = areaA + areaB - intersection;
    return unionArea > 0 ? intersection / unionArea : 0.0;
}

double cocoIou(const BoxXyxy& detection, const BoxXyxy& truth, bool truthIsCrowd) {
    // Same operation order as maskApi.c so that results agree to the last bit on xywh inputs.
    const double dw = detection.width(), dh = detection.height();
    const double gw = truth.width(), gh = truth.height();
    const double w = std::min(detection.x1 + dw, truth.x1 + gw) - std::max(detection.x1, truth.x1);
    if (w <= 0)
        return 0.0;
    const double h = std::min(detection.y1 + dh, truth.y1 + gh) - std::max(detection.y1, truth.y1);
    if (h <= 0)
        return 0.0;
    const double intersection = w * h;
    const double detectionArea = dw * dh;
    const double unionArea = truthIsCrowd ? detectionArea : detectionArea + gw * gh - intersection;
    return intersection / unionArea;
}

} // namespace osprey::metrics
