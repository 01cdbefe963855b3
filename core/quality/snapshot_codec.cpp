#include "quality/snapshot_codec_impl.h"

#include <openssl/evp.h>
#include <zlib.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <tuple>

namespace osprey::quality::detail {

namespace {

constexpr size_t kChunkBytes = 1 << 16;
constexpr std::string_view kHashDomain = "osprey-dataset-snapshot/1";

void putLittleEndian(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xFFU));
}

std::uint64_t getLittleEndian(std::string_view in, size_t offset, int bytes) {
    std::uint64_t value = 0;
    for (int i = 0; i < bytes; ++i)
        value |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[offset + static_cast<size_t>(i)]))
                 << (8 * i);
    return value;
}

std::uint64_t doubleBits(double value) {
    return std::bit_cast<std::uint64_t>(value == 0.0 ? 0.0 : value);
}

} // namespace

// ---- SHA-256 ------------------------------------------------------------------------------------------

struct Sha256::Context {
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    ~Context() { EVP_MD_CTX_free(ctx); }
};

Sha256::Sha256() : m_context(std::make_unique<Context>()) {
    EVP_DigestInit_ex(m_context->ctx, EVP_sha256(), nullptr);
}

Sha256::~Sha256() = default;

void Sha256::update(std::string_view bytes) {
    EVP_DigestUpdate(m_context->ctx, bytes.data(), bytes.size());
}

void Sha256::updateU8(std::uint8_t value) {
    update(std::string_view(reinterpret_cast<const char*>(&value), 1));
}

void Sha256::updateU32(std::uint32_t value) {
    std::string bytes;
    putLittleEndian(bytes, value, 4);
    update(bytes);
}

void Sha256::updateU64(std::uint64_t value) {
    std::string bytes;
    putLittleEndian(bytes, value, 8);
    update(bytes);
}

void Sha256::updateDouble(double value) {
    updateU64(doubleBits(value));
}

void Sha256::updateString(std::string_view text) {
    updateU32(static_cast<std::uint32_t>(text.size()));
    update(text);
}

Digest Sha256::finish() {
    Digest digest{};
    unsigned int length = 0;
    EVP_DigestFinal_ex(m_context->ctx, digest.data(), &length);
    return digest;
}

std::string toHex(const Digest& digest) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(64);
    for (const std::uint8_t byte : digest) {
        out.push_back(kDigits[byte >> 4]);
        out.push_back(kDigits[byte & 0xFU]);
    }
    return out;
}

bool fromHex(std::string_view hex, Digest& out) {
    if (hex.size() != 64)
        return false;
    const auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        return -1;
    };
    for (size_t i = 0; i < 32; ++i) {
        const int high = nibble(hex[2 * i]);
        const int low = nibble(hex[2 * i + 1]);
        if (high < 0 || low < 0)
            return false;
        out[i] = static_cast<std::uint8_t>(high * 16 + low);
    }
    return true;
}

// ---- canonical codes ----------------------------------------------------------------------------------

std::uint8_t splitCode(project::Split split) {
    switch (split) {
    case project::Split::Train:
        return 0;
    case project::Split::Val:
        return 1;
    case project::Split::Test:
        return 2;
    case project::Split::None:
        break;
    }
    return 3;
}

std::uint8_t statusCode(project::ImageStatus status) {
    switch (status) {
    case project::ImageStatus::New:
        return 0;
    case project::ImageStatus::Labeled:
        return 1;
    case project::ImageStatus::Reviewed:
        return 2;
    case project::ImageStatus::VerifiedEmpty:
        break;
    }
    return 3;
}

std::uint8_t flagBits(const project::BoxFlags& flags) {
    return static_cast<std::uint8_t>((flags.crowd ? 1U : 0U) | (flags.difficult ? 2U : 0U) |
                                     (flags.truncated ? 4U : 0U));
}

Expected<project::Split> splitFromCode(std::uint8_t code) {
    static constexpr project::Split kSplits[] = {project::Split::Train, project::Split::Val,
                                                 project::Split::Test, project::Split::None};
    if (code > 3)
        return fail("split code " + std::to_string(code) + " is not one of 0-3");
    return kSplits[code];
}

Expected<project::ImageStatus> statusFromCode(std::uint8_t code) {
    static constexpr project::ImageStatus kStatuses[] = {
        project::ImageStatus::New, project::ImageStatus::Labeled, project::ImageStatus::Reviewed,
        project::ImageStatus::VerifiedEmpty};
    if (code > 3)
        return fail("status code " + std::to_string(code) + " is not one of 0-3");
    return kStatuses[code];
}

project::BoxFlags flagsFromBits(std::uint8_t bits) {
    return {(bits & 1U) != 0, (bits & 2U) != 0, (bits & 4U) != 0};
}

// ---- the hash -----------------------------------------------------------------------------------------

Digest imageDigest(const SnapshotImage& image, std::span<const SnapshotBox> boxes) {
    // Sort a local copy: the hash must not depend on box ids or on the order the boxes were drawn in.
    std::vector<const SnapshotBox*> sorted;
    sorted.reserve(boxes.size());
    for (const auto& box : boxes)
        sorted.push_back(&box);
    const auto key = [](const SnapshotBox* b) {
        return std::make_tuple(b->classIndex, doubleBits(b->x1), doubleBits(b->y1), doubleBits(b->x2),
                               doubleBits(b->y2), flagBits(b->flags));
    };
    std::sort(sorted.begin(), sorted.end(),
              [&](const SnapshotBox* a, const SnapshotBox* b) { return key(a) < key(b); });
    Sha256 sha;
    if (!image.contentHash.empty()) {
        sha.updateU8('h');
        sha.updateString(image.contentHash);
    } else {
        sha.updateU8('p');
        sha.updateString(image.path);
    }
    sha.updateU32(static_cast<std::uint32_t>(image.width));
    sha.updateU32(static_cast<std::uint32_t>(image.height));
    sha.updateU8(splitCode(image.split));
    sha.updateU8(statusCode(image.status));
    sha.updateU32(static_cast<std::uint32_t>(sorted.size()));
    for (const SnapshotBox* box : sorted) {
        sha.updateU32(static_cast<std::uint32_t>(box->classIndex));
        sha.updateU8(flagBits(box->flags));
        sha.updateDouble(box->x1);
        sha.updateDouble(box->y1);
        sha.updateDouble(box->x2);
        sha.updateDouble(box->y2);
    }
    return sha.finish();
}

std::string snapshotHash(const std::vector<SnapshotClass>& classes, std::vector<Digest>& imageDigests) {
    std::sort(imageDigests.begin(), imageDigests.end());
    Sha256 sha;
    sha.update(kHashDomain);
    sha.updateU32(static_cast<std::uint32_t>(classes.size()));
    for (const auto& info : classes)
        sha.updateString(info.name);
    sha.updateU64(imageDigests.size());
    for (const auto& digest : imageDigests)
        sha.update(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
    return toHex(sha.finish());
}

// ---- records ------------------------------------------------------------------------------------------

void RecordWriter::varint(std::uint64_t value) {
    while (value >= 0x80) {
        m_bytes.push_back(static_cast<char>((value & 0x7FU) | 0x80U));
        value >>= 7;
    }
    m_bytes.push_back(static_cast<char>(value));
}

void RecordWriter::signedVarint(std::int64_t value) {
    varint((static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
}

void RecordWriter::string(std::string_view text) {
    varint(text.size());
    m_bytes.append(text);
}

void RecordWriter::real(double value) {
    putLittleEndian(m_bytes, std::bit_cast<std::uint64_t>(value), 8);
}

void RecordReader::setError(const std::string& what) {
    if (m_error.empty())
        m_error = what + " at byte " + std::to_string(m_offset);
    m_offset = m_bytes.size();
}

std::uint8_t RecordReader::u8() {
    if (m_offset >= m_bytes.size()) {
        setError("truncated");
        return 0;
    }
    return static_cast<std::uint8_t>(m_bytes[m_offset++]);
}

std::uint64_t RecordReader::varint() {
    std::uint64_t value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (m_offset >= m_bytes.size()) {
            setError("truncated");
            return 0;
        }
        const auto byte = static_cast<unsigned char>(m_bytes[m_offset++]);
        value |= static_cast<std::uint64_t>(byte & 0x7FU) << shift;
        if ((byte & 0x80U) == 0)
            return value;
    }
    setError("bad number");
    return 0;
}

std::int64_t RecordReader::signedVarint() {
    const std::uint64_t raw = varint();
    return static_cast<std::int64_t>((raw >> 1) ^ (~(raw & 1U) + 1U));
}

std::string RecordReader::string() {
    const std::uint64_t length = varint();
    if (length > m_bytes.size() - m_offset) {
        setError("text of " + std::to_string(length) + " bytes runs past the end");
        return {};
    }
    std::string text(m_bytes.substr(m_offset, static_cast<size_t>(length)));
    m_offset += static_cast<size_t>(length);
    return text;
}

double RecordReader::real() {
    if (m_bytes.size() - m_offset < 8) {
        setError("truncated");
        return 0;
    }
    const double value = std::bit_cast<double>(getLittleEndian(m_bytes, m_offset, 8));
    m_offset += 8;
    return value;
}

// ---- header -------------------------------------------------------------------------------------------

std::string FileHeader::encode() const {
    std::string out(kMagic);
    putLittleEndian(out, version, 4);
    putLittleEndian(out, 0, 4);
    out.append(reinterpret_cast<const char*>(hash.data()), hash.size());
    putLittleEndian(out, classes, 8);
    putLittleEndian(out, images, 8);
    putLittleEndian(out, boxes, 8);
    putLittleEndian(out, payloadBytes, 8);
    return out;
}

Expected<FileHeader> FileHeader::decode(std::string_view bytes, const std::string& fileForErrors) {
    if (bytes.size() < kSize || bytes.substr(0, kMagic.size()) != kMagic)
        return fail(fileForErrors + ": not an Osprey dataset snapshot (bad header)", "corrupt");
    FileHeader header;
    header.version = static_cast<std::uint32_t>(getLittleEndian(bytes, 8, 4));
    if (header.version != kSnapshotFormatVersion)
        return fail(fileForErrors + ": snapshot format version " + std::to_string(header.version) +
                        "; this Osprey reads version " + std::to_string(kSnapshotFormatVersion),
                    "newer-format");
    std::memcpy(header.hash.data(), bytes.data() + 16, header.hash.size());
    header.classes = getLittleEndian(bytes, 48, 8);
    header.images = getLittleEndian(bytes, 56, 8);
    header.boxes = getLittleEndian(bytes, 64, 8);
    header.payloadBytes = getLittleEndian(bytes, 72, 8);
    return header;
}

// ---- zlib ---------------------------------------------------------------------------------------------

struct DeflateStream::State {
    z_stream stream{};
    bool open = false;
    std::vector<unsigned char> out = std::vector<unsigned char>(kChunkBytes);
};

DeflateStream::DeflateStream(std::FILE* file) : m_state(std::make_unique<State>()), m_file(file) {
    // Level 1: coordinates are full-precision doubles that no level compresses much; level 6 took twice
    // the time for 1 % less at 100,000 images.
    m_state->open = deflateInit(&m_state->stream, Z_BEST_SPEED) == Z_OK;
}

DeflateStream::~DeflateStream() {
    if (m_state->open)
        deflateEnd(&m_state->stream);
}

Status DeflateStream::pump(std::string_view bytes, int flush) {
    if (!m_state->open)
        return fail("zlib: cannot start the compressor");
    auto& stream = m_state->stream;
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    stream.avail_in = static_cast<uInt>(bytes.size());
    int result = Z_OK;
    do {
        stream.next_out = m_state->out.data();
        stream.avail_out = static_cast<uInt>(m_state->out.size());
        result = deflate(&stream, flush);
        if (result == Z_STREAM_ERROR)
            return fail("zlib: compression failed");
        const size_t produced = m_state->out.size() - stream.avail_out;
        if (produced > 0 && std::fwrite(m_state->out.data(), 1, produced, m_file) != produced)
            return fail("write failed (disk full?)");
    } while (stream.avail_out == 0 || (flush == Z_FINISH && result != Z_STREAM_END));
    return {};
}

Status DeflateStream::write(std::string_view bytes) {
    m_bytesIn += bytes.size();
    return pump(bytes, Z_NO_FLUSH);
}

Status DeflateStream::finish() {
    return pump({}, Z_FINISH);
}

Expected<std::string> inflateAll(std::string_view compressed, std::uint64_t expectedBytes,
                                 const std::string& fileForErrors) {
    constexpr std::uint64_t kMaxPayload = std::uint64_t(4) << 30;
    if (expectedBytes > kMaxPayload)
        return fail(fileForErrors + ": the header claims " + std::to_string(expectedBytes) +
                        " bytes of records (more than 4 GiB); the file is damaged",
                    "corrupt");
    std::string out(static_cast<size_t>(expectedBytes), '\0');
    z_stream stream{};
    if (inflateInit(&stream) != Z_OK)
        return fail("zlib: cannot start the decompressor");
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
    stream.avail_in = static_cast<uInt>(compressed.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int result = inflate(&stream, Z_FINISH);
    const std::uint64_t produced = stream.total_out;
    inflateEnd(&stream);
    if (result != Z_STREAM_END || produced != expectedBytes)
        return fail(fileForErrors + ": the compressed records are damaged or truncated (" +
                        std::to_string(produced) + " of " + std::to_string(expectedBytes) +
                        " bytes inflated)",
                    "corrupt");
    return out;
}

} // namespace osprey::quality::detail
