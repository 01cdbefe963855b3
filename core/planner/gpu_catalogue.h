#pragma once
// The GPU catalogue: the cloud GPUs the planner compares, read from a versioned JSON data file
// (resources/planner/gpus.json, compiled in) and the user's overrides (planner_paths.h), which replace
// entries of the same name and add new ones. Also the published reference timings the scaling model is
// fitted to. Value types; thread-safe.

#include "common/expected.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace osprey::planner {

inline constexpr int kCatalogueVersion = 1;

/// The guidance's GPU classes, in increasing order of capability.
enum class Tier { Light, Balanced, Heavy };
const char* toString(Tier tier); ///< "light", "balanced", "heavy"

/// One GPU: vendor figures (dense, no sparsity) and the cloud price with its source and date.
struct GpuSpec {
    std::string name; ///< "RTX 4090"; unique in a catalogue (case-insensitive)
    std::string architecture;
    Tier tier = Tier::Balanced;
    double vramGb = 0;
    double fp32Tflops = 0;
    double bf16Tflops = 0; ///< tensor cores, FP32 accumulate, dense
    double bandwidthGbs = 0;
    std::optional<double> pricePerHour; ///< USD per GPU-hour; none: not priced (cannot be costed)
    std::string priceSource, priceDate;
    std::optional<double> purchasePrice; ///< USD, for the break-even calculator
    std::string purchaseNote;
    std::string specSource;
    bool userEdited = false; ///< comes from the user's override file
};

/// A published timing the scaling model is fitted to: `images` x `epochs` at `imgsz` took `minutes`.
struct ReferencePoint {
    std::string gpu, model, source;
    int images = 0, epochs = 0, imgsz = 640;
    double minutes = 0;
};

struct Catalogue {
    int version = kCatalogueVersion;
    std::string updated;
    std::vector<GpuSpec> gpus;
    std::vector<ReferencePoint> referencePoints;

    /// The entry with this name (case-insensitive), or null.
    const GpuSpec* find(const std::string& name) const;
};

/// The shipped file's text (generated from resources/planner/gpus.json).
const char* shippedCatalogueJson();

/// Parses a catalogue file's text. `origin` names the file in errors, which name the entry (index and
/// name) and the field: "gpus.json: entry 3 (\"RTX 4090\"): field 'vram_gb' must be a positive number".
/// JSON syntax errors give the line and column.
Expected<Catalogue> parseCatalogue(const std::string& text, const std::string& origin);

/// The shipped catalogue with the overrides of `userFile` applied (a missing file is no override).
Expected<Catalogue> loadCatalogue(const std::filesystem::path& userFile);

/// `base` with `overrides`: same-name entries are replaced, others appended; reference points added.
Catalogue mergeCatalogues(Catalogue base, const Catalogue& overrides);

/// Writes or replaces `gpu` in the override file (created when missing), keeping its other entries.
Status saveUserGpu(const std::filesystem::path& userFile, const GpuSpec& gpu);
/// Removes the user's entry of that name from the override file; false when it had none.
Expected<bool> removeUserGpu(const std::filesystem::path& userFile, const std::string& name);

/// The JSON object of one entry (the file's field names).
std::string gpuToJson(const GpuSpec& gpu);

} // namespace osprey::planner
