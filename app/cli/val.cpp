// osprey-cli val project=P weights=W [imgsz=640] [batch=16]: validates a checkpoint on the project's val
// split with the trainer's per-epoch validation and prints P, R, mAP50, mAP50-95 and the val losses.
#include "cli/train_args.h"
#include "cli/verb.h"
#include "run/train_options.h"
#include "train/project_training.h"

#include <cstdio>
#include <iostream>

namespace osprey::cli {
namespace {

int runVal(const Args& args) {
    run::TrainConfig config;
    if (auto status = applyTrainArgs(config, args); !status) {
        std::cerr << "error: " << status.message() << "\n";
        return 2;
    }
    auto report = train::validateProject(args.str("project"), args.str("weights"), config);
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    const auto& m = report->metrics;
    std::printf("P %.4f  R %.4f  mAP50 %.4f  mAP50-95 %.4f  | val box %.4f cls %.4f dfl %.4f  (%.1f s)\n",
                m.precision, m.recall, m.map50, m.map50to95, report->boxLoss, report->clsLoss,
                report->dflLoss, report->seconds);
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "val", "Validate a checkpoint on a project's val split (mAP50, mAP50-95, P, R, val losses)",
    [] {
        return joined({run::valFileOptions(), trainOptionsNamed({"imgsz", "batch", "device", "workers",
                                                                 "threads", "conf", "iou", "max_det"})});
    },
    runVal});

} // namespace
} // namespace osprey::cli
