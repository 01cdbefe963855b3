#pragma once
// Runs a training job on a project: chooses the run folder <project>/runs/<name>/, reads the train/val
// splits, the dataset snapshot and the runs row from its database in one read transaction, builds the
// loaders and the Ultralytics-style scorer (core/train), records the run in the project's runs table
// (status, best epoch and fitness, weights), the planner's estimate and the run advice, and writes
// events.jsonl beside the other run files. This is what `osprey-cli train` calls.
//
// Thread affinity: runs on the calling thread (it opens its own Project there). `events` receives
// every event, from that thread and from the engine's system-sampler thread.

#include "common/expected.h"
#include "run/train_config.h"
#include "run/train_events.h"
#include "train/trainer.h"
#include "train/validation_pictures.h"

#include <atomic>
#include <filesystem>

namespace osprey::job {

/// Runs folder for a new run, claimed (created) atomically: `name`, or the first free "name2", "name3",
/// ...; for an empty name "train", "train2", ... (run::claimRunDir). With `resume`, the folder `name`, or
/// for an empty name the most recently modified run that has weights/last.pt.
Expected<std::filesystem::path> chooseRunDir(const std::filesystem::path& projectFolder,
                                             const std::string& name, bool resume);

/// Trains on the project. With config.resume, the run's args.yaml supplies the configuration (the
/// given device, workers and threads still apply) and training continues from weights/last.pt.
Expected<train::TrainResult> trainProject(const std::filesystem::path& projectFolder, run::TrainConfig config,
                                          run::EventSink& events, const std::atomic<bool>* stop = nullptr);

/// Validates `weights` on the project's val split (letterboxed at config.imgsz, batch config.batch * 2).
/// With a `plotsDir`, also writes the pictures Ultralytics' `val` leaves there (train::validateWithPictures).
Expected<train::ValidationReport> validateProject(const std::filesystem::path& projectFolder,
                                                  const std::filesystem::path& weights,
                                                  const run::TrainConfig& config,
                                                  const std::filesystem::path& plotsDir = {},
                                                  train::ValidationPictures* pictures = nullptr);

/// Reads args.yaml (as written for a run) back into a configuration.
Expected<run::TrainConfig> readRunConfig(const std::filesystem::path& argsYaml);

} // namespace osprey::job
