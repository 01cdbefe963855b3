#include "assist/auto_labeler.h"

#include "assist/label_pipeline_impl.h"

#include <chrono>

namespace osprey::assist {
namespace {

struct Labelled {
    std::int64_t imageId = 0;
    std::vector<project::NewBox> boxes;
    bool reopen = false; ///< a reviewed image that gets model boxes goes back to labeled (needs review)
};

Status store(project::Project& project, const std::vector<Labelled>& batch, WriteMode mode) {
    return project.transaction([&]() -> Status {
        for (const auto& item : batch) {
            if (mode == WriteMode::Replace) {
                auto existing = project.boxes().ofImage(item.imageId);
                if (!existing)
                    return fail(existing.error());
                for (const auto& box : *existing)
                    if (box.source == project::BoxSource::Model)
                        if (auto deleted = project.boxes().remove(box.id); !deleted)
                            return deleted;
            }
            if (!item.boxes.empty())
                if (auto added = project.boxes().addAll(item.boxes); !added)
                    return fail(added.error());
            if (item.reopen)
                if (auto reopened = project.images().setStatus(item.imageId, project::ImageStatus::Labeled);
                    !reopened)
                    return reopened;
        }
        return {};
    });
}

} // namespace

Status parseImageSelection(const std::string& text, AutoLabelOptions& options) {
    if (text == "unlabeled") {
        options.images = ImageSelection::Unlabeled;
    } else if (text == "all") {
        options.images = ImageSelection::All;
    } else if (text.rfind("split:", 0) == 0) {
        const auto split = project::splitFromString(text.substr(6));
        if (!split)
            return fail("images=" + text + ": unknown split (use split:train, split:val or split:test)",
                        "invalid");
        options.images = ImageSelection::Split;
        options.split = *split;
    } else {
        return fail("images=" + text + ": use unlabeled, all or split:NAME", "invalid");
    }
    return {};
}

Expected<AutoLabelReport> autoLabel(project::Project& project, BoxPredictor& predictor,
                                    const AutoLabelOptions& options, const AutoLabelProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    auto mapping = mapClassesByName(project, predictor.names(), options.addClasses, options.mappingKey);
    if (!mapping)
        return fail(mapping.error());
    if (mapping->mappedCount() == 0)
        return fail("none of the model's " + std::to_string(predictor.names().size()) +
                        " classes matches a project class by name; pass add_classes=true to add them",
                    "classes");
    project::ImageQuery query;
    query.limit = 0;
    if (options.images == ImageSelection::Unlabeled)
        query.status = project::ImageStatus::New;
    else if (options.images == ImageSelection::Split)
        query.split = options.split;
    Expected<std::vector<project::ImageRecord>> images = std::vector<project::ImageRecord>{};
    if (options.images == ImageSelection::Listed) {
        for (const std::int64_t id : options.imageIds) {
            auto record = project.images().get(id);
            if (!record)
                return fail(record.error());
            images->push_back(std::move(*record));
        }
    } else {
        images = project.images().list(query);
    }
    if (!images)
        return fail(images.error());

    AutoLabelReport report;
    const int total = static_cast<int>(images->size());
    std::vector<std::filesystem::path> paths;
    paths.reserve(images->size());
    for (const auto& record : *images)
        paths.push_back(project.resolve(record.path));
    // The extra predictors outlive the pipeline whose workers use them.
    std::vector<std::unique_ptr<BoxPredictor>> extraPredictors;
    std::unique_ptr<detail::LabelPipeline> pipeline;
    if (options.pipelining == Pipelining::Sequential) {
        pipeline = detail::makeSequentialPipeline(std::move(paths), &predictor,
                                                  detail::proposalWork(options.suggest));
    } else if (options.workers > 1) {
        if (!options.openPredictor)
            return fail("autolabel: workers=" + std::to_string(options.workers) +
                            " needs a way to open one predictor per worker",
                        "invalid");
        std::vector<BoxPredictor*> predictors{&predictor};
        for (int i = 1; i < options.workers; ++i) {
            auto another = options.openPredictor();
            if (!another)
                return fail(another.error());
            predictors.push_back(another->get());
            extraPredictors.push_back(std::move(*another));
        }
        pipeline = detail::makeParallelPipeline(std::move(paths), std::move(predictors),
                                                detail::proposalWork(options.suggest),
                                                static_cast<size_t>(options.workers) * 2);
    } else {
        pipeline = detail::makeDecodeAheadPipeline(std::move(paths), &predictor,
                                                   detail::proposalWork(options.suggest),
                                                   static_cast<size_t>(std::max(2, options.batchSize)));
    }
    std::vector<Labelled> batch;
    for (size_t i = 0; i < images->size(); ++i) {
        const auto& record = (*images)[i];
        auto outcome = pipeline->next();
        ++report.images;
        if (outcome.decodeFailed) {
            ++report.failed;
            report.warnings.push_back("skipped " + outcome.analysis.message());
        } else {
            const auto& analysis = outcome.analysis;
            if (!analysis)
                return fail(record.path + ": " + analysis.message());
            Labelled item{record.id, {}, false};
            for (const auto& p : analysis->proposals) {
                if (p.classIndex < 0 || static_cast<size_t>(p.classIndex) >= mapping->projectClassIds.size())
                    continue;
                const auto& classId = mapping->projectClassIds[static_cast<size_t>(p.classIndex)];
                if (!classId)
                    continue;
                project::NewBox box;
                box.imageId = record.id;
                box.classId = *classId;
                box.x1 = p.x1, box.y1 = p.y1, box.x2 = p.x2, box.y2 = p.y2;
                box.source = project::BoxSource::Model;
                box.score = p.score;
                item.boxes.push_back(box);
            }
            item.reopen = !item.boxes.empty() && record.status == project::ImageStatus::Reviewed;
            report.reopened += item.reopen ? 1 : 0;
            report.boxes += static_cast<int>(item.boxes.size());
            report.labeled += item.boxes.empty() ? 0 : 1;
            batch.push_back(std::move(item));
        }
        const bool last = i + 1 == images->size();
        if (static_cast<int>(batch.size()) >= options.batchSize || last) {
            if (auto stored = store(project, batch, options.mode); !stored)
                return fail(stored.error());
            batch.clear();
            if (progress && !progress(report.images, total) && !last) {
                report.cancelled = true;
                break;
            }
        }
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

} // namespace osprey::assist
