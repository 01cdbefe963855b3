// osprey-cli val project=P weights=W [imgsz=640] [batch=16] [plots=true] [save_dir=DIR]: validates a
// checkpoint on the project's val split with the trainer's per-epoch validation, prints P, R, mAP50,
// mAP50-95 and the val losses, and writes the curves, confusion matrices and val batch pictures as
// Ultralytics' val does (into <project>/validations/valN unless save_dir says where).
#include "cli/train_args.h"
#include "cli/verb.h"
#include "job/project_training.h"
#include "run/run_files.h"
#include "run/train_options.h"
#include "train/validation_pictures.h"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace osprey::cli {
namespace {

int runVal(const Args& args) {
    run::TrainConfig config;
    if (auto status = applyTrainArgs(config, args); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 2;
    }
    std::filesystem::path plotsDir;
    if (args.flag("plots")) {
        if (args.given("save_dir") && !args.str("save_dir").empty()) {
            plotsDir = args.str("save_dir");
        } else {
            auto claimed = train::claimValidationDir(args.str("project"));
            if (!claimed) {
                std::cerr << "error: " << claimed.message() << "\n";
                return 1;
            }
            plotsDir = claimed.value();
        }
    }
    train::ValidationPictures pictures;
    auto report = job::validateProject(args.str("project"), args.str("weights"), config, plotsDir, &pictures);
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    const auto& m = report->metrics;
    std::printf("P %.4f  R %.4f  mAP50 %.4f  mAP50-95 %.4f  | val box %.4f cls %.4f %s %.4f  (%.1f s)\n",
                m.precision, m.recall, m.map50, m.map50to95, report->boxLoss, report->clsLoss,
                run::thirdLossName(report->modelName), report->dflLoss, report->seconds);
    if (!plotsDir.empty())
        std::printf("%zu pictures and curves in %s\n", pictures.files.size(), plotsDir.string().c_str());
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "val",
    "Validate a checkpoint on a project's val split (mAP50, mAP50-95, P, R, val losses; curves and pictures)",
    [] {
        return joined(
            {run::valFileOptions(), trainOptionsNamed({"imgsz", "batch", "device", "workers", "threads",
                                                       "conf", "iou", "max_det", "nms"})});
    },
    runVal});

} // namespace
} // namespace osprey::cli
