#include "assist/auto_labeler.h"
#include "common/strings.h"

#include <algorithm>
#include <map>

namespace osprey::assist {

int ClassMapping::mappedCount() const {
    return static_cast<int>(std::count_if(projectClassIds.begin(), projectClassIds.end(),
                                          [](const auto& id) { return id.has_value(); }));
}

namespace {

std::string settingKey(const std::string& modelKey) {
    return "assist.class_map." + modelKey;
}

} // namespace

Status saveClassMapping(project::Project& project, const std::string& modelKey,
                        const std::vector<std::string>& modelNames, const ClassMapping& mapping) {
    if (modelKey.empty() || mapping.projectClassIds.size() != modelNames.size())
        return fail("class mapping: needs a model key and one entry per model class", "invalid");
    // One "model name<TAB>project class id or none" line per class.
    std::string text;
    for (size_t i = 0; i < modelNames.size(); ++i)
        text += modelNames[i] + "\t" +
                (mapping.projectClassIds[i] ? std::to_string(*mapping.projectClassIds[i]) : "none") + "\n";
    return project.settings().set(settingKey(modelKey), text);
}

Expected<ClassMapping> mapClassesByName(project::Project& project, const std::vector<std::string>& modelNames,
                                        AddClasses addClasses, const std::string& modelKey) {
    auto classes = project.classes().list();
    if (!classes)
        return fail(classes.error());
    const bool add = addClasses == AddClasses::Yes || (addClasses == AddClasses::Auto && classes->empty());
    std::map<std::string, std::int64_t> byName;
    for (const auto& info : *classes)
        byName.emplace(toLower(info.name), info.id);
    std::map<std::string, std::optional<std::int64_t>> saved;
    if (!modelKey.empty()) {
        auto text = project.settings().get(settingKey(modelKey));
        if (!text)
            return fail(text.error());
        std::map<std::int64_t, bool> exists;
        for (const auto& info : *classes)
            exists[info.id] = true;
        size_t start = 0;
        while (start < text->size()) {
            const size_t end = std::min(text->find('\n', start), text->size());
            const std::string line = text->substr(start, end - start);
            start = end + 1;
            const size_t tab = line.find('\t');
            if (tab == std::string::npos)
                continue;
            const std::string value = line.substr(tab + 1);
            if (value == "none")
                saved[line.substr(0, tab)] = std::nullopt;
            else if (const std::int64_t id = std::atoll(value.c_str()); exists.count(id))
                saved[line.substr(0, tab)] = id; // a deleted class falls back to the by-name match
        }
    }
    ClassMapping mapping;
    mapping.projectClassIds.resize(modelNames.size());
    auto status = project.transaction([&]() -> Status {
        for (size_t i = 0; i < modelNames.size(); ++i) {
            const std::string key = toLower(modelNames[i]);
            if (auto it = saved.find(modelNames[i]); it != saved.end()) {
                mapping.projectClassIds[i] = it->second;
            } else if (auto it = byName.find(key); it != byName.end()) {
                mapping.projectClassIds[i] = it->second;
            } else if (add && !modelNames[i].empty()) {
                auto id = project.classes().add(modelNames[i]);
                if (!id)
                    return fail(id.error());
                byName.emplace(key, *id);
                mapping.projectClassIds[i] = *id;
            }
        }
        return {};
    });
    if (!status)
        return fail(status.error());
    return mapping;
}

} // namespace osprey::assist
