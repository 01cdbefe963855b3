#include "formats/format_util.h"

#include "common/atomic_file.h"
#include "common/strings.h"

#include <algorithm>
#include <charconv>
#include <cmath>
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
    const std::string s = stripBom(std::move(*text));
    std::size_t start = 0;
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

std::string stripBom(std::string text) {
    if (text.size() >= 3 && static_cast<unsigned char>(text[0]) == 0xEF &&
        static_cast<unsigned char>(text[1]) == 0xBB && static_cast<unsigned char>(text[2]) == 0xBF)
        text.erase(0, 3);
    return text;
}

std::optional<long long> parseClassId(std::string_view text) {
    if (const auto id = parseInt(text))
        return *id >= 0 && *id <= 0x7fffffff ? id : std::nullopt;
    const auto value = parseDouble(text);
    if (!value || !std::isfinite(*value) || *value < 0 || *value > 0x7fffffff || std::floor(*value) != *value)
        return std::nullopt;
    return static_cast<long long>(*value);
}

Expected<bool> checkBox(DatasetBox& box, int width, int height) {
    for (const double v : {box.x1, box.y1, box.x2, box.y2})
        if (!std::isfinite(v))
            return fail("coordinate is not a finite number (" + formatNumber(v) + ")");
    if (box.x2 < box.x1 || box.y2 < box.y1)
        return fail("inverted box (width " + formatNumber(box.x2 - box.x1) + ", height " +
                    formatNumber(box.y2 - box.y1) + "); boxes are never flipped");
    if (box.x2 == box.x1 || box.y2 == box.y1)
        return fail(std::string(box.x2 == box.x1 ? "zero-width" : "zero-height") + " box");
    if (width <= 0 || height <= 0)
        return false;
    const DatasetBox before = box;
    box.x1 = std::clamp(box.x1, 0.0, double(width));
    box.x2 = std::clamp(box.x2, 0.0, double(width));
    box.y1 = std::clamp(box.y1, 0.0, double(height));
    box.y2 = std::clamp(box.y2, 0.0, double(height));
    if (box.x2 <= box.x1 || box.y2 <= box.y1) {
        box = before;
        return fail("box [" + formatNumber(before.x1) + ", " + formatNumber(before.y1) + ", " +
                    formatNumber(before.x2) + ", " + formatNumber(before.y2) + "] lies wholly outside the " +
                    std::to_string(width) + "x" + std::to_string(height) + " image");
    }
    return box.x1 != before.x1 || box.x2 != before.x2 || box.y1 != before.y1 || box.y2 != before.y2;
}

std::string sanitizeUtf8(std::string_view text, bool* changed) {
    std::string out;
    out.reserve(text.size());
    bool replaced = false;
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        std::size_t len = 0;
        std::uint32_t min = 0;
        if (c < 0x80)
            len = 1;
        else if (c >= 0xC2 && c <= 0xDF)
            len = 2, min = 0x80;
        else if (c >= 0xE0 && c <= 0xEF)
            len = 3, min = 0x800;
        else if (c >= 0xF0 && c <= 0xF4)
            len = 4, min = 0x10000;
        bool ok = len > 0 && i + len <= n;
        std::uint32_t cp = len == 1 ? c : (c & (0x7F >> len));
        for (std::size_t k = 1; ok && k < len; ++k) {
            ok = (s[i + k] & 0xC0) == 0x80;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        ok = ok && cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
        if (ok) {
            out.append(text.substr(i, len));
            i += len;
        } else {
            out += "\xEF\xBF\xBD";
            replaced = true;
            ++i;
        }
    }
    if (changed)
        *changed = replaced;
    return out;
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
