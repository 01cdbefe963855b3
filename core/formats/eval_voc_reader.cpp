// Pascal VOC XML annotation folders (one file per image).
#include "common/atomic_file.h"
#include "common/strings.h"
#include "formats/eval_reader_impl.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cmath>

namespace osprey::formats::eval_detail {

namespace {

size_t lineAt(const std::string& text, std::ptrdiff_t offset) {
    const auto end =
        text.begin() + std::clamp<std::ptrdiff_t>(offset, 0, static_cast<std::ptrdiff_t>(text.size()));
    return 1 + static_cast<size_t>(std::count(text.begin(), end, '\n'));
}

} // namespace

Status readVocFolder(const std::filesystem::path& folder, SetBuilder& builder) {
    auto files = listFiles(folder, ".xml");
    if (!files)
        return fail(files.error());
    for (const auto& path : *files) {
        auto text = readFile(path);
        if (!text)
            return fail(text.error());
        pugi::xml_document document;
        const auto parsed = document.load_buffer(text->data(), text->size());
        if (!parsed)
            return fail(lineError(path, lineAt(*text, parsed.offset),
                                  std::string("malformed XML: ") + parsed.description()));
        const auto root = document.child("annotation");
        if (!root)
            return fail(path.string() + ": no <annotation> element; not a Pascal VOC file");
        const auto size = root.child("size");
        const int width = size.child("width").text().as_int(0),
                  height = size.child("height").text().as_int(0);
        if (width < 0 || height < 0)
            return fail(lineError(path, lineAt(*text, size.offset_debug()), "negative image size"));
        const int index = builder.addImage(path.stem().string(), width, height);
        for (const auto object : root.children("object")) {
            const auto line = lineAt(*text, object.offset_debug());
            const std::string name(trim(object.child_value("name")));
            if (name.empty())
                return fail(lineError(path, line, "<object> without a <name>"));
            const auto box = object.child("bndbox");
            if (!box)
                return fail(lineError(path, line, "<object> '" + name + "' without a <bndbox>"));
            double corners[4];
            const char* keys[4] = {"xmin", "ymin", "xmax", "ymax"};
            for (int i = 0; i < 4; ++i) {
                const auto value = parseDouble(box.child_value(keys[i]));
                if (!value || !std::isfinite(*value))
                    return fail(
                        lineError(path, lineAt(*text, box.offset_debug()),
                                  std::string("<bndbox> <") + keys[i] + "> is missing or not a number"));
                corners[i] = *value;
            }
            if (corners[2] < corners[0] || corners[3] < corners[1])
                return fail(lineError(path, lineAt(*text, box.offset_debug()),
                                      "negative box size (xmax < xmin or ymax < ymin)"));
            GroundTruthBox truth;
            truth.boxPx = {corners[0], corners[1], corners[2], corners[3]};
            truth.classId = builder.classForName(name);
            const auto difficult = trim(object.child_value("difficult"));
            truth.ignore = !difficult.empty() && difficult != "0";
            builder.image(index).truths.push_back(truth);
        }
    }
    return {};
}

} // namespace osprey::formats::eval_detail
