#include "assist/output_layout.h"

#include "common/xyxy_iou.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace osprey::assist {
namespace {

float iou(const Proposal& a, const Proposal& b) {
    return xyxyIou<float>(a, b);
}

Proposal fromCentre(float cx, float cy, float w, float h, float score, int classIndex) {
    return Proposal{cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, score, classIndex};
}

std::string expectedLayouts() {
    return "expected one of [1, 4+nc, anchors] (YOLOv8/YOLO11), [1, anchors, 5+nc] (YOLOv5) or [1, N, 6] "
           "(end-to-end x1 y1 x2 y2 score class)";
}

} // namespace

std::vector<Proposal> suppressOverlaps(const std::vector<Proposal>& candidates,
                                       const SuggestOptions& options) {
    std::vector<int> order;
    order.reserve(candidates.size());
    for (int i = 0; i < static_cast<int>(candidates.size()); ++i)
        if (candidates[static_cast<size_t>(i)].score > options.confThreshold)
            order.push_back(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return candidates[static_cast<size_t>(a)].score > candidates[static_cast<size_t>(b)].score;
    });
    std::vector<Proposal> kept;
    for (const int index : order) {
        if (static_cast<int>(kept.size()) >= options.maxDetections)
            break;
        const Proposal& candidate = candidates[static_cast<size_t>(index)];
        const bool overlaps = std::any_of(kept.begin(), kept.end(), [&](const Proposal& other) {
            return other.classIndex == candidate.classIndex && iou(other, candidate) > options.iouThreshold;
        });
        if (!overlaps)
            kept.push_back(candidate);
    }
    return kept;
}

std::string toString(OutputLayout layout) {
    switch (layout) {
    case OutputLayout::ChannelsFirst:
        return "[1, 4+nc, anchors] (YOLOv8/YOLO11)";
    case OutputLayout::AnchorsFirst:
        return "[1, anchors, 5+nc] (YOLOv5)";
    case OutputLayout::EndToEnd:
        return "[1, N, 6] (end-to-end)";
    }
    return "unknown";
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (size_t i = 0; i < shape.size(); ++i)
        text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

Expected<OutputLayout> detectLayout(const std::vector<std::int64_t>& shape, int numClasses) {
    const auto unknown = [&](const std::string& why) {
        return fail("model output " + shapeText(shape) + " is not a known detection layout (" + why + "); " +
                        expectedLayouts(),
                    "layout");
    };
    if (shape.size() != 3 || shape[0] != 1)
        return unknown("need 3 dimensions with batch 1");
    const std::int64_t rows = shape[1], columns = shape[2];
    if (rows < 1 || columns < 1)
        return unknown("empty dimension");
    if (numClasses > 0) {
        // With known classes each layout pins one dimension exactly. Ultralytics' end-to-end head keeps
        // 300 rows, which no YOLOv5 anchor grid produces, so [1, 300, 6] stays end-to-end even at nc=1.
        const bool channelsFirst = rows == 4 + numClasses, anchorsFirst = columns == 5 + numClasses;
        if (columns == 6 && !channelsFirst && (!anchorsFirst || rows == 300))
            return OutputLayout::EndToEnd;
        if (channelsFirst && (!anchorsFirst || columns > rows))
            return OutputLayout::ChannelsFirst;
        if (anchorsFirst)
            return OutputLayout::AnchorsFirst;
        return unknown(std::to_string(numClasses) + " class names do not fit any layout");
    }
    if (columns == 6 && rows <= 1000)
        return OutputLayout::EndToEnd;
    if (rows >= 5 && columns > rows)
        return OutputLayout::ChannelsFirst;
    if (columns >= 6 && rows > columns)
        return OutputLayout::AnchorsFirst;
    return unknown("cannot tell boxes from attributes");
}

Expected<std::vector<Proposal>> decodeOutput(const float* data, const std::vector<std::int64_t>& shape,
                                             float confThreshold, int numClasses) {
    auto layout = detectLayout(shape, numClasses);
    if (!layout)
        return fail(layout.error());
    const auto rows = static_cast<size_t>(shape[1]), columns = static_cast<size_t>(shape[2]);
    std::vector<Proposal> out;
    switch (*layout) {
    case OutputLayout::ChannelsFirst: {
        // Attribute-major: element (attribute c, anchor a) sits at c * anchors + a.
        const size_t anchors = columns, classes = rows - 4;
        for (size_t a = 0; a < anchors; ++a) {
            int best = 0;
            float bestScore = data[4 * anchors + a];
            for (size_t c = 1; c < classes; ++c)
                if (const float s = data[(4 + c) * anchors + a]; s > bestScore) {
                    bestScore = s;
                    best = static_cast<int>(c);
                }
            if (bestScore > confThreshold)
                out.push_back(fromCentre(data[a], data[anchors + a], data[2 * anchors + a],
                                         data[3 * anchors + a], bestScore, best));
        }
        break;
    }
    case OutputLayout::AnchorsFirst: {
        const size_t classes = columns - 5;
        for (size_t a = 0; a < rows; ++a) {
            const float* row = data + a * columns;
            if (row[4] <= confThreshold)
                continue;
            const auto best = static_cast<size_t>(std::max_element(row + 5, row + 5 + classes) - (row + 5));
            const float score = row[4] * row[5 + best];
            if (score > confThreshold)
                out.push_back(fromCentre(row[0], row[1], row[2], row[3], score, static_cast<int>(best)));
        }
        break;
    }
    case OutputLayout::EndToEnd:
        for (size_t a = 0; a < rows; ++a) {
            const float* row = data + a * columns;
            if (row[4] > confThreshold && row[2] > row[0] && row[3] > row[1])
                out.push_back(Proposal{row[0], row[1], row[2], row[3], row[4], static_cast<int>(row[5])});
        }
        break;
    }
    return out;
}

Letterbox letterboxFor(int width, int height, int side) {
    Letterbox box;
    box.width = width;
    box.height = height;
    box.scale = std::min(static_cast<double>(side) / width, static_cast<double>(side) / height);
    box.resizedWidth = static_cast<int>(std::lround(width * box.scale));
    box.resizedHeight = static_cast<int>(std::lround(height * box.scale));
    box.padX = (side - box.resizedWidth) / 2;
    box.padY = (side - box.resizedHeight) / 2;
    return box;
}

Expected<std::vector<Proposal>> detectionsFromOutput(const float* data,
                                                     const std::vector<std::int64_t>& shape,
                                                     const Letterbox& letterbox,
                                                     const SuggestOptions& options, int numClasses) {
    auto layout = detectLayout(shape, numClasses);
    if (!layout)
        return fail(layout.error());
    auto candidates = decodeOutput(data, shape, options.confThreshold, numClasses);
    if (!candidates)
        return fail(candidates.error());
    const auto width = static_cast<float>(letterbox.width), height = static_cast<float>(letterbox.height);
    for (auto& p : *candidates) {
        p.x1 = std::clamp(static_cast<float>((p.x1 - letterbox.padX) / letterbox.scale), 0.0f, width);
        p.x2 = std::clamp(static_cast<float>((p.x2 - letterbox.padX) / letterbox.scale), 0.0f, width);
        p.y1 = std::clamp(static_cast<float>((p.y1 - letterbox.padY) / letterbox.scale), 0.0f, height);
        p.y2 = std::clamp(static_cast<float>((p.y2 - letterbox.padY) / letterbox.scale), 0.0f, height);
    }
    if (*layout != OutputLayout::EndToEnd)
        return suppressOverlaps(*candidates, options);
    std::stable_sort(candidates->begin(), candidates->end(),
                     [](const Proposal& a, const Proposal& b) { return a.score > b.score; });
    if (candidates->size() > static_cast<size_t>(std::max(options.maxDetections, 0)))
        candidates->resize(static_cast<size_t>(std::max(options.maxDetections, 0)));
    return candidates;
}

std::vector<Proposal> decodeDarknetRows(const float* data, int rows, int columns, float confThreshold,
                                        int width, int height) {
    std::vector<Proposal> out;
    if (columns < 6)
        return out;
    for (int r = 0; r < rows; ++r) {
        const float* row = data + static_cast<size_t>(r) * static_cast<size_t>(columns);
        const float* best = std::max_element(row + 5, row + columns);
        if (*best <= confThreshold)
            continue;
        out.push_back(fromCentre(row[0] * static_cast<float>(width), row[1] * static_cast<float>(height),
                                 row[2] * static_cast<float>(width), row[3] * static_cast<float>(height),
                                 *best, static_cast<int>(best - (row + 5))));
    }
    return out;
}

} // namespace osprey::assist
