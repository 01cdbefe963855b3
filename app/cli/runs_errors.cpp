// osprey-cli runs errors project=P run=NAME [epoch=best] [limit=20] [matrix=false] [json=false]
// The val images a run's model got most wrong at one epoch (from <run>/validation.jsonl).
#include "cli/runs_diff_output.h"
#include "cli/verb.h"
#include "project/run_info.h"
#include "quality/quality_options.h"
#include "quality/run_snapshot.h"
#include "run/run_folder.h"
#include "run/val_results.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace osprey::cli {
namespace {

std::string fixed(double value, int decimals) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

nlohmann::json countsJson(const run::ValCounts& c) {
    return {{"images", c.images},
            {"true_positives", c.truePositives},
            {"false_positives", c.falsePositives},
            {"missed", c.missed},
            {"low_iou", c.lowIou},
            {"wrong_class", c.wrongClass},
            {"score", c.score}};
}

const char* markName(run::ValMark mark) {
    switch (mark) {
    case run::ValMark::Match:
        return "match";
    case run::ValMark::FalsePositive:
        return "false_positive";
    case run::ValMark::Missed:
        return "missed";
    case run::ValMark::LowIou:
        return "low_iou";
    case run::ValMark::WrongClass:
        return "wrong_class";
    }
    return "?";
}

int runRunsErrors(const Args& args) {
    auto project = project::Project::open(args.str("project"));
    if (!project) {
        std::cerr << "error: " << project.message() << "\n";
        return 1;
    }
    auto info = project::findRun(**project, args.str("run"));
    if (!info) {
        std::cerr << "error: run: " << info.message() << "\n";
        return 1;
    }
    auto epochs = run::readValidationFile(run::RunFolder(info->dir).validation());
    if (!epochs) {
        std::cerr << "error: " << epochs.message() << "\n";
        return 1;
    }
    if (epochs->empty()) {
        std::cerr << "error: run " << info->record.name << " has not validated an epoch yet\n";
        return 1;
    }
    const std::string wanted = args.str("epoch");
    int epochNumber = 0;
    std::string which;
    if (wanted == "best") {
        if (!info->record.bestEpoch) {
            std::cerr << "error: epoch: run " << info->record.name
                      << " has no best epoch yet; give epoch=last or "
                      << "a number\n";
            return 1;
        }
        epochNumber = *info->record.bestEpoch;
        which = " (best)";
    } else if (wanted == "last") {
        which = " (last)";
    } else {
        try {
            size_t used = 0;
            epochNumber = std::stoi(wanted, &used);
            if (used != wanted.size() || epochNumber < 1)
                throw std::invalid_argument(wanted);
        } catch (const std::exception&) {
            std::cerr << "error: epoch: '" << wanted
                      << "' is not best, last or an epoch number (1, 2, ...)\n";
            return 1;
        }
    }
    const auto found = run::findEpoch(*epochs, epochNumber);
    if (!found) {
        std::string have;
        for (const auto& e : *epochs) {
            if (!have.empty())
                have += ", ";
            have += std::to_string(e.epoch);
        }
        std::cerr << "error: epoch: run " << info->record.name << " has no validation results for epoch "
                  << epochNumber << " (it has epochs " << have << ")\n";
        return 1;
    }
    const run::EpochValidation& e = *found;
    const long long limit = args.integer("limit");
    const size_t shown = limit <= 0 ? e.worst.size() : std::min(e.worst.size(), static_cast<size_t>(limit));
    const auto className = [&](int id) {
        return id >= 0 && id < static_cast<int>(e.classNames.size()) ? e.classNames[static_cast<size_t>(id)]
                                                                     : std::string("background");
    };

    if (args.flag("json")) {
        nlohmann::json images = nlohmann::json::array();
        for (size_t i = 0; i < shown; ++i) {
            const auto& image = e.worst[i];
            nlohmann::json boxes = nlohmann::json::array();
            for (const auto& b : image.boxes) {
                nlohmann::json box = {{"xyxy", {b.x1, b.y1, b.x2, b.y2}},
                                      {"class", className(b.classId)},
                                      {"mark", markName(b.mark)},
                                      {"kind", b.isDetection() ? "detection" : "label"}};
                if (b.isDetection())
                    box["score"] = b.score;
                boxes.push_back(std::move(box));
            }
            auto entry = countsJson(image.counts);
            entry.erase("images");
            entry["rank"] = i + 1;
            entry["image_id"] = image.imageId;
            entry["name"] = image.name;
            entry["labels"] = image.truths;
            entry["boxes"] = std::move(boxes);
            images.push_back(std::move(entry));
        }
        nlohmann::json cells = nlohmann::json::array();
        for (const auto& cell : e.cells)
            cells.push_back({{"detected", className(cell.detected)},
                             {"actual", className(cell.actual)},
                             {"count", cell.count},
                             {"images", cell.imageCount},
                             {"image_ids", cell.imageIds}});
        const nlohmann::json out = {{"run", info->record.name},
                                    {"epoch", e.epoch},
                                    {"confidence", e.confidence},
                                    {"iou", e.iou},
                                    {"totals", countsJson(e.totals)},
                                    {"not_listed", countsJson(e.rest)},
                                    {"images", std::move(images)},
                                    {"classes", e.classNames},
                                    {"confusion_matrix",
                                     {{"confidence", e.matrixConfidence},
                                      {"iou", e.matrixIou},
                                      {"counts", e.matrix},
                                      {"cells", std::move(cells)}}}};
        std::cout << out.dump(2) << "\n";
        return 0;
    }

    const auto& t = e.totals;
    std::cout << "Run " << info->record.name << ", epoch " << e.epoch << which << ": " << t.images
              << " val images, " << t.falsePositives << " false positives, " << t.missed << " missed boxes, "
              << t.lowIou << " low-IoU matches, " << t.wrongClass << " wrong classes (confidence "
              << fixed(e.confidence, 2) << ", IoU " << fixed(e.iou, 2) << ")\n";
    std::cout << "Score: each missed box counts 1 minus its detection's confidence, each false positive its "
                 "confidence; the sum is divided by the image's labels + 1.\n";
    std::vector<std::vector<std::string>> rows{
        {"RANK", "SCORE", "FP", "MISSED", "LOW-IOU", "WRONG-CLASS", "LABELS", "IMAGE"}};
    for (size_t i = 0; i < shown; ++i) {
        const auto& image = e.worst[i];
        const auto& c = image.counts;
        rows.push_back({std::to_string(i + 1), fixed(c.score, 3), std::to_string(c.falsePositives),
                        std::to_string(c.missed), std::to_string(c.lowIou), std::to_string(c.wrongClass),
                        std::to_string(image.truths),
                        image.name + " (id " + std::to_string(image.imageId) + ")"});
    }
    printTable(rows);
    if (shown < e.worst.size() || e.rest.images > 0)
        std::cout << (e.worst.size() - shown + static_cast<size_t>(e.rest.images))
                  << " more images not listed (limit=0 lists the " << e.worst.size() << " kept in detail)\n";

    if (args.flag("matrix")) {
        std::cout << "\nConfusion matrix (rows: labelled class, columns: detected class; confidence "
                  << fixed(e.matrixConfidence, 2) << ", IoU " << fixed(e.matrixIou, 2) << ")\n";
        const int side = static_cast<int>(e.classNames.size()) + 1;
        std::vector<std::vector<std::string>> matrix{{"LABELLED \\ DETECTED"}};
        for (int d = 0; d < side; ++d)
            matrix[0].push_back(className(d));
        for (int a = 0; a < side; ++a) {
            std::vector<std::string> row{className(a)};
            for (int d = 0; d < side; ++d)
                row.push_back(std::to_string(e.matrixCount(d, a)));
            matrix.push_back(std::move(row));
        }
        printTable(matrix);
    }
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "runs errors",
    "The val images a run's model gets most wrong at an epoch: false positives, missed boxes, low IoU",
    [] { return quality::runsErrorsOptions(); }, runRunsErrors});

} // namespace
} // namespace osprey::cli
