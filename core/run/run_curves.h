#pragma once
// The curves of a run's best model, the numbers behind Ultralytics' PR_curve.png, F1_curve.png,
// P_curve.png, R_curve.png and confusion_matrix.png, and the per-image counts the platform's
// training_complete carries. The trainer rewrites <run>/curves.json (atomically) each time an epoch becomes
// the best, so the file always describes best.pt; the remote reporter sends it with training_complete. No
// torch, no Qt. Plain values.
//
// The curves are sampled at 101 evenly spaced points from 0 to 1 (0, 0.01, ..., 1): Ultralytics' 1000-point
// curves linearly interpolated, exactly as Ultralytics 8.4.190 reduces them before sending them to the
// platform. The best-F1 confidences are found on the 1000-point curves.

#include "common/expected.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::run {

/// Ultralytics' per-image counts at IoU 0.5 over every detection of the validation (conf 0.001).
struct ImageCounts {
    std::string name; ///< the image's file name
    int truePositives = 0, falsePositives = 0, missed = 0;
    /// Ultralytics' per-image F1 from its precision and recall; 1 when the image has neither boxes nor
    /// detections.
    double f1() const;
};

struct RunCurves {
    int epoch = 0; ///< 1-based: the epoch whose validation these are (the best so far)
    std::vector<std::string> classNames;
    /// Rows of the curves and of `ap`: the class ids that have validation labels, increasing (Ultralytics'
    /// ap_class_index).
    std::vector<int> classes;
    std::vector<double> x;                              ///< 101 points, 0..1
    std::vector<std::vector<double>> precisionAtRecall; ///< [row][x]: the PR curve at IoU 0.5 (x = recall)
    std::vector<std::vector<double>> f1;                ///< [row][x] (x = confidence)
    std::vector<std::vector<double>> precision;         ///< [row][x] (x = confidence)
    std::vector<std::vector<double>> recall;            ///< [row][x] (x = confidence)
    std::vector<std::vector<double>> ap;                ///< [row][IoU 0.50..0.95]: 10 values a row
    double bestConfidence = 0;                          ///< where the smoothed mean F1 peaks
    double bestF1 = 0;                                  ///< the mean F1 over the rows there
    std::vector<double> classBestConfidence;            ///< [row]: where each class's smoothed F1 peaks
    /// (classNames.size() + 1)^2, row-major [detected][actual], background last; Ultralytics' thresholds.
    std::vector<double> confusionMatrix;
    double matrixConfidence = 0.25, matrixIou = 0.45;
    std::vector<ImageCounts> images; ///< every validation image, in validation order
};

/// Writes `curves` as JSON, atomically (a reader never sees half a file).
Status writeRunCurves(const std::filesystem::path& file, const RunCurves& curves);

/// The best-F1 confidence of the run that wrote `weights` (<run>/weights/best.pt or last.pt): its
/// curves.json's bestConfidence, the default confidence wherever that model proposes boxes. Nullopt for a
/// file outside a run folder, a run without curves.json, or an unreadable one.
std::optional<double> runBestConfidence(const std::filesystem::path& weights);

/// Reads a file written by writeRunCurves; a missing or malformed field is an error naming the file and
/// the field.
Expected<RunCurves> readRunCurves(const std::filesystem::path& file);

} // namespace osprey::run
