#pragma once
// Decoders for raw detector outputs, as pure functions on float buffers and their shapes, so that they
// are testable on synthetic tensors. Boxes come back in network input pixels, before NMS.

#include "assist/proposal.h"
#include "common/expected.h"

#include <cstdint>
#include <string>
#include <vector>

namespace osprey::assist {

/// The Ultralytics ONNX output layouts.
enum class OutputLayout {
    ChannelsFirst, ///< [1, 4+nc, A]: YOLOv8/YOLO11, cx cy w h in input pixels, then nc class scores
    AnchorsFirst,  ///< [1, A, 5+nc]: YOLOv5, cx cy w h, objectness, nc class scores
    EndToEnd,      ///< [1, N, 6]: x1 y1 x2 y2 score class, one row per object already (N is typically 300:
                   ///< YOLO26 exported with nms=False, metadata end2end=True; YOLOv10)
};

std::string toString(OutputLayout layout);
/// "[1, 84, 8400]"
std::string shapeText(const std::vector<std::int64_t>& shape);

/// Recognises the layout of an output shape. `numClasses` (0 = unknown, e.g. no names) disambiguates
/// when given. Fails with a message naming the shape found and the layouts expected.
Expected<OutputLayout> detectLayout(const std::vector<std::int64_t>& shape, int numClasses = 0);

/// Decodes one image's output (batch 1) into candidates with score above `confThreshold`, in input
/// pixels. For AnchorsFirst the score is objectness * class score. Fails on an unknown layout.
Expected<std::vector<Proposal>> decodeOutput(const float* data, const std::vector<std::int64_t>& shape,
                                             float confThreshold, int numClasses = 0);

/// How a letterboxed network input maps to the image: input px = image px * scale + pad (Ultralytics'
/// LetterBox: long side to the input side, centred grey padding).
struct Letterbox {
    double scale = 1;
    int padX = 0, padY = 0;
    int width = 0, height = 0; ///< the image's size, to clip to
    int resizedWidth = 0, resizedHeight = 0;
};
Letterbox letterboxFor(int width, int height, int side);

/// One image's detections from a raw output (batch 1): decodeOutput, boxes mapped back through `letterbox`
/// and clipped to the image, then class-aware NMS (suppressOverlaps) for the layouts that need it. The
/// EndToEnd layout already holds one row per object: it gets the confidence filter and max_det only, as
/// Ultralytics treats an end2end export (NMS would drop the one-to-one head's overlapping boxes of one class,
/// which Ultralytics keeps). By descending score.
Expected<std::vector<Proposal>> detectionsFromOutput(const float* data,
                                                     const std::vector<std::int64_t>& shape,
                                                     const Letterbox& letterbox,
                                                     const SuggestOptions& options, int numClasses = 0);

/// Decodes Darknet YOLO region rows as OpenCV DNN emits them: `rows` x (5 + nc) floats of cx cy w h
/// (0-1 of the input), objectness, then class scores (OpenCV already multiplies them by objectness).
/// Boxes come back in pixels of an image `width` x `height` (the input was a plain resize of it).
std::vector<Proposal> decodeDarknetRows(const float* data, int rows, int columns, float confThreshold,
                                        int width, int height);

} // namespace osprey::assist
