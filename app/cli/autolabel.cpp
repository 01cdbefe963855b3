// osprey-cli autolabel project=P model=M [weights=X.weights] [names=FILE] [images=unlabeled|all|split:val]
//                      [conf=C] [iou=T] [imgsz=N] [mode=add|replace] [add_classes=auto|true|false]
//                      [workers=N] [threads=N]
// The keys and their defaults are declared in core/assist (assist_options.h).
#include "assist/assist_options.h"
#include "assist/auto_labeler.h"
#include "cli/batch_inference.h"
#include "cli/verb.h"
#include "run/run_curves.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace osprey::cli {
namespace {

int runAutolabel(const Args& args) {
    assist::AutoLabelOptions options;
    if (auto parsed = assist::parseImageSelection(args.str("images"), options); !parsed) {
        std::cerr << "error: " << parsed.message() << "\n";
        return 2;
    }
    const std::string mode = args.str("mode");
    if (mode != "add" && mode != "replace") {
        std::cerr << "error: mode=" << mode << ": use add or replace\n";
        return 2;
    }
    options.mode = mode == "replace" ? assist::WriteMode::Replace : assist::WriteMode::Add;
    const std::string addClasses = args.str("add_classes");
    if (addClasses == "true" || addClasses == "1")
        options.addClasses = assist::AddClasses::Yes;
    else if (addClasses == "false" || addClasses == "0")
        options.addClasses = assist::AddClasses::No;
    else if (addClasses != "auto") {
        std::cerr << "error: add_classes=" << addClasses << ": use true, false or auto\n";
        return 2;
    }
    options.suggest.confThreshold = static_cast<float>(args.number("conf"));
    if (const auto best = args.given("conf") ? std::nullopt : run::runBestConfidence(args.str("model"))) {
        options.suggest.confThreshold = static_cast<float>(*best);
        std::cerr << "note: conf=" << *best
                  << ", the best-F1 confidence of the model's run (its curves.json)\n";
    }
    options.suggest.iouThreshold = static_cast<float>(args.number("iou"));
    options.suggest.imgsz = static_cast<int>(args.integer("imgsz"));
    options.batchSize = std::max(1, static_cast<int>(args.integer("batch")));
    options.mappingKey = std::filesystem::path(args.str("model")).filename().string();

    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    sayWhenWaitingForAnotherWriter(**project);
    const assist::ModelSource source{args.str("model"), args.str("weights"), args.str("names"),
                                     args.str("device")};
    auto predictor = assist::BoxPredictor::open(source);
    if (!predictor) {
        std::cerr << "error: " << predictor.message() << "\n";
        return 1;
    }
    options.workers = setUpInferenceWorkers(args, &**predictor);
    options.openPredictor = [&source] { return assist::BoxPredictor::open(source); };
    // Ctrl+C stops after the current batch; every stored batch is already committed.
    auto report = runInterruptible<assist::AutoLabelReport>("autolabel", [&](const BatchProgress& progress) {
        return assist::autoLabel(**project, **predictor, options, progress);
    });
    if (!report)
        return 1;
    std::printf("%d images, %d with proposals, %d boxes stored as source=model (%.1f images/s)%s\n",
                report->images, report->labeled, report->boxes,
                report->seconds > 0 ? report->images / report->seconds : 0.0,
                report->cancelled ? "; interrupted, the stored batches are kept" : "");
    std::printf(
        "review: the new boxes carry source=model and their scores; `osprey-cli review project=%s` lists "
        "the images to check\n",
        args.str("project").c_str());
    return report->cancelled ? 130 : 0;
}

OSPREY_REGISTER_VERB(Verb{"autolabel",
                          "Propose boxes on a project's images with a model and store them for review",
                          [] { return assist::autoLabelOptions(); }, runAutolabel});

} // namespace
} // namespace osprey::cli
