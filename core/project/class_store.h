#pragma once
// ClassStore: the project's object classes (the `classes` table), in their list order, which is also the
// YOLO class index on export. Reached through Project::classes(); every write is one transaction (or joins
// Project::transaction). Thread affinity: the Project's.

#include "common/expected.h"
#include "project/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace osprey::project {

struct ProjectImpl;

class ClassStore {
public:
    ClassStore(const ClassStore&) = delete;
    ClassStore& operator=(const ClassStore&) = delete;

    /// Adds a class at the end of the list. An empty colour picks one from the palette. Names are unique.
    Expected<std::int64_t> add(const std::string& name, const std::string& color = {});
    Status rename(std::int64_t classId, const std::string& name);
    /// `color`: #rrggbb.
    Status recolor(std::int64_t classId, const std::string& color);
    /// Moves a class to `position` (0-based), shifting the others.
    Status move(std::int64_t classId, int position);
    /// Deletes a class. With Reassign, `reassignTo` receives its boxes; with DeleteBoxes, images that lose
    /// their last box become new again.
    Status remove(std::int64_t classId, ClassDeletePolicy policy, std::int64_t reassignTo = 0);
    /// All classes ordered by position.
    Expected<std::vector<ClassInfo>> list() const;

private:
    friend struct ProjectImpl;
    explicit ClassStore(ProjectImpl& impl) : m_impl(impl) {}
    ProjectImpl& m_impl;
};

/// The default class colour palette (distinct, readable on light and dark images).
std::string paletteColor(int index);

} // namespace osprey::project
