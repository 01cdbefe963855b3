#pragma once
// SettingStore: the project's remembered choices, one value per key (the `settings` table; the keys are
// listed in SCHEMA.md). Reached through Project::settings(). Thread affinity: the Project's.

#include "common/expected.h"

#include <string>

namespace osprey::project {

struct ProjectImpl;

class SettingStore {
public:
    SettingStore(const SettingStore&) = delete;
    SettingStore& operator=(const SettingStore&) = delete;

    /// The value of `key`, or `fallback` when it has none.
    Expected<std::string> get(const std::string& key, const std::string& fallback = {}) const;
    Status set(const std::string& key, const std::string& value);

private:
    friend struct ProjectImpl;
    explicit SettingStore(ProjectImpl& impl) : m_impl(impl) {}
    ProjectImpl& m_impl;
};

} // namespace osprey::project
