#pragma once
// Plain value types of the inference pipeline: detections, NMS options, letterbox geometry and image
// views. No torch; safe to pass between threads by value.

#include "model/model_options.h"

#include <cstdint>
#include <vector>

namespace osprey::model {

/// One detected box, xyxy in pixels of the image it refers to (letterboxed input or original).
struct Detection {
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    float score = 0;
    int classId = 0;
};

/// Whether a box may carry several classes.
enum class LabelMode {
    Best,  ///< one detection per box: the highest-scoring class
    Multi, ///< one detection per (box, class) pair above the confidence threshold (validation)
};

/// Whether suppression compares boxes of the same class only.
enum class ClassMode { PerClass, Agnostic };

/// Which branch of a YOLO26 (end-to-end) head inference reads, as Ultralytics 8.4.190's `nms` option
/// chooses: the one-to-many branch with NMS (nms unset, the default) or the NMS-free one-to-one branch
/// (nms=false: the top maxDetections (anchor, class) scores, kept above the confidence threshold).
/// Other families have the one-to-many head only.
enum class HeadBranch { OneToMany, OneToOne };

/// Non-maximum suppression settings; the thresholds default to their declaration (thresholdOptions()).
struct NmsOptions {
    float confThreshold = defaultConfidence(); ///< keep scores strictly above this
    float iouThreshold = defaultIou(); ///< suppress a box whose IoU with a kept box is strictly above this
    int maxDetections = defaultMaxDetections(); ///< per image, after suppression
    int maxCandidates = 30000;                  ///< highest-scoring candidates considered per image
    LabelMode labels = LabelMode::Best;
    ClassMode classes = ClassMode::PerClass;
    HeadBranch branch = HeadBranch::OneToMany; ///< YOLO26: OneToOne reads the head without NMS
};

/// Where a letterboxed image came from: input = original * scale + pad.
struct LetterboxInfo {
    double scale = 1;
    double padX = 0, padY = 0;
};

/// A borrowed interleaved RGB uint8 image, row-major, rows packed (stride = width * 3).
struct ImageView {
    const std::uint8_t* rgb = nullptr;
    int width = 0, height = 0;
};

/// Greedy NMS over candidate boxes. Returns the indices kept, by descending score (ties keep input
/// order), at most `maxDetections`. Scores are not thresholded here.
std::vector<int> greedyNms(const std::vector<Detection>& candidates, float iouThreshold, int maxDetections,
                           ClassMode classes);

/// IoU of two xyxy boxes (0 when either is empty).
float boxIou(const Detection& a, const Detection& b);

/// Maps boxes from letterboxed input pixels back to the original image and clips them to it.
void mapToOriginal(std::vector<Detection>& detections, const LetterboxInfo& letterbox, int originalWidth,
                   int originalHeight);

/// Ultralytics letterbox geometry for an image of `width` x `height` into `targetSize`: the scale, the
/// centred padding and the output size. With `autoRect`, the output is the smallest stride-aligned
/// rectangle; otherwise a targetSize square.
struct LetterboxGeometry {
    LetterboxInfo info;
    int resizedWidth = 0, resizedHeight = 0; ///< the scaled image inside the padding
    int outWidth = 0, outHeight = 0;
};
LetterboxGeometry letterboxGeometry(int width, int height, int targetSize, int stride, bool autoRect);

} // namespace osprey::model
