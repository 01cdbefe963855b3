#pragma once
// In-memory boxes to score. Every evaluator in core/metrics takes these value types, so the trainer's
// validation, `osprey-cli eval` and the tests all run the same code. Plain values: safe to build on one
// thread and read from another once built.

#include "common/expected.h"

#include <string>
#include <vector>

namespace osprey::metrics {

/// An axis-aligned box in image pixels: (x1, y1) is the top-left corner, (x2, y2) the bottom-right.
struct BoxXyxy {
    double x1 = 0;
    double y1 = 0;
    double x2 = 0;
    double y2 = 0;

    double width() const { return x2 - x1; }
    double height() const { return y2 - y1; }
    double area() const { return width() * height(); }
};

/// One ground-truth object.
struct GroundTruthBox {
    BoxXyxy boxPx;
    int classId = 0;
    /// COCO iscrowd: a region covering many objects. COCO style matches any number of detections to it
    /// (IoU taken over the detection's area) and ignores them. The other styles drop crowd boxes, as
    /// Ultralytics' and VOC's converters do.
    bool crowd = false;
    /// VOC "difficult" / COCO "ignore": a detection matched to it counts neither as a true nor as a false
    /// positive, and missing it costs no recall.
    bool ignore = false;
    /// The area that decides COCO's small/medium/large range (COCO's "area" field, usually the mask
    /// area). Negative means "use the box area".
    double areaPx2 = -1;

    double rangeAreaPx2() const { return areaPx2 >= 0 ? areaPx2 : boxPx.area(); }
};

/// One detection of a predictor.
struct DetectionBox {
    BoxXyxy boxPx;
    int classId = 0;
    double score = 0;
};

/// The ground truth and the detections of one image.
struct ImageBoxes {
    std::string name; ///< file stem or image id; used in reports and messages only
    int widthPx = 0;  ///< 0 when unknown
    int heightPx = 0; ///< 0 when unknown
    std::vector<GroundTruthBox> truths;
    std::vector<DetectionBox> detections;
};

/// A whole evaluation: the class names (classId indexes them) and the images, in evaluation order.
/// COCO style breaks score ties by this image order, as pycocotools does with sorted image ids.
struct EvalSet {
    std::vector<std::string> classNames;
    std::vector<ImageBoxes> images;

    /// Checks class ids, finite coordinates, non-negative sizes and finite scores. The message names the
    /// image and the box.
    Status validate() const;
};

} // namespace osprey::metrics
