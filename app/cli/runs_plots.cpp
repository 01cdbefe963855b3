// osprey-cli runs plots RUN project=P: draws a run folder's pictures again (or for the first time, for a run
// from before they existed): results.png, PR_curve.png, F1_curve.png, P_curve.png, R_curve.png,
// confusion_matrix(_normalized).png from its results.csv and curves.json, and labels.jpg from the project's
// train split as it is now.
#include "cli/verb.h"
#include "formats/project_export.h"
#include "plot/plot_options.h"
#include "plot/run_plots.h"
#include "project/project.h"
#include "project/run_info.h"
#include "quality/dataset_stats.h"

#include <chrono>
#include <iostream>

namespace osprey::cli {
namespace {

int runRunsPlots(const Args& args) {
    if (args.positional().size() != 1) {
        std::cerr << "error: give the run: osprey-cli runs plots RUN project=P\n";
        return 2;
    }
    const std::filesystem::path projectFolder = args.str("project");
    auto dir = project::findRunFolder(projectFolder, args.positional().front());
    if (!dir) {
        std::cerr << "error: " << dir.message() << "\n";
        return 2;
    }
    const auto started = std::chrono::steady_clock::now();
    std::vector<std::string> classNames;
    std::vector<LabelBox> labels;
    const bool withLabels = args.flag("labels");
    if (withLabels) {
        auto project = project::Project::open(projectFolder);
        if (!project) {
            std::cerr << "error: " << project.message() << "\n";
            return 1;
        }
        auto dataset = formats::readProject(**project);
        if (!dataset) {
            std::cerr << "error: " << dataset.message() << "\n";
            return 1;
        }
        for (const auto& cls : dataset->classes)
            classNames.push_back(cls.name);
        labels = quality::labelBoxes(*dataset, project::Split::Train);
    }
    auto written = plot::writeRunPlots(*dir, classNames, withLabels ? &labels : nullptr);
    if (!written) {
        std::cerr << "error: " << written.message() << "\n";
        return 1;
    }
    for (const auto& file : *written)
        std::cout << file.string() << "\n";
    std::cerr << "Drew " << written->size() << " pictures in "
              << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() << " s\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "runs plots",
    "Draw a run's pictures (results, PR/F1/P/R curves, confusion matrices, labels): runs plots RUN project=P",
    [] { return plot::runsPlotsOptions(); }, runRunsPlots, 1});

} // namespace
} // namespace osprey::cli
