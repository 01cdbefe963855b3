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

/// Reads a text file as lines (without line ends; a trailing '\r' is dropped, and a UTF-8 byte-order
/// mark at the start of the file).
Expected<std::vector<std::string>> readLines(const std::filesystem::path& path);

/// `text` without a leading UTF-8 byte-order mark (EF BB BF), as Windows editors write it.
std::string stripBom(std::string text);

/// A class id as Ultralytics reads it: an integer ("3"), or a number with an integral value ("3.0",
/// "3e0"), in 0..2^31-1. Anything else (negative, fractional, NaN, too large) is nullopt.
std::optional<long long> parseClassId(std::string_view text);

/// The documented box rule of every importer (docs/formats.md), for a box in pixels:
/// - a coordinate that is NaN or infinite, or an inverted box (x2 < x1 or y2 < y1, e.g. a negative COCO
///   width), is an error: the box is skipped, never flipped;
/// - a box of zero width or height is an error;
/// - when the image size is known, the box is clamped to the image; a box that lies wholly outside it
///   (nothing left after clamping) is an error.
/// Returns whether the box was clamped, or the error text.
Expected<bool> checkBox(DatasetBox& box, int width, int height);

/// `text` as valid UTF-8: each invalid byte becomes U+FFFD. `changed` says whether any was replaced.
std::string sanitizeUtf8(std::string_view text, bool* changed = nullptr);

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
