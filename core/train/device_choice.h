#pragma once
// The training device option: `cpu`, one CUDA index (`0`, `cuda:1`) or a list (`0,1`, for the scale-out
// to several GPUs), checked against what this process has: the LibTorch it was built with (CUDA or not)
// and the GPUs the CUDA runtime and the NVIDIA driver (NVML, core/system) see. The errors name what was
// found. No torch types. Thread-safe.

#include "common/expected.h"

#include <string>
#include <vector>

namespace osprey::train {

/// What this process can train on.
struct DeviceInventory {
    std::string torchVersion;          ///< "2.15.0"
    bool torchHasCuda = false;         ///< the linked LibTorch has its CUDA part
    int cudaDevices = 0;               ///< devices the CUDA runtime sees
    std::vector<std::string> nvmlGpus; ///< GPU names NVML lists, in index order
    std::string nvmlReason;            ///< why NVML lists none ("no NVIDIA driver found"); empty otherwise
};

/// The inventory of this process (LibTorch and NVML).
DeviceInventory probeDevices();

/// A checked device option.
struct DeviceChoice {
    bool cuda = false;
    std::vector<int> indices; ///< CUDA indices in the order given; empty for the CPU
    /// "cpu", "cuda:0", "cuda:0,1".
    std::string describe() const;
};

/// Parses `text` ("cpu", "", "0", "0,1", "cuda", "cuda:1") and checks it against `found`. The message
/// says what was asked, what was found (LibTorch's CUDA, the visible GPUs with their names) and what to do.
Expected<DeviceChoice> chooseDevices(const std::string& text, const DeviceInventory& found);

} // namespace osprey::train
