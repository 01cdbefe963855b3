#pragma once
// Everything that defines a training run: the model, the data geometry, the optimiser, the schedule and
// the augmentation. Plain values with the training recipe's defaults (Ultralytics 8.4); no torch.
// Thread-safe to copy and read.

#include "common/expected.h"

#include <cstdint>
#include <map>
#include <string>

namespace osprey::train {

/// Which optimiser to build. Auto follows the recipe's rule (see chooseOptimizer in schedule.h).
enum class OptimizerKind { Auto, Sgd, AdamW };

/// How the learning rate decays over the epochs.
enum class LrSchedule { Linear, Cosine };

struct TrainConfig {
    // ---- run -----------------------------------------------------------------------------------------
    std::string model = "yolov8n"; ///< family and scale ("yolov8n", "yolo11s", ...)
    std::string weights;           ///< optional pretrained checkpoint to start from
    int epochs = 100;
    int patience = 100; ///< epochs without fitness improvement before stopping early
    int batch = 16;     ///< images per batch
    int imgsz = 640;    ///< training and validation side in pixels (a multiple of 32)
    std::string device = "cpu";
    int workers = 2; ///< loader threads
    int threads = 0; ///< torch intra-op threads; 0 = hardware concurrency
    std::uint64_t seed = 0;
    std::string name; ///< run folder name under <project>/runs/
    bool resume = false;
    bool amp = true; ///< mixed precision on CUDA (bf16 where supported, else fp16 + loss scaler)

    // ---- optimiser and schedule ------------------------------------------------------------------------
    OptimizerKind optimizer = OptimizerKind::Auto;
    double lr0 = 0.01;
    double lrf = 0.01; ///< final lr = lr0 * lrf
    double momentum = 0.937;
    double weightDecay = 5e-4;
    double warmupEpochs = 3.0;
    double warmupMomentum = 0.8;
    double warmupBiasLr = 0.1;
    LrSchedule schedule = LrSchedule::Linear;
    int nominalBatch = 64;
    double gradClipNorm = 10.0;

    // ---- loss gains ------------------------------------------------------------------------------------
    double boxGain = 7.5;
    double clsGain = 0.5;
    double dflGain = 1.5;

    // ---- augmentation ----------------------------------------------------------------------------------
    double mosaic = 1.0;  ///< probability of a 4-image mosaic
    int closeMosaic = 10; ///< mosaic is switched off for this many final epochs
    double translate = 0.1;
    double scale = 0.5;
    double fliplr = 0.5;
    double hsvH = 0.015;
    double hsvS = 0.7;
    double hsvV = 0.4;

    // ---- validation ------------------------------------------------------------------------------------
    double valConf = 0.001;
    double valIou = 0.7;
    int valMaxDet = 300;
    bool validate = true; ///< validate each epoch (the fitness needs it)

    /// Checks ranges; the message names the field.
    Status check() const;
    /// All fields as key -> text, Ultralytics key names (args.yaml, run_started, the runs table).
    std::map<std::string, std::string> toMap() const;
};

/// Sets the fields named by Ultralytics keys (the keys of TrainConfig::toMap()); other keys are ignored.
/// The error names the key and the bad value.
Status applyArgs(TrainConfig& config, const std::map<std::string, std::string>& args);

std::string toString(OptimizerKind kind); ///< "auto", "SGD", "AdamW"
Expected<OptimizerKind> parseOptimizer(const std::string& text);

} // namespace osprey::train
