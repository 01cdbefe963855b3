#pragma once
// Per-image error analysis: what a detector got wrong on one image, for the "worst images" list of a
// validation. Pure scoring over value types, like the evaluators. Not thread-affine (a free function).
//
// The rules (at the default options):
// - A detection that overlaps a higher-scoring detection of another class with IoU >= `duplicateIou` (0.7)
//   is the same object's second-best class: it is marked Hidden and takes no part.
// - Detections scoring at least `scoreFloor` (0.05) are matched greedily, highest score first, each to the
//   unmatched box of its own class with the highest IoU of at least `iouThreshold` (0.5), as COCO does.
// - The per-image score is "FP + FN weighted by confidence", per object: every box adds 1 minus the score
//   of the detection that matched it (1 when none did), every unmatched detection adds its score, and the
//   sum is divided by (boxes + 1). A confident false positive and a box nobody found weigh most, a correct
//   but shy detection a little; an image is not worse for holding more objects, and an image without boxes
//   is scored by its false positives.
// - The counts and marks are those of the detections the editor shows, scoring at least
//   `confidenceThreshold` (0.25): a box whose match scores lower is missed. Among the unmatched ones, a
//   detection and a box of the same class overlapping with IoU in [lowIouFloor, iouThreshold) are a
//   low-IoU match (counted once, as low IoU, not as FP and missed); a detection that overlaps an unmatched
//   box of another class with IoU >= iouThreshold is a wrong class (counted as FP and missed, and once as
//   wrong class: what a mislabelled box looks like).

#include "metrics/eval_set.h"

#include <cstdint>
#include <span>
#include <vector>

namespace osprey::metrics {

struct ImageErrorOptions {
    double iouThreshold = 0.5;
    double confidenceThreshold = 0.25; ///< detections shown and counted
    double scoreFloor = 0.05;          ///< detections below it are ignored, also in the score
    double lowIouFloor = 0.1;          ///< smallest overlap that still counts as a (low-IoU) match
    /// A detection overlapping a higher-scoring one of another class this much is a second guess at the
    /// same object (multi-label NMS keeps them): it is left out, as class-agnostic NMS would. > 1: keep all.
    double duplicateIou = 0.7;
};

/// What became of one detection or one box. Stable codes (stored in run files).
enum class ErrorMark : std::uint8_t {
    Match = 0,         ///< a true positive, or a box found
    FalsePositive = 1, ///< a detection that matches no box
    Missed = 2,        ///< a box no shown detection matched
    LowIou = 3,        ///< a detection and a box of the same class overlapping below the IoU threshold
    WrongClass = 4,    ///< a detection on a box of another class (both carry it)
    Hidden = 5,        ///< a detection below the confidence threshold (not shown, not counted)
};

struct ImageErrors {
    int truePositives = 0;
    int falsePositives = 0;                ///< includes wrong-class detections
    int missed = 0;                        ///< includes wrong-class boxes
    int lowIou = 0;                        ///< pairs
    int wrongClass = 0;                    ///< pairs
    double score = 0;                      ///< the confidence-weighted FP + FN (see the file comment)
    std::vector<ErrorMark> detectionMarks; ///< one per input detection, in input order
    std::vector<ErrorMark> truthMarks;     ///< one per input box, in input order
    std::vector<double> truthIou;          ///< per box: IoU with its match or low-IoU partner (0 when none)
};

/// Analyses one image. Crowd and ignored boxes take no part (marked Match, they cost nothing).
ImageErrors analyseImageErrors(std::span<const GroundTruthBox> truths,
                               std::span<const DetectionBox> detections,
                               const ImageErrorOptions& options = {});

} // namespace osprey::metrics
