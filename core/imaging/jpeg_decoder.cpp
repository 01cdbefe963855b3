// decodeJpeg: libjpeg-turbo called directly. Debian's OpenCV 4.6 reaches the same library through
// cv::imread but takes about 1.7 times as long for the same pixels (a 960x720 photo: 8.4 against 5.0 ms
// on one core), and returns BGR that then has to be swapped.
// Its Huffman decoding is Osprey's own (jpeg_entropy_impl.h) where the scan is baseline: the same pixels, the
// whole decode of a 640x480 photo 1.6x as fast.
#include "imaging/image.h"
#include "imaging/image_impl.h"
#include "imaging/jpeg_colour_impl.h"
#include "imaging/jpeg_entropy_impl.h"

#include "common/atomic_file.h"

#include <opencv2/core.hpp>

#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <string_view>

// jpeglib.h needs size_t and FILE declared first.
#include <jpeglib.h>

namespace osprey::imaging {

namespace fs = std::filesystem;

namespace {

struct ErrorManager {
    jpeg_error_mgr base;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

[[noreturn]] void errorExit(j_common_ptr info) {
    auto* manager = reinterpret_cast<ErrorManager*>(info->err);
    (*info->err->format_message)(info, manager->message);
    std::longjmp(manager->jump, 1);
}

// Warnings (corrupt data that libjpeg decodes around, a premature end filled with grey) stay silent, as
// cv::imread leaves them; readImageSize reports truncated files.
void silent(j_common_ptr) {}

// Where decompress writes the decoded pixels: called once with the output's size and the file's EXIF
// orientation, it returns width * height * 3 bytes (rows contiguous), or nullptr when it cannot have them.
using Allocate = std::function<std::uint8_t*(int width, int height, int orientation)>;

// The DCT reduction 1/denominator: the largest of 8, 4, 2 that keeps the long side at least minLongSide.
int scaleDenominator(int longSide, int minLongSide) {
    if (minLongSide <= 0)
        return 1;
    for (const int denominator : {8, 4, 2})
        if (longSide >= denominator * minLongSide)
            return denominator;
    return 1;
}

// libjpeg reports errors by longjmp back here: everything with a destructor lives outside this function
// (in `allocate`'s memory and `error`), so the jump skips none. The error's message is libjpeg's, without
// the file name.
bool decompress(std::string_view bytes, int minLongSide, const Allocate& allocate, Error& error) {
    jpeg_decompress_struct info{};
    ErrorManager errors{};
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = errorExit;
    errors.base.output_message = silent;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        error = {std::string("cannot decode JPEG: ") + errors.message, "corrupt"};
        return false;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()),
                 static_cast<unsigned long>(bytes.size()));
    jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(&info, TRUE);
    if (static_cast<long long>(info.image_width) * info.image_height > kMaxImagePixels) {
        jpeg_destroy_decompress(&info);
        error = {"the JPEG declares " + std::to_string(info.image_width) + "x" +
                     std::to_string(info.image_height) + " pixels, above the limit of " +
                     std::to_string(kMaxImagePixels) + "; refused before decoding",
                 "too_large"};
        return false;
    }
    int orientation = 1;
    for (jpeg_saved_marker_ptr marker = info.marker_list; marker; marker = marker->next)
        if (marker->marker == JPEG_APP0 + 1 && orientation == 1)
            orientation =
                exifOrientation(std::vector<std::uint8_t>(marker->data, marker->data + marker->data_length));
    info.out_color_space = JCS_EXT_RGB;
    info.scale_num = 1;
    const auto denominator = static_cast<unsigned>(
        scaleDenominator(static_cast<int>(std::max(info.image_width, info.image_height)), minLongSide));
    info.scale_denom = denominator;
    jpeg_calc_output_dimensions(&info);
    const auto width = static_cast<int>(info.output_width), height = static_cast<int>(info.output_height);
    std::uint8_t* pixels = nullptr;
    try {
        pixels = allocate(width, height, orientation);
    } catch (const std::exception&) { // std::bad_alloc, or cv::Exception from a Mat's allocation
        pixels = nullptr;
    }
    if (!pixels) {
        jpeg_destroy_decompress(&info);
        error = {"cannot decode JPEG: out of memory", "too_large"};
        return false;
    }
    jpeg_start_decompress(&info);
    jpeg::installFastColour(&info);
    bool fast = jpeg::installFastEntropy(&info);
    if (fast)
        jpeg::installFastRows(&info);
    const size_t stride = static_cast<size_t>(width) * 3;
    // Up to 16 rows a call (an iMCU row of 4:2:0 images), not one: the loader's rate on 640x480 JPEGs
    // 316-325 -> 329-333 images/s on one Zen 2 core (64 rows a call gained nothing more). The same pixels.
    JSAMPROW rows[16];
    while (info.output_scanline < info.output_height) {
        const unsigned count = std::min(16u, info.output_height - info.output_scanline);
        for (unsigned k = 0; k < count; ++k)
            rows[k] = pixels + stride * (info.output_scanline + k);
        if (jpeg_read_scanlines(&info, rows, count) > 0 || !fast)
            continue;
        // The fast entropy decoder gave up on this file's data: all of it again with libjpeg-turbo's own.
        if (!jpeg::fastEntropyGaveUp(&info))
            break;
        fast = false;
        jpeg_abort_decompress(&info);
        info.client_data = nullptr;
        jpeg_mem_src(&info, reinterpret_cast<const unsigned char*>(bytes.data()),
                     static_cast<unsigned long>(bytes.size()));
        jpeg_read_header(&info, TRUE);
        info.out_color_space = JCS_EXT_RGB;
        info.scale_num = 1;
        info.scale_denom = denominator;
        jpeg_start_decompress(&info);
        jpeg::installFastColour(&info);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    return true;
}

// The EXIF orientation applied as cv::imread applies it.
Image oriented(Image image, int orientation) {
    if (orientation <= 1 || orientation > 8)
        return image;
    const cv::Mat source(image.height, image.width, CV_8UC3, image.pixels.data());
    cv::Mat result;
    if (orientation >= 5)
        cv::transpose(source, result);
    else
        result = source;
    switch (orientation) {
    case 2:
    case 6:
        cv::flip(result, result, 1);
        break;
    case 3:
    case 7:
        cv::flip(result, result, -1);
        break;
    case 4:
    case 8:
        cv::flip(result, result, 0);
        break;
    default:
        break;
    }
    Image out;
    out.width = result.cols;
    out.height = result.rows;
    out.channels = 3;
    out.pixels.assign(result.data, result.data + result.total() * 3);
    return out;
}

} // namespace

Status decodeJpeg(const fs::path& path, int minLongSide, const JpegDestination& destination) {
    const auto bytes = readFile(path);
    if (!bytes)
        return fail(path.string() + ": image file not found or unreadable", "missing");
    if (bytes->size() < 3 || static_cast<std::uint8_t>((*bytes)[0]) != 0xFF ||
        static_cast<std::uint8_t>((*bytes)[1]) != 0xD8)
        return fail(path.string() + ": not a JPEG file (no start-of-image marker)", "corrupt");
    Image turned; // an image its EXIF orientation turns is decoded here, then turned into `destination`'s
    int turn = 1;
    const auto allocate = [&](int width, int height, int orientation) {
        turn = orientation;
        if (orientation <= 1 || orientation > 8)
            return destination(width, height);
        turned.width = width;
        turned.height = height;
        turned.channels = 3;
        turned.pixels.resize(static_cast<size_t>(width) * height * 3);
        return turned.pixels.data();
    };
    Error error;
    if (!decompress(*bytes, minLongSide, allocate, error))
        return fail(path.string() + ": " + error.message, error.code);
    if (turned.empty())
        return {};
    const Image image = oriented(std::move(turned), turn);
    std::uint8_t* pixels = nullptr;
    try {
        pixels = destination(image.width, image.height);
    } catch (const std::exception&) { // std::bad_alloc, or cv::Exception from a Mat's allocation
        pixels = nullptr;
    }
    if (!pixels)
        return fail(path.string() + ": cannot decode JPEG: out of memory", "too_large");
    std::memcpy(pixels, image.pixels.data(), image.pixels.size());
    return {};
}

Expected<Image> decodeJpeg(const fs::path& path, int minLongSide) {
    Image image;
    const auto decoded = decodeJpeg(path, minLongSide, [&](int width, int height) {
        image.width = width;
        image.height = height;
        image.channels = 3;
        image.pixels.resize(static_cast<size_t>(width) * height * 3);
        return image.pixels.data();
    });
    if (!decoded)
        return fail(decoded.error());
    return image;
}

} // namespace osprey::imaging
