#include "train/device_choice.h"

#include "common/strings.h"
#include "model/compat_torch_impl.h"
#include "system/gpu_monitor.h"

#include <algorithm>
#include <sstream>

namespace osprey::train {

DeviceInventory probeDevices() {
    DeviceInventory found;
    found.torchVersion = model::compat::torchVersion();
    found.torchHasCuda = model::compat::buildHasCuda();
    found.cudaDevices = model::compat::cudaDeviceCount();
    system::GpuMonitor monitor;
    for (const auto& gpu : monitor.sampleAll())
        found.nvmlGpus.push_back(gpu.name);
    if (found.nvmlGpus.empty())
        found.nvmlReason = monitor.available() ? "lists no GPU" : monitor.unavailableReason();
    return found;
}

std::string DeviceChoice::describe() const {
    if (!cuda)
        return "cpu";
    std::string text = "cuda:";
    for (size_t i = 0; i < indices.size(); ++i) {
        if (i > 0)
            text += ',';
        text += std::to_string(indices[i]);
    }
    return text;
}

namespace {

// "the NVIDIA driver (NVML) lists 2 GPUs: 0 NVIDIA H200, 1 NVIDIA H200" or why it lists none.
std::string nvmlSummary(const DeviceInventory& found) {
    std::ostringstream out;
    if (found.nvmlGpus.empty()) {
        out << "the NVIDIA driver (NVML): " << (found.nvmlReason.empty() ? "no GPU" : found.nvmlReason);
        return out.str();
    }
    out << "the NVIDIA driver (NVML) lists " << found.nvmlGpus.size()
        << (found.nvmlGpus.size() == 1 ? " GPU: " : " GPUs: ");
    for (size_t i = 0; i < found.nvmlGpus.size(); ++i)
        out << (i ? ", " : "") << i << " " << found.nvmlGpus[i];
    return out.str();
}

Expected<std::vector<int>> parseIndices(const std::string& text, const std::string& original) {
    std::vector<int> indices;
    for (const auto& part : split(text, ',')) {
        const auto number = parseInt(trim(part));
        if (!number || *number < 0 || *number > 1023)
            return fail("device=" + original +
                            ": not a device; use cpu, a CUDA index such as 0, or a list such as 0,1",
                        "invalid");
        const int index = static_cast<int>(*number);
        if (std::find(indices.begin(), indices.end(), index) != indices.end())
            return fail("device=" + original + ": device " + std::to_string(index) + " is listed twice",
                        "invalid");
        indices.push_back(index);
    }
    if (indices.empty())
        return fail("device=" + original + ": no device index given", "invalid");
    return indices;
}

} // namespace

Expected<DeviceChoice> chooseDevices(const std::string& text, const DeviceInventory& found) {
    const std::string lower = toLower(trim(text));
    DeviceChoice choice;
    if (lower.empty() || lower == "cpu")
        return choice;
    std::string list = lower;
    if (startsWith(list, "cuda"))
        list = list.size() > 5 && list[4] == ':' ? list.substr(5) : (list == "cuda" ? "0" : "x");
    auto indices = parseIndices(list, text);
    if (!indices)
        return fail(indices.error());
    if (!found.torchHasCuda)
        return fail("device=" + text + " asks for CUDA, but this program was built against LibTorch " +
                        found.torchVersion + " without CUDA (" + nvmlSummary(found) +
                        "). Build it against a CUDA LibTorch (docs/cuda.md) or use device=cpu",
                    "unavailable");
    if (found.cudaDevices == 0)
        return fail("device=" + text + " asks for CUDA: LibTorch " + found.torchVersion +
                        " has CUDA but the CUDA runtime sees no GPU (" + nvmlSummary(found) +
                        "; check the driver and CUDA_VISIBLE_DEVICES), or use device=cpu",
                    "unavailable");
    for (const int index : *indices)
        if (index >= found.cudaDevices)
            return fail("device=" + text + ": there is no CUDA device " + std::to_string(index) +
                            "; the CUDA runtime sees " + std::to_string(found.cudaDevices) +
                            (found.cudaDevices == 1
                                 ? " device (index 0)"
                                 : " devices (indices 0-" + std::to_string(found.cudaDevices - 1) + ")") +
                            "; " + nvmlSummary(found),
                        "unavailable");
    choice.cuda = true;
    choice.indices = *indices;
    return choice;
}

} // namespace osprey::train
