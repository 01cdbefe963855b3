#include "formats/coco_json_reader.h"

#include "common/atomic_file.h"

#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <cmath>
#include <string_view>

namespace osprey::formats::coco {

namespace {

enum class Section : std::uint8_t { Other, Images, Annotations, Categories };

/// Nesting deeper than this is refused (COCO needs 5 levels; the limit bounds the parser's memory).
constexpr int kMaxDepth = 64;

/// SAX handler for rapidjson's Reader (several times faster than a DOM, and than nlohmann's SAX on
/// train2017-sized files). COCO files are hundreds of megabytes, so values go straight into flat records;
/// depth and the current key are enough to know where each value belongs.
class Handler {
public:
    explicit Handler(RawFile& out) : m_out(out) {}

    bool topNotObject = false;
    bool tooDeep = false;

    bool Null() { return scalar(Kind::Null, 0, 0); }
    bool Bool(bool value) { return scalar(Kind::Bool, value ? 1 : 0, value ? 1.0 : 0.0); }
    bool Int(int value) { return Int64(value); }
    bool Uint(unsigned value) { return Int64(value); }
    bool Int64(std::int64_t value) { return scalar(Kind::Int, value, static_cast<double>(value)); }
    bool Uint64(std::uint64_t value) {
        // Above 2^63 - 1 an id cannot be stored: read as a non-integer (the field reports a bad type).
        if (value > static_cast<std::uint64_t>(INT64_MAX))
            return scalar(Kind::Float, 0, static_cast<double>(value));
        return scalar(Kind::Int, static_cast<std::int64_t>(value), static_cast<double>(value));
    }
    bool Double(double value) {
        const bool integral = std::floor(value) == value && std::fabs(value) < 9e15;
        // Only an integral value below 9e15 is converted: casting 2e75 to int64 is undefined (fuzzing).
        return scalar(integral ? Kind::IntegralFloat : Kind::Float,
                      integral ? static_cast<std::int64_t>(value) : 0, value);
    }
    bool RawNumber(const char*, rapidjson::SizeType, bool) { return scalar(Kind::String, 0, 0); }
    bool String(const char* text, rapidjson::SizeType length, bool) {
        if (outsideRecord())
            return true;
        if (m_depth == 3 && m_section != Section::Other)
            return itemString(std::string_view(text, length));
        return scalar(Kind::String, 0, 0);
    }

    bool StartObject() {
        if (++m_depth > kMaxDepth) {
            tooDeep = true;
            return false;
        }
        if (m_depth == 1)
            return true;
        if (m_depth == 3 && m_section != Section::Other) {
            switch (m_section) {
            case Section::Images:
                m_out.images.emplace_back();
                break;
            case Section::Annotations:
                m_out.annotations.emplace_back();
                break;
            case Section::Categories:
                m_out.categories.emplace_back();
                break;
            default:
                break;
            }
            m_field = Field::Other;
            m_inRecord = true;
            return true;
        }
        if (outsideRecord())
            return true;
        if (m_depth == 4 && m_section == Section::Annotations) {
            if (m_field == Field::Segmentation)
                m_out.annotations.back().segmentation = Segmentation::Rle;
            else
                markBadType();
            m_containerField = m_field;
        }
        return true;
    }
    bool EndObject(rapidjson::SizeType) {
        if (m_depth == 3)
            m_inRecord = false;
        --m_depth;
        return true;
    }
    bool StartArray() {
        if (++m_depth > kMaxDepth) {
            tooDeep = true;
            return false;
        }
        if (m_depth == 1) {
            topNotObject = true;
            return false;
        }
        if (m_depth == 2)
            return true;
        if (m_depth == 3 && m_section != Section::Other)
            ++m_out.notObjects; // an array where an image/annotation/category object belongs
        if (outsideRecord())
            return true;
        if (m_section != Section::Annotations) {
            if (m_depth == 4)
                markBadType();
            return true;
        }
        auto& ann = m_out.annotations.back();
        if (m_depth == 4) {
            m_containerField = m_field;
            if (m_field == Field::Bbox)
                ann.bboxState = FieldState::Ok;
            else if (m_field == Field::Segmentation)
                ann.segmentation = Segmentation::Polygons;
            else
                markBadType();
        } else if (m_depth == 5 && m_containerField == Field::Segmentation &&
                   ann.segmentation == Segmentation::Polygons) {
            m_polygonValues = 0;
        } else if (m_depth == 5 && m_containerField == Field::Bbox) {
            ann.bboxBadValue = true;
        }
        return true;
    }
    bool EndArray(rapidjson::SizeType) {
        if (m_depth == 5 && m_section == Section::Annotations && m_containerField == Field::Segmentation &&
            m_inRecord) {
            auto& ann = m_out.annotations.back();
            if (ann.segmentation == Segmentation::Polygons && ann.polygonProblem.empty()) {
                const std::string where = "segmentation[" + std::to_string(m_polygonIndex) + "]";
                if (m_polygonValues % 2 != 0)
                    ann.polygonProblem = where + ": polygon has " + std::to_string(m_polygonValues) +
                                         " coordinates, not divisible by 2";
                else if (m_polygonValues < 6)
                    ann.polygonProblem = where + ": a polygon needs at least 3 (x, y) pairs, found " +
                                         std::to_string(m_polygonValues / 2);
            }
            ++m_polygonIndex;
        }
        if (m_depth == 4)
            m_polygonIndex = 0;
        --m_depth;
        return true;
    }
    bool Key(const char* text, rapidjson::SizeType length, bool) {
        const std::string_view value(text, length);
        if (m_depth == 1) {
            m_section = Section::Other;
            if (value == "images") {
                m_section = Section::Images;
                m_out.hasImages = true;
            } else if (value == "annotations") {
                m_section = Section::Annotations;
                m_out.hasAnnotations = true;
            } else if (value == "categories") {
                m_section = Section::Categories;
                m_out.hasCategories = true;
            }
        } else if (m_depth == 3 && m_section != Section::Other) {
            m_field = fieldOf(value);
        } else if (m_depth == 4 && m_section == Section::Annotations &&
                   m_containerField == Field::Segmentation) {
            // RLE keys ("counts", "size") carry nothing a detector needs.
        }
        return true;
    }

private:
    enum class Kind : std::uint8_t { Null, Bool, Int, IntegralFloat, Float, String };
    enum class Field : std::uint8_t {
        Other,
        Id,
        Width,
        Height,
        FileName,
        Name,
        ImageId,
        CategoryId,
        Bbox,
        IsCrowd,
        Segmentation
    };

    static Field fieldOf(std::string_view key) {
        switch (key.size()) {
        case 2:
            return key == "id" ? Field::Id : Field::Other;
        case 4:
            return key == "bbox" ? Field::Bbox : key == "name" ? Field::Name : Field::Other;
        case 5:
            return key == "width" ? Field::Width : Field::Other;
        case 6:
            return key == "height" ? Field::Height : Field::Other;
        case 7:
            return key == "iscrowd" ? Field::IsCrowd : Field::Other;
        case 8:
            return key == "image_id" ? Field::ImageId : Field::Other;
        case 9:
            return key == "file_name" ? Field::FileName : Field::Other;
        case 11:
            return key == "category_id" ? Field::CategoryId : Field::Other;
        case 12:
            return key == "segmentation" ? Field::Segmentation : Field::Other;
        default:
            return Field::Other;
        }
    }

    void markBadType() {
        switch (m_section) {
        case Section::Images: {
            auto& image = m_out.images.back();
            setState(m_field == Field::Id         ? image.idState
                     : m_field == Field::Width    ? image.widthState
                     : m_field == Field::Height   ? image.heightState
                     : m_field == Field::FileName ? image.fileNameState
                                                  : m_scratch,
                     FieldState::BadType);
            break;
        }
        case Section::Categories: {
            auto& cat = m_out.categories.back();
            setState(m_field == Field::Id     ? cat.idState
                     : m_field == Field::Name ? cat.nameState
                                              : m_scratch,
                     FieldState::BadType);
            break;
        }
        case Section::Annotations: {
            auto& ann = m_out.annotations.back();
            setState(m_field == Field::Id           ? ann.idState
                     : m_field == Field::ImageId    ? ann.imageIdState
                     : m_field == Field::CategoryId ? ann.categoryIdState
                     : m_field == Field::Bbox       ? ann.bboxState
                     : m_field == Field::IsCrowd    ? ann.crowdState
                                                    : m_scratch,
                     FieldState::BadType);
            break;
        }
        default:
            break;
        }
    }
    static void setState(FieldState& state, FieldState value) { state = value; }

    bool itemString(std::string_view value) {
        if (m_section == Section::Images && m_field == Field::FileName) {
            auto& image = m_out.images.back();
            image.fileName = value;
            image.fileNameState = FieldState::Ok;
        } else if (m_section == Section::Categories && m_field == Field::Name) {
            auto& cat = m_out.categories.back();
            cat.name = value;
            cat.nameState = FieldState::Ok;
        } else if (m_field != Field::Other && m_field != Field::Segmentation) {
            markBadType();
        }
        return true;
    }

    bool scalar(Kind kind, std::int64_t asInt, double asDouble) {
        if (m_depth == 2 && m_section != Section::Other)
            ++m_out.notObjects; // a number, string, bool or null where an object belongs
        if (m_section == Section::Other || m_depth < 3 || !m_inRecord)
            return true;
        const bool isInt = kind == Kind::Int || kind == Kind::IntegralFloat;
        const bool isNumber = isInt || kind == Kind::Float;
        if (m_depth == 3) {
            if (m_field == Field::Other || m_field == Field::Segmentation)
                return true;
            const auto assignInt = [&](auto& target, FieldState& state) {
                if (isInt) {
                    target = static_cast<std::remove_reference_t<decltype(target)>>(asInt);
                    state = FieldState::Ok;
                } else {
                    state = FieldState::BadType;
                }
            };
            switch (m_section) {
            case Section::Images: {
                auto& image = m_out.images.back();
                if (m_field == Field::Id)
                    assignInt(image.id, image.idState);
                else if (m_field == Field::Width)
                    assignInt(image.width, image.widthState);
                else if (m_field == Field::Height)
                    assignInt(image.height, image.heightState);
                else if (m_field == Field::FileName)
                    image.fileNameState = FieldState::BadType;
                break;
            }
            case Section::Categories: {
                auto& cat = m_out.categories.back();
                if (m_field == Field::Id)
                    assignInt(cat.id, cat.idState);
                else if (m_field == Field::Name)
                    cat.nameState = FieldState::BadType;
                break;
            }
            case Section::Annotations: {
                auto& ann = m_out.annotations.back();
                if (m_field == Field::Id)
                    assignInt(ann.id, ann.idState);
                else if (m_field == Field::ImageId)
                    assignInt(ann.imageId, ann.imageIdState);
                else if (m_field == Field::CategoryId)
                    assignInt(ann.categoryId, ann.categoryIdState);
                else if (m_field == Field::IsCrowd) {
                    if (isNumber || kind == Kind::Bool) {
                        ann.crowd = asDouble != 0;
                        ann.crowdState = FieldState::Ok;
                    } else if (kind != Kind::Null) {
                        ann.crowdState = FieldState::BadType;
                    }
                } else if (m_field == Field::Bbox && kind != Kind::Null) {
                    ann.bboxState = FieldState::BadType;
                }
                break;
            }
            default:
                break;
            }
            return true;
        }
        if (m_section != Section::Annotations)
            return true;
        auto& ann = m_out.annotations.back();
        if (m_depth == 4 && m_containerField == Field::Bbox) {
            if (!isNumber)
                ann.bboxBadValue = true;
            else if (ann.bboxCount < 4)
                ann.bbox[ann.bboxCount] = asDouble;
            ++ann.bboxCount;
        } else if (m_depth == 5 && m_containerField == Field::Segmentation &&
                   ann.segmentation == Segmentation::Polygons) {
            if (isNumber) {
                const int axis = m_polygonValues % 2;
                ann.polyMin[axis] = std::min(ann.polyMin[axis], asDouble);
                ann.polyMax[axis] = std::max(ann.polyMax[axis], asDouble);
            }
            ++m_polygonValues;
        }
        return true;
    }

    RawFile& m_out;
    /// Values below a section item are only read inside an item that is an object (fuzzing found
    /// `"annotations": [[...` reaching annotations.back() on an empty list).
    bool outsideRecord() const { return m_section != Section::Other && m_depth >= 3 && !m_inRecord; }

    int m_depth = 0;
    bool m_inRecord = false; ///< inside an object at depth 3 of images/annotations/categories
    Section m_section = Section::Other;
    Field m_field = Field::Other;
    Field m_containerField = Field::Other;
    int m_polygonValues = 0;
    int m_polygonIndex = 0;
    FieldState m_scratch = FieldState::Absent;
};

} // namespace

Expected<RawFile> readCocoJson(const std::filesystem::path& path, const std::string& displayName) {
    auto text = readFile(path);
    if (!text)
        return fail(text.error());
    RawFile file;
    Handler handler(file);
    rapidjson::Reader reader;
    // A UTF-8 byte-order mark (Windows editors) is skipped; offsets below stay those of the file.
    const std::size_t bom = text->size() >= 3 && text->compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
    rapidjson::MemoryStream stream(text->data() + bom, text->size() - bom);
    // Full precision: coordinates must read exactly as strtod reads them; iterative: no recursion, so a
    // deeply nested file cannot overflow the stack.
    const rapidjson::ParseResult result =
        reader.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag>(stream, handler);
    if (handler.topNotObject)
        return fail(displayName + ": expected a JSON object with images, annotations and categories");
    if (result.IsError()) {
        const std::size_t offset = std::min(result.Offset() + bom, text->size());
        std::size_t line = 1, column = 1;
        for (std::size_t i = 0; i < offset; ++i) {
            if ((*text)[i] == '\n') {
                ++line;
                column = 1;
            } else {
                ++column;
            }
        }
        if (handler.tooDeep)
            return fail(displayName + ": line " + std::to_string(line) + ", column " +
                        std::to_string(column) + ": nesting deeper than " + std::to_string(kMaxDepth) +
                        " levels; not a COCO file");
        return fail(displayName + ": line " + std::to_string(line) + ", column " + std::to_string(column) +
                    ": not valid JSON: " + rapidjson::GetParseError_En(result.Code()));
    }
    return file;
}

} // namespace osprey::formats::coco
