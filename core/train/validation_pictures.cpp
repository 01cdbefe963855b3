#include "train/validation_pictures.h"

#include "common/log.h"
#include "plot/run_plots.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "train/data_loader.h"
#include "train/val_batch_pictures.h"
#include "train/validation_chain.h"

#include <system_error>

namespace osprey::train {

Expected<std::filesystem::path> claimValidationDir(const std::filesystem::path& projectFolder) {
    return run::claimRunDir(projectFolder / "validations", "val");
}

Expected<ValidationReport>
validateWithPictures(const std::filesystem::path& weights, const std::vector<Sample>& samples,
                     const std::vector<std::string>& classNames, const run::TrainConfig& config,
                     const std::filesystem::path& folder, ValidationPictures* pictures) {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
        return fail(folder.string() + ": cannot create the folder for the pictures: " + ec.message());
    const run::RunFolder files(folder);
    // One validation, so validation.jsonl holds one line: start it afresh.
    std::filesystem::remove(files.validation(), ec);

    const auto warn = [](const std::string& message) { log::warn(message); };
    DataLoader loader(samples, LoaderOptions::fromConfig(config, LoaderMode::Val), warn);
    ValidationChain chain(loader, samples, classNames, config.imgsz, folder, warn);

    auto report = validateWeights(weights, chain.source(), &chain.scorer(),
                                  static_cast<int>(classNames.size()), config);
    if (!report)
        return report;

    // The recorders write when told that an epoch is the best one: this validation is the only one.
    run::TrainEvent epoch;
    epoch.type = run::TrainEvent::Type::Epoch;
    epoch.best = true;
    epoch.metrics.epoch = 1;
    epoch.metrics.precision = report->metrics.precision;
    epoch.metrics.recall = report->metrics.recall;
    epoch.metrics.map50 = report->metrics.map50;
    epoch.metrics.map50to95 = report->metrics.map50to95;
    epoch.metrics.fitness = report->metrics.map50to95;
    epoch.metrics.valBoxLoss = report->boxLoss;
    epoch.metrics.valClsLoss = report->clsLoss;
    epoch.metrics.valDflLoss = report->dflLoss;
    chain.onEvent(epoch);

    ValidationPictures written{folder, {}};
    if (auto drawn = plot::writeRunPlots(folder, classNames))
        written.files = std::move(drawn.value());
    else
        log::warn("plots: " + drawn.message());
    for (int b = 0; b < ValBatchPictures::kBatches; ++b)
        for (const auto& picture : {files.valBatchLabels(b), files.valBatchPredictions(b)})
            if (std::filesystem::exists(picture, ec))
                written.files.push_back(picture);
    if (std::filesystem::exists(files.curves(), ec))
        written.files.push_back(files.curves());
    if (pictures)
        *pictures = std::move(written);
    return report;
}

} // namespace osprey::train
