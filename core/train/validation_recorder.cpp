#include "train/validation_recorder.h"

#include "common/log.h"
#include "imaging/image.h"
#include "metrics/confusion_matrix.h"
#include "metrics/image_errors.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

namespace osprey::train {

std::vector<RecordedImage> recordedImagesOf(const std::vector<Sample>& samples) {
    std::vector<RecordedImage> out;
    out.reserve(samples.size());
    for (const auto& sample : samples) {
        RecordedImage image;
        image.imageId = sample.imageId;
        image.name = sample.path.filename().string();
        if (auto size = imaging::readImageSize(sample.path)) {
            image.width = size->width;
            image.height = size->height;
        }
        for (const auto& box : sample.boxes)
            image.boxes.push_back({0, box.classId, box.x1, box.y1, box.x2, box.y2});
        out.push_back(std::move(image));
    }
    return out;
}

LetterboxMapping::LetterboxMapping(int width, int height, int imgsz, int padWidth, int padHeight) {
    if (width <= 0 || height <= 0 || imgsz <= 0)
        return;
    // The val loader's geometry: resizeLongSide (ceil, capped at imgsz) then letterboxPad (the odd pixel
    // of padding at the bottom/right).
    const double ratio = static_cast<double>(imgsz) / std::max(width, height);
    int newWidth = width, newHeight = height;
    if (ratio != 1.0) {
        newWidth = std::min(static_cast<int>(std::ceil(width * ratio)), imgsz);
        newHeight = std::min(static_cast<int>(std::ceil(height * ratio)), imgsz);
    }
    scaleX = static_cast<double>(newWidth) / width;
    scaleY = static_cast<double>(newHeight) / height;
    left = static_cast<double>(std::lround(((padWidth > 0 ? padWidth : imgsz) - newWidth) / 2.0 - 0.1));
    top = static_cast<double>(std::lround(((padHeight > 0 ? padHeight : imgsz) - newHeight) / 2.0 - 0.1));
}

namespace {

/// What one image gave, until the epoch's list is ranked.
struct Scored {
    run::ValImageResult result;
    std::vector<std::pair<int, int>> cells; ///< distinct (detected, actual) cells it counts in
};

bool worse(const Scored& a, const Scored& b) {
    const auto& x = a.result.counts;
    const auto& y = b.result.counts;
    if (x.score != y.score)
        return x.score > y.score;
    const long long ex = x.falsePositives + x.missed + x.lowIou, ey = y.falsePositives + y.missed + y.lowIou;
    if (ex != ey)
        return ex > ey;
    return a.result.imageId < b.result.imageId;
}

run::ValMark toMark(metrics::ErrorMark mark) {
    return static_cast<run::ValMark>(static_cast<std::uint8_t>(mark));
}

} // namespace

struct ValCellImages {
    long long count = 0;
    std::vector<std::int64_t> ids;
};

struct ValidationRecorder::Impl {
    std::vector<RecordedImage> images;
    std::vector<std::string> classNames;
    int imgsz = 640;
    int batchWidth = 0, batchHeight = 0; ///< the current val batch's letterboxed size
    std::filesystem::path file;
    run::ValidationLimits limits;
    metrics::ImageErrorOptions options;
    metrics::ConfusionMatrix matrix{0};

    size_t index = 0;
    std::vector<Scored> scored;
    std::optional<run::EpochValidation> pending; ///< the validation being scored
    std::optional<run::EpochValidation> ready;   ///< computed, written on the epoch event
    std::optional<run::EpochValidation> last;
    bool warned = false;

    void add(const std::vector<TargetBox>& truths, const std::vector<ScoredBox>& detections) {
        const RecordedImage& image = images[index];
        const LetterboxMapping map(image.width, image.height, imgsz, batchWidth, batchHeight);
        const double maxX = image.width > 0 ? image.width : 1e9, maxY = image.height > 0 ? image.height : 1e9;
        std::vector<metrics::GroundTruthBox> gt;
        if (truths.size() == image.boxes.size()) {
            for (const auto& t : image.boxes)
                gt.push_back({{t.x1, t.y1, t.x2, t.y2}, t.classId});
        } else {
            for (const auto& t : truths)
                gt.push_back(
                    {{map.toImageX(t.x1), map.toImageY(t.y1), map.toImageX(t.x2), map.toImageY(t.y2)},
                     t.classId});
        }
        std::vector<metrics::DetectionBox> dt;
        dt.reserve(detections.size());
        for (const auto& d : detections)
            dt.push_back(
                {{std::clamp(map.toImageX(d.x1), 0.0, maxX), std::clamp(map.toImageY(d.y1), 0.0, maxY),
                  std::clamp(map.toImageX(d.x2), 0.0, maxX), std::clamp(map.toImageY(d.y2), 0.0, maxY)},
                 d.classId,
                 d.score});
        const auto errors = metrics::analyseImageErrors(gt, dt, options);

        Scored entry;
        auto& result = entry.result;
        result.imageId = image.imageId;
        result.name = image.name;
        result.truths = static_cast<int>(gt.size());
        result.counts.images = 1;
        result.counts.truePositives = errors.truePositives;
        result.counts.falsePositives = errors.falsePositives;
        result.counts.missed = errors.missed;
        result.counts.lowIou = errors.lowIou;
        result.counts.wrongClass = errors.wrongClass;
        result.counts.score = errors.score;
        std::vector<size_t> shown;
        for (size_t d = 0; d < dt.size(); ++d)
            if (errors.detectionMarks[d] != metrics::ErrorMark::Hidden)
                shown.push_back(d);
        std::stable_sort(shown.begin(), shown.end(),
                         [&](size_t a, size_t b) { return dt[a].score > dt[b].score; });
        if (shown.size() > static_cast<size_t>(limits.boxesPerImage))
            shown.resize(static_cast<size_t>(limits.boxesPerImage));
        for (const size_t d : shown) {
            const auto& b = dt[d].boxPx;
            result.boxes.push_back({static_cast<float>(b.x1), static_cast<float>(b.y1),
                                    static_cast<float>(b.x2), static_cast<float>(b.y2), dt[d].classId,
                                    static_cast<float>(dt[d].score), toMark(errors.detectionMarks[d])});
        }
        for (size_t t = 0; t < gt.size(); ++t) {
            if (errors.truthMarks[t] == metrics::ErrorMark::Match)
                continue;
            const auto& b = gt[t].boxPx;
            result.boxes.push_back({static_cast<float>(b.x1), static_cast<float>(b.y1),
                                    static_cast<float>(b.x2), static_cast<float>(b.y2), gt[t].classId, -1.0f,
                                    toMark(errors.truthMarks[t])});
        }
        if (auto cells = matrix.imageCells(gt, dt)) {
            for (const auto& [detected, actual] : cells.value())
                ++pending->matrix[static_cast<size_t>(detected * (matrix.classCount() + 1) + actual)];
            entry.cells = std::move(cells.value());
            std::sort(entry.cells.begin(), entry.cells.end());
            entry.cells.erase(std::unique(entry.cells.begin(), entry.cells.end()), entry.cells.end());
        } else if (!warned) {
            warned = true;
            log::warn("validation results: " + cells.message());
        }
        scored.push_back(std::move(entry));
    }

    run::EpochValidation finish() {
        run::EpochValidation out = std::move(*pending);
        pending.reset();
        for (const auto& s : scored)
            out.totals.add(s.result.counts);
        std::sort(scored.begin(), scored.end(), worse);
        const size_t side = classNames.size() + 1;
        std::map<std::pair<int, int>, ValCellImages> cellImages;
        for (const auto& s : scored)
            for (const auto& cell : s.cells) {
                auto& images = cellImages[cell];
                ++images.count;
                if (images.ids.size() < static_cast<size_t>(limits.imagesPerCell))
                    images.ids.push_back(s.result.imageId); // scored is worst first
            }
        for (size_t detected = 0; detected < side; ++detected)
            for (size_t actual = 0; actual < side; ++actual) {
                const long long count = out.matrix[detected * side + actual];
                if (count == 0)
                    continue;
                run::ValCell cell;
                cell.detected = static_cast<int>(detected);
                cell.actual = static_cast<int>(actual);
                cell.count = count;
                const auto found = cellImages.find({cell.detected, cell.actual});
                if (found != cellImages.end()) {
                    cell.imageCount = found->second.count;
                    cell.imageIds = found->second.ids;
                }
                out.cells.push_back(std::move(cell));
            }
        const size_t keep = std::min(scored.size(), static_cast<size_t>(std::max(0, limits.worstImages)));
        for (size_t i = 0; i < scored.size(); ++i) {
            if (i < keep)
                out.worst.push_back(std::move(scored[i].result));
            else
                out.rest.add(scored[i].result.counts);
        }
        scored.clear();
        return out;
    }
};

ValidationRecorder::ValidationRecorder(DetectionScorer& inner, std::vector<RecordedImage> images,
                                       std::vector<std::string> classNames, int imgsz,
                                       std::filesystem::path file, run::ValidationLimits limits)
    : m_inner(inner), m_impl(std::make_unique<Impl>()) {
    m_impl->images = std::move(images);
    m_impl->classNames = std::move(classNames);
    m_impl->imgsz = imgsz;
    m_impl->file = std::move(file);
    m_impl->limits = limits;
    m_impl->matrix = metrics::ConfusionMatrix(static_cast<int>(m_impl->classNames.size()));
}

ValidationRecorder::~ValidationRecorder() = default;

void ValidationRecorder::reset() {
    m_inner.reset();
    auto& impl = *m_impl;
    impl.index = 0;
    impl.scored.clear();
    impl.ready.reset();
    impl.pending.emplace();
    impl.pending->confidence = impl.options.confidenceThreshold;
    impl.pending->iou = impl.options.iouThreshold;
    impl.pending->classNames = impl.classNames;
    const size_t side = impl.classNames.size() + 1;
    impl.pending->matrix.assign(side * side, 0);
}

void ValidationRecorder::beginBatch(int width, int height) {
    m_inner.beginBatch(width, height);
    m_impl->batchWidth = width;
    m_impl->batchHeight = height;
}

void ValidationRecorder::addImage(const std::vector<TargetBox>& truths,
                                  const std::vector<ScoredBox>& detections) {
    m_inner.addImage(truths, detections);
    auto& impl = *m_impl;
    if (impl.pending && impl.index < impl.images.size())
        impl.add(truths, detections);
    ++impl.index;
}

ValMetrics ValidationRecorder::compute() {
    const auto metrics = m_inner.compute();
    auto& impl = *m_impl;
    if (!impl.pending)
        return metrics;
    if (impl.index != impl.images.size()) {
        log::warn("validation results: " + std::to_string(impl.index) + " images were validated, not the " +
                  std::to_string(impl.images.size()) +
                  " val images; this epoch's per-image results are not kept");
        impl.pending.reset();
        impl.scored.clear();
        return metrics;
    }
    impl.last = impl.finish();
    impl.ready = impl.last;
    return metrics;
}

void ValidationRecorder::onEvent(const run::TrainEvent& event) {
    auto& impl = *m_impl;
    if (event.type != run::TrainEvent::Type::Epoch || !impl.ready)
        return;
    impl.ready->epoch = event.metrics.epoch;
    if (impl.last)
        impl.last->epoch = event.metrics.epoch;
    if (auto status = run::appendEpochValidation(impl.file, *impl.ready); !status)
        log::warn("validation results: " + status.message());
    impl.ready.reset();
}

const run::EpochValidation* ValidationRecorder::last() const {
    return m_impl->last ? &*m_impl->last : nullptr;
}

} // namespace osprey::train
