#pragma once
// ValidationRecorder: records per-image validation results of a training run (run/val_results.h). It
// wraps the run's DetectionScorer (the metrics are the wrapped scorer's, unchanged), analyses every val
// image as it is scored (metrics::analyseImageErrors, metrics::ConfusionMatrix::imageCells) in original
// image pixels, and when the engine reports the epoch (the `epoch` event follows the validation) appends
// that epoch to <run>/validation.jsonl. No torch.
//
// The engine validates the val source in order, image after image, so the n-th image scored since
// reset() is the n-th of `images`. A validation that scores another number of images (e.g. a val set
// split between processes) is not recorded, with a warning.
//
// Thread affinity: the training thread (scorer calls and the events it emits there).

#include "run/train_events.h"
#include "run/val_results.h"
#include "train/detection_scorer.h"
#include "train/train_dataset.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace osprey::train {

/// A val image as the recorder needs it: identity, displayed size and its boxes in image pixels.
struct RecordedImage {
    std::int64_t imageId = 0;
    std::string name;
    int width = 0, height = 0;    ///< as decoded (EXIF applied); 0 when unknown (its boxes are not mapped)
    std::vector<TargetBox> boxes; ///< image pixels; imageIndex unused
};

/// The val samples as the recorder needs them (sizes read from the file headers, EXIF applied).
std::vector<RecordedImage> recordedImagesOf(const std::vector<Sample>& samples);

/// Maps a point of the letterboxed validation image (as the val loader builds it: long side resized to
/// imgsz, then padded evenly to the batch's padWidth x padHeight, imgsz square when not given) back to pixels
/// of the original width x height image.
struct LetterboxMapping {
    double scaleX = 1, scaleY = 1, left = 0, top = 0;
    LetterboxMapping(int width, int height, int imgsz, int padWidth = 0, int padHeight = 0);
    double toImageX(double x) const { return (x - left) / scaleX; }
    double toImageY(double y) const { return (y - top) / scaleY; }
};

class ValidationRecorder : public DetectionScorer, public run::EventSink {
public:
    ValidationRecorder(DetectionScorer& inner, std::vector<RecordedImage> images,
                       std::vector<std::string> classNames, int imgsz, std::filesystem::path file,
                       run::ValidationLimits limits = {});
    ~ValidationRecorder() override;

    void reset() override;
    void beginBatch(int width, int height) override;
    void addImage(const std::vector<TargetBox>& truths, const std::vector<ScoredBox>& detections) override;
    ValMetrics compute() override;
    /// Appends the pending validation on the `epoch` event.
    void onEvent(const run::TrainEvent& event) override;

    /// The last validation computed (also after it was written); empty before the first.
    const run::EpochValidation* last() const;

private:
    struct Impl;
    DetectionScorer& m_inner;
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::train
