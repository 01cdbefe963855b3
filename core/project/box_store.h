#pragma once
// BoxStore: the project's boxes (the `boxes` table), in image pixels as xyxy. Adding or deleting boxes
// keeps their image's status in step (new <-> labeled). Reached through Project::boxes(); every write is
// one transaction (or joins Project::transaction). Thread affinity: the Project's.

#include "common/expected.h"
#include "project/types.h"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace osprey::project {

struct ProjectImpl;

class BoxStore {
public:
    BoxStore(const BoxStore&) = delete;
    BoxStore& operator=(const BoxStore&) = delete;

    /// Adds a box. A new or verified-empty image becomes labeled.
    Expected<std::int64_t> add(const NewBox& box);
    /// Adds many boxes in one transaction; returns their ids in order.
    Expected<std::vector<std::int64_t>> addAll(std::span<const NewBox> boxes);
    /// Updates class, coordinates, source, score and flags of an existing box.
    Status update(const BoxRecord& box);
    /// Deletes a box. A labeled image whose last box goes becomes new again.
    Status remove(std::int64_t boxId);
    Expected<BoxRecord> get(std::int64_t boxId) const;
    /// The boxes of one image, ordered by id.
    Expected<std::vector<BoxRecord>> ofImage(std::int64_t imageId) const;
    /// Streams every box of the project ordered by image id then box id, in one query (exports and
    /// checks of large projects). Stops at the first failure `visit` returns.
    Status forEach(const std::function<Status(const BoxRecord&)>& visit) const;
    /// Image and box counts per class and split (only non-zero rows).
    Expected<std::vector<ClassSplitCount>> classSplitCounts() const;

private:
    friend struct ProjectImpl;
    explicit BoxStore(ProjectImpl& impl) : m_impl(impl) {}
    ProjectImpl& m_impl;
};

} // namespace osprey::project
