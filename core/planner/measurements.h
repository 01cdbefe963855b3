#pragma once
// Measured throughput points: what a calibration (`osprey-cli plan calibrate`) or a finished run saw on
// one machine and device for one model, imgsz and batch. Remembered in the user's cache dir
// (planner_paths.h), one JSON file, newest point per key kept. Value types; the store functions read
// and write the file on the calling thread.

#include "common/expected.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::planner {

/// Where a point comes from.
enum class MeasurementSource { Calibration, Run };

struct Measurement {
    std::string machine; ///< machineId() of the machine measured
    std::string device;  ///< "cpu" or the GPU's name as NVML reports it ("NVIDIA GeForce RTX 4090")
    std::string model;   ///< "yolov8n"
    int imgsz = 640;
    int batch = 16;
    int workers = 0;
    double trainImagesPerS = 0;  ///< steady training throughput (data, forward, backward, step)
    double valImagesPerS = 0;    ///< validation throughput; 0 when not measured
    double epochOverheadS = 0;   ///< per epoch besides train and val (checkpoints, scheduling)
    double startupS = 0;         ///< once per run (process start, model build, loaders)
    double gpuMemPerImageMb = 0; ///< measured activation memory per image at imgsz (GPU runs); 0 if none
    double gpuMemFixedMb = 0;
    MeasurementSource source = MeasurementSource::Calibration;
    std::string date; ///< ISO 8601 UTC
    std::string note; ///< e.g. the run folder
};

/// Reads the points (a missing file is no points). Errors name the file and the entry.
Expected<std::vector<Measurement>> loadMeasurements(const std::filesystem::path& file);

/// Adds `point`, replacing an older one with the same machine, device, model, imgsz, batch and source,
/// and writes the file atomically (its folder is created).
Status recordMeasurement(const std::filesystem::path& file, const Measurement& point);

/// The best point for (machine, device, model, imgsz): an exact model and imgsz match first (the batch
/// nearest `batch`), a run before a calibration at equal keys, the newest last; else none.
std::optional<Measurement> findMeasurement(const std::vector<Measurement>& points, const std::string& machine,
                                           const std::string& device, const std::string& model, int imgsz,
                                           int batch);

/// Points of this machine and device for any model or imgsz (for scaling), newest first.
std::vector<Measurement> measurementsOf(const std::vector<Measurement>& points, const std::string& machine,
                                        const std::string& device);

/// A point from a finished run's events.jsonl (run_started, batch, epoch, system and finished events):
/// throughput of the epochs after the first (the first when there is only one), validation and overhead
/// from the epoch timings, GPU memory from the system samples. `machine` is the machine that ran it.
Expected<Measurement> measurementFromEvents(const std::filesystem::path& eventsJsonl,
                                            const std::string& machine);

/// After a run finished on this machine: its point (measurementFromEvents of runDir/events.jsonl with
/// machineId()) recorded in `file` (default measurementsPath()). A run without a finished epoch adds
/// nothing and is not an error.
Status recordFinishedRun(const std::filesystem::path& runDir, const std::filesystem::path& file = {});

} // namespace osprey::planner
