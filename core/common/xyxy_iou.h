#pragma once
// Intersection over union of two axis-aligned boxes given by their corners, for any box type with x1, y1,
// x2, y2 members (detections, proposals, stored boxes). Header only; thread-safe.

#include <algorithm>

namespace osprey {

/// IoU computed in T; 0 when the boxes do not overlap. `epsilon` is added to the union (Ultralytics adds
/// 1e-7 in its metrics, kept where threshold decisions must agree with theirs).
template <class T, class A, class B> T xyxyIou(const A& a, const B& b, T epsilon = T(0)) {
    const T width = std::min<T>(a.x2, b.x2) - std::max<T>(a.x1, b.x1);
    const T height = std::min<T>(a.y2, b.y2) - std::max<T>(a.y1, b.y1);
    if (width <= 0 || height <= 0)
        return T(0);
    const T intersection = width * height;
    const T unionArea = (T(a.x2) - T(a.x1)) * (T(a.y2) - T(a.y1)) +
                        (T(b.x2) - T(b.x1)) * (T(b.y2) - T(b.y1)) - intersection + epsilon;
    return unionArea > 0 ? intersection / unionArea : T(0);
}

} // namespace osprey
