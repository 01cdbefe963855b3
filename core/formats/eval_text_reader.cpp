// Folders of per-image text files: the mAP tools' plain-text notation and YOLO label files.
#include "common/atomic_file.h"
#include "common/strings.h"
#include "formats/eval_reader_impl.h"

#include <array>
#include <cmath>

namespace osprey::formats::eval_detail {

namespace {

const char* notationText(BoxNotation notation) {
    switch (notation) {
    case BoxNotation::Xyxy:
        return "<left> <top> <right> <bottom>";
    case BoxNotation::Xywh:
        return "<left> <top> <width> <height>";
    case BoxNotation::YoloNormalized:
        return "<x-centre> <y-centre> <width> <height> (fractions of the image)";
    }
    return "";
}

// The image size for normalised boxes: from the ground truth, else the image file, else the fallback.
Expected<std::pair<int, int>> sizeOf(SetBuilder& builder, int index, const EvalReadOptions& options) {
    auto& image = builder.image(index);
    if (image.widthPx > 0 && image.heightPx > 0)
        return std::pair<int, int>(image.widthPx, image.heightPx);
    if (!options.imagesDir.empty()) {
        for (const char* extension : {".jpg", ".jpeg", ".png", ".bmp", ".JPG", ".JPEG", ".PNG", ".BMP"}) {
            const auto candidate = options.imagesDir / (image.name + extension);
            if (std::filesystem::exists(candidate)) {
                auto size = readImageSizePx(candidate);
                if (!size)
                    return fail(size.error());
                image.widthPx = size->first;
                image.heightPx = size->second;
                return *size;
            }
        }
    }
    if (options.imageWidthPx > 0 && options.imageHeightPx > 0)
        return std::pair<int, int>(options.imageWidthPx, options.imageHeightPx);
    return fail("normalised boxes need the size of image '" + image.name +
                "': give images=FOLDER with the images or imgsize=WIDTH,HEIGHT");
}

// Four numbers in `notation` to an xyxy pixel box; the error text is ready for lineError.
Expected<BoxXyxy> toBox(const std::array<double, 4>& v, BoxNotation notation, SetBuilder& builder, int image,
                        const EvalReadOptions& options) {
    for (const double value : v)
        if (!std::isfinite(value))
            return fail("coordinates must be finite numbers");
    BoxXyxy box;
    switch (notation) {
    case BoxNotation::Xyxy:
        box = {v[0], v[1], v[2], v[3]};
        break;
    case BoxNotation::Xywh:
        if (v[2] < 0 || v[3] < 0)
            return fail("negative box size (width " + std::to_string(v[2]) + ", height " +
                        std::to_string(v[3]) + ")");
        box = {v[0], v[1], v[0] + v[2], v[1] + v[3]};
        break;
    case BoxNotation::YoloNormalized: {
        if (v[2] < 0 || v[3] < 0)
            return fail("negative box size (width " + std::to_string(v[2]) + ", height " +
                        std::to_string(v[3]) + ")");
        auto size = sizeOf(builder, image, options);
        if (!size)
            return fail(size.error());
        const double imageW = size->first, imageH = size->second;
        double w = v[2] * imageW, h = v[3] * imageH;
        double x1 = v[0] * imageW - w / 2, y1 = v[1] * imageH - h / 2;
        if (options.roundNormalizedToPixels) {
            // The mAP tools' order of operations, so that their pixel boxes come back exactly.
            x1 = std::nearbyint((2 * v[0] - v[2]) * imageW / 2);
            y1 = std::nearbyint((2 * v[1] - v[3]) * imageH / 2);
            w = std::nearbyint(w);
            h = std::nearbyint(h);
        }
        box = {x1, y1, x1 + w, y1 + h};
        break;
    }
    }
    if (box.x2 < box.x1 || box.y2 < box.y1)
        return fail("negative box size (right < left or bottom < top)");
    return box;
}

struct ParsedLine {
    size_t number = 0;
    std::vector<std::string_view> fields;
};

Expected<std::vector<ParsedLine>> readLines(const std::filesystem::path& path, std::string& storage) {
    auto text = readFile(path);
    if (!text)
        return fail(text.error());
    storage = std::move(*text);
    std::vector<ParsedLine> lines;
    size_t number = 0, start = 0;
    const std::string_view all(storage);
    while (start <= all.size()) {
        size_t end = all.find('\n', start);
        if (end == std::string_view::npos)
            end = all.size();
        ++number;
        const auto line = trim(all.substr(start, end - start));
        if (!line.empty() && line.front() != '#')
            lines.push_back({number, splitWhitespace(line)});
        start = end + 1;
    }
    return lines;
}

Expected<std::array<double, 4>> numbers(const std::vector<std::string_view>& fields, size_t first) {
    std::array<double, 4> values{};
    for (size_t i = 0; i < 4; ++i) {
        const auto value = parseDouble(fields[first + i]);
        if (!value)
            return fail(std::string("'").append(fields[first + i]).append("' is not a number"));
        values[i] = *value;
    }
    return values;
}

} // namespace

Status readTextTruthFolder(const std::filesystem::path& folder, const EvalReadOptions& options,
                           SetBuilder& builder) {
    auto files = listFiles(folder, ".txt");
    if (!files)
        return fail(files.error());
    if (files->empty())
        return fail(folder.string() + ": no .txt or .xml ground truth files in the folder");
    const BoxNotation notation = options.truthNotationSet ? options.truthNotation : options.notation;
    const std::string expected = std::string("expected '<class> ") + notationText(notation) + " [difficult]'";
    std::string storage;
    for (const auto& path : *files) {
        const int index = builder.addImage(path.stem().string(), 0, 0);
        auto lines = readLines(path, storage);
        if (!lines)
            return fail(lines.error());
        for (const auto& line : *lines) {
            if (line.fields.size() != 5 && line.fields.size() != 6)
                return fail(lineError(path, line.number,
                                      expected + ", got " + std::to_string(line.fields.size()) + " fields"));
            GroundTruthBox truth;
            truth.classId = builder.classForToken(line.fields[0]);
            if (truth.classId < 0)
                return fail(
                    lineError(path, line.number,
                              "class id " + std::string(line.fields[0]) + " is not in the class names"));
            auto values = numbers(line.fields, 1);
            if (!values)
                return fail(lineError(path, line.number, values.message() + "; " + expected));
            auto box = toBox(*values, notation, builder, index, options);
            if (!box)
                return fail(lineError(path, line.number, box.message()));
            truth.boxPx = *box;
            if (line.fields.size() == 6) {
                const auto flag = toLower(line.fields[5]);
                if (flag == "difficult" || flag == "1")
                    truth.ignore = true;
                else if (flag != "0")
                    return fail(lineError(path, line.number,
                                          "the sixth field must be 'difficult', 1 or 0, got '" +
                                              std::string(line.fields[5]) + "'"));
            }
            builder.image(index).truths.push_back(truth);
        }
    }
    return {};
}

Status readTextDetectionFolder(const std::filesystem::path& folder, const EvalReadOptions& options,
                               SetBuilder& builder) {
    auto files = listFiles(folder, ".txt");
    if (!files)
        return fail(files.error());
    const std::string expected =
        std::string("expected '<class> <confidence> ") + notationText(options.notation) + "'";
    std::string storage;
    for (const auto& path : *files) {
        const auto index = builder.findImage(path.stem().string());
        auto lines = readLines(path, storage);
        if (!lines)
            return fail(lines.error());
        if (lines->empty())
            continue;
        if (!index)
            return fail(path.string() + ": image '" + path.stem().string() +
                        "' is not in the ground truth (no ground truth file of that name)");
        for (const auto& line : *lines) {
            if (line.fields.size() != 6)
                return fail(lineError(path, line.number,
                                      expected + ", got " + std::to_string(line.fields.size()) + " fields"));
            DetectionBox detection;
            detection.classId = builder.classForToken(line.fields[0]);
            if (detection.classId < 0)
                return fail(
                    lineError(path, line.number,
                              "class id " + std::string(line.fields[0]) + " is not in the class names"));
            const auto score = parseDouble(line.fields[1]);
            if (!score || !std::isfinite(*score))
                return fail(lineError(path, line.number,
                                      "confidence '" + std::string(line.fields[1]) + "' is not a number; " +
                                          expected));
            detection.score = *score;
            auto values = numbers(line.fields, 2);
            if (!values)
                return fail(lineError(path, line.number, values.message() + "; " + expected));
            auto box = toBox(*values, options.notation, builder, *index, options);
            if (!box)
                return fail(lineError(path, line.number, box.message()));
            detection.boxPx = *box;
            builder.image(*index).detections.push_back(detection);
        }
    }
    return {};
}

} // namespace osprey::formats::eval_detail
