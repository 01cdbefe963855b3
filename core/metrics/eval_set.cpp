#include "metrics/eval_set.h"

#include <cmath>

namespace osprey::metrics {

namespace {

std::string checkBox(const BoxXyxy& box) {
    if (!std::isfinite(box.x1) || !std::isfinite(box.y1) || !std::isfinite(box.x2) || !std::isfinite(box.y2))
        return "coordinates are not finite numbers";
    if (box.x2 < box.x1 || box.y2 < box.y1)
        return "negative size (x2 < x1 or y2 < y1)";
    return {};
}

} // namespace

Status EvalSet::validate() const {
    const int classCount = static_cast<int>(classNames.size());
    for (const auto& image : images) {
        for (size_t i = 0; i < image.truths.size(); ++i) {
            const auto& truth = image.truths[i];
            const std::string where = "image '" + image.name + "': ground truth " + std::to_string(i + 1);
            if (truth.classId < 0 || truth.classId >= classCount)
                return fail(where + ": class id " + std::to_string(truth.classId) + " is outside 0.." +
                            std::to_string(classCount - 1));
            if (const auto problem = checkBox(truth.boxPx); !problem.empty())
                return fail(where + ": " + problem);
        }
        for (size_t i = 0; i < image.detections.size(); ++i) {
            const auto& detection = image.detections[i];
            const std::string where = "image '" + image.name + "': detection " + std::to_string(i + 1);
            if (detection.classId < 0 || detection.classId >= classCount)
                return fail(where + ": class id " + std::to_string(detection.classId) + " is outside 0.." +
                            std::to_string(classCount - 1));
            if (const auto problem = checkBox(detection.boxPx); !problem.empty())
                return fail(where + ": " + problem);
            if (!std::isfinite(detection.score))
                return fail(where + ": score is not a finite number");
        }
    }
    return {};
}

} // namespace osprey::metrics
