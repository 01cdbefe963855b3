#pragma once
// Everything that defines a training run: the model, the data geometry, the optimiser, the schedule and
// the augmentation, as typed fields for the engine. The fields carry no defaults of their own: every
// option's key, type, default, range and help is declared once in the option table (train_options.h),
// and a default-constructed TrainConfig holds the table's defaults. Plain values; no torch, no Qt.
// Thread-safe to copy and read.

#include "common/expected.h"

#include <cstdint>
#include <map>
#include <string>

namespace osprey::run {

/// The share of free GPU memory AutoBatch fills when batch=-1 (Ultralytics' default).
inline constexpr double kAutoBatchFraction = 0.6;

/// Which optimiser to build. Auto follows the recipe's rule (see chooseOptimizer in train/schedule.h).
enum class OptimizerKind { Auto, Sgd, AdamW, MuSgd };

/// How the learning rate decays over the epochs.
enum class LrSchedule { Linear, Cosine };

struct TrainConfig {
    /// Every option at its declared default.
    TrainConfig();

    // ---- run -----------------------------------------------------------------------------------------
    std::string model;   ///< family and scale ("yolov8n", "yolo11s", ...)
    std::string weights; ///< optional pretrained checkpoint to start from
    int epochs{};
    int patience{};         ///< epochs without fitness improvement before stopping early
    int batch{};            ///< images per batch; -1: AutoBatch (the trainer chooses; see batchFraction)
    double batchFraction{}; ///< AutoBatch: share of free GPU memory to fill (batch=-1: kAutoBatchFraction)
    int imgsz{};            ///< training and validation side in pixels (a multiple of 32)
    std::string device;
    int workers{};        ///< loader threads
    bool cacheRam{};      ///< cache=ram: keep every decoded, resized training image in RAM
    int threads{};        ///< torch intra-op threads; 0 = hardware concurrency
    int workersPerNode{}; ///< data-parallel processes osprey-cli starts here; 0: one per listed GPU
    bool syncBn{};        ///< data parallel: BatchNorm uses the batch statistics of all ranks (SyncBN)
    std::uint64_t seed{};
    std::string name; ///< run folder name under <project>/runs/
    bool resume{};
    bool amp{}; ///< mixed precision on CUDA (bf16 where supported, else fp16 + loss scaler)

    // ---- optimiser and schedule ------------------------------------------------------------------------
    OptimizerKind optimizer{};
    double lr0{};
    double lrf{}; ///< final lr = lr0 * lrf
    double momentum{};
    double weightDecay{};
    double warmupEpochs{};
    double warmupMomentum{};
    double warmupBiasLr{};
    LrSchedule schedule{};
    int nominalBatch{};
    double gradClipNorm = 10.0; ///< max gradient norm: the recipe's constant, not a user option

    // ---- loss gains ------------------------------------------------------------------------------------
    double boxGain{};
    double clsGain{};
    double dflGain{};

    // ---- augmentation ----------------------------------------------------------------------------------
    double mosaic{};   ///< probability of a 4-image mosaic
    int closeMosaic{}; ///< mosaic is switched off for this many final epochs
    double translate{};
    double scale{};
    double fliplr{};
    double hsvH{};
    double hsvS{};
    double hsvV{};

    // ---- validation ------------------------------------------------------------------------------------
    double valConf{};
    double valIou{};
    int valMaxDet{};
    bool valNms{}; ///< YOLO26: validate the one-to-many head with NMS (true) or the NMS-free one-to-one head
    bool validate{}; ///< validate each epoch (the fitness needs it)

    /// Values of options declared in the table without a typed field here (added with addTrainOption),
    /// by key, in canonical form.
    std::map<std::string, std::string> extra;

    /// Checks every option against its declared range or choices, and imgsz against the stride; the
    /// message names the key.
    Status check() const;
    /// All options as key -> text (args.yaml, run_started, the runs table).
    std::map<std::string, std::string> toMap() const;
};

/// Sets the options named by `args` (keys of the option table); other keys are ignored. Each value is
/// checked against its declaration; the error names the key and the bad value.
Status applyArgs(TrainConfig& config, const std::map<std::string, std::string>& args);

std::string toString(OptimizerKind kind); ///< "auto", "SGD", "AdamW", "MuSGD"
Expected<OptimizerKind> parseOptimizer(const std::string& text);

} // namespace osprey::run
