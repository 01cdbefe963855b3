#pragma once
// ImageStore: the project's images (the `images` table): their files, sizes, statuses and splits. An
// image's boxes are in BoxStore, the video frame it may have been cut from in FrameStore. Reached through
// Project::images(); every write is one transaction (or joins Project::transaction). Thread affinity: the
// Project's.

#include "common/expected.h"
#include "project/types.h"

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace osprey::project {

struct ProjectImpl;

class ImageStore {
public:
    ImageStore(const ImageStore&) = delete;
    ImageStore& operator=(const ImageStore&) = delete;

    Expected<std::int64_t> add(const NewImage& image);
    /// Adds many images in one transaction; returns their ids in order.
    Expected<std::vector<std::int64_t>> addAll(std::span<const NewImage> images);
    /// One image with its box count and, when it was cut from a video, its frame.
    Expected<ImageRecord> get(std::int64_t imageId) const;
    /// Images ordered by id, filtered and paged, with their box counts.
    Expected<std::vector<ImageRecord>> list(const ImageQuery& query = {}) const;
    /// Number of images matching the filters (paging ignored).
    Expected<std::int64_t> count(const ImageQuery& query = {}) const;
    /// Row of `imageId` in list(query) order (paging ignored); fails when it does not match the filters.
    Expected<std::int64_t> row(std::int64_t imageId, const ImageQuery& query = {}) const;
    Status setStatus(std::int64_t imageId, ImageStatus status);
    Status setSplit(std::int64_t imageId, Split split, bool locked = false);
    Status setSize(std::int64_t imageId, int width, int height);
    /// Deletes an image record and its boxes (never the file).
    Status remove(std::int64_t imageId);
    /// Image counts per split, including images without boxes.
    Expected<std::vector<std::pair<Split, std::int64_t>>> splitCounts() const;

private:
    friend struct ProjectImpl;
    explicit ImageStore(ProjectImpl& impl) : m_impl(impl) {}
    ProjectImpl& m_impl;
};

} // namespace osprey::project
