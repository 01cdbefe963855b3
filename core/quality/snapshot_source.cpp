#include "quality/snapshot_source_impl.h"

#include "common/sqlite.h"
#include "quality/snapshot_codec_impl.h"

#include <unordered_map>

namespace osprey::quality::detail {

namespace {

// core/project/SCHEMA.md documents the schema as public; these read it directly so that a snapshot is one
// read transaction (a consistent view while the GUI keeps editing) through its own small page cache. The
// project's connection has a 64 MiB cache: scanning 100,000 images through it would fill that cache and
// keep it for the whole run.
constexpr const char* kInSplits = "split IN ('train', 'val', 'test')";
constexpr int kCacheKb = 2048;

std::string where(const project::Project& project) {
    return project.databasePath().string();
}

/// Steps the images and the boxes queries side by side: both are ordered by image id, so each image
/// reaches the sink with its boxes and nothing else is held in memory.
class Merger {
public:
    Merger(sql::Connection& db, const std::unordered_map<std::int64_t, int>& classIndex, std::string name)
        : m_images(db, std::string("SELECT id, path, hash, width, height, split, status FROM images WHERE ") +
                           kInSplits + " ORDER BY id"),
          m_boxes(db, "SELECT id, image_id, class_id, x1, y1, x2, y2, crowd, difficult, truncated FROM boxes "
                      "ORDER BY image_id, id"),
          m_classIndex(classIndex), m_name(std::move(name)) {}

    Status run(SnapshotSink& sink, std::uint64_t expectedImages) {
        m_digests.reserve(static_cast<size_t>(expectedImages));
        m_haveBox = m_boxes.step();
        while (m_images.step()) {
            SnapshotImage image;
            image.id = m_images.integer(0);
            image.path = m_images.text(1);
            image.contentHash = m_images.text(2);
            image.width = static_cast<int>(m_images.integer(3));
            image.height = static_cast<int>(m_images.integer(4));
            const auto split = project::splitFromString(m_images.text(5));
            const auto status = project::imageStatusFromString(m_images.text(6));
            if (!split || !status)
                return fail(m_name + ": image " + std::to_string(image.id) + " has split '" +
                                m_images.text(5) + "' and status '" + m_images.text(6) +
                                "'; expected the values in core/project/SCHEMA.md",
                            "corrupt");
            image.split = *split;
            image.status = *status;
            if (auto collected = collectBoxes(image.id); !collected)
                return collected;
            image.boxCount = static_cast<std::uint32_t>(m_pending.size());
            m_digests.push_back(imageDigest(image, m_pending));
            m_boxCount += m_pending.size();
            if (auto sent = sink.image(image, m_pending); !sent)
                return sent;
        }
        if (!m_images.error().empty())
            return fail(m_name + ": cannot read images: " + m_images.error());
        if (!m_boxes.error().empty())
            return fail(m_name + ": cannot read boxes: " + m_boxes.error());
        if (m_digests.size() != expectedImages)
            return fail(m_name + ": the image count changed while reading");
        return {};
    }
    std::vector<Digest>& digests() { return m_digests; }
    std::uint64_t boxCount() const { return m_boxCount; }

private:
    /// The boxes of `imageId`; boxes of images before it (outside the splits) are skipped.
    Status collectBoxes(std::int64_t imageId) {
        m_pending.clear();
        while (m_haveBox && m_boxes.integer(1) <= imageId) {
            if (m_boxes.integer(1) == imageId) {
                const std::int64_t classId = m_boxes.integer(2);
                const auto found = m_classIndex.find(classId);
                if (found == m_classIndex.end())
                    return fail(m_name + ": box " + std::to_string(m_boxes.integer(0)) + " of image " +
                                    std::to_string(imageId) + " has class id " + std::to_string(classId) +
                                    ", which is not in the class list",
                                "corrupt");
                SnapshotBox box;
                box.id = m_boxes.integer(0);
                box.classIndex = found->second;
                box.x1 = m_boxes.real(3);
                box.y1 = m_boxes.real(4);
                box.x2 = m_boxes.real(5);
                box.y2 = m_boxes.real(6);
                box.flags = {m_boxes.integer(7) != 0, m_boxes.integer(8) != 0, m_boxes.integer(9) != 0};
                m_pending.push_back(box);
            }
            m_haveBox = m_boxes.step();
        }
        return {};
    }

    sql::Statement m_images;
    sql::Statement m_boxes;
    const std::unordered_map<std::int64_t, int>& m_classIndex;
    std::string m_name;
    bool m_haveBox = false;
    std::vector<SnapshotBox> m_pending;
    std::vector<Digest> m_digests;
    std::uint64_t m_boxCount = 0;
};

Status readClasses(sql::Connection& db, const std::string& name, std::vector<SnapshotClass>& classes,
                   std::unordered_map<std::int64_t, int>& classIndex) {
    sql::Statement query(db, "SELECT id, name FROM classes ORDER BY position, id");
    while (query.step()) {
        classIndex.emplace(query.integer(0), static_cast<int>(classes.size()));
        classes.push_back({query.integer(0), query.text(1)});
    }
    if (!query.error().empty())
        return fail(name + ": cannot read classes: " + query.error());
    return {};
}

Expected<std::uint64_t> countImages(sql::Connection& db, const std::string& name) {
    sql::Statement query(db, std::string("SELECT COUNT(*) FROM images WHERE ") + kInSplits);
    if (!query.step())
        return fail(name + ": cannot count images: " + query.error());
    return static_cast<std::uint64_t>(query.integer(0));
}

} // namespace

Expected<std::string> streamProject(const project::Project& project, SnapshotSink& sink,
                                    StreamCounts* counts) {
    const std::string name = where(project);
    sql::Connection db;
    if (auto opened = db.open(name, {.busyTimeoutMs = sql::kReadBusyTimeoutMs}); !opened)
        return fail(name + ": cannot open for the snapshot: " + opened.message(), opened.error().code);
    if (auto configured =
            db.exec("PRAGMA query_only = ON; PRAGMA cache_size = -" + std::to_string(kCacheKb) + "; BEGIN");
        !configured)
        return fail(name + ": " + configured.message());
    std::vector<SnapshotClass> classes;
    std::unordered_map<std::int64_t, int> classIndex;
    if (auto read = readClasses(db, name, classes, classIndex); !read)
        return fail(read.error());
    auto images = countImages(db, name);
    if (!images)
        return fail(images.error());
    if (auto begun = sink.begin(classes, *images); !begun)
        return fail(begun.error());
    std::string hash;
    {
        Merger merger(db, classIndex, name);
        if (auto merged = merger.run(sink, *images); !merged)
            return fail(merged.error());
        if (counts) {
            counts->classes = classes.size();
            counts->images = *images;
            counts->boxes = merger.boxCount();
        }
        hash = snapshotHash(classes, merger.digests());
    }
    (void)db.exec("COMMIT"); // a read transaction: nothing to keep, nothing to lose
    return hash;
}

} // namespace osprey::quality::detail
