// COCO ground truth files and COCO results files, read with rapidjson (the JSON library core/formats
// uses for COCO), parsed at full precision so that the figures match pycocotools to the last digit.
#include "common/atomic_file.h"
#include "common/strings.h"
#include "formats/eval_reader_impl.h"

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cmath>

namespace osprey::formats::eval_detail {

namespace {

using Json = rapidjson::Value;

Expected<rapidjson::Document> parseJson(const std::filesystem::path& path, std::string& text) {
    auto read = readFile(path);
    if (!read)
        return fail(read.error());
    text = std::move(*read);
    rapidjson::Document document;
    document.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
    if (document.HasParseError()) {
        const size_t byte = std::min(document.GetErrorOffset(), text.size());
        const size_t line =
            1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(byte), '\n'));
        return fail(lineError(path, line,
                              std::string("malformed JSON: ") +
                                  rapidjson::GetParseError_En(document.GetParseError())));
    }
    return document;
}

/// The member `key` of an object, or null (also when `object` is not an object).
const Json* member(const Json& object, const char* key) {
    if (!object.IsObject())
        return nullptr;
    const auto it = object.FindMember(key);
    return it == object.MemberEnd() ? nullptr : &it->value;
}

bool isInteger(const Json& value) {
    return value.IsInt64() || value.IsUint64();
}

long long integer(const Json& value) {
    return value.IsInt64() ? value.GetInt64() : static_cast<long long>(value.GetUint64());
}

std::string text(const Json& value) {
    return std::string(value.GetString(), value.GetStringLength());
}

/// A string member, or nullopt.
std::optional<std::string> textMember(const Json& object, const char* key) {
    const Json* value = member(object, key);
    return value && value->IsString() ? std::optional<std::string>(text(*value)) : std::nullopt;
}

// An id as text: COCO ids are integers, but some tools write strings.
std::optional<std::string> idText(const Json* value) {
    if (!value)
        return std::nullopt;
    if (isInteger(*value))
        return std::to_string(integer(*value));
    if (value->IsDouble() && std::floor(value->GetDouble()) == value->GetDouble())
        return std::to_string(static_cast<long long>(value->GetDouble()));
    if (value->IsString())
        return text(*value);
    return std::nullopt;
}

std::string field(const std::filesystem::path& path, const std::string& where) {
    return path.string() + ": " + where;
}

Expected<BoxXyxy> readBbox(const Json& object, const std::filesystem::path& path, const std::string& where) {
    const Json* bbox = member(object, "bbox");
    if (!bbox || !bbox->IsArray() || bbox->Size() != 4)
        return fail(field(path, where + ".bbox: expected [x, y, width, height]"));
    double v[4];
    for (rapidjson::SizeType i = 0; i < 4; ++i) {
        if (!(*bbox)[i].IsNumber() || !std::isfinite((*bbox)[i].GetDouble()))
            return fail(field(path, where + ".bbox[" + std::to_string(i) + "]: not a number"));
        v[i] = (*bbox)[i].GetDouble();
    }
    if (v[2] < 0 || v[3] < 0)
        return fail(field(path, where + ".bbox: negative size (width " + std::to_string(v[2]) + ", height " +
                                    std::to_string(v[3]) + ")"));
    return BoxXyxy{v[0], v[1], v[0] + v[2], v[1] + v[3]};
}

} // namespace

Status readCocoTruth(const std::filesystem::path& path, SetBuilder& builder,
                     std::map<std::string, int>& cocoImages, std::map<std::string, int>& cocoCategories) {
    std::string source;
    auto document = parseJson(path, source);
    if (!document)
        return fail(document.error());
    const Json& root = *document;
    const Json* imageList = member(root, "images");
    const Json* categoryList = member(root, "categories");
    if (!imageList || !imageList->IsArray())
        return fail(field(path, "\"images\": missing; not a COCO ground truth file"));
    if (!categoryList || !categoryList->IsArray())
        return fail(field(path, "\"categories\": missing; not a COCO ground truth file"));

    // pycocotools evaluates categories and images in ascending id order.
    std::vector<std::pair<long long, const Json*>> categories;
    for (rapidjson::SizeType i = 0; i < categoryList->Size(); ++i) {
        const Json& category = (*categoryList)[i];
        const std::string where = "categories[" + std::to_string(i) + "]";
        const Json* id = member(category, "id");
        if (!id || !isInteger(*id))
            return fail(field(path, where + ".id: missing or not an integer"));
        categories.push_back({integer(*id), &category});
    }
    std::stable_sort(categories.begin(), categories.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [id, category] : categories) {
        const std::string name = textMember(*category, "name").value_or(std::to_string(id));
        if (!cocoCategories.emplace(std::to_string(id), builder.classForName(name)).second)
            return fail(field(path, "categories: id " + std::to_string(id) + " appears twice"));
    }

    std::vector<std::pair<std::string, const Json*>> images;
    for (rapidjson::SizeType i = 0; i < imageList->Size(); ++i) {
        const Json& image = (*imageList)[i];
        const std::string where = "images[" + std::to_string(i) + "]";
        const auto id = idText(member(image, "id"));
        if (!id)
            return fail(field(path, where + ".id: missing or not an integer"));
        for (const char* key : {"width", "height"})
            if (const Json* size = member(image, key); size && (!size->IsNumber() || size->GetDouble() < 0))
                return fail(field(path, where + "." + key + ": negative or not a number"));
        images.push_back({*id, &image});
    }
    std::stable_sort(images.begin(), images.end(), [](const auto& a, const auto& b) {
        const auto na = parseInt(a.first), nb = parseInt(b.first);
        return na && nb ? *na < *nb : a.first < b.first;
    });
    for (const auto& [id, image] : images) {
        const auto sizeOf = [entry = image](const char* key) { // init-capture: clang 14 (fuzz build)
            const Json* size = member(*entry, key);
            return size ? static_cast<int>(size->GetDouble()) : 0;
        };
        const int width = sizeOf("width"), height = sizeOf("height");
        std::string name = id;
        if (const auto file = textMember(*image, "file_name"))
            name = std::filesystem::path(*file).stem().string();
        // File names may repeat across folders; the id keeps images apart.
        if (builder.findImage(name))
            name = id;
        if (!cocoImages.emplace(id, builder.addImage(name, width, height)).second)
            return fail(field(path, "images: id " + id + " appears twice"));
    }

    const Json* annotations = member(root, "annotations");
    if (!annotations)
        return {};
    if (!annotations->IsArray())
        return fail(field(path, "\"annotations\": not a list"));
    for (rapidjson::SizeType i = 0; i < annotations->Size(); ++i) {
        const Json& annotation = (*annotations)[i];
        const std::string where = "annotations[" + std::to_string(i) + "]";
        if (!annotation.IsObject())
            return fail(field(path, where + ": not an object"));
        const auto imageId = idText(member(annotation, "image_id"));
        if (!imageId)
            return fail(field(path, where + ".image_id: missing or not an integer"));
        const auto image = cocoImages.find(*imageId);
        if (image == cocoImages.end())
            return fail(field(path, where + ".image_id: " + *imageId + " is not in \"images\""));
        const auto categoryId = idText(member(annotation, "category_id"));
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
        if (const Json* crowd = member(annotation, "iscrowd"))
            truth.crowd = crowd->IsBool() ? crowd->GetBool() : (crowd->IsNumber() && crowd->GetDouble() != 0);
        // pycocotools overwrites "ignore" with iscrowd, so a file's own "ignore" field has no effect.
        if (const Json* area = member(annotation, "area")) {
            if (!area->IsNumber() || area->GetDouble() < 0)
                return fail(field(path, where + ".area: negative or not a number"));
            truth.areaPx2 = area->GetDouble();
        }
        builder.image(image->second).truths.push_back(truth);
    }
    return {};
}

Status readCocoDetections(const std::filesystem::path& path, SetBuilder& builder, bool truthIsCoco,
                          const std::map<std::string, int>& cocoImages,
                          const std::map<std::string, int>& cocoCategories) {
    std::string source;
    auto document = parseJson(path, source);
    if (!document)
        return fail(document.error());
    const Json& root = *document;
    const Json* list = &root;
    std::string prefix;
    std::map<std::string, std::string> imageNames, categoryNames;
    if (root.IsObject()) {
        list = member(root, "annotations");
        if (!list || !list->IsArray())
            return fail(field(path, "expected a COCO results list or an object with \"annotations\""));
        prefix = "annotations";
        // Without COCO ground truth, the file's own images and categories give names to match by.
        if (const Json* images = member(root, "images"); images && images->IsArray())
            for (const Json& image : images->GetArray())
                if (const auto id = idText(member(image, "id")))
                    if (const auto file = textMember(image, "file_name"))
                        imageNames[*id] = std::filesystem::path(*file).stem().string();
        if (const Json* categories = member(root, "categories"); categories && categories->IsArray())
            for (const Json& category : categories->GetArray())
                if (const auto id = idText(member(category, "id")))
                    if (const auto name = textMember(category, "name"))
                        categoryNames[*id] = *name;
    } else if (!root.IsArray()) {
        return fail(field(path, "expected a COCO results list or an object with \"annotations\""));
    }
    for (rapidjson::SizeType i = 0; i < list->Size(); ++i) {
        const Json& result = (*list)[i];
        const std::string where = prefix + "[" + std::to_string(i) + "]";
        if (!result.IsObject())
            return fail(field(path, where + ": not an object"));
        const auto imageId = idText(member(result, "image_id"));
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
        const auto categoryId = idText(member(result, "category_id"));
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
        const Json* score = member(result, "score");
        if (!score || !score->IsNumber() || !std::isfinite(score->GetDouble()))
            return fail(field(path, where + ".score: missing or not a number"));
        auto box = readBbox(result, path, where);
        if (!box)
            return fail(box.error());
        DetectionBox detection;
        detection.boxPx = *box;
        detection.classId = classId;
        detection.score = score->GetDouble();
        builder.image(*image).detections.push_back(detection);
    }
    return {};
}

} // namespace osprey::formats::eval_detail
