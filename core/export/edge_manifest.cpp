#include "export/edge_manifest.h"

#include "common/atomic_file.h"
#include "common/hash.h"
#include "common/version.h"
#include "run/run_curves.h"
#include "run/run_files.h"
#include "run/run_folder.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <ctime>
#include <fstream>
#include <sstream>

namespace osprey::exporter {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string utcNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char text[32];
    std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return text;
}

json tensorJson(const TensorSignature& tensor) {
    return json{{"name", tensor.name}, {"type", tensor.type}, {"shape", tensor.shape}};
}

template <typename T> json optionalJson(const std::optional<T>& value) {
    return value ? json(*value) : json(nullptr);
}

// The epoch the weights hold, from the run's results.csv: best.pt the first epoch of the highest
// mAP50-95 (Osprey's fitness, the one best.pt is kept by), last.pt the last row.
void readRunMetrics(const run::RunFolder& folder, bool best, EdgeManifest& manifest) {
    auto table = run::readResultsCsv(folder.results());
    if (!table)
        return;
    const std::vector<double> epochs = table->column("epoch");
    const std::vector<double> map = table->column("metrics/mAP50-95(B)");
    const std::vector<double> map50 = table->column("metrics/mAP50(B)");
    if (map.empty() || epochs.size() != map.size())
        return;
    size_t row = map.size() - 1;
    if (best) {
        // The first row with the highest value.
        double highest = -1;
        for (size_t i = 0; i < map.size(); ++i)
            if (!std::isnan(map[i]) && map[i] > highest) {
                highest = map[i];
                row = i;
            }
    }
    if (std::isnan(map[row]))
        return;
    manifest.epoch = static_cast<int>(std::lround(epochs[row]));
    manifest.map50to95 = map[row];
    if (row < map50.size() && !std::isnan(map50[row]))
        manifest.map50 = map50[row];
}

} // namespace

fs::path manifestPath(const fs::path& onnxFile) {
    fs::path out = onnxFile;
    out.replace_extension(".json");
    return out;
}

Expected<EdgeManifest> edgeManifest(const fs::path& weights, const OnnxExportReport& report) {
    EdgeManifest manifest;
    manifest.model = report.file.filename().string();
    auto hash = hashFileHex(report.file);
    if (!hash)
        return fail(hash.error());
    manifest.modelHash = *hash;
    manifest.architecture = report.modelName;
    manifest.classes = report.classNames;
    manifest.imgsz = report.imgsz;
    manifest.endToEnd = report.endToEnd;
    manifest.input = report.input;
    manifest.output = report.output;
    manifest.weights = weights.string();
    manifest.exported = utcNow();
    manifest.osprey = kVersion;
    if (const auto folder = run::RunFolder::ofWeights(weights)) {
        manifest.run = folder->name();
        manifest.confidence = run::runBestConfidence(weights);
        readRunMetrics(*folder, weights.filename() != "last.pt", manifest);
    }
    return manifest;
}

Status writeEdgeManifest(const fs::path& file, const EdgeManifest& m) {
    const json out{
        {"format", "osprey-edge-manifest"},
        {"version", 1},
        {"model", m.model},
        {"model_hash", m.modelHash},
        {"architecture", m.architecture},
        {"task", "detect"},
        {"classes", m.classes},
        {"imgsz", m.imgsz},
        {"input", tensorJson(m.input)},
        {"input_format", "RGB, 0..1, letterboxed to imgsz x imgsz with grey (114) padding"},
        {"output", tensorJson(m.output)},
        {"output_format", m.endToEnd ? "end-to-end: one row per object, x1 y1 x2 y2 score class in input "
                                       "pixels; no NMS needed"
                                     : "one-to-many: cx cy w h in input pixels, then one score per class, "
                                       "per anchor; run class-aware NMS at iou"},
        {"end2end", m.endToEnd},
        {"confidence", optionalJson(m.confidence)},
        {"iou", m.iou},
        {"run", m.run.empty() ? json(nullptr) : json(m.run)},
        {"epoch", optionalJson(m.epoch)},
        {"metrics", json{{"mAP50-95", optionalJson(m.map50to95)}, {"mAP50", optionalJson(m.map50)}}},
        {"weights", m.weights},
        {"exported", m.exported},
        {"osprey", m.osprey},
    };
    return writeFileAtomic(file, out.dump(2) + "\n");
}

Expected<EdgeManifest> readEdgeManifest(const fs::path& file) {
    std::ifstream in(file);
    if (!in)
        return fail(file.string() + ": cannot read the manifest", "io");
    std::stringstream text;
    text << in.rdbuf();
    const json doc = json::parse(text.str(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return fail(file.string() + ": not JSON", "invalid");
    if (doc.value("format", std::string()) != "osprey-edge-manifest")
        return fail(file.string() + ": field format: not an Osprey edge manifest", "invalid");
    EdgeManifest m;
    try {
        m.model = doc.at("model").get<std::string>();
        m.modelHash = doc.at("model_hash").get<std::string>();
        m.architecture = doc.at("architecture").get<std::string>();
        m.classes = doc.at("classes").get<std::vector<std::string>>();
        m.imgsz = doc.at("imgsz").get<int>();
        m.endToEnd = doc.at("end2end").get<bool>();
        for (auto [key, tensor] : {std::pair{"input", &m.input}, std::pair{"output", &m.output}}) {
            tensor->name = doc.at(key).at("name").get<std::string>();
            tensor->type = doc.at(key).at("type").get<std::string>();
            tensor->shape = doc.at(key).at("shape").get<std::vector<std::int64_t>>();
        }
        if (!doc.at("confidence").is_null())
            m.confidence = doc.at("confidence").get<double>();
        m.iou = doc.at("iou").get<double>();
        if (!doc.at("run").is_null())
            m.run = doc.at("run").get<std::string>();
        if (!doc.at("epoch").is_null())
            m.epoch = doc.at("epoch").get<int>();
        if (!doc.at("metrics").at("mAP50-95").is_null())
            m.map50to95 = doc.at("metrics").at("mAP50-95").get<double>();
        if (!doc.at("metrics").at("mAP50").is_null())
            m.map50 = doc.at("metrics").at("mAP50").get<double>();
        m.weights = doc.at("weights").get<std::string>();
        m.exported = doc.at("exported").get<std::string>();
        m.osprey = doc.at("osprey").get<std::string>();
    } catch (const json::exception& e) {
        return fail(file.string() + ": " + e.what(), "invalid");
    }
    return m;
}

} // namespace osprey::exporter
