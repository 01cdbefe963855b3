#pragma once
// What a training run asks of a machine: the dataset (train and val image counts, mean image size,
// classes), the model (name, parameters, GFLOPs) and the run's epochs, imgsz and batch. Built from a
// project (core/project's public API) or given. Value types; thread-safe except where noted.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace osprey::planner {

struct Workload {
    std::string model = "yolov8n";
    std::int64_t params = 0;
    double gflops640 = 0; ///< forward GFLOPs at 640
    std::int64_t trainImages = 0;
    std::int64_t valImages = 0;
    double meanWidthPx = 0, meanHeightPx = 0; ///< 0 when unknown
    int classes = 0;
    int epochs = 100;
    int imgsz = 640;
    int batch = 16;

    /// Forward GFLOPs of one image at imgsz (scaled from 640 by the pixel count).
    double gflops() const;
    /// Training FLOPs of one image: forward plus backward, 3 x forward.
    double trainFlopsPerImage() const;
};

/// The dataset part of a workload from a project's database: train and val split counts, the mean size
/// of the train images and the class count. Opens the project on the calling thread.
Status readProjectDataset(const std::filesystem::path& projectFolder, Workload& workload);

/// Fills params and gflops640 from the model table; the error lists the known models.
Status setModel(Workload& workload, const std::string& model);

} // namespace osprey::planner
