#pragma once
// Per-image validation results of a run: for each validated epoch, which val images the model got most
// wrong (false positives, missed boxes, low-IoU matches, wrong classes, and a confidence-weighted score),
// with the detections and the boxes behind each verdict, and the confusion matrix with the images behind
// each cell. The trainer appends one JSON line per epoch to <run>/validation.jsonl; `osprey-cli runs
// errors` and the GUI's run view read it. No torch, no Qt. Plain values; the writer is used by one
// thread (the trainer's), readers may run anywhere.
//
// What is kept per epoch (compact: the worst images in full, counts for the rest):
// - totals over every val image, and the same counts over the images not kept;
// - the `kept` worst images (ValidationLimits::worstImages, 200), worst first, each with its counts and the
//   boxes to draw: every shown detection (score >= confidence) and every box that is not a plain match,
//   in original image pixels;
// - the confusion matrix (counts, (classes + 1)^2, background last) and per non-empty cell its total and
//   up to ValidationLimits::imagesPerCell (100) image ids, worst image first.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::run {

/// Verdict codes of ValBox::mark (the codes of metrics::ErrorMark).
enum class ValMark : std::uint8_t { Match = 0, FalsePositive = 1, Missed = 2, LowIou = 3, WrongClass = 4 };

/// A detection (score in 0..1) or a labelled box (score < 0), xyxy in original image pixels.
struct ValBox {
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    int classId = 0;
    float score = -1;
    ValMark mark = ValMark::Match;
    bool isDetection() const { return score >= 0; }
};

/// Error counts (of one image, or summed over images).
struct ValCounts {
    long long images = 0;
    long long truePositives = 0, falsePositives = 0, missed = 0, lowIou = 0, wrongClass = 0;
    double score = 0;
    void add(const ValCounts& other);
};

/// One val image of the worst list.
struct ValImageResult {
    std::int64_t imageId = 0;
    std::string name; ///< file name, for lists
    int truths = 0;   ///< labelled boxes on it
    ValCounts counts; ///< images = 1
    std::vector<ValBox> boxes;
};

/// One cell of the confusion matrix: row = detected class, column = true class (background = classes).
struct ValCell {
    int detected = 0, actual = 0;
    long long count = 0;
    long long imageCount = 0;           ///< images with at least one count in the cell
    std::vector<std::int64_t> imageIds; ///< the worst first, at most ValidationLimits::imagesPerCell
};

struct EpochValidation {
    int epoch = 0;                                    ///< 1-based
    double confidence = 0.25, iou = 0.5;              ///< thresholds of the per-image verdicts
    double matrixConfidence = 0.25, matrixIou = 0.45; ///< of the confusion matrix (Ultralytics')
    std::vector<std::string> classNames;
    ValCounts totals;                  ///< every val image
    ValCounts rest;                    ///< the images not in `worst`
    std::vector<ValImageResult> worst; ///< worst first (highest score; ties: more errors, then lower id)
    std::vector<long long> matrix;     ///< row-major (detected, actual), (classes + 1)^2
    std::vector<ValCell> cells;        ///< the non-empty cells, row-major order
    long long matrixCount(int detected, int actual) const;
    const ValCell* cell(int detected, int actual) const;
};

struct ValidationLimits {
    int worstImages = 200;
    int imagesPerCell = 100;
    int boxesPerImage = 100; ///< shown detections kept per image (the highest scores)
};

/// Appends one epoch as a JSON line (flushed and synced: a crash loses at most the line being written).
Status appendEpochValidation(const std::filesystem::path& file, const EpochValidation& epoch);

/// Every epoch in the file in epoch order; a later line for the same epoch (after a resume) replaces the
/// earlier one. A truncated last line (a crash mid-write) is skipped; any other bad line is an error
/// naming the file and line.
Expected<std::vector<EpochValidation>> readValidationFile(const std::filesystem::path& file);

/// The epoch `epoch` of the list, or the last one when `epoch` is 0; nullopt when absent.
std::optional<EpochValidation> findEpoch(const std::vector<EpochValidation>& epochs, int epoch);

} // namespace osprey::run
