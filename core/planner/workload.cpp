#include "planner/workload.h"

#include "common/strings.h"
#include "planner/model_figures.h"
#include "project/project.h"

namespace osprey::planner {

namespace {

std::string baseName(const std::string& name) {
    std::string lower = toLower(name);
    for (const char* suffix : {".pt", ".yaml", ".yml"})
        if (endsWith(lower, suffix))
            lower.resize(lower.size() - std::string_view(suffix).size());
    return lower;
}

} // namespace

std::optional<ModelFigures> findModelFigures(const std::string& name) {
    const std::string wanted = baseName(name);
    for (const auto& figures : kModelFigures)
        if (wanted == figures.name)
            return figures;
    return std::nullopt;
}

char modelScale(const std::string& name) {
    const std::string base = baseName(name);
    if (base.empty())
        return 0;
    const char last = base.back();
    return std::string_view("nsmlx").find(last) == std::string_view::npos ? 0 : last;
}

std::string withScale(const std::string& name, char scale) {
    std::string base = baseName(name);
    if (!base.empty() && modelScale(base))
        base.back() = scale;
    return base;
}

double Workload::gflops() const {
    const double side = imgsz / 640.0;
    return gflops640 * side * side;
}

double Workload::trainFlopsPerImage() const {
    return 3.0 * gflops() * 1e9;
}

Status setModel(Workload& workload, const std::string& model) {
    const auto figures = findModelFigures(model);
    if (!figures) {
        std::string known;
        for (const auto& entry : kModelFigures)
            known += (known.empty() ? "" : ", ") + std::string(entry.name);
        return fail("model: '" + model + "' is not a model the planner knows; use one of " + known,
                    "bad_model");
    }
    workload.model = figures->name;
    workload.params = figures->params;
    workload.gflops640 = figures->gflops;
    return {};
}

Status readProjectDataset(const std::filesystem::path& projectFolder, Workload& workload) {
    auto project = project::Project::open(projectFolder);
    if (!project)
        return fail(project.error());
    const auto splits = (*project)->images().splitCounts();
    if (!splits)
        return fail(splits.error());
    workload.trainImages = workload.valImages = 0;
    for (const auto& [split, count] : *splits) {
        if (split == project::Split::Train)
            workload.trainImages = count;
        else if (split == project::Split::Val)
            workload.valImages = count;
    }
    const auto classes = (*project)->classes().list();
    if (!classes)
        return fail(classes.error());
    workload.classes = static_cast<int>(classes->size());
    project::ImageQuery query;
    query.split = project::Split::Train;
    query.limit = 0;
    const auto images = (*project)->images().list(query);
    if (!images)
        return fail(images.error());
    double width = 0, height = 0;
    std::int64_t sized = 0;
    for (const auto& image : *images) {
        if (image.width > 0 && image.height > 0) {
            width += image.width;
            height += image.height;
            ++sized;
        }
    }
    workload.meanWidthPx = sized ? width / static_cast<double>(sized) : 0;
    workload.meanHeightPx = sized ? height / static_cast<double>(sized) : 0;
    return {};
}

} // namespace osprey::planner
