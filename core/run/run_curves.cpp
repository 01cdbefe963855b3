#include "run/run_curves.h"

#include "common/atomic_file.h"
#include "run/run_folder.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace osprey::run {

namespace {

using json = nlohmann::json;

constexpr int kFormatVersion = 1;

/// Non-finite values are written as null and read back as NaN (JSON has no NaN).
json number(double value) {
    return std::isfinite(value) ? json(value) : json(nullptr);
}

json numbers(const std::vector<double>& values) {
    json out = json::array();
    for (const double v : values)
        out.push_back(number(v));
    return out;
}

json rows(const std::vector<std::vector<double>>& values) {
    json out = json::array();
    for (const auto& row : values)
        out.push_back(numbers(row));
    return out;
}

/// Reads fields and names the first one that is missing or of the wrong type.
class Reader {
public:
    Reader(const json& doc, std::string file) : m_doc(doc), m_file(std::move(file)) {}

    const json* field(const char* key, json::value_t type) {
        const auto it = m_doc.find(key);
        if (it == m_doc.end())
            return problem(std::string(key) + ": missing");
        const bool numberWanted = type == json::value_t::number_float;
        if (numberWanted ? !it->is_number() : it->type() != type)
            return problem(std::string(key) + ": wrong type");
        return &*it;
    }
    double real(const char* key) {
        const json* value = field(key, json::value_t::number_float);
        return value ? value->get<double>() : 0.0;
    }
    int integer(const char* key) {
        const auto it = m_doc.find(key);
        if (it == m_doc.end()) {
            problem(std::string(key) + ": missing");
            return 0;
        }
        if (!it->is_number_integer()) {
            problem(std::string(key) + ": not an integer");
            return 0;
        }
        return it->get<int>();
    }
    std::vector<double> reals(const char* key, const json& array, const std::string& where) {
        std::vector<double> out;
        for (const auto& item : array) {
            if (item.is_null())
                out.push_back(std::nan(""));
            else if (item.is_number())
                out.push_back(item.get<double>());
            else {
                problem(where.empty() ? key : where);
                return {};
            }
        }
        return out;
    }
    std::vector<double> reals(const char* key) {
        const json* value = field(key, json::value_t::array);
        return value ? reals(key, *value, std::string(key) + ": not a list of numbers")
                     : std::vector<double>{};
    }
    std::vector<std::vector<double>> table(const char* key, size_t rowCount, size_t columns) {
        std::vector<std::vector<double>> out;
        const json* value = field(key, json::value_t::array);
        if (!value)
            return out;
        if (value->size() != rowCount) {
            problem(std::string(key) + ": " + std::to_string(value->size()) + " rows for " +
                    std::to_string(rowCount) + " classes");
            return out;
        }
        for (size_t r = 0; r < value->size(); ++r) {
            const std::string where = std::string(key) + "[" + std::to_string(r) + "]";
            if (!(*value)[r].is_array() || (*value)[r].size() != columns) {
                problem(where + ": expected " + std::to_string(columns) + " numbers");
                return out;
            }
            out.push_back(reals(key, (*value)[r], where + ": not a list of numbers"));
        }
        return out;
    }
    std::nullptr_t problem(const std::string& text) {
        if (m_error.empty())
            m_error = m_file + ": " + text;
        return nullptr;
    }
    const std::string& error() const { return m_error; }

private:
    const json& m_doc;
    std::string m_file;
    std::string m_error;
};

} // namespace

double ImageCounts::f1() const {
    // As Ultralytics computes it (update_image_metrics), so that ties and rounding rank images alike.
    const int detections = truePositives + falsePositives, truths = truePositives + missed;
    if (detections == 0 && truths == 0)
        return 1.0;
    const double precision = detections ? static_cast<double>(truePositives) / detections : 0.0;
    const double recall = truths ? static_cast<double>(truePositives) / truths : 0.0;
    return precision + recall > 0 ? 2 * precision * recall / (precision + recall) : 0.0;
}

Status writeRunCurves(const std::filesystem::path& file, const RunCurves& curves) {
    json images = json::array();
    for (const auto& image : curves.images)
        images.push_back({image.name, image.truePositives, image.falsePositives, image.missed});
    const json doc = {{"version", kFormatVersion},
                      {"epoch", curves.epoch},
                      {"classNames", curves.classNames},
                      {"classes", curves.classes},
                      {"x", numbers(curves.x)},
                      {"precisionAtRecall", rows(curves.precisionAtRecall)},
                      {"f1", rows(curves.f1)},
                      {"precision", rows(curves.precision)},
                      {"recall", rows(curves.recall)},
                      {"ap", rows(curves.ap)},
                      {"bestConfidence", number(curves.bestConfidence)},
                      {"bestF1", number(curves.bestF1)},
                      {"classBestConfidence", numbers(curves.classBestConfidence)},
                      {"confusionMatrix", numbers(curves.confusionMatrix)},
                      {"matrixConfidence", number(curves.matrixConfidence)},
                      {"matrixIou", number(curves.matrixIou)},
                      {"images", std::move(images)}};
    if (auto written = writeFileAtomic(file, doc.dump()); !written)
        return fail(file.string() + ": cannot write the run's curves: " + written.message());
    return {};
}

Expected<RunCurves> readRunCurves(const std::filesystem::path& file) {
    auto text = readFile(file);
    if (!text)
        return fail(text.error());
    const json doc = json::parse(*text, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return fail(file.string() + ": not a JSON object");
    Reader read(doc, file.string());
    RunCurves curves;
    if (read.integer("version") != kFormatVersion && read.error().empty())
        return fail(file.string() + ": version: this Osprey reads version " + std::to_string(kFormatVersion));
    curves.epoch = read.integer("epoch");
    if (const json* names = read.field("classNames", json::value_t::array)) {
        for (const auto& name : *names) {
            if (!name.is_string())
                return fail(file.string() + ": classNames: not a list of names");
            curves.classNames.push_back(name.get<std::string>());
        }
    }
    if (const json* classes = read.field("classes", json::value_t::array)) {
        for (const auto& id : *classes) {
            if (!id.is_number_integer() || id.get<long long>() < 0 ||
                id.get<long long>() >= static_cast<long long>(curves.classNames.size()))
                return fail(file.string() + ": classes: " + id.dump() + " is not a class index");
            curves.classes.push_back(id.get<int>());
        }
    }
    curves.x = read.reals("x");
    const size_t rowCount = curves.classes.size();
    const size_t points = curves.x.size();
    curves.precisionAtRecall = read.table("precisionAtRecall", rowCount, points);
    curves.f1 = read.table("f1", rowCount, points);
    curves.precision = read.table("precision", rowCount, points);
    curves.recall = read.table("recall", rowCount, points);
    const json* ap = read.field("ap", json::value_t::array);
    curves.ap = read.table("ap", rowCount, ap && !ap->empty() && (*ap)[0].is_array() ? (*ap)[0].size() : 0);
    curves.bestConfidence = read.real("bestConfidence");
    curves.bestF1 = read.real("bestF1");
    curves.classBestConfidence = read.reals("classBestConfidence");
    curves.confusionMatrix = read.reals("confusionMatrix");
    curves.matrixConfidence = read.real("matrixConfidence");
    curves.matrixIou = read.real("matrixIou");
    const size_t side = curves.classNames.size() + 1;
    if (read.error().empty() && curves.confusionMatrix.size() != side * side)
        read.problem("confusionMatrix: " + std::to_string(curves.confusionMatrix.size()) + " cells for " +
                     std::to_string(side) + " x " + std::to_string(side));
    if (read.error().empty() && curves.classBestConfidence.size() != rowCount)
        read.problem("classBestConfidence: " + std::to_string(curves.classBestConfidence.size()) +
                     " values for " + std::to_string(rowCount) + " classes");
    if (const json* images = read.field("images", json::value_t::array)) {
        for (size_t i = 0; i < images->size(); ++i) {
            const json& row = (*images)[i];
            if (!row.is_array() || row.size() != 4 || !row[0].is_string() || !row[1].is_number_integer() ||
                !row[2].is_number_integer() || !row[3].is_number_integer())
                return fail(file.string() + ": images[" + std::to_string(i) +
                            "]: expected [name, true positives, false positives, missed]");
            curves.images.push_back(
                {row[0].get<std::string>(), row[1].get<int>(), row[2].get<int>(), row[3].get<int>()});
        }
    }
    if (!read.error().empty())
        return fail(read.error());
    return curves;
}

std::optional<double> runBestConfidence(const std::filesystem::path& weights) {
    const auto folder = RunFolder::ofWeights(weights);
    if (!folder)
        return std::nullopt;
    const auto file = folder->curves();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return std::nullopt;
    const auto curves = readRunCurves(file);
    if (!curves || !std::isfinite(curves->bestConfidence) || curves->bestConfidence <= 0 ||
        curves->bestConfidence > 1)
        return std::nullopt;
    return curves->bestConfidence;
}

} // namespace osprey::run
