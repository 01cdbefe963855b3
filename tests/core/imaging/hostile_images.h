#pragma once
// Hostile image bytes for tests: a PNG that declares any size in a few bytes, real images with noise (so a
// JPEG has a long scan to cut), and small file helpers.

#include "imaging/image.h"

#include <QtGlobal>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace osprey::test {

inline void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

inline std::string readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline std::uint32_t crc32(const std::string& bytes) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const char c : bytes) {
        crc ^= static_cast<std::uint8_t>(c);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return ~crc;
}

inline std::string be32(std::uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
            static_cast<char>(v)};
}

inline std::string pngChunk(const std::string& type, const std::string& data) {
    return be32(static_cast<std::uint32_t>(data.size())) + type + data + be32(crc32(type + data));
}

/// A complete, tiny PNG (valid chunks and CRCs) whose header declares width x height RGB pixels; its image
/// data is a few bytes, so decoding it would need gigabytes for nothing.
inline std::string pngDeclaring(std::uint32_t width, std::uint32_t height) {
    const std::string magic = "\x89PNG\r\n\x1a\n";
    const std::string ihdr = be32(width) + be32(height) + std::string("\x08\x02\x00\x00\x00", 5);
    const std::string idat("\x78\x9c\x63\x00\x00\x00\x01\x00\x01", 9); // zlib of one zero byte
    return magic + pngChunk("IHDR", ihdr) + pngChunk("IDAT", idat) + pngChunk("IEND", "");
}

/// A real image (format by extension) filled with a pattern that does not compress away.
inline void writeNoiseImage(const std::filesystem::path& path, int width, int height) {
    std::filesystem::create_directories(path.parent_path());
    imaging::Image image;
    image.width = width;
    image.height = height;
    image.pixels.resize(static_cast<std::size_t>(width) * height * 3);
    std::uint32_t state = 12345;
    for (auto& p : image.pixels) {
        state = state * 1103515245u + 12345u;
        p = static_cast<std::uint8_t>(state >> 24);
    }
    if (auto status = imaging::encodeImage(image, path); !status)
        qFatal("%s", status.message().c_str());
}

} // namespace osprey::test
