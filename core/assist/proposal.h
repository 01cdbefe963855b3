#pragma once
// Plain value types shared by the assist predictors: a proposed box and the suggestion settings.
// No torch, no OpenCV; safe to copy between threads.

#include <string>
#include <vector>

namespace osprey::assist {

/// One proposed box, xyxy in pixels of the image it refers to (the original image unless stated).
struct Proposal {
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    float score = 0;
    int classIndex = 0; ///< index into the predictor's names()
};

/// The declared defaults of the detection thresholds (core/model's thresholdOptions()).
float defaultConfidence();
float defaultIou();
int defaultMaxDetections();

/// Thresholds of one suggestion call; defaults are the declared ones (Ultralytics predict's).
struct SuggestOptions {
    float confThreshold = defaultConfidence(); ///< keep scores strictly above this
    float iouThreshold = defaultIou(); ///< class-aware NMS: suppress a box overlapping a kept one above this
    int maxDetections = defaultMaxDetections(); ///< per image
    int imgsz = 0;                              ///< inference size; 0 uses the model's own size
};

/// Class-aware greedy NMS (boxes of different classes never suppress each other). Keeps scores above
/// `confThreshold`, returns at most `maxDetections` proposals by descending score.
std::vector<Proposal> suppressOverlaps(const std::vector<Proposal>& candidates,
                                       const SuggestOptions& options);

} // namespace osprey::assist
