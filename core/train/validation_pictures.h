#pragma once
// validateWithPictures: a checkpoint validated on a list of samples as `validateWeights` does, leaving in a
// folder what Ultralytics' `val` leaves in runs/detect/val: PR_curve.png, F1_curve.png, P_curve.png,
// R_curve.png, confusion_matrix.png and confusion_matrix_normalized.png, val_batch0..2_labels.jpg and
// val_batch0..2_pred.jpg, with the numbers behind them (curves.json, validation.jsonl). The pictures come
// from the same recorders a training run uses, fed one validation as the run's best epoch.
//
// Thread affinity: runs on the calling thread.

#include "common/expected.h"
#include "run/train_config.h"
#include "train/train_dataset.h"
#include "train/trainer.h"

#include <filesystem>
#include <string>
#include <vector>

namespace osprey::train {

/// What a validation with pictures wrote.
struct ValidationPictures {
    std::filesystem::path folder;
    std::vector<std::filesystem::path> files; ///< the pictures and curves.json, in the order written
};

/// `<project>/validations/val`, or the first free val2, val3, ..., created (run::claimRunDir): where `val`
/// writes its pictures unless told otherwise.
Expected<std::filesystem::path> claimValidationDir(const std::filesystem::path& projectFolder);

/// Validates `weights` on `samples` and writes the pictures into `folder` (created if needed; files of an
/// earlier validation there are replaced). A picture that cannot be drawn is a logged warning, never a
/// failed validation; `pictures` (if given) receives the folder and the files written.
Expected<ValidationReport>
validateWithPictures(const std::filesystem::path& weights, const std::vector<Sample>& samples,
                     const std::vector<std::string>& classNames, const run::TrainConfig& config,
                     const std::filesystem::path& folder, ValidationPictures* pictures = nullptr);

} // namespace osprey::train
