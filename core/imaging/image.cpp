#include "imaging/image.h"
#include "imaging/image_impl.h"

#include "common/atomic_file.h"
#include "common/strings.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>

namespace osprey::imaging {

namespace fs = std::filesystem;

namespace {

Image fromMat(const cv::Mat& bgr) {
    cv::Mat rgb;
    if (bgr.channels() == 1)
        cv::cvtColor(bgr, rgb, cv::COLOR_GRAY2RGB);
    else if (bgr.channels() == 4)
        cv::cvtColor(bgr, rgb, cv::COLOR_BGRA2RGB);
    else
        cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    Image image;
    image.width = rgb.cols;
    image.height = rgb.rows;
    image.channels = 3;
    image.pixels.resize(static_cast<size_t>(rgb.total()) * 3);
    if (rgb.isContinuous()) {
        std::copy(rgb.data, rgb.data + image.pixels.size(), image.pixels.begin());
    } else {
        for (int y = 0; y < rgb.rows; ++y)
            std::copy(rgb.ptr<std::uint8_t>(y), rgb.ptr<std::uint8_t>(y) + rgb.cols * 3, image.row(y));
    }
    return image;
}

// A Mat header over the image's pixels (no copy).
cv::Mat asMat(const Image& image) {
    return cv::Mat(image.height, image.width, image.channels == 1 ? CV_8UC1 : CV_8UC3,
                   const_cast<std::uint8_t*>(image.pixels.data()));
}

Image toImage(const cv::Mat& mat) {
    Image image;
    image.width = mat.cols;
    image.height = mat.rows;
    image.channels = mat.channels();
    image.pixels.assign(mat.data, mat.data + mat.total() * mat.elemSize());
    return image;
}

std::uint16_t read16(const std::uint8_t* p, bool bigEndian) {
    return bigEndian ? static_cast<std::uint16_t>(p[0] << 8 | p[1])
                     : static_cast<std::uint16_t>(p[1] << 8 | p[0]);
}
std::uint32_t read32(const std::uint8_t* p, bool bigEndian) {
    return bigEndian
               ? (std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3])
               : (std::uint32_t(p[3]) << 24 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[1]) << 8 | p[0]);
}

std::optional<ImageSize> jpegSize(std::istream& in) {
    int orientation = 1;
    std::uint8_t marker[2];
    while (in.read(reinterpret_cast<char*>(marker), 2)) {
        if (marker[0] != 0xFF)
            return std::nullopt;
        const std::uint8_t type = marker[1];
        if (type == 0xD8 || type == 0x01 || (type >= 0xD0 && type <= 0xD7))
            continue;
        if (type == 0xFF) { // fill byte
            in.seekg(-1, std::ios::cur);
            continue;
        }
        std::uint8_t lengthBytes[2];
        if (!in.read(reinterpret_cast<char*>(lengthBytes), 2))
            return std::nullopt;
        const int length = lengthBytes[0] << 8 | lengthBytes[1];
        if (length < 2)
            return std::nullopt;
        const bool startOfFrame =
            type >= 0xC0 && type <= 0xCF && type != 0xC4 && type != 0xC8 && type != 0xCC;
        if (type == 0xE1) {
            std::vector<std::uint8_t> payload(static_cast<size_t>(length - 2));
            if (!in.read(reinterpret_cast<char*>(payload.data()),
                         static_cast<std::streamsize>(payload.size())))
                return std::nullopt;
            if (orientation == 1)
                orientation = exifOrientation(payload);
        } else if (startOfFrame) {
            std::uint8_t frame[5];
            if (!in.read(reinterpret_cast<char*>(frame), 5))
                return std::nullopt;
            ImageSize size;
            size.height = frame[1] << 8 | frame[2];
            size.width = frame[3] << 8 | frame[4];
            if (size.width <= 0 || size.height <= 0)
                return std::nullopt;
            // Orientations 5..8 transpose the image.
            if (orientation >= 5) {
                std::swap(size.width, size.height);
                size.exifRotated = true;
            }
            return size;
        } else {
            in.seekg(length - 2, std::ios::cur);
        }
    }
    return std::nullopt;
}

const std::uint8_t kPngMagic[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

std::string pixelText(long long value) {
    const std::string digits = std::to_string(value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

/// The size a JPEG, PNG or BMP header declares; nullopt for other formats (left to OpenCV).
std::optional<Expected<ImageSize>> headerSize(std::istream& in, const std::string& name) {
    std::uint8_t magic[8] = {};
    in.read(reinterpret_cast<char*>(magic), 8);
    const auto got = in.gcount();
    in.clear();
    if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8) {
        in.seekg(2);
        if (auto size = jpegSize(in))
            return Expected<ImageSize>(*size);
        return Expected<ImageSize>(fail(name + ": corrupt JPEG header (no frame size found)", "corrupt"));
    }
    if (got == 8 && std::equal(magic, magic + 8, kPngMagic)) {
        std::uint8_t header[16];
        if (!in.read(reinterpret_cast<char*>(header), 16) || std::string(header + 4, header + 8) != "IHDR")
            return Expected<ImageSize>(fail(name + ": corrupt PNG header", "corrupt"));
        const std::uint32_t width = read32(header + 8, true), height = read32(header + 12, true);
        if (width == 0 || height == 0 || width > 0x7fffffff || height > 0x7fffffff)
            return Expected<ImageSize>(fail(name + ": corrupt PNG header (size " + std::to_string(width) +
                                                "x" + std::to_string(height) + ")",
                                            "corrupt"));
        return Expected<ImageSize>(ImageSize{static_cast<int>(width), static_cast<int>(height), false});
    }
    if (got >= 2 && magic[0] == 'B' && magic[1] == 'M') {
        std::uint8_t header[26];
        in.seekg(0);
        if (!in.read(reinterpret_cast<char*>(header), 26))
            return Expected<ImageSize>(fail(name + ": corrupt BMP header", "corrupt"));
        const auto width = static_cast<std::int32_t>(read32(header + 18, false));
        const auto height = static_cast<std::int32_t>(read32(header + 22, false));
        if (width <= 0 || height == 0 || height == INT32_MIN)
            return Expected<ImageSize>(fail(name + ": corrupt BMP header", "corrupt"));
        return Expected<ImageSize>(ImageSize{width, height < 0 ? -height : height, false});
    }
    return std::nullopt;
}

Status checkPixels(const ImageSize& size, const std::string& name) {
    const long long pixels = static_cast<long long>(size.width) * size.height;
    if (pixels > kMaxImagePixels)
        return fail(name + ": the image declares " + std::to_string(size.width) + "x" +
                        std::to_string(size.height) + " = " + pixelText(pixels) +
                        " pixels, above the limit of " + pixelText(kMaxImagePixels) +
                        " (16384x16384); refused before decoding",
                    "too_large");
    return {};
}

/// The cheap completeness check (docs/formats.md): a JPEG must hold an end-of-image marker (FF D9)
/// after its last start-of-scan, a PNG an IEND chunk. The last bytes are looked at first; only a file that
/// does not end with the marker (trailing data, or truncated) is read through.
Status checkComplete(std::istream& in, bool jpeg, const std::string& name) {
    in.clear();
    in.seekg(0, std::ios::end);
    const std::streamoff size = in.tellg();
    const std::string marker = jpeg ? std::string("\xFF\xD9") : std::string("IEND\xAE\x42\x60\x82");
    if (size >= static_cast<std::streamoff>(marker.size())) {
        std::string tail(marker.size(), '\0');
        in.seekg(size - static_cast<std::streamoff>(marker.size()));
        if (in.read(tail.data(), static_cast<std::streamsize>(tail.size())) && tail == marker)
            return {};
    }
    in.clear();
    in.seekg(0);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t from = 0;
    if (jpeg) {
        // Entropy-coded data stuffs every FF with 00, so FF D9 after the last FF DA is the real end.
        const std::size_t sos = text.rfind("\xFF\xDA");
        if (sos == std::string::npos)
            return fail(name + ": truncated JPEG: no image data (no start-of-scan marker)", "truncated");
        from = sos + 2;
    }
    if (text.find(jpeg ? "\xFF\xD9" : "IEND", from) == std::string::npos)
        return fail(name + (jpeg ? ": truncated JPEG: the file ends inside the image data (no end-of-image "
                                   "marker)"
                                 : ": truncated PNG: the file ends before its IEND chunk"),
                    "truncated");
    return {};
}

Expected<cv::Mat> decodeMat(const std::function<cv::Mat()>& decode, const std::string& name) {
    try {
        cv::Mat mat = decode();
        if (mat.empty())
            return fail(name + ": cannot decode image (corrupt or unsupported format)", "corrupt");
        return mat;
    } catch (const cv::Exception& e) {
        return fail(name + ": cannot decode image: " + e.what(), "corrupt");
    } catch (const std::bad_alloc&) {
        return fail(name + ": cannot decode image: out of memory", "too_large");
    }
}

} // namespace

int exifOrientation(const std::vector<std::uint8_t>& app1) {
    if (app1.size() < 14 || std::string(app1.begin(), app1.begin() + 4) != "Exif")
        return 1;
    const std::uint8_t* tiff = app1.data() + 6;
    const size_t size = app1.size() - 6;
    const bool bigEndian = tiff[0] == 'M';
    if (!(tiff[0] == 'M' || tiff[0] == 'I') || size < 8)
        return 1;
    const std::uint32_t ifd = read32(tiff + 4, bigEndian);
    if (ifd + 2 > size)
        return 1;
    const int entries = read16(tiff + ifd, bigEndian);
    for (int i = 0; i < entries; ++i) {
        const size_t entry = ifd + 2 + static_cast<size_t>(i) * 12;
        if (entry + 12 > size)
            return 1;
        if (read16(tiff + entry, bigEndian) == 0x0112) {
            const int value = read16(tiff + entry + 8, bigEndian);
            return value >= 1 && value <= 8 ? value : 1;
        }
    }
    return 1;
}

Expected<Image> decodeImage(const fs::path& path) {
    std::error_code ec;
    if (!fs::exists(path, ec))
        return fail(path.string() + ": image file not found", "missing");
    bool isJpeg = false;
    {
        std::ifstream in(path, std::ios::binary);
        std::uint8_t magic[2] = {};
        in.read(reinterpret_cast<char*>(magic), 2);
        isJpeg = in.gcount() == 2 && magic[0] == 0xFF && magic[1] == 0xD8;
        in.clear();
        in.seekg(0);
        // Only the pixel limit is enforced here; a header this parser rejects is left to OpenCV.
        if (auto size = headerSize(in, path.string()); size && *size)
            if (auto status = checkPixels(**size, path.string()); !status)
                return fail(status.error());
    }
    if (isJpeg) // falls through to OpenCV's decoder, its checks and messages, when libjpeg refuses the file
        if (auto image = decodeJpeg(path))
            return image;
    // IMREAD_COLOR applies the EXIF orientation.
    auto mat = decodeMat([&] { return cv::imread(path.string(), cv::IMREAD_COLOR); }, path.string());
    if (!mat)
        return fail(mat.error());
    return fromMat(*mat);
}

Expected<Image> decodeImageBytes(const std::vector<std::uint8_t>& bytes, const std::string& nameForErrors) {
    if (bytes.empty())
        return fail(nameForErrors + ": empty image data", "corrupt");
    {
        std::istringstream in(std::string(bytes.begin(), bytes.end()), std::ios::binary);
        // Only the pixel limit is enforced here; a header this parser rejects is left to OpenCV.
        if (auto size = headerSize(in, nameForErrors); size && *size)
            if (auto status = checkPixels(**size, nameForErrors); !status)
                return fail(status.error());
    }
    auto mat = decodeMat([&] { return cv::imdecode(bytes, cv::IMREAD_COLOR); }, nameForErrors);
    if (!mat)
        return fail(mat.error());
    return fromMat(*mat);
}

Expected<ImageSize> readImageSize(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(path.string() + ": image file not found or unreadable", "missing");
    std::uint8_t magic[2] = {};
    in.read(reinterpret_cast<char*>(magic), 2);
    if (in.gcount() == 0)
        return fail(path.string() + ": empty image file (0 bytes)", "corrupt");
    in.clear();
    in.seekg(0);
    if (auto size = headerSize(in, path.string())) {
        if (!*size)
            return fail(size->error());
        if (auto status = checkPixels(**size, path.string()); !status)
            return fail(status.error());
        if (magic[0] != 'B') // JPEG or PNG: the cheap completeness check
            if (auto status = checkComplete(in, magic[0] == 0xFF, path.string()); !status)
                return fail(status.error());
        return **size;
    }
    auto image = decodeImage(path);
    if (!image)
        return fail(image.error());
    return ImageSize{image->width, image->height, false};
}

Status encodeImage(const Image& image, const fs::path& path, int jpegQuality) {
    if (image.empty())
        return fail(path.string() + ": cannot write an empty image");
    cv::Mat bgr;
    if (image.channels == 3)
        cv::cvtColor(asMat(image), bgr, cv::COLOR_RGB2BGR);
    else
        bgr = asMat(image);
    std::string extension = toLower(path.extension().string());
    if (extension.empty())
        extension = ".jpg";
    std::vector<int> params;
    if (extension == ".jpg" || extension == ".jpeg")
        params = {cv::IMWRITE_JPEG_QUALITY, jpegQuality};
    std::vector<std::uint8_t> encoded;
    try {
        if (!cv::imencode(extension, bgr, encoded, params))
            return fail(path.string() + ": cannot encode image as " + extension);
    } catch (const cv::Exception& e) {
        return fail(path.string() + ": cannot encode image: " + e.what());
    }
    return writeFileAtomic(path,
                           std::string_view(reinterpret_cast<const char*>(encoded.data()), encoded.size()));
}

Image resize(const Image& src, int width, int height) {
    cv::Mat out;
    const bool shrinkALot = width * 2 < src.width && height * 2 < src.height;
    cv::resize(asMat(src), out, cv::Size(width, height), 0, 0,
               shrinkALot ? cv::INTER_AREA : cv::INTER_LINEAR);
    return toImage(out);
}

Image letterbox(const Image& src, int targetSize, int stride, bool autoRect, Letterbox* info,
                std::uint8_t padValue) {
    const double scale = std::min(double(targetSize) / src.width, double(targetSize) / src.height);
    const int newWidth = static_cast<int>(std::lround(src.width * scale));
    const int newHeight = static_cast<int>(std::lround(src.height * scale));
    int canvasWidth = targetSize, canvasHeight = targetSize;
    if (autoRect && stride > 0) {
        canvasWidth = (newWidth + stride - 1) / stride * stride;
        canvasHeight = (newHeight + stride - 1) / stride * stride;
    }
    const double padX = (canvasWidth - newWidth) / 2.0;
    const double padY = (canvasHeight - newHeight) / 2.0;
    // Same rounding as the reference letterbox: left/top get round(pad - 0.1).
    const int left = static_cast<int>(std::lround(padX - 0.1));
    const int top = static_cast<int>(std::lround(padY - 0.1));
    cv::Mat resized;
    if (newWidth != src.width || newHeight != src.height)
        cv::resize(asMat(src), resized, cv::Size(newWidth, newHeight), 0, 0, cv::INTER_LINEAR);
    else
        resized = asMat(src);
    cv::Mat canvas(canvasHeight, canvasWidth, src.channels == 1 ? CV_8UC1 : CV_8UC3,
                   cv::Scalar(padValue, padValue, padValue));
    resized.copyTo(canvas(cv::Rect(left, top, newWidth, newHeight)));
    if (info) {
        info->scale = scale;
        info->padX = left;
        info->padY = top;
        info->width = canvasWidth;
        info->height = canvasHeight;
    }
    return toImage(canvas);
}

void drawBox(Image& image, double x1, double y1, double x2, double y2, std::uint32_t rgb,
             const std::string& label) {
    cv::Mat mat = asMat(image);
    const cv::Scalar color((rgb >> 16) & 0xFF, (rgb >> 8) & 0xFF, rgb & 0xFF); // the buffer is RGB
    const int thickness =
        std::max(1, static_cast<int>(std::lround((image.width + image.height) / 2.0 * 0.003)));
    const cv::Point topLeft(static_cast<int>(std::lround(x1)), static_cast<int>(std::lround(y1)));
    const cv::Point bottomRight(static_cast<int>(std::lround(x2)), static_cast<int>(std::lround(y2)));
    cv::rectangle(mat, topLeft, bottomRight, color, thickness, cv::LINE_AA);
    if (label.empty())
        return;
    const double fontScale = std::max(0.4, thickness / 3.0);
    int baseline = 0;
    const cv::Size text = cv::getTextSize(label, cv::FONT_HERSHEY_SIMPLEX, fontScale, 1, &baseline);
    const bool above = topLeft.y - text.height - 4 >= 0;
    const cv::Point tagTopLeft(topLeft.x, above ? topLeft.y - text.height - 4 : topLeft.y);
    const cv::Point tagBottomRight(topLeft.x + text.width + 4, tagTopLeft.y + text.height + 4);
    cv::rectangle(mat, tagTopLeft, tagBottomRight, color, cv::FILLED);
    // Dark text on light tags, white on dark ones.
    const double luminance = 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2];
    const cv::Scalar textColor = luminance > 140 ? cv::Scalar(0, 0, 0) : cv::Scalar(255, 255, 255);
    cv::putText(mat, label, cv::Point(tagTopLeft.x + 2, tagBottomRight.y - 3), cv::FONT_HERSHEY_SIMPLEX,
                fontScale, textColor, 1, cv::LINE_AA);
}

} // namespace osprey::imaging
