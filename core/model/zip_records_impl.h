#pragma once
// Private to core/model: the zip container `torch.save` writes (records stored uncompressed, 64-byte
// aligned, data descriptors, zip64 end records), read without torch so that foreign checkpoints are
// checked before anything interprets them. Read-only; thread-safe for distinct objects.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::model {

/// One record of a zip archive: where its bytes are in the file.
struct ZipRecord {
    std::string name;         ///< full name, e.g. "yolov8n/data/17"
    std::uint64_t offset = 0; ///< first data byte in the file
    std::uint64_t size = 0;
    std::uint32_t crc = 0;   ///< as the archive records it
    bool compressed = false; ///< deflated (TorchScript code records); its bytes() are not the content
};

/// A whole archive held in memory, with its central directory.
class ZipArchive {
public:
    /// Reads and indexes `path`. Errors name the file: missing, not a zip, truncated (no end record or a
    /// record past the end), encrypted records. Compressed records are listed (flagged); torch.save never
    /// compresses, and verify() refuses them.
    static Expected<ZipArchive> open(const std::filesystem::path& path);
    /// The same for bytes already in memory; `name` is used in messages.
    static Expected<ZipArchive> fromBytes(std::string bytes, std::string name);

    const std::vector<ZipRecord>& records() const { return m_records; }
    /// The record called `name`, or null.
    const ZipRecord* find(std::string_view name) const;
    /// The record whose name ends in "/" + `suffix` (or is `suffix`), e.g. "data.pkl"; null if none.
    const ZipRecord* findSuffix(std::string_view suffix) const;
    /// A record's bytes (a view into the archive).
    std::string_view bytes(const ZipRecord& record) const;
    /// Checks that a record is stored uncompressed and its CRC-32; the error names the record.
    Status verify(const ZipRecord& record) const;
    const std::string& name() const { return m_name; }
    /// The whole file.
    std::string_view data() const { return m_data; }

private:
    std::string m_data;
    std::string m_name;
    std::vector<ZipRecord> m_records;
    std::map<std::string, size_t, std::less<>> m_byName;
};

/// The records complete in a prefix of an archive (a truncated download), found by walking the local
/// headers and their data descriptors; `crc` is the descriptor's. For diagnostics and tests: a truncated
/// file cannot be loaded, but what it holds can be checked.
std::vector<ZipRecord> scanLocalRecords(std::string_view bytes);

} // namespace osprey::model
