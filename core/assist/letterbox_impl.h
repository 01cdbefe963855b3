#pragma once
// Private: the network input of the ONNX predictor, as Ultralytics' LetterBox makes it (OpenCV resize,
// grey 114 padding), for the predictor and for tests that run the same input elsewhere (onnxruntime).

#include "assist/output_layout.h"
#include "imaging/image.h"

#include <vector>

namespace osprey::assist {

/// `image` (RGB) letterboxed to `side` x `side`: planar RGB float32 in 0..1, [3, side, side] row-major.
/// `letterbox` receives how input pixels map back to the image.
std::vector<float> letterboxPlanar(const imaging::Image& image, int side, Letterbox* letterbox);

} // namespace osprey::assist
