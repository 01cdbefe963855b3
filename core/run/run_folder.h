#pragma once
// RunFolder: every file of a run folder (`<project>/runs/<name>/`), named once. Writers and readers in
// every module ask it for paths instead of spelling file names:
//
//   args.yaml          every argument                       (run_files.h: writeArgsYaml / readArgsYaml)
//   results.csv        one row per epoch, Ultralytics' columns (run_files.h: ResultsCsv / readResultsCsv)
//   events.jsonl       every event, one JSON line each      (train_events.h: toJson / parseEvent)
//   weights/last.pt, weights/best.pt                         (core/model)
//   snapshot.bin       the dataset the run trained on       (core/quality)
//   validation.jsonl   per-image validation results         (val_results.h)
//   curves.json        the best model's curves              (run_curves.h)
//   estimate.json      the planner's estimate               (core/planner)
//   tensorboard/       TensorBoard event files              (tensorboard.h)
//   the pictures       results.png, the curves, the confusion matrices, labels.jpg (core/plot)
// Plain paths; no I/O but exists checks and listing the runs folder. Thread-safe (a value type).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::run {

class RunFolder {
public:
    explicit RunFolder(std::filesystem::path dir) : m_dir(std::move(dir)) {}
    /// The run whose weights these are (`<run>/weights/<file>.pt`); nullopt for a file elsewhere.
    static std::optional<RunFolder> ofWeights(const std::filesystem::path& weights);
    /// The run `name` of the project in `projectFolder`: `<project>/runs/<name>` (it may not exist).
    static RunFolder inProject(const std::filesystem::path& projectFolder, const std::string& name) {
        return RunFolder(runsDir(projectFolder) / name);
    }
    /// Where a project's run folders are: `<project>/runs`.
    static std::filesystem::path runsDir(const std::filesystem::path& projectFolder) {
        return projectFolder / kRunsFolder;
    }
    /// The run folders under `<project>/runs` (folders only), by name.
    static std::vector<RunFolder> list(const std::filesystem::path& projectFolder);
    /// Of those, the one whose weights/last.pt was written last: the run `resume=true` continues when no
    /// name is given; nullopt when no run has a last.pt.
    static std::optional<RunFolder> latestResumable(const std::filesystem::path& projectFolder);

    const std::filesystem::path& dir() const { return m_dir; }
    std::string name() const { return m_dir.filename().string(); }

    std::filesystem::path args() const { return m_dir / "args.yaml"; }
    std::filesystem::path results() const { return m_dir / "results.csv"; }
    std::filesystem::path events() const { return m_dir / "events.jsonl"; }
    std::filesystem::path weightsDir() const { return m_dir / kWeightsFolder; }
    std::filesystem::path lastWeights() const { return weightsDir() / "last.pt"; }
    std::filesystem::path bestWeights() const { return weightsDir() / "best.pt"; }
    std::filesystem::path snapshot() const { return m_dir / "snapshot.bin"; }
    std::filesystem::path validation() const { return m_dir / "validation.jsonl"; }
    std::filesystem::path curves() const { return m_dir / "curves.json"; }
    std::filesystem::path estimate() const { return m_dir / "estimate.json"; }
    std::filesystem::path tensorboard() const { return m_dir / "tensorboard"; }
    /// The pictures core/plot draws, in the order Ultralytics' users open them.
    enum class Picture {
        Results,
        PrCurve,
        F1Curve,
        PCurve,
        RCurve,
        ConfusionMatrix,
        ConfusionMatrixNormalized,
        Labels
    };
    /// Ultralytics' file name: "results.png", "PR_curve.png", ..., "labels.jpg".
    static const char* pictureName(Picture picture);
    std::filesystem::path picture(Picture picture) const { return m_dir / pictureName(picture); }
    /// Ultralytics' train_batch<index>.jpg: the first training batches as the network saw them.
    std::filesystem::path trainBatch(int index) const {
        return m_dir / ("train_batch" + std::to_string(index) + ".jpg");
    }
    /// Ultralytics' val_batch<index>_labels.jpg and val_batch<index>_pred.jpg: validation batches with their
    /// labels, and with the best model's detections.
    std::filesystem::path valBatchLabels(int index) const {
        return m_dir / ("val_batch" + std::to_string(index) + "_labels.jpg");
    }
    std::filesystem::path valBatchPredictions(int index) const {
        return m_dir / ("val_batch" + std::to_string(index) + "_pred.jpg");
    }
    /// Every picture's file name, in Picture order.
    static const std::vector<std::string>& pictureNames();

    /// The weights folder's name ("weights").
    static constexpr const char* kWeightsFolder = "weights";
    /// The project folder's folder of runs ("runs").
    static constexpr const char* kRunsFolder = "runs";

private:
    std::filesystem::path m_dir;
};

} // namespace osprey::run
