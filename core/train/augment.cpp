#include "train/augment_impl.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define OSPREY_MIRROR_SSSE3 1
#endif

namespace osprey::train {

namespace {

constexpr float kMinSidePx = 2.0f;
constexpr float kMinAreaRatio = 0.1f;
constexpr float kMaxAspect = 100.0f;

double uniform(Rng& rng, double low, double high) {
    return std::uniform_real_distribution<double>(low, high)(rng);
}

#ifdef OSPREY_MIRROR_SSSE3
// mirrorRgbRow five pixels (15 bytes) a byte shuffle: 0.17 against cv::flip's 0.45 ms for a 640x640 image
// on one core of a Zen 2 EPYC.
__attribute__((target("ssse3"))) void mirrorRgbRowSsse3(std::uint8_t* out, int width, std::uint8_t* copy) {
    const __m128i reverse = _mm_setr_epi8(12, 13, 14, 9, 10, 11, 6, 7, 8, 3, 4, 5, 0, 1, 2, 15);
    std::memcpy(copy, out, 3 * static_cast<std::size_t>(width));
    int x = 0;
    // Output pixels x..x+4 are the row's width-1-x..width-5-x. The 16-byte store's last byte falls on
    // pixel x+5, written again by the next step or the loop after, hence x + 6.
    for (; x + 6 <= width; x += 5) {
        const __m128i source = _mm_loadu_si128(reinterpret_cast<const __m128i*>(copy + 3 * (width - x - 5)));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 3 * x), _mm_shuffle_epi8(source, reverse));
    }
    for (; x < width; ++x)
        std::memcpy(out + 3 * x, copy + 3 * (width - 1 - x), 3);
}
#endif

void flipBoxes(std::vector<PixelBox>& boxes, int width) {
    for (auto& box : boxes) {
        const float x1 = static_cast<float>(width) - box.x2, x2 = static_cast<float>(width) - box.x1;
        box.x1 = x1;
        box.x2 = x2;
    }
}

} // namespace

namespace {

// resizeLongSide's size: the long side imgsz, the short one rounded up, as Ultralytics' load_image.
cv::Size longSideSize(cv::Size size, int imgsz) {
    const double ratio = static_cast<double>(imgsz) / std::max(size.width, size.height);
    return {std::min(static_cast<int>(std::ceil(size.width * ratio)), imgsz),
            std::min(static_cast<int>(std::ceil(size.height * ratio)), imgsz)};
}

std::vector<PixelBox> scaledBoxes(std::vector<PixelBox> boxes, cv::Size from, cv::Size to) {
    const float sx = static_cast<float>(to.width) / static_cast<float>(from.width),
                sy = static_cast<float>(to.height) / static_cast<float>(from.height);
    for (auto& box : boxes) {
        box.x1 *= sx;
        box.x2 *= sx;
        box.y1 *= sy;
        box.y2 *= sy;
    }
    return boxes;
}

} // namespace

LabeledImage resizeLongSide(const LabeledImage& image, int imgsz, bool augment) {
    const cv::Size from = placedSize(image);
    if (std::max(from.width, from.height) == imgsz)
        return resolved(image);
    const cv::Size to = longSideSize(from, imgsz);
    const bool enlarge = imgsz > std::max(from.width, from.height);
    LabeledImage out;
    cv::resize(resolved(image).rgb, out.rgb, to, 0, 0,
               (augment || enlarge) ? cv::INTER_LINEAR : cv::INTER_AREA);
    out.boxes = scaledBoxes(image.boxes, from, to);
    return out;
}

LabeledImage deferResizeLongSide(LabeledImage image, int imgsz) {
    const cv::Size from = placedSize(image);
    if (std::max(from.width, from.height) == imgsz)
        return image;
    const cv::Size to = longSideSize(from, imgsz);
    image.boxes = scaledBoxes(std::move(image.boxes), from, to);
    image.resizedTo = to;
    return image;
}

LabeledImage resolved(const LabeledImage& image) {
    if (!resizeDeferred(image))
        return image;
    LabeledImage out;
    cv::resize(image.rgb, out.rgb, image.resizedTo, 0, 0, cv::INTER_LINEAR);
    out.boxes = image.boxes;
    return out;
}

LabeledImage letterboxPad(const LabeledImage& image, int width, int height) {
    const int padWidth = width - image.rgb.cols, padHeight = height - image.rgb.rows;
    // Odd padding puts the extra pixel at the bottom/right, as Ultralytics' round(d -/+ 0.1) does.
    const int left = static_cast<int>(std::lround(padWidth / 2.0 - 0.1));
    const int top = static_cast<int>(std::lround(padHeight / 2.0 - 0.1));
    LabeledImage out;
    cv::copyMakeBorder(image.rgb, out.rgb, top, padHeight - top, left, padWidth - left, cv::BORDER_CONSTANT,
                       cv::Scalar(kPadValue, kPadValue, kPadValue));
    out.boxes = image.boxes;
    for (auto& box : out.boxes) {
        box.x1 += static_cast<float>(left);
        box.x2 += static_cast<float>(left);
        box.y1 += static_cast<float>(top);
        box.y2 += static_cast<float>(top);
    }
    return out;
}

std::vector<MosaicTile> mosaicTiles(const std::vector<LabeledImage>& images, int imgsz, int centreX,
                                    int centreY) {
    const int side = 2 * imgsz;
    std::vector<MosaicTile> tiles;
    for (size_t i = 0; i < images.size() && i < 4; ++i) {
        const cv::Size size = placedSize(images[i]);
        const int w = size.width, h = size.height;
        int xa1 = 0, ya1 = 0, xa2 = 0, ya2 = 0, xb1 = 0, yb1 = 0, xb2 = 0, yb2 = 0;
        if (i == 0) { // top left
            xa1 = std::max(centreX - w, 0), ya1 = std::max(centreY - h, 0), xa2 = centreX, ya2 = centreY;
            xb1 = w - (xa2 - xa1), yb1 = h - (ya2 - ya1), xb2 = w, yb2 = h;
        } else if (i == 1) { // top right
            xa1 = centreX, ya1 = std::max(centreY - h, 0), xa2 = std::min(centreX + w, side), ya2 = centreY;
            xb1 = 0, yb1 = h - (ya2 - ya1), xb2 = std::min(w, xa2 - xa1), yb2 = h;
        } else if (i == 2) { // bottom left
            xa1 = std::max(centreX - w, 0), ya1 = centreY, xa2 = centreX, ya2 = std::min(side, centreY + h);
            xb1 = w - (xa2 - xa1), yb1 = 0, xb2 = w, yb2 = std::min(ya2 - ya1, h);
        } else { // bottom right
            xa1 = centreX, ya1 = centreY, xa2 = std::min(centreX + w, side),
            ya2 = std::min(side, centreY + h);
            xb1 = 0, yb1 = 0, xb2 = std::min(w, xa2 - xa1), yb2 = std::min(ya2 - ya1, h);
        }
        tiles.push_back({cv::Rect(xa1, ya1, xa2 - xa1, ya2 - ya1), cv::Rect(xb1, yb1, xb2 - xb1, yb2 - yb1)});
    }
    return tiles;
}

namespace {

// The tiles' boxes shifted onto the 2*imgsz canvas and clipped to it.
std::vector<PixelBox> mosaicBoxes(const std::vector<LabeledImage>& images,
                                  const std::vector<MosaicTile>& tiles, int imgsz) {
    std::vector<PixelBox> boxes;
    for (size_t i = 0; i < tiles.size(); ++i) {
        const float padX = static_cast<float>(tiles[i].canvas.x - tiles[i].source.x),
                    padY = static_cast<float>(tiles[i].canvas.y - tiles[i].source.y);
        for (auto box : images[i].boxes) {
            box.x1 += padX;
            box.x2 += padX;
            box.y1 += padY;
            box.y2 += padY;
            boxes.push_back(box);
        }
    }
    clipBoxes(boxes, 2 * imgsz, 2 * imgsz);
    return boxes;
}

// x' = s * (x + cx) + tx: affineWarp's matrix for an input of inWidth x inHeight.
cv::Matx23d affineMatrix(const AffineParams& params, int inWidth, int inHeight, int outWidth, int outHeight) {
    const double s = params.scale;
    const double cx = -inWidth / 2.0, cy = -inHeight / 2.0;
    const double tx = params.translateX * outWidth, ty = params.translateY * outHeight;
    return {s, 0, s * cx + tx, 0, s, s * cy + ty};
}

// Boxes through the affine matrix: corners transformed, hull clipped to the output, and the filter.
std::vector<PixelBox> warpBoxes(const std::vector<PixelBox>& boxes, const cv::Matx23d& m, double s,
                                int outWidth, int outHeight) {
    std::vector<PixelBox> out;
    for (const auto& box : boxes) {
        const float xs[4] = {box.x1, box.x2, box.x2, box.x1}, ys[4] = {box.y1, box.y1, box.y2, box.y2};
        float minX = 1e30f, minY = 1e30f, maxX = -1e30f, maxY = -1e30f;
        for (int k = 0; k < 4; ++k) {
            const float x = static_cast<float>(m(0, 0) * xs[k] + m(0, 1) * ys[k] + m(0, 2));
            const float y = static_cast<float>(m(1, 0) * xs[k] + m(1, 1) * ys[k] + m(1, 2));
            minX = std::min(minX, x), maxX = std::max(maxX, x), minY = std::min(minY, y),
            maxY = std::max(maxY, y);
        }
        PixelBox moved{box.classId, std::clamp(minX, 0.0f, static_cast<float>(outWidth)),
                       std::clamp(minY, 0.0f, static_cast<float>(outHeight)),
                       std::clamp(maxX, 0.0f, static_cast<float>(outWidth)),
                       std::clamp(maxY, 0.0f, static_cast<float>(outHeight))};
        const float w1 = (box.x2 - box.x1) * static_cast<float>(s),
                    h1 = (box.y2 - box.y1) * static_cast<float>(s);
        const float w2 = moved.x2 - moved.x1, h2 = moved.y2 - moved.y1;
        const float aspect = std::max(w2 / (h2 + 1e-16f), h2 / (w2 + 1e-16f));
        if (w2 > kMinSidePx && h2 > kMinSidePx && w2 * h2 / (w1 * h1 + 1e-16f) > kMinAreaRatio &&
            aspect < kMaxAspect)
            out.push_back(moved);
    }
    return out;
}

// Sets the pixels of `image` (CV_8UC3) that no rectangle of `covered` holds to the padding grey, row by
// row: the tiles of a mosaic leave about 4 % of it, and the rest need not be written twice.
void fillOutside(cv::Mat& image, const std::vector<cv::Rect>& covered) {
    std::vector<std::pair<int, int>> spans;
    for (int y = 0; y < image.rows; ++y) {
        spans.clear();
        for (const auto& rect : covered)
            if (y >= rect.y && y < rect.y + rect.height)
                spans.emplace_back(rect.x, rect.x + rect.width);
        std::sort(spans.begin(), spans.end());
        std::uint8_t* row = image.ptr<std::uint8_t>(y);
        int x = 0;
        const auto fill = [&](int end) {
            if (end > x)
                std::memset(row + 3 * x, kPadValue, 3 * static_cast<std::size_t>(end - x));
        };
        for (const auto& [begin, end] : spans) {
            fill(begin);
            x = std::max(x, end);
        }
        fill(image.cols);
    }
}

} // namespace

LabeledImage mosaic4(const std::vector<LabeledImage>& images, int imgsz, int centreX, int centreY) {
    const int side = 2 * imgsz;
    LabeledImage out;
    out.rgb = cv::Mat(side, side, CV_8UC3, cv::Scalar(kPadValue, kPadValue, kPadValue));
    const auto tiles = mosaicTiles(images, imgsz, centreX, centreY);
    for (size_t i = 0; i < tiles.size(); ++i)
        if (!tiles[i].canvas.empty())
            resolved(images[i]).rgb(tiles[i].source).copyTo(out.rgb(tiles[i].canvas));
    out.boxes = mosaicBoxes(images, tiles, imgsz);
    return out;
}

LabeledImage mosaicAffine(const std::vector<LabeledImage>& images, int imgsz, int centreX, int centreY,
                          const AffineParams& params, cv::Mat into, bool mirror) {
    const int side = 2 * imgsz;
    const cv::Matx23d m = affineMatrix(params, side, side, imgsz, imgsz);
    const double s = params.scale, offsetX = m(0, 2), offsetY = m(1, 2);
    LabeledImage out;
    CV_Assert(into.empty() || (into.rows == imgsz && into.cols == imgsz && into.type() == CV_8UC3));
    out.rgb = into.empty() ? cv::Mat(imgsz, imgsz, CV_8UC3) : into;
    std::vector<cv::Rect> covered;
    const auto tiles = mosaicTiles(images, imgsz, centreX, centreY);
    for (size_t i = 0; i < tiles.size(); ++i) {
        const cv::Rect& canvas = tiles[i].canvas;
        if (canvas.empty())
            continue;
        // Output pixel x samples canvas (x - offsetX) / s; it is this tile's when that falls in
        // [canvas.x, canvas.x + width), as in the warp of the whole canvas.
        const auto first = [&](double canvasCoordinate, double offset) {
            return static_cast<int>(std::ceil(s * canvasCoordinate + offset - 1e-9));
        };
        const int x1 = std::max(0, first(canvas.x, offsetX)),
                  x2 = std::min(imgsz, first(canvas.x + canvas.width, offsetX));
        const int y1 = std::max(0, first(canvas.y, offsetY)),
                  y2 = std::min(imgsz, first(canvas.y + canvas.height, offsetY));
        if (x2 <= x1 || y2 <= y1)
            continue;
        const cv::Vec2d tile(s * canvas.x + offsetX - x1, s * canvas.y + offsetY - y1);
        // Mirrored, columns [x1, x2) land on [imgsz - x2, imgsz - x1), right to left.
        covered.emplace_back(mirror ? imgsz - x2 : x1, y1, x2 - x1, y2 - y1);
        cv::Mat target = out.rgb(covered.back());
        // Replicate: a seam pixel blends with its own tile's edge instead of the neighbour's.
        const cv::Rect& source = tiles[i].source;
        const LabeledImage& image = images[i];
        if (!resizeDeferred(image)) {
            warpScaleTranslate(image.rgb(source), target, s, s, tile[0], tile[1], cv::BORDER_REPLICATE,
                               kPadValue, mirror);
            continue;
        }
        // A deferred resize: the source's placed pixel u is the decode's (u + 0.5) / k - 0.5 (k = placed /
        // decoded size, per axis, as cv::resize maps), so the warp scales by s * k from the decode's pixels
        // that hold the source rectangle (cropped there, for the seams' replicated edge).
        const double kx = static_cast<double>(image.resizedTo.width) / image.rgb.cols,
                     ky = static_cast<double>(image.resizedTo.height) / image.rgb.rows;
        const int cropX1 = static_cast<int>(std::floor(source.x / kx)),
                  cropX2 =
                      std::min(image.rgb.cols, static_cast<int>(std::ceil((source.x + source.width) / kx)));
        const int cropY1 = static_cast<int>(std::floor(source.y / ky)),
                  cropY2 =
                      std::min(image.rgb.rows, static_cast<int>(std::ceil((source.y + source.height) / ky)));
        const cv::Rect crop(cropX1, cropY1, cropX2 - cropX1, cropY2 - cropY1);
        warpScaleTranslate(image.rgb(crop), target, s * kx, s * ky,
                           tile[0] - s * (source.x + 0.5) + s * kx * (cropX1 + 0.5),
                           tile[1] - s * (source.y + 0.5) + s * ky * (cropY1 + 0.5), cv::BORDER_REPLICATE,
                           kPadValue, mirror);
    }
    fillOutside(out.rgb, covered);
    out.boxes = warpBoxes(mosaicBoxes(images, tiles, imgsz), m, s, imgsz, imgsz);
    if (mirror)
        flipBoxes(out.boxes, imgsz);
    return out;
}

AffineParams drawAffine(Rng& rng, double scaleGain, double translateGain) {
    AffineParams params;
    params.scale = uniform(rng, 1 - scaleGain, 1 + scaleGain);
    params.translateX = uniform(rng, 0.5 - translateGain, 0.5 + translateGain);
    params.translateY = uniform(rng, 0.5 - translateGain, 0.5 + translateGain);
    return params;
}

LabeledImage affineWarp(const LabeledImage& image, const AffineParams& params, int outWidth, int outHeight,
                        bool mirror) {
    const double s = params.scale;
    const cv::Matx23d m = affineMatrix(params, image.rgb.cols, image.rgb.rows, outWidth, outHeight);
    LabeledImage out;
    const bool identity =
        s == 1.0 && m(0, 2) == 0 && m(1, 2) == 0 && outWidth == image.rgb.cols && outHeight == image.rgb.rows;
    if (identity && mirror)
        cv::flip(image.rgb, out.rgb, 1);
    else if (identity)
        out.rgb = image.rgb.clone();
    else {
        out.rgb.create(outHeight, outWidth, CV_8UC3);
        warpScaleTranslate(image.rgb, out.rgb, s, s, m(0, 2), m(1, 2), cv::BORDER_CONSTANT, kPadValue,
                           mirror);
    }
    out.boxes = warpBoxes(image.boxes, m, s, outWidth, outHeight);
    if (mirror)
        flipBoxes(out.boxes, outWidth);
    return out;
}

void mirrorRgbRow(std::uint8_t* row, int width, std::uint8_t* copy) {
#ifdef OSPREY_MIRROR_SSSE3
    static const bool hasSsse3 = __builtin_cpu_supports("ssse3");
    if (hasSsse3) {
        mirrorRgbRowSsse3(row, width, copy);
        return;
    }
#endif
    for (int left = 0, right = width - 1; left < right; ++left, --right)
        for (int c = 0; c < 3; ++c)
            std::swap(row[3 * left + c], row[3 * right + c]);
    (void)copy;
}

ColourDraw drawColour(Rng& rng, double hueGain, double satGain, double valGain, double fliplr) {
    ColourDraw draw;
    draw.jitter = hueGain != 0 || satGain != 0 || valGain != 0;
    if (draw.jitter) {
        const double h = uniform(rng, -1, 1) * hueGain;
        const double s = uniform(rng, -1, 1) * satGain;
        const double v = uniform(rng, -1, 1) * valGain;
        draw.hueShift = h * 180;
        draw.satFactor = s + 1;
        draw.valFactor = v + 1;
    }
    draw.flip = uniform(rng, 0, 1) < fliplr;
    return draw;
}

void applyColour(LabeledImage& image, const ColourDraw& draw, bool mirrored) {
    const bool flip = draw.flip && !mirrored;
    if (draw.jitter)
        hsvApply(image.rgb, draw.hueShift, draw.satFactor, draw.valFactor, HsvKernel::Fastest, flip);
    if (!flip)
        return;
    if (!draw.jitter)
        flipHorizontal(image);
    else
        flipBoxes(image.boxes, image.rgb.cols);
}

void jitterAndFlip(LabeledImage& image, double hueGain, double satGain, double valGain, double fliplr,
                   Rng& rng) {
    applyColour(image, drawColour(rng, hueGain, satGain, valGain, fliplr));
}

void flipHorizontal(LabeledImage& image) {
    if (image.rgb.type() == CV_8UC3) {
        std::vector<std::uint8_t> copy(3 * static_cast<std::size_t>(image.rgb.cols) + 1);
        for (int y = 0; y < image.rgb.rows; ++y)
            mirrorRgbRow(image.rgb.ptr<std::uint8_t>(y), image.rgb.cols, copy.data());
    } else
        cv::flip(image.rgb, image.rgb, 1);
    flipBoxes(image.boxes, image.rgb.cols);
}

void clipBoxes(std::vector<PixelBox>& boxes, int width, int height) {
    std::vector<PixelBox> kept;
    kept.reserve(boxes.size());
    for (auto box : boxes) {
        box.x1 = std::clamp(box.x1, 0.0f, static_cast<float>(width));
        box.x2 = std::clamp(box.x2, 0.0f, static_cast<float>(width));
        box.y1 = std::clamp(box.y1, 0.0f, static_cast<float>(height));
        box.y2 = std::clamp(box.y2, 0.0f, static_cast<float>(height));
        if (box.x2 - box.x1 >= kMinSidePx && box.y2 - box.y1 >= kMinSidePx)
            kept.push_back(box);
    }
    boxes = std::move(kept);
}

} // namespace osprey::train
