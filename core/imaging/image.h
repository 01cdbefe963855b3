#pragma once
// Image decode, encode, size probing and letterbox, behind value types (no OpenCV in this header).
// All functions are thread-safe and may run on any thread.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace osprey::imaging {

/// An 8-bit image, interleaved RGB (channels = 3) or grey (channels = 1), row-major, no padding.
struct Image {
    int width = 0;
    int height = 0;
    int channels = 3;
    std::vector<std::uint8_t> pixels;

    bool empty() const { return pixels.empty(); }
    std::uint8_t* row(int y) { return pixels.data() + static_cast<size_t>(y) * width * channels; }
    const std::uint8_t* row(int y) const { return pixels.data() + static_cast<size_t>(y) * width * channels; }
};

/// Size of an image file as displayed, i.e. after its EXIF orientation is applied.
struct ImageSize {
    int width = 0;
    int height = 0;
    bool exifRotated = false; ///< the EXIF orientation swaps width and height
};

/// The most pixels (width x height) an image may declare: 2^28 = 268,435,456 (16384 x 16384). Above it
/// decodeImage, decodeImageBytes and readImageSize refuse the file from its header, before anything is
/// decoded or allocated (error code "too_large"); OpenCV's own limit (2^30) is never reached.
constexpr long long kMaxImagePixels = 1LL << 28;

/// Decodes a file to RGB, applying its EXIF orientation. The error names the file. Never throws: a decoder
/// exception becomes an error.
Expected<Image> decodeImage(const std::filesystem::path& path);
/// Decodes a JPEG file with libjpeg-turbo straight to RGB, applying its EXIF orientation, at the smallest
/// DCT scale (1/2, 1/4, 1/8, or full) that keeps the long side at least `minLongSide` (0: full size). At
/// full size the same pixels as decodeImage, which uses it for JPEG files. Errors name the file (codes
/// "missing", "corrupt", "too_large"); a JPEG libjpeg cannot turn into RGB (CMYK) is "corrupt" here and
/// left to OpenCV by decodeImage.
Expected<Image> decodeJpeg(const std::filesystem::path& path, int minLongSide = 0);
/// Where decodeJpeg writes into memory the caller owns: called once with the (oriented) output size, it
/// returns width * height * 3 bytes, rows contiguous, every one of which the decode writes (nullptr, or an
/// exception it throws: "out of memory", code "too_large").
using JpegDestination = std::function<std::uint8_t*(int width, int height)>;
/// decodeJpeg into `destination`'s memory: the same pixels without the Image's zeroed buffer (for the
/// trainer's loader, which decodes into the image it keeps).
Status decodeJpeg(const std::filesystem::path& path, int minLongSide, const JpegDestination& destination);
/// Decodes an encoded buffer (JPEG, PNG, ...) to RGB.
Expected<Image> decodeImageBytes(const std::vector<std::uint8_t>& bytes, const std::string& nameForErrors);

/// Reads the size from the file header (JPEG, PNG, BMP) without decoding; falls back to a full decode for
/// other formats. Fails on unreadable, empty or corrupt files, above kMaxImagePixels, and on truncated
/// JPEG/PNG files (code "truncated"): a JPEG must hold its end-of-image marker after the last
/// start-of-scan, a PNG its IEND chunk (a cheap check: the last bytes first, the whole file only when the
/// marker is not at the end).
Expected<ImageSize> readImageSize(const std::filesystem::path& path);

/// Encodes by extension (.jpg/.jpeg/.png/.bmp). Writes atomically.
Status encodeImage(const Image& image, const std::filesystem::path& path, int jpegQuality = 95);

/// Where a letterboxed image sits inside its canvas: canvas = src * scale + pad.
struct Letterbox {
    double scale = 1;
    double padX = 0, padY = 0; ///< left and top padding in canvas pixels
    int width = 0, height = 0; ///< canvas size
};

/// Resizes keeping the aspect ratio so the long side is `targetSize`, then pads with `padValue`, centred.
/// autoRect=false gives a targetSize x targetSize canvas; true gives the smallest canvas whose sides are
/// multiples of `stride` (rectangular validation batches).
Image letterbox(const Image& src, int targetSize, int stride, bool autoRect, Letterbox* info,
                std::uint8_t padValue = 114);

/// Resizes to exactly width x height (bilinear; area when shrinking a lot).
Image resize(const Image& src, int width, int height);

/// Draws a rectangle outline and a filled label tag above it.
void drawBox(Image& image, double x1, double y1, double x2, double y2, std::uint32_t rgb,
             const std::string& label);

} // namespace osprey::imaging
