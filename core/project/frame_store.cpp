#include "project/project_impl.h"

namespace osprey::project {

namespace {

// SQLite integers are signed: the hash's 64 bits are stored as they are.
std::int64_t storedHash(std::uint64_t hash) {
    return static_cast<std::int64_t>(hash);
}

std::uint64_t readHash(std::int64_t stored) {
    return static_cast<std::uint64_t>(stored);
}

} // namespace

Expected<std::int64_t> FrameStore::add(const NewImage& image, const FrameSource& source) {
    std::int64_t id = 0;
    auto status = m_impl.inTransaction([&]() -> Status {
        if (source.video.empty())
            return fail("image '" + image.path + "': the video path must not be empty");
        sql::Statement exists(m_impl.db, "SELECT image_id FROM image_frames WHERE video = ? AND frame = ?");
        exists.bind(1, source.video).bind(2, source.frame);
        if (exists.step())
            return fail(source.video + ": frame " + std::to_string(source.frame) +
                            " is already in the project",
                        "exists");
        auto added = m_impl.images.add(image);
        if (!added)
            return fail(added.error());
        id = *added;
        sql::Statement insert(
            m_impl.db,
            "INSERT INTO image_frames(image_id, video, frame, time_s, dhash) VALUES (?, ?, ?, ?, ?)");
        insert.bind(1, id)
            .bind(2, source.video)
            .bind(3, source.frame)
            .bind(4, source.timeSeconds)
            .bind(5, storedHash(source.differenceHash));
        if (auto ran = insert.run(); !ran)
            return fail("image '" + image.path + "': cannot record its video frame: " + ran.message());
        return {};
    });
    if (!status)
        return fail(status.error());
    return id;
}

Expected<std::optional<FrameSource>> FrameStore::source(std::int64_t imageId) const {
    sql::Statement query(m_impl.db,
                         "SELECT video, frame, time_s, dhash FROM image_frames WHERE image_id = ?");
    query.bind(1, imageId);
    if (!query.step()) {
        if (!query.error().empty())
            return dbError(m_impl, "cannot read the video frame of image " + std::to_string(imageId),
                           query.error());
        return std::optional<FrameSource>();
    }
    FrameSource source;
    source.video = query.text(0);
    source.frame = query.integer(1);
    source.timeSeconds = query.real(2);
    source.differenceHash = readHash(query.integer(3));
    return std::optional<FrameSource>(std::move(source));
}

Expected<std::vector<std::int64_t>> FrameStore::indices(const std::string& video) const {
    sql::Statement query(m_impl.db, "SELECT frame FROM image_frames WHERE video = ? ORDER BY frame");
    query.bind(1, video);
    std::vector<std::int64_t> frames;
    while (query.step())
        frames.push_back(query.integer(0));
    if (!query.error().empty())
        return dbError(m_impl, "cannot list the frames of " + video, query.error());
    return frames;
}

Expected<std::vector<std::uint64_t>> FrameStore::hashes() const {
    sql::Statement query(m_impl.db, "SELECT dhash FROM image_frames ORDER BY image_id");
    std::vector<std::uint64_t> hashes;
    while (query.step())
        hashes.push_back(readHash(query.integer(0)));
    if (!query.error().empty())
        return dbError(m_impl, "cannot read the frame hashes", query.error());
    return hashes;
}

} // namespace osprey::project
