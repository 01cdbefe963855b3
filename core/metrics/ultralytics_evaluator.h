#pragma once
// Ultralytics-style detection metrics (what `yolo val` prints and what results.csv records): mAP50,
// mAP50-95, per-class AP from the precision envelope (closed at the last recall reached, as Ultralytics
// 8.4.190 does) sampled at 101 recall points and integrated with the trapezoid rule, and P, R, F1 at the
// confidence that maximises the (smoothed) mean F1. Also the curves the GUI plots.
//
// The trainer feeds it image by image with in-memory boxes; nothing here touches files.

#include "common/expected.h"
#include "metrics/eval_set.h"

#include <cstdint>
#include <span>
#include <vector>

namespace osprey::metrics {

struct UltralyticsParams {
    std::vector<double> iouThresholds; ///< default 0.50:0.05:0.95
    UltralyticsParams();
};

/// The metrics of one class that has ground truth.
struct ClassDetectionMetrics {
    int classId = 0;
    int images = 0;    ///< images with at least one box of the class
    int instances = 0; ///< boxes of the class
    double precision = 0;
    double recall = 0;
    double f1 = 0;
    std::vector<double> ap; ///< one per IoU threshold
    double ap50() const { return ap.empty() ? 0 : ap.front(); }
    double ap50to95() const;
};

/// Curves as plain data for plotting. Rows follow DetectionMetrics::perClass.
struct DetectionCurves {
    std::vector<double> confidence;                     ///< 1000 points, 0..1: the x axis of the next three
    std::vector<std::vector<double>> precision;         ///< [class][confidence]
    std::vector<std::vector<double>> recall;            ///< [class][confidence]
    std::vector<std::vector<double>> f1;                ///< [class][confidence]
    std::vector<double> recallAxis;                     ///< 1000 points, 0..1: the x axis of the PR curves
    std::vector<std::vector<double>> precisionAtRecall; ///< [class][recall], at IoU 0.5 (envelope)
};

struct DetectionMetrics {
    double precision = 0; ///< mean over classes with ground truth, at bestConfidence
    double recall = 0;
    double f1 = 0;
    double map50 = 0;
    double map50to95 = 0;
    double fitness = 0;        ///< Ultralytics' model-selection score: 0.1 * mAP50 + 0.9 * mAP50-95
    double bestConfidence = 0; ///< where the smoothed mean F1 peaks
    int images = 0;
    int instances = 0;
    std::vector<ClassDetectionMetrics> perClass; ///< classes with ground truth, by class id
    DetectionCurves curves;
};

/// One image as Ultralytics' validator counts it for its per-image metrics (update_image_metrics): true
/// positives at IoU 0.5 among all its detections, the detections, the labelled boxes (crowd and ignored
/// left out).
struct ImageTally {
    int truePositives = 0;
    int detections = 0;
    int truths = 0;
    int falsePositives() const { return detections - truePositives; }
    int missed() const { return truths - truePositives; }
    /// Ultralytics' per-image F1 (1 for an image with neither boxes nor detections).
    double f1() const;
};

/// Accumulates images and computes DetectionMetrics. Matching follows Ultralytics' validator: per IoU
/// threshold, each detection picks its highest-IoU box of the same class, and each box keeps the most
/// confident detection that picked it. Crowd and ignored boxes are left out, as Ultralytics' dataset
/// converters drop them. Not thread-safe: use from one thread (the trainer's validation loop).
class UltralyticsEvaluator {
public:
    explicit UltralyticsEvaluator(int classCount, UltralyticsParams params = {});

    /// Adds one image. Boxes with a class id outside 0..classCount-1 are an error. `tally`, when given,
    /// receives the image's counts.
    Status addImage(std::span<const GroundTruthBox> truths, std::span<const DetectionBox> detections,
                    ImageTally* tally = nullptr);
    DetectionMetrics compute() const;
    void reset();

private:
    struct Record {
        double score;
        int classId;
        std::uint32_t correct; ///< bit t: true positive at threshold t
    };
    int m_classCount;
    UltralyticsParams m_params;
    std::vector<Record> m_records;
    std::vector<int> m_instances;
    std::vector<int> m_images;
    int m_imageCount = 0;
};

/// Evaluates a whole set in the Ultralytics style.
Expected<DetectionMetrics> evaluateUltralytics(const EvalSet& set, const UltralyticsParams& params = {});

/// The confidence where `f1` (sampled at `confidence`) peaks after Ultralytics' smoothing (a box filter
/// over a tenth of the points, edges padded with the end values), as it picks the reported P and R.
double bestF1Confidence(const std::vector<double>& confidence, const std::vector<double>& f1);

/// `ys` sampled at `xs` (increasing), linearly interpolated to `count` evenly spaced points from the first
/// to the last x: how the platform receives a curve (101 points: 0, 0.01, ..., 1).
std::vector<double> resampleCurve(const std::vector<double>& xs, const std::vector<double>& ys, int count);

/// numpy.interp: linear interpolation in increasing `xs` (ties allowed), `left`/`right` outside.
double interpolate(double x, const std::vector<double>& xs, const std::vector<double>& ys, double left,
                   double right);

} // namespace osprey::metrics
