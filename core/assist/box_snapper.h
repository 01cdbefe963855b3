#pragma once
// Box refinement ("snap"): tightens a rough, loose box to the object inside it.
//
// How: GrabCut on the box plus a margin, with the box's own border taken as background (a user draws
// around the object, so the edge they drew lies on background). When the object found is flat-coloured
// (most of its interior within a few levels of one colour), it is segmented again with a one-colour
// foreground model, which keeps lines, neighbours and background blobs inside the box out of it, and
// tips and corners that the cut rounded off are grown back where the pixels blend the object's colour
// into the local background. Otherwise thin structures (lines, wires) joined to the object are cut
// off. A result much smaller than the rough box is refused rather than returned.
//
// Coordinates are image pixels with pixel (i, j) covering [i, i+1) x [j, j+1).
// Thread-safe and deterministic; takes a few to a few hundred milliseconds (large boxes), so not for
// the GUI thread.

#include "common/expected.h"
#include "imaging/image.h"

namespace osprey::assist {

struct SnapBox {
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0; ///< image pixels, xyxy
};

struct SnapOptions {
    int marginPx = 8;             ///< background context around the rough box given to the segmentation
    int iterations = 8;           ///< GrabCut iterations (the one-colour pass runs 12)
    int borderPx = 3;             ///< width of the band inside the rough box taken as background
    double minAreaFraction = 0.4; ///< refuse results smaller than this share of the rough box's area
};

/// Returns the box of the object found inside `rough` (never larger than `rough`, clipped to the image).
/// Fails when the box is under 3 px, when nothing is found, or when the object found covers less than
/// minAreaFraction of the rough box (then it is more likely a part than the object); callers keep the
/// rough box then.
Expected<SnapBox> snapBox(const imaging::Image& image, const SnapBox& rough, const SnapOptions& options = {});

} // namespace osprey::assist
