// osprey-cli select project=P [model=W] [n=200] [strategy=uncertainty|diversity|random] [from=unlabeled|all]
//                   [seed=0] [propose=true] [conf=C] [imgsz=N] [device=cpu] [workers=N] [threads=N]
// Ranks the unlabelled images by how much labelling them should help, prints why each was picked, keeps the
// list as the project's label-next queue and (propose=true) stores the model's boxes on the picks for
// review. The keys and their defaults are declared in core/assist (assist_options.h).
#include "assist/assist_options.h"
#include "assist/auto_labeler.h"
#include "assist/label_selector.h"
#include "cli/batch_inference.h"
#include "cli/verb.h"
#include "run/run_curves.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace osprey::cli {
namespace {

int runSelect(const Args& args) {
    assist::SelectOptions options;
    const auto strategy = assist::selectStrategyFromString(args.str("strategy"));
    if (!strategy) {
        std::cerr << "error: strategy=" << args.str("strategy") << ": use uncertainty, diversity or random\n";
        return 2;
    }
    options.strategy = *strategy;
    options.count = static_cast<int>(args.integer("n"));
    if (options.count <= 0) {
        std::cerr << "error: n=" << args.str("n") << ": pick at least one image\n";
        return 2;
    }
    options.unlabeledOnly = args.str("from") != "all";
    options.seed = static_cast<std::uint64_t>(args.integer("seed"));
    options.imgsz = static_cast<int>(args.integer("imgsz"));
    const bool propose = args.flag("propose");
    const std::string modelPath = args.str("model");
    if (modelPath.empty() && (assist::needsModel(options.strategy) || propose)) {
        std::cerr << "error: model= is needed "
                  << (assist::needsModel(options.strategy)
                          ? "by strategy=" + args.str("strategy")
                          : std::string("to propose boxes (or pass propose=false)"))
                  << "\n";
        return 2;
    }

    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    sayWhenWaitingForAnotherWriter(**project);
    const assist::ModelSource source{modelPath, args.str("weights"), args.str("names"), args.str("device")};
    std::unique_ptr<assist::BoxPredictor> predictor;
    if (!modelPath.empty()) {
        auto opened = assist::BoxPredictor::open(source);
        if (!opened) {
            std::cerr << "error: " << opened.message() << "\n";
            return 1;
        }
        predictor = std::move(*opened);
    }
    options.workers = setUpInferenceWorkers(args, predictor.get());
    options.openPredictor = [&source] { return assist::BoxPredictor::open(source); };

    auto report = runInterruptible<assist::SelectReport>("select", [&](const BatchProgress& progress) {
        return assist::selectForLabelling(**project, predictor.get(), options, progress);
    });
    if (!report)
        return 1;
    const double rate = report->seconds > 0 ? report->measured / report->seconds : 0.0;
    std::printf("%zu of %d %s picked by %s (%d measured in %.1f s, %.1f images/s)%s\n", report->picked.size(),
                report->candidates, options.unlabeledOnly ? "unlabelled images" : "images",
                args.str("strategy").c_str(), report->measured, report->seconds, rate,
                report->cancelled ? "; interrupted: picked from the images measured so far" : "");
    if (report->picked.empty()) {
        std::printf("nothing to pick: %s\n", options.unlabeledOnly
                                                 ? "no image has status new (from=all considers every image)"
                                                 : "the project has no images");
        return report->cancelled ? 130 : 0;
    }
    std::printf("%5s %9s %6s  %s\t%s\n", "rank", "image_id", "score", "path", "reason");
    int rank = 0;
    for (const auto& item : report->picked)
        std::printf("%5d %9lld %6.3f  %s\t%s\n", ++rank, static_cast<long long>(item.imageId), item.score,
                    item.path.c_str(), item.reason.c_str());

    if (auto saved = assist::saveLabelNextQueue(**project, report->picked, options.strategy,
                                                std::filesystem::path(modelPath).filename().string());
        !saved) {
        std::cerr << "error: " << saved.message() << "\n";
        return 1;
    }
    std::printf(
        "saved as the project's label-next queue (Osprey: Edit > Model Proposals > Label Next Queue)\n");
    if (propose && predictor) {
        assist::AutoLabelOptions label;
        label.images = assist::ImageSelection::Listed;
        for (const auto& item : report->picked)
            label.imageIds.push_back(item.imageId);
        label.suggest.confThreshold = static_cast<float>(args.number("conf"));
        if (const auto best = args.given("conf") ? std::nullopt : run::runBestConfidence(modelPath)) {
            label.suggest.confThreshold = static_cast<float>(*best);
            std::cerr << "note: conf=" << *best
                      << ", the best-F1 confidence of the model's run (its curves.json)\n";
        }
        label.suggest.imgsz = options.imgsz;
        label.mappingKey = std::filesystem::path(modelPath).filename().string();
        label.workers = options.workers;
        label.openPredictor = options.openPredictor;
        auto stored = assist::autoLabel(**project, *predictor, label);
        if (!stored) {
            std::cerr << "error: storing the model's boxes on the picks: " << stored.message() << "\n";
            return 1;
        }
        std::printf("%d boxes stored as source=model on %d of the picks, for review\n", stored->boxes,
                    stored->labeled);
    }
    return report->cancelled ? 130 : 0;
}

OSPREY_REGISTER_VERB(Verb{
    "select",
    "Pick the unlabelled images worth labelling next (uncertainty, diversity or random) "
    "and say why",
    [] { return assist::selectOptions(); }, runSelect});

} // namespace
} // namespace osprey::cli
