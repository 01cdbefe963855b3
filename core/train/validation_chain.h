#pragma once
// ValidationChain: the recorders a validation feeds, wired once around the Ultralytics scorer, for a
// training run (core/job) and for `val` with pictures (validateWithPictures). Between the engine and the
// val source sit, in this order:
//   ValBatchPictures    val_batch0..2_labels.jpg and val_batch0..2_pred.jpg of the best model;
//   ValidationRecorder  per-image results in validation.jsonl, around the scorer;
//   UltralyticsScorer   the metrics;
// and CurvesRecorder writes curves.json from the scorer and the recorder's last validation. The engine takes
// source() and scorer(); the run's events go to onEvent(), which passes them on with the recorder first
// (the curves read the validation it completes).
//
// Thread affinity: the training thread (the BatchSource, DetectionScorer and event calls).

#include "run/train_events.h"
#include "train/batch_source.h"
#include "train/curves_recorder.h"
#include "train/detection_scorer.h"
#include "train/train_dataset.h"
#include "train/ultralytics_scorer.h"
#include "train/val_batch_pictures.h"
#include "train/validation_recorder.h"

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace osprey::train {

class ValidationChain : public run::EventSink {
public:
    /// `loader` delivers `samples` in order (letterboxed to `imgsz`); the files go to `folder`, named by
    /// run::RunFolder. A picture or record that cannot be written is passed to `warn`. `loader` must outlive
    /// the chain.
    ValidationChain(BatchSource& loader, const std::vector<Sample>& samples,
                    const std::vector<std::string>& classNames, int imgsz,
                    const std::filesystem::path& folder, std::function<void(const std::string&)> warn);
    ~ValidationChain() override;

    /// The val source for the engine: the loader's batches, unchanged.
    BatchSource& source() { return m_pictures; }
    /// The scorer for the engine: the Ultralytics metrics, unchanged.
    DetectionScorer& scorer() { return m_pictures; }

    /// Passes the run's events to the recorder, the curves and the pictures, in that order.
    void onEvent(const run::TrainEvent& event) override;

private:
    std::unique_ptr<UltralyticsScorer> m_scorer;
    ValidationRecorder m_recorder;
    CurvesRecorder m_curves;
    ValBatchPictures m_pictures;
};

} // namespace osprey::train
