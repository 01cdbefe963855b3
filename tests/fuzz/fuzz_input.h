#pragma once
// Shared by the fuzz targets: a per-process scratch folder (in RAM when /dev/shm exists) holding the
// files a reader expects, and the fuzz input written into one of them.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace osprey::fuzz {

inline const std::filesystem::path& scratch() {
    static const std::filesystem::path dir = [] {
        const std::filesystem::path base =
            std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
        auto path = base / ("osprey-fuzz-" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
        return path;
    }();
    return dir;
}

inline void write(const std::filesystem::path& path, const std::uint8_t* data, std::size_t size) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

inline void write(const std::filesystem::path& path, const std::string& text) {
    write(path, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

inline std::string be32(std::uint32_t v) {
    return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
            static_cast<char>(v)};
}

inline std::string pngChunk(const std::string& type, const std::string& body) {
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const char c : type + body) {
        crc ^= static_cast<std::uint8_t>(c);
        for (int k = 0; k < 8; ++k)
            crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
    }
    return be32(static_cast<std::uint32_t>(body.size())) + type + body + be32(~crc);
}

/// A 1x1 RGB PNG, so that image probing succeeds and the label parser runs.
inline std::string tinyPng() {
    const std::string ihdr = be32(1) + be32(1) + std::string("\x08\x02\x00\x00\x00", 5);
    const std::string idat("\x78\x9c\x63\x60\x60\x60\x00\x00\x00\x04\x00\x01", 12);
    return std::string("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) + pngChunk("IDAT", idat) +
           pngChunk("IEND", "");
}

} // namespace osprey::fuzz
