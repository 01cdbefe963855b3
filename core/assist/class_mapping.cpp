#include "assist/auto_labeler.h"
#include "common/strings.h"

#include <algorithm>
#include <map>

namespace osprey::assist {

int ClassMapping::mappedCount() const {
    return static_cast<int>(std::count_if(projectClassIds.begin(), projectClassIds.end(),
                                          [](const auto& id) { return id.has_value(); }));
}

Expected<ClassMapping> mapClassesByName(project::Project& project, const std::vector<std::string>& modelNames,
                                        AddClasses addClasses) {
    auto classes = project.classes();
    if (!classes)
        return fail(classes.error());
    const bool add = addClasses == AddClasses::Yes || (addClasses == AddClasses::Auto && classes->empty());
    std::map<std::string, std::int64_t> byName;
    for (const auto& info : *classes)
        byName.emplace(toLower(info.name), info.id);
    ClassMapping mapping;
    mapping.projectClassIds.resize(modelNames.size());
    auto status = project.transaction([&]() -> Status {
        for (size_t i = 0; i < modelNames.size(); ++i) {
            const std::string key = toLower(modelNames[i]);
            if (auto it = byName.find(key); it != byName.end()) {
                mapping.projectClassIds[i] = it->second;
            } else if (add && !modelNames[i].empty()) {
                auto id = project.addClass(modelNames[i]);
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
