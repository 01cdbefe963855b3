#pragma once
// ValBatchPictures: stands between the engine and its validation source and scorer, passing everything on
// unchanged, and keeps the first three validation batches (their first 16 images, scaled down to the
// picture's tiles) with their labels and detections. Each time an epoch becomes the best it writes
// val_batch0..2_pred.jpg with that model's detections (confidence >= 0.25, as Ultralytics draws them), and
// once val_batch0..2_labels.jpg. A picture that cannot be written is a warning; training goes on.
// Thread affinity: the trainer's thread (the BatchSource, DetectionScorer and epoch-event calls).

#include "run/train_events.h"
#include "train/batch_source.h"
#include "train/detection_scorer.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace osprey::train {

class ValBatchPictures : public BatchSource, public DetectionScorer, public run::EventSink {
public:
    ValBatchPictures(BatchSource& source, DetectionScorer& scorer, std::filesystem::path runDir,
                     std::vector<std::string> classNames, std::function<void(const std::string&)> warn);

    int imageCount() const override { return m_source.imageCount(); }
    int batchesPerEpoch() const override { return m_source.batchesPerEpoch(); }
    void startEpoch(const EpochPlan& plan) override;
    std::optional<HostBatch> next() override;

    void reset() override;
    void beginBatch(int width, int height) override { m_scorer.beginBatch(width, height); }
    void addImage(const std::vector<TargetBox>& truths, const std::vector<ScoredBox>& detections) override;
    ValMetrics compute() override { return m_scorer.compute(); }

    /// Writes the pictures when an epoch event says the epoch is the best so far.
    void onEvent(const run::TrainEvent& event) override;

    static constexpr int kBatches = 3, kImagesPerBatch = 16;
    static constexpr float kPictureConfidence = 0.25f;

private:
    struct Kept {
        int width = 0, height = 0;
        float scale = 1; ///< kept pixels / batch pixels
        std::vector<std::uint8_t> rgb;
        std::vector<TargetBox> truths;
        std::vector<ScoredBox> detections;
    };
    void write();

    BatchSource& m_source;
    DetectionScorer& m_scorer;
    std::filesystem::path m_runDir;
    std::vector<std::string> m_classNames;
    std::function<void(const std::string&)> m_warn;
    int m_batchIndex = 0;
    std::int64_t m_delivered = 0; ///< images handed on this epoch
    std::int64_t m_scored = 0;    ///< images scored since the last reset
    /// [batch][image]; the global image index of each batch's first image in `m_firstIndex`.
    std::vector<std::vector<Kept>> m_kept;
    std::vector<std::int64_t> m_firstIndex;
    bool m_labelsWritten = false;
};

} // namespace osprey::train
