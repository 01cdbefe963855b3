// COCO ground truth files and COCO results files.
#include "common/atomic_file.h"
#include "common/strings.h"
#include "formats/eval_reader_impl.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace osprey::formats::eval_detail {

namespace {

using nlohmann::json;

Expected<json> parseJson(const std::filesystem::path& path) {
    auto text = readFile(path);
    if (!text)
        return fail(text.error());
    try {
        return json::parse(*text);
    } catch (const json::parse_error& error) {
        const size_t byte = std::min(error.byte, text->size());
        const size_t line =
            1 + static_cast<size_t>(std::count(text->begin(), text->begin() + static_cast<long>(byte), '\n'));
        std::string what = error.what();
        // nlohmann's text starts with "[json.exception.parse_error.101] parse error at line N, column M: ".
        if (const auto colon = what.find(": "); colon != std::string::npos)
            what = what.substr(colon + 2);
        return fail(lineError(path, line, "malformed JSON: " + what));
    }
}

// An id as text: COCO ids are integers, but some tools write strings.
std::optional<std::string> idText(const json& value) {
    if (value.is_number_integer())
        return std::to_string(value.get<long long>());
    if (value.is_number_float() && std::floor(value.get<double>()) == value.get<double>())
        return std::to_string(static_cast<long long>(value.get<double>()));
    if (value.is_string())
        return value.get<std::string>();
    return std::nullopt;
}

std::string field(const std::filesystem::path& path, const std::string& where) {
    return path.string() + ": " + where;
}

Expected<BoxXyxy> readBbox(const json& object, const std::filesystem::path& path, const std::string& where) {
    const auto it = object.find("bbox");
    if (it == object.end() || !it->is_array() || it->size() != 4)
        return fail(field(path, where + ".bbox: expected [x, y, width, height]"));
    double v[4];
    for (size_t i = 0; i < 4; ++i) {
        if (!(*it)[i].is_number() || !std::isfinite((*it)[i].get<double>()))
            return fail(field(path, where + ".bbox[" + std::to_string(i) + "]: not a number"));
        v[i] = (*it)[i].get<double>();
    }
    if (v[2] < 0 || v[3] < 0)
        return fail(field(path, where + ".bbox: negative size (width " + std::to_string(v[2]) + ", height " +
                                    std::to_string(v[3]) + ")"));
    return BoxXyxy{v[0], v[1], v[0] + v[2], v[1] + v[3]};
}

} // namespace

Status readCocoTruth(const std::filesystem::path& path, SetBuilder& builder,
                     std::map<std::string, int>& cocoImages, std::map<std::string, int>& cocoCategories) {
    auto document = parseJson(path);
    if (!document)
        return fail(document.error());
    const json& root = *document;
    if (!root.is_object() || !root.contains("images") || !root["images"].is_array())
        return fail(field(path, "\"images\": missing; not a COCO ground truth file"));
    if (!root.contains("categories") || !root["categories"].is_array())
        return fail(field(path, "\"categories\": missing; not a COCO ground truth file"));

    // pycocotools evaluates categories and images in ascending id order.
    std::vector<std::pair<long long, const json*>> categories;
    for (size_t i = 0; i < root["categories"].size(); ++i) {
        const auto& category = root["categories"][i];
        const std::string where = "categories[" + std::to_string(i) + "]";
        if (!category.is_object() || !category.contains("id") || !category["id"].is_number_integer())
            return fail(field(path, where + ".id: missing or not an integer"));
        categories.push_back({category["id"].get<long long>(), &category});
    }
    std::stable_sort(categories.begin(), categories.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [id, category] : categories) {
        std::string name = std::to_string(id);
        if (category->contains("name") && (*category)["name"].is_string())
            name = (*category)["name"].get<std::string>();
        if (!cocoCategories.emplace(std::to_string(id), builder.classForName(name)).second)
            return fail(field(path, "categories: id " + std::to_string(id) + " appears twice"));
    }

    std::vector<std::pair<std::string, const json*>> images;
    for (size_t i = 0; i < root["images"].size(); ++i) {
        const auto& image = root["images"][i];
        const std::string where = "images[" + std::to_string(i) + "]";
        const auto id = image.is_object() && image.contains("id") ? idText(image["id"]) : std::nullopt;
        if (!id)
            return fail(field(path, where + ".id: missing or not an integer"));
        for (const char* key : {"width", "height"})
            if (image.contains(key) && (!image[key].is_number() || image[key].get<double>() < 0))
                return fail(field(path, where + "." + key + ": negative or not a number"));
        images.push_back({*id, &image});
    }
    std::stable_sort(images.begin(), images.end(), [](const auto& a, const auto& b) {
        const auto na = parseInt(a.first), nb = parseInt(b.first);
        return na && nb ? *na < *nb : a.first < b.first;
    });
    for (const auto& [id, image] : images) {
        const int width = image->value("width", 0), height = image->value("height", 0);
        std::string name = id;
        if (image->contains("file_name") && (*image)["file_name"].is_string())
            name = std::filesystem::path((*image)["file_name"].get<std::string>()).stem().string();
        // File names may repeat across folders; the id keeps images apart.
        if (builder.findImage(name))
            name = id;
        if (!cocoImages.emplace(id, builder.addImage(name, width, height)).second)
            return fail(field(path, "images: id " + id + " appears twice"));
    }

    if (!root.contains("annotations"))
        return {};
    if (!root["annotations"].is_array())
        return fail(field(path, "\"annotations\": not a list"));
    for (size_t i = 0; i < root["annotations"].size(); ++i) {
        const auto& annotation = root["annotations"][i];
        const std::string where = "annotations[" + std::to_string(i) + "]";
        if (!annotation.is_object())
            return fail(field(path, where + ": not an object"));
        const auto imageId = annotation.contains("image_id") ? idText(annotation["image_id"]) : std::nullopt;
        if (!imageId)
            return fail(field(path, where + ".image_id: missing or not an integer"));
        const auto image = cocoImages.find(*imageId);
        if (image == cocoImages.end())
            return fail(field(path, where + ".image_id: " + *imageId + " is not in \"images\""));
        const auto categoryId =
            annotation.contains("category_id") ? idText(annotation["category_id"]) : std::nullopt;
        if (!categoryId)
            return fail(field(path, where + ".category_id: missing or not an integer"));
        const auto category = cocoCategories.find(*categoryId);
        if (category == cocoCategories.end())
            return fail(field(path, where + ".category_id: " + *categoryId + " is not in \"categories\""));
        auto box = readBbox(annotation, path, where);
        if (!box)
            return fail(box.error());
        GroundTruthBox truth;
        truth.boxPx = *box;
        truth.classId = category->second;
        if (annotation.contains("iscrowd")) {
            const auto& crowd = annotation["iscrowd"];
            truth.crowd =
                crowd.is_boolean() ? crowd.get<bool>() : (crowd.is_number() && crowd.get<double>() != 0);
        }
        // pycocotools overwrites "ignore" with iscrowd, so a file's own "ignore" field has no effect.
        if (annotation.contains("area")) {
            if (!annotation["area"].is_number() || annotation["area"].get<double>() < 0)
                return fail(field(path, where + ".area: negative or not a number"));
            truth.areaPx2 = annotation["area"].get<double>();
        }
        builder.image(image->second).truths.push_back(truth);
    }
    return {};
}

Status readCocoDetections(const std::filesystem::path& path, SetBuilder& builder, bool truthIsCoco,
                          const std::map<std::string, int>& cocoImages,
                          const std::map<std::string, int>& cocoCategories) {
    auto document = parseJson(path);
    if (!document)
        return fail(document.error());
    const json& root = *document;
    const json* list = &root;
    std::string prefix;
    std::map<std::string, std::string> imageNames, categoryNames;
    if (root.is_object()) {
        if (!root.contains("annotations") || !root["annotations"].is_array())
            return fail(field(path, "expected a COCO results list or an object with \"annotations\""));
        list = &root["annotations"];
        prefix = "annotations";
        // Without COCO ground truth, the file's own images and categories give names to match by.
        if (root.contains("images") && root["images"].is_array())
            for (const auto& image : root["images"])
                if (image.is_object() && image.contains("id") && image.contains("file_name") &&
                    image["file_name"].is_string())
                    if (const auto id = idText(image["id"]))
                        imageNames[*id] =
                            std::filesystem::path(image["file_name"].get<std::string>()).stem().string();
        if (root.contains("categories") && root["categories"].is_array())
            for (const auto& category : root["categories"])
                if (category.is_object() && category.contains("id") && category.contains("name") &&
                    category["name"].is_string())
                    if (const auto id = idText(category["id"]))
                        categoryNames[*id] = category["name"].get<std::string>();
    } else if (!root.is_array()) {
        return fail(field(path, "expected a COCO results list or an object with \"annotations\""));
    }
    for (size_t i = 0; i < list->size(); ++i) {
        const auto& result = (*list)[i];
        const std::string where = prefix + "[" + std::to_string(i) + "]";
        if (!result.is_object())
            return fail(field(path, where + ": not an object"));
        const auto imageId = result.contains("image_id") ? idText(result["image_id"]) : std::nullopt;
        if (!imageId)
            return fail(field(path, where + ".image_id: missing or not an integer"));
        std::optional<int> image;
        if (truthIsCoco) {
            if (const auto it = cocoImages.find(*imageId); it != cocoImages.end())
                image = it->second;
        } else {
            const auto named = imageNames.find(*imageId);
            image = builder.findImage(named != imageNames.end() ? named->second : *imageId);
        }
        if (!image)
            return fail(
                field(path, where + ".image_id: " + *imageId + " is not an image of the ground truth"));
        const auto categoryId = result.contains("category_id") ? idText(result["category_id"]) : std::nullopt;
        if (!categoryId)
            return fail(field(path, where + ".category_id: missing or not an integer"));
        int classId = -1;
        if (truthIsCoco) {
            if (const auto it = cocoCategories.find(*categoryId); it != cocoCategories.end())
                classId = it->second;
        } else if (const auto named = categoryNames.find(*categoryId); named != categoryNames.end()) {
            classId = builder.classForName(named->second);
        } else {
            classId = builder.classForToken(*categoryId);
        }
        if (classId < 0)
            return fail(field(path, where + ".category_id: " + *categoryId +
                                        " is not a category of the ground truth"));
        if (!result.contains("score") || !result["score"].is_number() ||
            !std::isfinite(result["score"].get<double>()))
            return fail(field(path, where + ".score: missing or not a number"));
        auto box = readBbox(result, path, where);
        if (!box)
            return fail(box.error());
        DetectionBox detection;
        detection.boxPx = *box;
        detection.classId = classId;
        detection.score = result["score"].get<double>();
        builder.image(*image).detections.push_back(detection);
    }
    return {};
}

} // namespace osprey::formats::eval_detail
