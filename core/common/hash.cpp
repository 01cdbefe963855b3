#include "common/hash.h"

#include <array>
#include <cstring>
#include <fstream>

namespace osprey {

namespace {

constexpr std::uint64_t kMul1 = 0x9E3779B97F4A7C15ull;
constexpr std::uint64_t kMul2 = 0xBF58476D1CE4E5B9ull;
constexpr std::uint64_t kMul3 = 0x94D049BB133111EBull;

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= kMul2;
    x ^= x >> 27;
    x *= kMul3;
    x ^= x >> 31;
    return x;
}

// Incremental hasher over 8-byte words; the tail is padded with its length so "a" != "a\0".
class Hasher {
public:
    explicit Hasher(std::uint64_t seed) : m_state(seed ^ kMul1) {}
    void update(const char* data, size_t size) {
        m_length += size;
        while (size > 0) {
            const size_t take = std::min(size, size_t(8) - m_pending);
            std::memcpy(m_buffer.data() + m_pending, data, take);
            m_pending += take;
            data += take;
            size -= take;
            if (m_pending == 8) {
                std::uint64_t word = 0;
                std::memcpy(&word, m_buffer.data(), 8);
                m_state = mix(m_state ^ (word * kMul1)) + kMul1;
                m_pending = 0;
            }
        }
    }
    std::uint64_t finish() {
        std::uint64_t word = 0;
        std::memcpy(&word, m_buffer.data(), m_pending);
        return mix(m_state ^ word ^ (m_length * kMul3));
    }

private:
    std::uint64_t m_state;
    std::uint64_t m_length = 0;
    std::array<char, 8> m_buffer{};
    size_t m_pending = 0;
};

} // namespace

std::uint64_t hashBytes(std::string_view bytes, std::uint64_t seed) {
    Hasher hasher(seed);
    hasher.update(bytes.data(), bytes.size());
    return hasher.finish();
}

std::string toHex(std::uint64_t value) {
    static const char* digits = "0123456789abcdef";
    std::string out(16, '0');
    for (int i = 15; i >= 0; --i) {
        out[static_cast<size_t>(i)] = digits[value & 0xF];
        value >>= 4;
    }
    return out;
}

Expected<std::string> hashFileHex(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return fail(path.string() + ": cannot open file for hashing", "missing");
    Hasher hasher(0);
    std::array<char, 1 << 16> chunk{};
    while (in) {
        in.read(chunk.data(), chunk.size());
        hasher.update(chunk.data(), static_cast<size_t>(in.gcount()));
    }
    return toHex(hasher.finish());
}

std::uint32_t crc32(std::string_view bytes, std::uint32_t crc) {
    static const std::array<std::uint32_t, 256> table = [] {
        std::array<std::uint32_t, 256> entries{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t value = i;
            for (int bit = 0; bit < 8; ++bit)
                value = (value & 1U) != 0 ? 0xEDB88320U ^ (value >> 1) : value >> 1;
            entries[i] = value;
        }
        return entries;
    }();
    crc = ~crc;
    for (const char byte : bytes)
        crc = table[(crc ^ static_cast<unsigned char>(byte)) & 0xFFU] ^ (crc >> 8);
    return ~crc;
}

} // namespace osprey
