#include "quality/dataset_snapshot.h"

#include "quality/snapshot_codec_impl.h"
#include "quality/snapshot_source_impl.h"

#include "common/atomic_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <unistd.h>

namespace osprey::quality {

namespace fs = std::filesystem;
using detail::Digest;

namespace {

/// Collects the records in memory (takeSnapshot).
class MemorySink : public detail::SnapshotSink {
public:
    explicit MemorySink(DatasetSnapshot& out) : m_out(out) {}
    Status begin(const std::vector<SnapshotClass>& classes, std::uint64_t images) override {
        m_out.classes = classes;
        m_out.images.reserve(static_cast<size_t>(images));
        return {};
    }
    Status image(const SnapshotImage& image, std::span<const SnapshotBox> boxes) override {
        SnapshotImage copy = image;
        copy.firstBox = static_cast<std::uint32_t>(m_out.boxes.size());
        copy.boxCount = static_cast<std::uint32_t>(boxes.size());
        m_out.images.push_back(std::move(copy));
        m_out.boxes.insert(m_out.boxes.end(), boxes.begin(), boxes.end());
        return {};
    }

private:
    DatasetSnapshot& m_out;
};

/// Encodes the records and deflates them into a file as they come (writeSnapshot).
class FileSink : public detail::SnapshotSink {
public:
    FileSink(std::FILE* file, std::string name) : m_stream(file), m_name(std::move(name)) {}
    Status begin(const std::vector<SnapshotClass>& classes, std::uint64_t images) override {
        m_writer.varint(classes.size());
        for (const auto& info : classes) {
            m_writer.varint(static_cast<std::uint64_t>(info.id));
            m_writer.string(info.name);
        }
        m_writer.varint(images);
        return flushIfFull();
    }
    Status image(const SnapshotImage& image, std::span<const SnapshotBox> boxes) override {
        m_writer.signedVarint(image.id - m_lastImageId);
        m_lastImageId = image.id;
        m_writer.string(image.path);
        m_writer.string(image.contentHash);
        m_writer.varint(static_cast<std::uint64_t>(image.width));
        m_writer.varint(static_cast<std::uint64_t>(image.height));
        m_writer.u8(detail::splitCode(image.split));
        m_writer.u8(detail::statusCode(image.status));
        m_writer.varint(boxes.size());
        for (const auto& box : boxes) {
            m_writer.signedVarint(box.id - m_lastBoxId);
            m_lastBoxId = box.id;
            m_writer.varint(static_cast<std::uint64_t>(box.classIndex));
            m_writer.u8(detail::flagBits(box.flags));
            m_writer.real(box.x1);
            m_writer.real(box.y1);
            m_writer.real(box.x2);
            m_writer.real(box.y2);
        }
        return flushIfFull();
    }
    Status finish() {
        if (auto written = m_stream.write(m_writer.bytes()); !written)
            return fail(m_name + ": " + written.message());
        m_writer.bytes().clear();
        if (auto finished = m_stream.finish(); !finished)
            return fail(m_name + ": " + finished.message());
        return {};
    }
    std::uint64_t payloadBytes() const { return m_stream.bytesIn(); }

private:
    Status flushIfFull() {
        if (m_writer.bytes().size() < (1U << 16))
            return {};
        if (auto written = m_stream.write(m_writer.bytes()); !written)
            return fail(m_name + ": " + written.message());
        m_writer.bytes().clear();
        return {};
    }
    detail::RecordWriter m_writer;
    detail::DeflateStream m_stream;
    std::string m_name;
    std::int64_t m_lastImageId = 0;
    std::int64_t m_lastBoxId = 0;
};

/// Keeps nothing (projectSnapshotHash).
class NullSink : public detail::SnapshotSink {
public:
    Status begin(const std::vector<SnapshotClass>&, std::uint64_t) override { return {}; }
    Status image(const SnapshotImage&, std::span<const SnapshotBox>) override { return {}; }
};

/// Closes the temporary file and removes it unless the write was committed.
struct TemporaryFile {
    fs::path path;
    std::FILE* file = nullptr;
    bool committed = false;
    ~TemporaryFile() {
        if (file)
            std::fclose(file);
        if (!committed) {
            std::error_code ignored;
            fs::remove(path, ignored);
        }
    }
};

Expected<DatasetSnapshot> parseRecords(std::string_view payload, const detail::FileHeader& header,
                                       const std::string& name) {
    detail::RecordReader reader(payload);
    DatasetSnapshot snapshot;
    const auto bad = [&](const std::string& where) -> Expected<DatasetSnapshot> {
        return fail(name + ": " + where + ": " + (reader.failed() ? reader.error() : "bad value"), "corrupt");
    };
    const std::uint64_t classCount = reader.varint();
    if (reader.failed() || classCount != header.classes)
        return fail(name + ": the class count does not match the header", "corrupt");
    for (std::uint64_t i = 0; i < classCount; ++i) {
        SnapshotClass info;
        info.id = static_cast<std::int64_t>(reader.varint());
        info.name = reader.string();
        if (reader.failed())
            return bad("class " + std::to_string(i));
        snapshot.classes.push_back(std::move(info));
    }
    const std::uint64_t imageCount = reader.varint();
    if (reader.failed() || imageCount != header.images)
        return fail(name + ": the image count does not match the header", "corrupt");
    // Reserve from what the payload can hold, not from the header alone (a damaged header could ask for
    // anything).
    snapshot.images.reserve(static_cast<size_t>(std::min<std::uint64_t>(imageCount, payload.size() / 8)));
    snapshot.boxes.reserve(static_cast<size_t>(std::min<std::uint64_t>(header.boxes, payload.size() / 35)));
    std::int64_t imageId = 0;
    std::int64_t boxId = 0;
    for (std::uint64_t i = 0; i < imageCount; ++i) {
        SnapshotImage image;
        imageId += reader.signedVarint();
        image.id = imageId;
        image.path = reader.string();
        image.contentHash = reader.string();
        image.width = static_cast<int>(reader.varint());
        image.height = static_cast<int>(reader.varint());
        auto split = detail::splitFromCode(reader.u8());
        auto status = detail::statusFromCode(reader.u8());
        const std::uint64_t boxCount = reader.varint();
        const std::string where = "image record " + std::to_string(i) + " (" + image.path + ")";
        if (reader.failed() || !split || !status)
            return bad(where);
        image.split = *split;
        image.status = *status;
        image.firstBox = static_cast<std::uint32_t>(snapshot.boxes.size());
        image.boxCount = static_cast<std::uint32_t>(boxCount);
        for (std::uint64_t b = 0; b < boxCount; ++b) {
            SnapshotBox box;
            boxId += reader.signedVarint();
            box.id = boxId;
            const std::uint64_t classIndex = reader.varint();
            box.flags = detail::flagsFromBits(reader.u8());
            box.x1 = reader.real();
            box.y1 = reader.real();
            box.x2 = reader.real();
            box.y2 = reader.real();
            if (reader.failed() || classIndex >= snapshot.classes.size())
                return bad(where + ", box " + std::to_string(b) +
                           (reader.failed() ? "" : " (class index past the class list)"));
            box.classIndex = static_cast<int>(classIndex);
            snapshot.boxes.push_back(box);
        }
        snapshot.images.push_back(std::move(image));
    }
    if (!reader.atEnd() || snapshot.boxes.size() != header.boxes)
        return fail(name + ": the records do not match the header's counts", "corrupt");
    return snapshot;
}

} // namespace

Expected<DatasetSnapshot> takeSnapshot(const project::Project& project) {
    DatasetSnapshot snapshot;
    MemorySink sink(snapshot);
    auto hash = detail::streamProject(project, sink);
    if (!hash)
        return fail(hash.error());
    snapshot.hash = std::move(*hash);
    return snapshot;
}

Expected<SnapshotSummary> writeSnapshot(const project::Project& project, const fs::path& file) {
    const std::string name = file.string();
    std::error_code error;
    if (file.has_parent_path())
        fs::create_directories(file.parent_path(), error);
    TemporaryFile temporary;
    temporary.path = name + ".tmp." + std::to_string(::getpid());
    temporary.file = std::fopen(temporary.path.c_str(), "wb");
    if (!temporary.file)
        return fail(name + ": cannot create the snapshot: " + std::strerror(errno));
    detail::FileHeader header;
    if (std::fwrite(header.encode().data(), 1, detail::FileHeader::kSize, temporary.file) !=
        detail::FileHeader::kSize)
        return fail(name + ": write failed (disk full?)");
    FileSink sink(temporary.file, name);
    detail::StreamCounts counts;
    auto hash = detail::streamProject(project, sink, &counts);
    if (!hash)
        return fail(hash.error());
    if (auto finished = sink.finish(); !finished)
        return fail(finished.error());
    detail::fromHex(*hash, header.hash);
    header.classes = counts.classes;
    header.images = counts.images;
    header.boxes = counts.boxes;
    header.payloadBytes = sink.payloadBytes();
    const std::string encoded = header.encode();
    // The header goes last: only now are the hash and the counts known.
    if (std::fseek(temporary.file, 0, SEEK_SET) != 0 ||
        std::fwrite(encoded.data(), 1, encoded.size(), temporary.file) != encoded.size() ||
        std::fflush(temporary.file) != 0 || ::fsync(::fileno(temporary.file)) != 0)
        return fail(name + ": cannot write the snapshot to disk: " + std::strerror(errno));
    std::fclose(temporary.file);
    temporary.file = nullptr;
    fs::rename(temporary.path, file, error);
    if (error)
        return fail(name + ": cannot move the snapshot into place: " + error.message());
    temporary.committed = true;
    SnapshotSummary summary;
    summary.hash = *hash;
    summary.classes = static_cast<std::int64_t>(counts.classes);
    summary.images = static_cast<std::int64_t>(counts.images);
    summary.boxes = static_cast<std::int64_t>(counts.boxes);
    summary.fileBytes = fs::file_size(file, error);
    return summary;
}

Expected<DatasetSnapshot> readSnapshot(const fs::path& file) {
    const std::string name = file.string();
    auto read = readFile(file);
    if (!read)
        return fail(read.error());
    std::string bytes = std::move(*read);
    auto header = detail::FileHeader::decode(bytes, name);
    if (!header)
        return fail(header.error());
    auto payload = detail::inflateAll(std::string_view(bytes).substr(detail::FileHeader::kSize),
                                      header->payloadBytes, name);
    if (!payload)
        return fail(payload.error());
    bytes.clear();
    bytes.shrink_to_fit();
    auto snapshot = parseRecords(*payload, *header, name);
    if (!snapshot)
        return fail(snapshot.error());
    snapshot->hash = computeSnapshotHash(*snapshot);
    if (snapshot->hash != detail::toHex(header->hash))
        return fail(name + ": the records do not give the recorded hash " + detail::toHex(header->hash) +
                        " (they give " + snapshot->hash + "); the file was changed or damaged",
                    "corrupt");
    return snapshot;
}

Expected<std::string> readSnapshotHash(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return fail(file.string() + ": cannot open the snapshot: " + std::strerror(errno), "missing");
    std::string bytes(detail::FileHeader::kSize, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    bytes.resize(static_cast<size_t>(in.gcount()));
    auto header = detail::FileHeader::decode(bytes, file.string());
    if (!header)
        return fail(header.error());
    return detail::toHex(header->hash);
}

Expected<std::string> projectSnapshotHash(const project::Project& project) {
    NullSink sink;
    return detail::streamProject(project, sink);
}

std::string computeSnapshotHash(const DatasetSnapshot& snapshot) {
    std::vector<Digest> digests;
    digests.reserve(snapshot.images.size());
    for (const auto& image : snapshot.images)
        digests.push_back(detail::imageDigest(image, {snapshot.boxesOf(image), image.boxCount}));
    return detail::snapshotHash(snapshot.classes, digests);
}

std::string shortHash(const std::string& hash) {
    return hash.substr(0, 12);
}

} // namespace osprey::quality
