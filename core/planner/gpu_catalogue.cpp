#include "planner/gpu_catalogue.h"

#include "common/atomic_file.h"
#include "common/strings.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace osprey::planner {

using nlohmann::json;

namespace {

std::string lineColumn(const std::string& text, std::size_t byte) {
    int line = 1, column = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

/// Reads the fields of one entry; `where` is "file: entry N ("name")".
class EntryReader {
public:
    EntryReader(const json& object, std::string where) : m_object(object), m_where(std::move(where)) {}

    Status text(const char* key, std::string& out, bool required) {
        const auto it = m_object.find(key);
        if (it == m_object.end() || it->is_null())
            return required ? fieldError(key, "is missing") : Status{};
        if (!it->is_string() || (required && it->get<std::string>().empty()))
            return fieldError(key, "must be a non-empty text");
        out = it->get<std::string>();
        return {};
    }
    Status positive(const char* key, double& out) {
        const auto it = m_object.find(key);
        if (it == m_object.end() || it->is_null())
            return fieldError(key, "is missing");
        if (!it->is_number() || !(it->get<double>() > 0) || !std::isfinite(it->get<double>()))
            return fieldError(key, "must be a positive number");
        out = it->get<double>();
        return {};
    }
    /// Absent or null reads as none; otherwise a number >= 0.
    Status optionalAmount(const char* key, std::optional<double>& out) {
        const auto it = m_object.find(key);
        if (it == m_object.end() || it->is_null())
            return {};
        if (!it->is_number() || !(it->get<double>() >= 0) || !std::isfinite(it->get<double>()))
            return fieldError(key, "must be a number >= 0 or null");
        out = it->get<double>();
        return {};
    }
    Status integer(const char* key, int& out, int fallback) {
        const auto it = m_object.find(key);
        if (it == m_object.end() || it->is_null()) {
            out = fallback;
            return fallback > 0 ? Status{} : fieldError(key, "is missing");
        }
        if (!it->is_number_integer() || it->get<long long>() <= 0)
            return fieldError(key, "must be a positive integer");
        out = it->get<int>();
        return {};
    }
    Status fieldError(const char* key, const std::string& problem) const {
        return fail(m_where + ": field '" + key + "' " + problem, "bad_field");
    }

private:
    const json& m_object;
    std::string m_where;
};

std::string entryWhere(const std::string& origin, const char* list, std::size_t index, const json& item,
                       const char* nameKey) {
    std::string where = origin + ": " + list + " " + std::to_string(index + 1);
    if (item.is_object()) {
        const auto name = item.find(nameKey);
        if (name != item.end() && name->is_string())
            where += " (\"" + name->get<std::string>() + "\")";
    }
    return where;
}

Expected<Tier> parseTier(const std::string& text) {
    if (text == "light")
        return Tier::Light;
    if (text == "balanced")
        return Tier::Balanced;
    if (text == "heavy")
        return Tier::Heavy;
    return fail("must be light, balanced or heavy, not '" + text + "'");
}

Expected<GpuSpec> parseGpu(const json& item, const std::string& where) {
    if (!item.is_object())
        return fail(where + ": must be an object with name, vram_gb, ...", "bad_field");
    EntryReader read(item, where);
    GpuSpec gpu;
    std::string tier = "balanced";
    for (const Status& status :
         {read.text("name", gpu.name, true), read.text("architecture", gpu.architecture, false),
          read.text("tier", tier, false), read.positive("vram_gb", gpu.vramGb),
          read.positive("fp32_tflops", gpu.fp32Tflops), read.positive("bf16_tflops", gpu.bf16Tflops),
          read.positive("bandwidth_gbs", gpu.bandwidthGbs),
          read.optionalAmount("price_per_hour", gpu.pricePerHour),
          read.text("price_source", gpu.priceSource, false), read.text("price_date", gpu.priceDate, false),
          read.optionalAmount("purchase_price", gpu.purchasePrice),
          read.text("purchase_note", gpu.purchaseNote, false),
          read.text("spec_source", gpu.specSource, false)})
        if (!status)
            return fail(status.error());
    const auto parsedTier = parseTier(tier);
    if (!parsedTier)
        return fail(read.fieldError("tier", parsedTier.message()).error());
    gpu.tier = *parsedTier;
    if (gpu.pricePerHour && (gpu.priceSource.empty() || gpu.priceDate.empty()))
        return fail(read.fieldError(gpu.priceSource.empty() ? "price_source" : "price_date",
                                    "is missing: a price needs its source and date")
                        .error());
    return gpu;
}

Expected<ReferencePoint> parseReference(const json& item, const std::string& where) {
    if (!item.is_object())
        return fail(where + ": must be an object with gpu, model, images, epochs, minutes", "bad_field");
    EntryReader read(item, where);
    ReferencePoint point;
    for (const Status& status :
         {read.text("gpu", point.gpu, true), read.text("model", point.model, true),
          read.text("source", point.source, false), read.integer("images", point.images, 0),
          read.integer("epochs", point.epochs, 0), read.integer("imgsz", point.imgsz, 640),
          read.positive("minutes", point.minutes)})
        if (!status)
            return fail(status.error());
    return point;
}

json toJsonObject(const GpuSpec& gpu) {
    json j = {{"name", gpu.name},
              {"architecture", gpu.architecture},
              {"tier", toString(gpu.tier)},
              {"vram_gb", gpu.vramGb},
              {"fp32_tflops", gpu.fp32Tflops},
              {"bf16_tflops", gpu.bf16Tflops},
              {"bandwidth_gbs", gpu.bandwidthGbs},
              {"price_per_hour", gpu.pricePerHour ? json(*gpu.pricePerHour) : json(nullptr)},
              {"price_source", gpu.priceSource},
              {"price_date", gpu.priceDate},
              {"spec_source", gpu.specSource}};
    if (gpu.purchasePrice)
        j["purchase_price"] = *gpu.purchasePrice;
    if (!gpu.purchaseNote.empty())
        j["purchase_note"] = gpu.purchaseNote;
    return j;
}

Expected<json> readOverrideFile(const std::filesystem::path& userFile) {
    if (!std::filesystem::exists(userFile))
        return json{
            {"format", "osprey-gpu-catalogue"}, {"version", kCatalogueVersion}, {"gpus", json::array()}};
    const auto text = readFile(userFile);
    if (!text)
        return fail(text.error());
    if (const auto check = parseCatalogue(*text, userFile.string()); !check)
        return fail(check.error());
    return json::parse(*text);
}

} // namespace

const char* toString(Tier tier) {
    switch (tier) {
    case Tier::Light:
        return "light";
    case Tier::Balanced:
        return "balanced";
    case Tier::Heavy:
        return "heavy";
    }
    return "balanced";
}

const GpuSpec* Catalogue::find(const std::string& name) const {
    const std::string wanted = toLower(name);
    for (const auto& gpu : gpus)
        if (toLower(gpu.name) == wanted)
            return &gpu;
    return nullptr;
}

Expected<Catalogue> parseCatalogue(const std::string& text, const std::string& origin) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& error) {
        return fail(origin + ": " + lineColumn(text, error.byte == 0 ? 0 : error.byte - 1) +
                        ": not valid JSON (" + error.what() + ")",
                    "not_json");
    }
    if (!root.is_object())
        return fail(origin + ": must be a JSON object with \"version\" and \"gpus\"", "bad_field");
    Catalogue catalogue;
    const auto version = root.find("version");
    if (version == root.end() || !version->is_number_integer())
        return fail(origin + ": field 'version' is missing (this Osprey reads version " +
                        std::to_string(kCatalogueVersion) + ")",
                    "bad_field");
    if (version->get<int>() > kCatalogueVersion)
        return fail(origin + ": version " + std::to_string(version->get<int>()) +
                        " is newer than this Osprey (" + std::to_string(kCatalogueVersion) +
                        "); update Osprey or rewrite the file",
                    "newer_version");
    catalogue.version = version->get<int>();
    if (const auto updated = root.find("updated"); updated != root.end() && updated->is_string())
        catalogue.updated = updated->get<std::string>();
    const auto gpus = root.find("gpus");
    if (gpus == root.end() || !gpus->is_array())
        return fail(origin + ": field 'gpus' must be a list of GPU entries", "bad_field");
    for (std::size_t i = 0; i < gpus->size(); ++i) {
        const std::string where = entryWhere(origin, "entry", i, (*gpus)[i], "name");
        auto gpu = parseGpu((*gpus)[i], where);
        if (!gpu)
            return fail(gpu.error());
        if (catalogue.find(gpu->name))
            return fail(where + ": field 'name' repeats an earlier entry's name", "bad_field");
        catalogue.gpus.push_back(std::move(*gpu));
    }
    if (const auto points = root.find("reference_points"); points != root.end() && !points->is_null()) {
        if (!points->is_array())
            return fail(origin + ": field 'reference_points' must be a list", "bad_field");
        for (std::size_t i = 0; i < points->size(); ++i) {
            auto point =
                parseReference((*points)[i], entryWhere(origin, "reference point", i, (*points)[i], "gpu"));
            if (!point)
                return fail(point.error());
            catalogue.referencePoints.push_back(std::move(*point));
        }
    }
    return catalogue;
}

Catalogue mergeCatalogues(Catalogue base, const Catalogue& overrides) {
    for (const auto& gpu : overrides.gpus) {
        GpuSpec edited = gpu;
        edited.userEdited = true;
        bool replaced = false;
        for (auto& existing : base.gpus) {
            if (toLower(existing.name) == toLower(gpu.name)) {
                existing = edited;
                replaced = true;
            }
        }
        if (!replaced)
            base.gpus.push_back(edited);
    }
    for (const auto& point : overrides.referencePoints)
        base.referencePoints.push_back(point);
    return base;
}

Expected<Catalogue> loadCatalogue(const std::filesystem::path& userFile) {
    auto shipped = parseCatalogue(shippedCatalogueJson(), "resources/planner/gpus.json");
    if (!shipped)
        return shipped;
    if (userFile.empty() || !std::filesystem::exists(userFile))
        return shipped;
    const auto text = readFile(userFile);
    if (!text)
        return fail(text.error());
    const auto user = parseCatalogue(*text, userFile.string());
    if (!user)
        return fail(user.error());
    return mergeCatalogues(std::move(*shipped), *user);
}

Status saveUserGpu(const std::filesystem::path& userFile, const GpuSpec& gpu) {
    auto root = readOverrideFile(userFile);
    if (!root)
        return fail(root.error());
    json& gpus = (*root)["gpus"];
    bool replaced = false;
    for (auto& entry : gpus) {
        if (entry.is_object() && entry.value("name", std::string()) != "" &&
            toLower(entry["name"].get<std::string>()) == toLower(gpu.name)) {
            entry = toJsonObject(gpu);
            replaced = true;
        }
    }
    if (!replaced)
        gpus.push_back(toJsonObject(gpu));
    std::error_code ignored;
    std::filesystem::create_directories(userFile.parent_path(), ignored);
    return writeFileAtomic(userFile, root->dump(2) + "\n");
}

Expected<bool> removeUserGpu(const std::filesystem::path& userFile, const std::string& name) {
    if (!std::filesystem::exists(userFile))
        return false;
    auto root = readOverrideFile(userFile);
    if (!root)
        return fail(root.error());
    json& gpus = (*root)["gpus"];
    const auto before = gpus.size();
    json kept = json::array();
    for (const auto& entry : gpus)
        if (!(entry.is_object() && toLower(entry.value("name", std::string())) == toLower(name)))
            kept.push_back(entry);
    if (kept.size() == before)
        return false;
    gpus = kept;
    if (const auto status = writeFileAtomic(userFile, root->dump(2) + "\n"); !status)
        return fail(status.error());
    return true;
}

std::string gpuToJson(const GpuSpec& gpu) {
    return toJsonObject(gpu).dump();
}

} // namespace osprey::planner
