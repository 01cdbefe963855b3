#include "formats/format_util.h"

#include "common/atomic_file.h"
#include "common/strings.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <system_error>

namespace fs = std::filesystem;

namespace osprey::formats::util {

std::optional<project::Split> splitFromName(std::string_view name) {
    const std::string lower = toLower(name);
    if (lower == "train" || lower == "training" || lower == "train2017")
        return project::Split::Train;
    if (lower == "val" || lower == "valid" || lower == "validation" || lower == "val2017")
        return project::Split::Val;
    if (lower == "test" || lower == "testing" || lower == "test2017")
        return project::Split::Test;
    return std::nullopt;
}

project::Split splitFromPath(const fs::path& path, const fs::path& root) {
    const auto rel = path.lexically_relative(root);
    for (const auto& part : rel.parent_path())
        if (const auto split = splitFromName(part.string()))
            return *split;
    return project::Split::None;
}

std::string exportSplitName(project::Split split) {
    switch (split) {
    case project::Split::Val:
        return "val";
    case project::Split::Test:
        return "test";
    default:
        return "train";
    }
}

Expected<std::vector<std::string>> readLines(const fs::path& path) {
    auto text = readFile(path);
    if (!text)
        return fail(text.error());
    std::vector<std::string> lines;
    std::size_t start = 0;
    const std::string& s = *text;
    while (start < s.size()) {
        std::size_t end = s.find('\n', start);
        if (end == std::string::npos)
            end = s.size();
        std::size_t len = end - start;
        if (len > 0 && s[start + len - 1] == '\r')
            --len;
        lines.emplace_back(s, start, len);
        start = end + 1;
    }
    return lines;
}

Status placeImage(const fs::path& source, const fs::path& target, ImageExport mode) {
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    fs::remove(target, ec);
    if (mode == ImageExport::None)
        return {};
    if (mode == ImageExport::Symlink) {
        fs::create_symlink(fs::absolute(source), target, ec);
        if (!ec)
            return {};
    }
    fs::copy_file(source, target, fs::copy_options::overwrite_existing, ec);
    if (ec)
        return fail(target.string() + ": cannot copy the image from " + source.string() + ": " +
                    ec.message());
    return {};
}

std::string formatNumber(double value) {
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

std::string formatFixed(double value, int decimals) {
    char buffer[64];
    const auto result =
        std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, decimals);
    return std::string(buffer, result.ptr);
}

std::string uniqueFileName(const std::string& name, std::set<std::string>& used) {
    if (used.insert(name).second)
        return name;
    const fs::path path(name);
    for (int i = 2;; ++i) {
        std::string candidate = path.stem().string() + "_" + std::to_string(i) + path.extension().string();
        if (used.insert(candidate).second)
            return candidate;
    }
}

bool exported(const DatasetImage& image, UnlabeledExport unlabeled) {
    return image.status != project::ImageStatus::New || !image.boxes.empty() ||
           unlabeled == UnlabeledExport::Keep;
}

} // namespace osprey::formats::util
