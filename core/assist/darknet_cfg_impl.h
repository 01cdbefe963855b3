#pragma once
// Private to core/assist: the check a Darknet .cfg passes before OpenCV DNN's importer reads it. OpenCV 4.6
// trusts the file: `groups=b` (read as 0) divides by zero (SIGFPE, which no handler catches), a route to a
// layer that does not exist indexes past its list. Found by fuzz_darknet_cfg (issue 22). Thread-safe.

#include "common/expected.h"

#include <filesystem>

namespace osprey::assist {

/// What Osprey reads of a Darknet .cfg.
struct DarknetCfg {
    int width = 416; ///< [net] width= (Darknet's default)
    int height = 416;
    int layers = 0; ///< sections after [net]
};

/// Reads and checks `cfg`: the first section is [net] (or [network]); the integer fields the importer
/// sizes or divides with (width, height, channels, filters, size, stride, groups, classes, num, ...) are
/// integers from 1 to 2^20, the other integer fields (pad, from, ...) integers within ±2^20; route and
/// shortcut layers refer to earlier layers; the input is at most 2^28 pixels; following the channels
/// through the layers, the convolutions' groups divide their inputs and all weights together stay within
/// 2^28 (1 GiB). Errors name the file, the line and the field.
Expected<DarknetCfg> readDarknetCfg(const std::filesystem::path& cfg);

} // namespace osprey::assist
