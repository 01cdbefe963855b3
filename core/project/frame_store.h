#pragma once
// FrameStore: the provenance of images cut from videos (the `image_frames` table). Reached through
// Project::frames(); every write is one transaction (or joins Project::transaction). Thread affinity: the
// Project's.

#include "common/expected.h"
#include "project/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace osprey::project {

struct ProjectImpl;

class FrameStore {
public:
    FrameStore(const FrameStore&) = delete;
    FrameStore& operator=(const FrameStore&) = delete;

    /// Adds one image cut from a video together with its provenance, in one transaction (an importer
    /// killed at any moment leaves the frame either fully in the project or not at all). Fails with code
    /// "exists" when the project already holds that frame of that video.
    Expected<std::int64_t> add(const NewImage& image, const FrameSource& source);
    /// Where an image came from, when it was cut from a video (ImageStore::get fills ImageRecord::frame
    /// too).
    Expected<std::optional<FrameSource>> source(std::int64_t imageId) const;
    /// The frame indices of `video` (as stored: FrameSource::video) already in the project, ascending.
    Expected<std::vector<std::int64_t>> indices(const std::string& video) const;
    /// The difference hashes of every video frame in the project, for near-duplicate checks.
    Expected<std::vector<std::uint64_t>> hashes() const;

private:
    friend struct ProjectImpl;
    explicit FrameStore(ProjectImpl& impl) : m_impl(impl) {}
    ProjectImpl& m_impl;
};

} // namespace osprey::project
