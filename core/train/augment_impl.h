#pragma once
// Private to core/train (train_data): the training augmentations on OpenCV images with their boxes, as
// Ultralytics' v8 pipeline applies them: load with the long side at imgsz, 4-image mosaic on a 2x canvas,
// random affine (translate, scale) that crops the canvas back to imgsz, HSV jitter, horizontal flip,
// letterbox (pad 114). Boxes follow every geometric step, are clipped, and degenerate ones are dropped.
// Free functions; thread-safe (each call uses only its arguments).

#include <opencv2/core.hpp>

#include <random>
#include <vector>

namespace osprey::train {

/// One box in pixels of the image it belongs to.
struct PixelBox {
    int classId = 0;
    float x1 = 0, y1 = 0, x2 = 0, y2 = 0;
    bool operator==(const PixelBox&) const = default;
};

/// An RGB image (CV_8UC3) with its boxes.
struct LabeledImage {
    cv::Mat rgb;
    std::vector<PixelBox> boxes;
    /// Set by deferResizeLongSide: the size the image stands for (its boxes are in its pixels, a mosaic
    /// places it at it), where `rgb` is still the larger decode. Empty: rgb's own size.
    cv::Size resizedTo;
};

/// Whether `image` still has its resize to do (deferResizeLongSide).
inline bool resizeDeferred(const LabeledImage& image) {
    return !image.resizedTo.empty() && image.resizedTo != image.rgb.size();
}
/// The size `image` stands for: resizedTo where set, rgb's size otherwise.
inline cv::Size placedSize(const LabeledImage& image) {
    return image.resizedTo.empty() ? image.rgb.size() : image.resizedTo;
}

inline constexpr int kPadValue = 114;

using Rng = std::mt19937;

/// Resizes so that the long side is `imgsz` (aspect kept; area interpolation when shrinking without
/// augmentation, bilinear otherwise) and scales the boxes alike.
LabeledImage resizeLongSide(const LabeledImage& image, int imgsz, bool augment);
/// resizeLongSide(image, imgsz, true) without touching the pixels: the boxes scaled, `resizedTo` set (where
/// the size changes). mosaicAffine samples such an image straight from its decode (one bilinear
/// interpolation instead of the resize's and the warp's); anything else takes `resolved(image)`.
LabeledImage deferResizeLongSide(LabeledImage image, int imgsz);
/// The image at the size it stands for: a deferred resize done (exactly resizeLongSide's pixels and boxes),
/// any other image as it is.
LabeledImage resolved(const LabeledImage& image);

/// Pads (centred, 114) to `width` x `height` without scaling; shifts the boxes. The image must fit.
LabeledImage letterboxPad(const LabeledImage& image, int width, int height);

/// Four images (each resized with resizeLongSide, or deferred: resolved here) on a 2*imgsz canvas around the
/// centre (centreX, centreY), Ultralytics' placement: top-left, top-right, bottom-left, bottom-right. Boxes
/// are shifted and clipped to the canvas.
LabeledImage mosaic4(const std::vector<LabeledImage>& images, int imgsz, int centreX, int centreY);

/// Where each of mosaic4's tiles lands: `canvas` on the 2*imgsz canvas, `source` the part of the image
/// that is copied there (same size; empty when the tile falls outside).
struct MosaicTile {
    cv::Rect canvas, source;
};
std::vector<MosaicTile> mosaicTiles(const std::vector<LabeledImage>& images, int imgsz, int centreX,
                                    int centreY);

/// Parameters of one affine draw.
struct AffineParams {
    double scale = 1.0;      ///< zoom factor
    double translateX = 0.5; ///< output centre position as a fraction of the output width
    double translateY = 0.5;
};
AffineParams drawAffine(Rng& rng, double scaleGain, double translateGain);

/// Warps `image` with M = T * S * C: C moves the input's centre to the origin, S scales, T moves it to
/// (translateX * outWidth, translateY * outHeight). The output is outWidth x outHeight, filled with 114.
/// Boxes: the four corners are transformed, their hull is clipped to the output, and boxes that end up
/// narrower or shorter than 2 px, keep less than 10% of their (scaled) area, or have an aspect ratio
/// above 100 are dropped. `mirror`: the output mirrored left-right as flipHorizontal mirrors it, pixels and
/// boxes, in the same pass.
LabeledImage affineWarp(const LabeledImage& image, const AffineParams& params, int outWidth, int outHeight,
                        bool mirror = false);

/// affineWarp(mosaic4(images, imgsz, centreX, centreY), params, imgsz, imgsz) without the 2*imgsz canvas:
/// each tile is warped straight into the imgsz x imgsz output, over the pixels that sample it. The boxes
/// are exactly the two-step path's; the pixels are too, except on the one-pixel seams between tiles (and
/// between a tile and the canvas's grey), where a pixel interpolates with its own tile's edge instead of
/// the neighbour. An image whose resize is deferred (deferResizeLongSide) is sampled from its decode, as
/// if resized (the same boxes; pixels from one interpolation instead of two). `into`, when given, is the
/// imgsz x imgsz CV_8UC3 image written (every pixel, e.g. a batch's slot); otherwise a new one is.
/// `mirror`: the output mirrored left-right as flipHorizontal mirrors it, pixels and boxes, in the same pass
/// (each tile's columns warped right to left).
LabeledImage mosaicAffine(const std::vector<LabeledImage>& images, int imgsz, int centreX, int centreY,
                          const AffineParams& params, cv::Mat into = {}, bool mirror = false);

/// cv::warpAffine(src, dst, [scaleX 0 offsetX; 0 scaleY offsetY], dst.size(), INTER_LINEAR, borderType,
/// borderValue) for CV_8UC3 images, the same pixels exactly, computed separably (scale_warp.cpp): one
/// 640x640 output in 0.21-0.22 against 3.05-3.06 ms on one core of a Zen 2 EPYC (bench_pipeline profile).
/// `dst` is written in place (it may be a region of a larger image); `borderType` is BORDER_REPLICATE or
/// BORDER_CONSTANT; scales > 0. `mirror`: `dst` written mirrored left-right (cv::flip of the warp's
/// pixels, in the same pass).
void warpScaleTranslate(const cv::Mat& src, cv::Mat& dst, double scaleX, double scaleY, double offsetX,
                        double offsetY, int borderType, int borderValue = kPadValue, bool mirror = false);
/// The same with one scale for both axes.
inline void warpScaleTranslate(const cv::Mat& src, cv::Mat& dst, double scale, double offsetX, double offsetY,
                               int borderType, int borderValue = kPadValue) {
    warpScaleTranslate(src, dst, scale, scale, offsetX, offsetY, borderType, borderValue);
}

/// HSV jitter as Ultralytics 8.4 draws it (r = uniform(-1, 1) * gain per channel, none drawn when every gain
/// is 0; hue shifted by r_h * 180 in OpenCV's 8-bit hue, 0..179, wrapping at 180; saturation and value
/// multiplied by 1 + r_s and 1 + r_v), then the left-right flip with probability `fliplr` (one more
/// uniform draw), in one pass over the rows: each row is mirrored right after its jitter, while it is in
/// cache. The pixels and boxes of hsvApply followed by flipHorizontal.
void jitterAndFlip(LabeledImage& image, double hueGain, double satGain, double valGain, double fliplr,
                   Rng& rng);
/// jitterAndFlip's draws, in its order, and their application: applyColour(image, drawColour(rng, ...)) is
/// jitterAndFlip. Drawn ahead, the flip can be done by the warp (mosaicAffine's `mirror`): `mirrored` says
/// the image and its boxes are mirrored already, and only the jitter is left.
struct ColourDraw {
    bool jitter = false; ///< false when every gain is 0 (nothing drawn for it)
    double hueShift = 0, satFactor = 1, valFactor = 1;
    bool flip = false;
};
ColourDraw drawColour(Rng& rng, double hueGain, double satGain, double valGain, double fliplr);
void applyColour(LabeledImage& image, const ColourDraw& draw, bool mirrored = false);
/// Which form of the HSV pass runs: the fastest the CPU has (AVX-512 with VBMI, else AVX2, else the portable
/// loop), the AVX2 one where the CPU has AVX2, or the portable loop. All give the same bytes (the test and
/// the bench compare them).
enum class HsvKernel { Fastest, Avx2, Portable };
/// Whether this CPU runs the HSV pass's AVX2 kernel, and its AVX-512 one.
bool hsvAvx2Available();
bool hsvAvx512Available();
/// The HSV jitter with a given hue shift (in [-180, 180]) and factors (in [0, 2]); `mirror`: each row also
/// mirrored left-right after its jitter (flipHorizontal's pixels; boxes are the caller's).
void hsvApply(cv::Mat& rgb, double hueShift, double satFactor, double valFactor,
              HsvKernel kernel = HsvKernel::Fastest, bool mirror = false);
/// Whether the AVX2 kernel computes this jitter's lookup tables in closed form (nearly every jitter) or
/// reads them with gathers (the few whose tables no closed form gives exactly); for the test that covers
/// both.
bool hsvTablesInClosedForm(double hueShift, double satFactor, double valFactor);

/// Mirrors left-right, boxes included.
void flipHorizontal(LabeledImage& image);
/// Mirrors one row of `width` RGB pixels in place, through `copy` (3 * width + 1 bytes of scratch).
void mirrorRgbRow(std::uint8_t* row, int width, std::uint8_t* copy);

/// Keeps boxes at least 2 px wide and high after clipping to width x height.
void clipBoxes(std::vector<PixelBox>& boxes, int width, int height);

} // namespace osprey::train
