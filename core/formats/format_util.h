#pragma once
// Small helpers shared by the format readers and writers (private to core/formats).

#include "common/expected.h"
#include "formats/format.h"

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::formats::util {

/// The split a folder or file name stands for: train, val/valid/validation, test; nullopt otherwise.
std::optional<project::Split> splitFromName(std::string_view name);
/// The split named by the first path component (below `root`) that names one.
project::Split splitFromPath(const std::filesystem::path& path, const std::filesystem::path& root);
/// "train", "val", "test" (None exports as "train").
std::string exportSplitName(project::Split split);

/// Reads a text file as lines (without line ends; a trailing '\r' is dropped).
Expected<std::vector<std::string>> readLines(const std::filesystem::path& path);

/// Places `source` at `target` as the options ask (symlink, falling back to a copy; or copy).
Status placeImage(const std::filesystem::path& source, const std::filesystem::path& target, ImageExport mode);

/// Shortest decimal text that reads back to the same double.
std::string formatNumber(double value);
/// Fixed-point text with `decimals` digits, trailing zeros kept (YOLO style).
std::string formatFixed(double value, int decimals);

/// A file name not yet in `used`: "a.jpg", then "a_2.jpg", "a_3.jpg", ...; records the result.
std::string uniqueFileName(const std::string& name, std::set<std::string>& used);

/// Whether the image goes into an export under `unlabeled`.
bool exported(const DatasetImage& image, UnlabeledExport unlabeled);

} // namespace osprey::formats::util
