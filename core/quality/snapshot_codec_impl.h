#pragma once
// Private to core/quality: the byte-level pieces of dataset snapshots. The canonical hash input (little-
// endian integers, IEEE-754 bits), SHA-256 through OpenSSL, the record encoding of snapshot.bin and its
// zlib stream. Not thread-safe per object; objects are used by one call at a time.

#include "common/expected.h"
#include "quality/dataset_snapshot.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::quality::detail {

using Digest = std::array<std::uint8_t, 32>;

/// Incremental SHA-256 (OpenSSL EVP).
class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;
    void update(std::string_view bytes);
    void updateU8(std::uint8_t value);
    void updateU32(std::uint32_t value);
    void updateU64(std::uint64_t value);
    void updateDouble(double value);          ///< IEEE-754 bits, -0 as +0
    void updateString(std::string_view text); ///< u32 length, then the bytes
    Digest finish();

private:
    struct Context;
    std::unique_ptr<Context> m_context;
};

std::string toHex(const Digest& digest);
/// Parses 64 hex digits into `out`; false when `hex` is not that.
bool fromHex(std::string_view hex, Digest& out);

/// Stable codes of the hashed enums, fixed by the hash and file format: never the enum's numeric value nor
/// another module's index (quality::splitIndex may change; these may not).
std::uint8_t splitCode(project::Split split);
std::uint8_t statusCode(project::ImageStatus status);
std::uint8_t flagBits(const project::BoxFlags& flags);
Expected<project::Split> splitFromCode(std::uint8_t code);
Expected<project::ImageStatus> statusFromCode(std::uint8_t code);
project::BoxFlags flagsFromBits(std::uint8_t bits);

/// The digest of one image and its boxes (the boxes are sorted here, so their order does not matter).
Digest imageDigest(const SnapshotImage& image, std::span<const SnapshotBox> boxes);
/// The snapshot hash from the class list and the image digests (sorted here).
std::string snapshotHash(const std::vector<SnapshotClass>& classes, std::vector<Digest>& imageDigests);

/// Appends records to a byte buffer (varints, strings, raw little-endian doubles).
class RecordWriter {
public:
    void u8(std::uint8_t value) { m_bytes.push_back(static_cast<char>(value)); }
    void varint(std::uint64_t value);
    void signedVarint(std::int64_t value); ///< zigzag
    void string(std::string_view text);
    void real(double value);
    std::string& bytes() { return m_bytes; }

private:
    std::string m_bytes;
};

/// Reads what RecordWriter wrote. Every read checks the bounds; the first failure is kept (with its byte
/// offset) and later reads return zeros, so a caller checks `failed()` once per record.
class RecordReader {
public:
    explicit RecordReader(std::string_view bytes) : m_bytes(bytes) {}
    std::uint8_t u8();
    std::uint64_t varint();
    std::int64_t signedVarint(); ///< zigzag
    std::string string();
    double real();
    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }
    bool atEnd() const { return m_offset == m_bytes.size(); }

private:
    void setError(const std::string& what);
    std::string_view m_bytes;
    size_t m_offset = 0;
    std::string m_error;
};

/// snapshot.bin's fixed header. The zlib stream of the records follows it.
struct FileHeader {
    static constexpr std::string_view kMagic = "OSPRSNAP";
    static constexpr size_t kSize = 8 + 4 + 4 + 32 + 8 + 8 + 8 + 8;
    std::uint32_t version = kSnapshotFormatVersion;
    Digest hash{};
    std::uint64_t classes = 0;
    std::uint64_t images = 0;
    std::uint64_t boxes = 0;
    std::uint64_t payloadBytes = 0; ///< size of the records once inflated
    std::string encode() const;
    static Expected<FileHeader> decode(std::string_view bytes, const std::string& fileForErrors);
};

/// Deflates a byte stream into an open file, chunk by chunk.
class DeflateStream {
public:
    explicit DeflateStream(std::FILE* file);
    ~DeflateStream();
    DeflateStream(const DeflateStream&) = delete;
    DeflateStream& operator=(const DeflateStream&) = delete;
    /// Compresses and writes `bytes`; `finish` flushes the end of the stream.
    Status write(std::string_view bytes);
    Status finish();
    std::uint64_t bytesIn() const { return m_bytesIn; }

private:
    Status pump(std::string_view bytes, int flush);
    struct State;
    std::unique_ptr<State> m_state;
    std::FILE* m_file;
    std::uint64_t m_bytesIn = 0;
};

/// Inflates a whole zlib stream; fails when it does not yield exactly `expectedBytes`.
Expected<std::string> inflateAll(std::string_view compressed, std::uint64_t expectedBytes,
                                 const std::string& fileForErrors);

} // namespace osprey::quality::detail
