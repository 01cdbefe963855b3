#include "train/val_batch_pictures.h"

#include "plot/run_plots.h"
#include "run/run_folder.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>

namespace osprey::train {
namespace {

/// The picture's tiles are at most 1920 / 4 pixels: keeping more would only cost memory.
constexpr int kTileSide = 480;

} // namespace

ValBatchPictures::ValBatchPictures(BatchSource& source, DetectionScorer& scorer, std::filesystem::path runDir,
                                   std::vector<std::string> classNames,
                                   std::function<void(const std::string&)> warn)
    : m_source(source), m_scorer(scorer), m_runDir(std::move(runDir)), m_classNames(std::move(classNames)),
      m_warn(std::move(warn)) {}

void ValBatchPictures::startEpoch(const EpochPlan& plan) {
    m_batchIndex = 0;
    m_delivered = 0;
    m_kept.clear();
    m_firstIndex.clear();
    m_source.startEpoch(plan);
}

std::optional<HostBatch> ValBatchPictures::next() {
    auto batch = m_source.next();
    if (!batch)
        return batch;
    if (m_batchIndex++ < kBatches && batch->count > 0) {
        const size_t stride = size_t(batch->width) * size_t(batch->height) * 3;
        const float scale = std::min(1.0f, float(kTileSide) / float(std::max(batch->width, batch->height)));
        std::vector<Kept> kept(size_t(std::min(batch->count, kImagesPerBatch)));
        for (size_t i = 0; i < kept.size(); ++i) {
            const cv::Mat source(batch->height, batch->width, CV_8UC3, batch->pixels.data() + stride * i);
            cv::Mat scaled;
            cv::resize(
                source, scaled,
                cv::Size(std::max(1, int(batch->width * scale)), std::max(1, int(batch->height * scale))), 0,
                0, cv::INTER_AREA);
            kept[i].width = scaled.cols;
            kept[i].height = scaled.rows;
            kept[i].scale = scale;
            kept[i].rgb.assign(scaled.data, scaled.data + scaled.total() * 3);
        }
        m_firstIndex.push_back(m_delivered);
        m_kept.push_back(std::move(kept));
    }
    m_delivered += batch->count;
    return batch;
}

void ValBatchPictures::reset() {
    m_scored = 0;
    m_scorer.reset();
}

void ValBatchPictures::addImage(const std::vector<TargetBox>& truths,
                                const std::vector<ScoredBox>& detections) {
    const std::int64_t index = m_scored++;
    for (size_t b = 0; b < m_kept.size(); ++b) {
        const std::int64_t offset = index - m_firstIndex[b];
        if (offset < 0 || offset >= std::int64_t(m_kept[b].size()))
            continue;
        Kept& kept = m_kept[b][size_t(offset)];
        kept.truths = truths;
        kept.detections.clear();
        for (const auto& detection : detections)
            if (detection.score >= kPictureConfidence)
                kept.detections.push_back(detection);
    }
    m_scorer.addImage(truths, detections);
}

void ValBatchPictures::onEvent(const run::TrainEvent& event) {
    if (event.type == run::TrainEvent::Type::Epoch && event.best && !m_kept.empty())
        write();
}

void ValBatchPictures::write() {
    const run::RunFolder folder(m_runDir);
    for (size_t b = 0; b < m_kept.size(); ++b) {
        std::vector<plot::BatchImage> labels, predictions;
        for (const Kept& kept : m_kept[b]) {
            plot::BatchImage image{kept.width, kept.height, kept.rgb.data(), {}};
            for (const auto& box : kept.truths)
                image.boxes.push_back({box.classId, box.x1 * kept.scale, box.y1 * kept.scale,
                                       box.x2 * kept.scale, box.y2 * kept.scale});
            labels.push_back(image);
            image.boxes.clear();
            for (const auto& box : kept.detections)
                image.boxes.push_back({box.classId, box.x1 * kept.scale, box.y1 * kept.scale,
                                       box.x2 * kept.scale, box.y2 * kept.scale, box.score});
            predictions.push_back(std::move(image));
        }
        const int index = static_cast<int>(b);
        if (!m_labelsWritten)
            if (auto written = plot::writeBatchPicture(folder.valBatchLabels(index), labels, m_classNames);
                !written && m_warn)
                m_warn(written.message());
        if (auto written =
                plot::writeBatchPicture(folder.valBatchPredictions(index), predictions, m_classNames);
            !written && m_warn)
            m_warn(written.message());
    }
    m_labelsWritten = true;
}

} // namespace osprey::train
