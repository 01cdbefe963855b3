#pragma once
// Private: reads what OpenCV DNN does not expose from an ONNX file (metadata_props and the first graph
// input's shape) with a minimal protobuf wire-format walker.

#include "common/expected.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace osprey::assist {

struct OnnxInfo {
    std::map<std::string, std::string> metadata;
    std::vector<std::int64_t> inputShape; ///< -1 for symbolic dimensions
};

Expected<OnnxInfo> readOnnxInfo(const std::filesystem::path& path);

} // namespace osprey::assist
