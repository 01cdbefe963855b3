#pragma once
// LabelBox: one box normalised to its image, the numbers behind labels.jpg. A plain value shared by the
// dataset statistics (core/quality computes them) and the run's pictures (core/plot draws them), so that
// neither module needs the other.

namespace osprey {

/// One box normalised to its image (0..1, centre and size), with its index in the class list.
struct LabelBox {
    int classIndex = 0;
    double cx = 0, cy = 0, w = 0, h = 0;
};

} // namespace osprey
