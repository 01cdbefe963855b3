#pragma once
// The torch interface of core/model (for its LibTorch consumers, core/train): the tensor side of inference.
// Preprocessing into the network's input layout, NMS over decoded predictions, and device parsing. Free
// functions; thread-safe as long as the tensors passed in are not shared with a writer.

#include "common/expected.h"
#include "model/detection.h"

#include <torch/torch.h>

#include <string>
#include <vector>

namespace osprey::model {

/// "cpu", "0", "1", "cuda", "cuda:1" -> a torch device. Fails when CUDA is asked for and absent.
Expected<torch::Device> parseDevice(const std::string& text);

/// Stacks already letterboxed RGB uint8 images of equal size into float [N, 3, H, W] in 0..1 on
/// `device`. The pixel conversion runs on the device.
Expected<torch::Tensor> imagesToTensor(const std::vector<ImageView>& images, const torch::Device& device);

/// Letterboxes one RGB image with torch (bilinear resize, centred padding of 114) into float
/// [3, H, W] in 0..1; for callers without core/imaging. `info` receives the mapping.
Expected<torch::Tensor> letterboxToTensor(const ImageView& image, int targetSize, int stride, bool autoRect,
                                          LetterboxInfo* info);

/// NMS over decoded predictions [N, 4 + nc, A] (cx, cy, w, h, scores). Returns per image the kept
/// detections in input pixels, by descending score.
std::vector<std::vector<Detection>> nonMaxSuppression(const torch::Tensor& decoded,
                                                      const NmsOptions& options);

/// The detections of an end-to-end output [N, k, 6] (x1, y1, x2, y2, score, class; DetectionModel::
/// forwardEndToEnd): per image the rows scoring strictly above options.confThreshold, at most
/// options.maxDetections, in input pixels, by descending score. No suppression, as Ultralytics reads it.
std::vector<std::vector<Detection>> endToEndDetections(const torch::Tensor& output,
                                                       const NmsOptions& options);

} // namespace osprey::model
