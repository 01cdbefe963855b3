#pragma once
// Box refinement ("snap"): tightens a rough box to the object inside it with OpenCV GrabCut run on the
// box plus a margin. Thread-safe; takes a few to tens of milliseconds, so not for the GUI thread.

#include "common/expected.h"
#include "imaging/image.h"

namespace osprey::assist {

struct SnapBox {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0; ///< image pixels, xyxy
};

struct SnapOptions {
    int marginPx = 8;   ///< background context around the rough box given to GrabCut
    int iterations = 4; ///< GrabCut iterations
};

/// Returns the bounding box of the foreground GrabCut finds inside `rough` (never larger than `rough`,
/// clipped to the image). Fails when the box is empty or nothing is found; callers keep the rough box.
Expected<SnapBox> snapBox(const imaging::Image& image, const SnapBox& rough, const SnapOptions& options = {});

} // namespace osprey::assist
