#pragma once
// Small builders for hand-made evaluation cases.

#include "metrics/eval_set.h"

namespace osprey::metrics::test {

inline GroundTruthBox truth(double x1, double y1, double x2, double y2, int classId = 0, bool crowd = false) {
    GroundTruthBox box;
    box.boxPx = {x1, y1, x2, y2};
    box.classId = classId;
    box.crowd = crowd;
    return box;
}

inline DetectionBox detection(double x1, double y1, double x2, double y2, double score, int classId = 0) {
    DetectionBox box;
    box.boxPx = {x1, y1, x2, y2};
    box.classId = classId;
    box.score = score;
    return box;
}

inline EvalSet oneImage(std::vector<GroundTruthBox> truths, std::vector<DetectionBox> detections,
                        int classes = 1) {
    EvalSet set;
    for (int k = 0; k < classes; ++k)
        set.classNames.push_back(std::string("c").append(std::to_string(k)));
    set.images.push_back(ImageBoxes{"img", 0, 0, std::move(truths), std::move(detections)});
    return set;
}

} // namespace osprey::metrics::test
