#pragma once
// COCO-style detection metrics, computed exactly as pycocotools' COCOeval does for bounding boxes:
// greedy matching in score order per image and class, crowd and ignored ground truth, area ranges by the
// ground truth's area, maxDets 1/10/100 and 101 recall points.

#include "common/expected.h"
#include "metrics/eval_set.h"

#include <array>
#include <string>
#include <vector>

namespace osprey::metrics {

/// One size range for COCO's small/medium/large split; bounds are inclusive, in square pixels.
struct AreaRange {
    std::string name;
    double minPx2 = 0;
    double maxPx2 = 0;
};

/// COCOeval's Params for bounding boxes. The defaults are pycocotools' own.
struct CocoParams {
    std::vector<double> iouThresholds;          ///< default 0.50:0.05:0.95, computed as numpy's linspace does
    std::vector<double> recallThresholds;       ///< default 0:0.01:1 (101 points)
    std::vector<int> maxDetections{1, 10, 100}; ///< per image; the last one limits matching
    std::vector<AreaRange> areaRanges;          ///< default all, small, medium, large
    int threads = 0;                            ///< worker threads; 0 means one per hardware thread

    CocoParams();
};

/// The names of the 12 summary numbers, in pycocotools' order.
inline constexpr std::array<const char*, 12> kCocoStatNames{"AP",  "AP50", "AP75",  "APs", "APm", "APl",
                                                            "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"};

/// The accumulated arrays (COCOeval.eval) and the summary (COCOeval.stats). -1 marks undefined entries
/// (a class with no ground truth), which the means leave out.
struct CocoResult {
    CocoParams params;
    int classCount = 0;
    /// precision[t][r][k][a][m], flattened; use precisionAt().
    std::vector<double> precision;
    /// recall[t][k][a][m], flattened; use recallAt().
    std::vector<double> recall;
    /// AP, AP50, AP75, APs, APm, APl, AR1, AR10, AR100, ARs, ARm, ARl.
    std::array<double, 12> stats{};

    double precisionAt(int t, int r, int k, int a, int m) const;
    double recallAt(int t, int k, int a, int m) const;
    /// AP@[.50:.95] of one class over all areas at the largest maxDets; -1 when the class has no ground
    /// truth.
    double classAp(int classId) const;
};

/// Evaluates `set` in the COCO style. Every class of `set.classNames` is a COCO category. Fails only on
/// invalid boxes (see EvalSet::validate). Uses `params.threads` worker threads; the call blocks.
Expected<CocoResult> evaluateCoco(const EvalSet& set, const CocoParams& params = {});

/// pycocotools' summarize(): the mean of the defined entries for one line of the summary; -1 when none.
/// `iouThreshold` < 0 means all thresholds.
double cocoSummarize(const CocoResult& result, bool averagePrecision, double iouThreshold,
                     const std::string& areaName, int maxDetections);

/// The standard 12-line summary, formatted as pycocotools prints it.
std::string formatCocoSummary(const CocoResult& result);

} // namespace osprey::metrics
