#pragma once
// Private: the graph-cut segmentation behind snap's single-colour path. GrabCut's energy (Rother et al.
// 2004: colour likelihoods plus a contrast-sensitive smoothness term, solved by max-flow), but with the
// foreground modelled by ONE Gaussian. OpenCV's grabCut fixes both models at five components, so a
// flat-coloured object's model also absorbs whatever else lies inside a loose box (lines, a neighbour's
// edge, a background blob) and the cut leaks into them. Thread-safe; no shared state.

#include <opencv2/core.hpp>

namespace osprey::assist::detail {

/// Pixel labels of a segmentation mask (CV_8UC1).
enum SegmentLabel : unsigned char {
    kBackground = 0,         ///< fixed background: never relabelled
    kProbableBackground = 1, ///< free, currently background
    kProbableForeground = 2, ///< free, currently foreground
};

/// Segments `image` (CV_8UC3) in place of `labels`: the free pixels (1 or 2) are relabelled by
/// `iterations` rounds of model re-estimation and max-flow. The background model is a mixture of
/// `backgroundComponents` Gaussians fitted to the labelled background. Returns false when either side
/// has too few pixels to fit a model (labels are then unchanged).
bool segmentSingleColour(const cv::Mat& image, cv::Mat& labels, int iterations, int backgroundComponents = 5);

} // namespace osprey::assist::detail
