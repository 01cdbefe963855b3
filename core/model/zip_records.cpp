#include "model/zip_records_impl.h"

#include "common/atomic_file.h"
#include "common/hash.h"

#include <algorithm>
#include <limits>

namespace osprey::model {

namespace {

constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::uint32_t kCentralHeader = 0x02014b50;
constexpr std::uint32_t kEndRecord = 0x06054b50;
constexpr std::uint32_t kZip64Locator = 0x07064b50;
constexpr std::uint32_t kZip64End = 0x06064b50;
constexpr std::uint32_t kSaturated32 = 0xFFFFFFFFU;

/// Little-endian reads that report running past the end instead of reading it.
class Cursor {
public:
    Cursor(std::string_view data, std::uint64_t at) : m_data(data), m_at(at) {}
    bool ok() const { return m_ok; }
    std::uint64_t at() const { return m_at; }
    void skip(std::uint64_t count) { take(count); }
    std::uint64_t le(int bytes) {
        const char* p = take(static_cast<std::uint64_t>(bytes));
        std::uint64_t value = 0;
        if (p == nullptr)
            return 0;
        for (int i = bytes - 1; i >= 0; --i)
            value = (value << 8) | static_cast<unsigned char>(p[i]);
        return value;
    }
    std::string_view text(std::uint64_t count) {
        const char* p = take(count);
        return p == nullptr ? std::string_view() : std::string_view(p, count);
    }

private:
    const char* take(std::uint64_t count) {
        if (!m_ok || m_at > m_data.size() || count > m_data.size() - m_at) {
            m_ok = false;
            return nullptr;
        }
        const char* p = m_data.data() + m_at;
        m_at += count;
        return p;
    }
    std::string_view m_data;
    std::uint64_t m_at;
    bool m_ok = true;
};

std::uint64_t findEndRecord(std::string_view data) {
    // The end record is the last 22 bytes plus a comment of at most 65535 bytes.
    if (data.size() < 22)
        return std::numeric_limits<std::uint64_t>::max();
    const std::uint64_t lowest = data.size() > 22 + 65535 ? data.size() - 22 - 65535 : 0;
    for (std::uint64_t at = data.size() - 22;; --at) {
        Cursor c(data, at);
        if (c.le(4) == kEndRecord)
            return at;
        if (at == lowest)
            break;
    }
    return std::numeric_limits<std::uint64_t>::max();
}

} // namespace

Expected<ZipArchive> ZipArchive::open(const std::filesystem::path& path) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        return fail(path.string() + ": weights file not found", "missing");
    auto bytes = readFile(path);
    if (!bytes)
        return fail(path.string() + ": cannot read the file", "io");
    return fromBytes(std::move(*bytes), path.string());
}

Expected<ZipArchive> ZipArchive::fromBytes(std::string bytes, std::string name) {
    ZipArchive archive;
    archive.m_data = std::move(bytes);
    archive.m_name = std::move(name);
    const std::string_view data = archive.m_data;
    const std::string& file = archive.m_name;
    if (data.size() < 4 || Cursor(data, 0).le(4) != kLocalHeader)
        return fail(file + ": not a PyTorch checkpoint (not a zip archive)", "corrupt");
    const std::uint64_t end = findEndRecord(data);
    if (end == std::numeric_limits<std::uint64_t>::max())
        return fail(file + ": truncated (" + std::to_string(data.size()) +
                        " bytes; the zip directory at the end of the file is missing): download it again",
                    "truncated");
    Cursor e(data, end + 4);
    e.skip(6);
    std::uint64_t entries = e.le(2);
    std::uint64_t directorySize = e.le(4);
    std::uint64_t directoryOffset = e.le(4);
    if (entries == 0xFFFF || directorySize == kSaturated32 || directoryOffset == kSaturated32) {
        if (end < 20)
            return fail(file + ": damaged zip64 end record", "corrupt");
        Cursor locator(data, end - 20);
        if (locator.le(4) != kZip64Locator)
            return fail(file + ": damaged zip64 end record (no locator)", "corrupt");
        locator.skip(4);
        Cursor e64(data, locator.le(8));
        if (e64.le(4) != kZip64End)
            return fail(file + ": damaged zip64 end record", "corrupt");
        e64.skip(8 + 2 + 2 + 4 + 4 + 8);
        entries = e64.le(8);
        directorySize = e64.le(8);
        directoryOffset = e64.le(8);
        if (!e64.ok())
            return fail(file + ": truncated zip64 end record", "truncated");
    }
    if (directoryOffset > data.size() || directorySize > data.size() - directoryOffset)
        return fail(file + ": truncated or damaged (the zip directory points past the end of the file)",
                    "truncated");
    // Each central entry takes at least 46 bytes, which bounds the count before anything is allocated.
    if (entries > directorySize / 46)
        return fail(file + ": damaged zip directory (" + std::to_string(entries) + " entries in " +
                        std::to_string(directorySize) + " bytes)",
                    "corrupt");
    Cursor c(data, directoryOffset);
    archive.m_records.reserve(static_cast<size_t>(entries));
    for (std::uint64_t i = 0; i < entries; ++i) {
        if (c.le(4) != kCentralHeader)
            return fail(file + ": damaged zip directory (entry " + std::to_string(i) + ")", "corrupt");
        c.skip(4);
        const auto flags = c.le(2);
        const auto method = c.le(2);
        c.skip(4);
        ZipRecord record;
        record.crc = static_cast<std::uint32_t>(c.le(4));
        std::uint64_t compressed = c.le(4);
        std::uint64_t size = c.le(4);
        const auto nameLength = c.le(2);
        const auto extraLength = c.le(2);
        const auto commentLength = c.le(2);
        c.skip(8);
        std::uint64_t local = c.le(4);
        record.name = std::string(c.text(nameLength));
        const std::uint64_t extraEnd = c.at() + extraLength;
        while (c.ok() && c.at() + 4 <= extraEnd) {
            const auto id = c.le(2);
            const auto length = c.le(2);
            // An extra field past the end of the file: without this, the reset below looped for ever
            // (fuzz_torch_zip).
            if (!c.ok())
                break;
            const std::uint64_t next = c.at() + length;
            if (id == 0x0001) { // zip64: the saturated fields, in this order
                if (size == kSaturated32)
                    size = c.le(8);
                if (compressed == kSaturated32)
                    compressed = c.le(8);
                if (local == kSaturated32)
                    local = c.le(8);
            }
            c = Cursor(data, next);
        }
        c = Cursor(data, extraEnd);
        c.skip(commentLength);
        if (!c.ok())
            return fail(file + ": damaged zip directory (entry " + std::to_string(i) + ")", "corrupt");
        if ((flags & 1U) != 0)
            return fail(file + ": record '" + record.name + "' is encrypted", "unsupported");
        record.compressed = method != 0 || compressed != size;
        Cursor h(data, local);
        if (h.le(4) != kLocalHeader)
            return fail(file + ": record '" + record.name + "' has no local header", "corrupt");
        h.skip(22);
        const auto localName = h.le(2);
        const auto localExtra = h.le(2);
        h.skip(localName + localExtra);
        if (!h.ok() || h.at() > data.size() || compressed > data.size() - h.at())
            return fail(file + ": truncated (record '" + record.name + "' runs past the end of the file)",
                        "truncated");
        record.offset = h.at();
        record.size = compressed;
        archive.m_byName.emplace(record.name, archive.m_records.size());
        archive.m_records.push_back(std::move(record));
    }
    return archive;
}

const ZipRecord* ZipArchive::find(std::string_view name) const {
    const auto it = m_byName.find(name);
    return it == m_byName.end() ? nullptr : &m_records[it->second];
}

const ZipRecord* ZipArchive::findSuffix(std::string_view suffix) const {
    for (const auto& record : m_records) {
        const std::string_view name = record.name;
        if (name == suffix || (name.size() > suffix.size() && name.ends_with(suffix) &&
                               name[name.size() - suffix.size() - 1] == '/'))
            return &record;
    }
    return nullptr;
}

std::string_view ZipArchive::bytes(const ZipRecord& record) const {
    return std::string_view(m_data).substr(record.offset, record.size);
}

Status ZipArchive::verify(const ZipRecord& record) const {
    if (record.compressed)
        return fail(m_name + ": record '" + record.name +
                        "' is compressed; PyTorch checkpoints store records uncompressed",
                    "unsupported");
    if (crc32(bytes(record)) != record.crc)
        return fail(m_name + ": record '" + record.name + "' is damaged (CRC-32 mismatch)", "corrupt");
    return {};
}

std::vector<ZipRecord> scanLocalRecords(std::string_view data) {
    std::vector<ZipRecord> found;
    std::uint64_t at = 0;
    while (true) {
        Cursor h(data, at);
        if (h.le(4) != kLocalHeader)
            break;
        h.skip(2);
        const auto flags = h.le(2);
        h.skip(6);
        ZipRecord record;
        record.crc = static_cast<std::uint32_t>(h.le(4));
        record.size = h.le(4);
        h.skip(4);
        const auto nameLength = h.le(2);
        const auto extraLength = h.le(2);
        record.name = std::string(h.text(nameLength));
        h.skip(extraLength);
        if (!h.ok())
            break;
        record.offset = h.at();
        if ((flags & 8U) == 0) {
            if (record.size > data.size() - record.offset)
                break;
            at = record.offset + record.size;
        } else {
            // Sizes follow the data in a descriptor: the first descriptor signature whose size field
            // equals the distance from the data start is the real one.
            bool ended = false;
            for (std::uint64_t p = record.offset;; ++p) {
                p = data.find("PK\x07\x08", p); // the data descriptor signature
                if (p == std::string_view::npos || p + 16 > data.size()) {
                    ended = true;
                    break;
                }
                Cursor d(data, p + 4);
                const auto crc = static_cast<std::uint32_t>(d.le(4));
                const auto size = d.le(4);
                if (size == p - record.offset && d.le(4) == size) {
                    record.crc = crc;
                    record.size = size;
                    at = p + 16;
                    break;
                }
            }
            if (ended)
                break;
        }
        found.push_back(std::move(record));
    }
    return found;
}

} // namespace osprey::model
