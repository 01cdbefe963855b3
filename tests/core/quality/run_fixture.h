#pragma once
// Test helpers for runs recorded without training, as trainProject records them: snapshot.bin, args.yaml
// and a finished runs-table row whose config carries the snapshot hash. Header only; tests that include it
// link osprey::quality, osprey::run and nlohmann_json.

#include "project/project.h"
#include "quality/run_snapshot.h"
#include "run/run_files.h"

#include <nlohmann/json.hpp>

#include <QtGlobal>

#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace osprey::test {

/// Records run `name` with `epochs` (model yolov8n, imgsz 64, batch 8); returns the snapshot hash. With
/// `bestFitness`, the row also has it at epoch 3.
inline std::string recordRun(project::Project& project, const std::string& name, const std::string& epochs,
                             std::optional<double> bestFitness = std::nullopt) {
    const std::filesystem::path dir = project.folder() / "runs" / name;
    auto snapshot = quality::recordRunSnapshot(project, dir);
    if (!snapshot)
        qFatal("snapshot: %s", snapshot.message().c_str());
    const std::map<std::string, std::string> args{
        {"model", "yolov8n"}, {"epochs", epochs}, {"imgsz", "64"}, {"batch", "8"}};
    if (!run::writeArgsYaml(dir / "args.yaml", args))
        qFatal("args.yaml");
    nlohmann::json config(args);
    config[run::kSnapshotConfigKey] = snapshot->summary.hash;
    auto id = project.runs().add(name, config.dump());
    if (!id)
        qFatal("addRun: %s", id.message().c_str());
    project::RunRecord record;
    record.id = *id;
    record.name = name;
    record.config = config.dump();
    record.status = project::RunStatus::Finished;
    record.finishedAt = 1;
    if (bestFitness) {
        record.bestEpoch = 3;
        record.bestFitness = *bestFitness;
    }
    if (!project.runs().update(record))
        qFatal("updateRun");
    return snapshot->summary.hash;
}

/// The first box of an image (fails the test when it has none).
inline project::BoxRecord firstBoxOf(const project::Project& project, std::int64_t imageId) {
    auto boxes = project.boxes().ofImage(imageId);
    if (!boxes || boxes->empty())
        qFatal("no boxes");
    return boxes->front();
}

} // namespace osprey::test
