#pragma once
// Pascal VOC-style average precision per class, as the VOC devkit and the widely used mAP tools compute
// it: detections of a class sorted by confidence, each matched to the unmatched box of highest IoU in its
// image, all-point or 11-point interpolation.

#include "common/expected.h"
#include "metrics/box_iou.h"
#include "metrics/eval_set.h"

#include <string>
#include <vector>

namespace osprey::metrics {

enum class VocInterpolation {
    AllPoints,   ///< area under the precision envelope (VOC 2010 and later)
    ElevenPoints ///< mean of the best precision at recall >= 0, 0.1, ..., 1 (VOC 2007)
};

struct VocParams {
    double iouThreshold = 0.5; ///< a detection is a true positive when IoU >= this
    PixelConvention pixels = PixelConvention::Continuous;
    VocInterpolation interpolation = VocInterpolation::AllPoints;
};

/// The result for one class. `precision` and `recall` hold one point per counted detection, in
/// descending confidence: the PR curve.
struct VocClassResult {
    int classId = 0;
    double ap = -1; ///< -1 when the class has no (non-difficult) ground truth
    int truths = 0; ///< ground truth counted (difficult and crowd boxes excluded)
    int detections = 0;
    int truePositives = 0;
    int falsePositives = 0;
    std::vector<double> precision;
    std::vector<double> recall;
};

struct VocResult {
    double map = -1;                      ///< mean AP over classes with ground truth; -1 when there are none
    std::vector<VocClassResult> perClass; ///< one per class of the set, in class order
};

/// Evaluates `set` in the VOC style. Boxes flagged `ignore` are VOC's "difficult": a detection whose best
/// match is one is neither a true nor a false positive. Crowd boxes are dropped. A detection whose best
/// box is already taken is a false positive (no fallback to the second best), as in the devkit.
/// The 11 recall points are k * 0.1 in floating point, as numpy's linspace and the devkit's arange produce
/// them, so 0.6 means 0.6000000000000001 and a recall of 9/15 does not reach it.
Expected<VocResult> evaluateVoc(const EvalSet& set, const VocParams& params = {});

/// AP from a PR curve (points in descending confidence).
double vocAveragePrecision(const std::vector<double>& precision, const std::vector<double>& recall,
                           VocInterpolation interpolation);

} // namespace osprey::metrics
