#include "run/val_results.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <unistd.h>

namespace osprey::run {

namespace {

using nlohmann::json;

// Coordinates to 0.1 px and scores to 0.001 keep a line small; the editor draws no finer.
double rounded(double value, double step) {
    return std::round(value / step) * step;
}

json countsJson(const ValCounts& c) {
    return {{"images", c.images},
            {"tp", c.truePositives},
            {"fp", c.falsePositives},
            {"missed", c.missed},
            {"low_iou", c.lowIou},
            {"wrong_class", c.wrongClass},
            {"score", rounded(c.score, 1e-4)}};
}

ValCounts countsFrom(const json& j) {
    ValCounts c;
    c.images = j.at("images").get<long long>();
    c.truePositives = j.at("tp").get<long long>();
    c.falsePositives = j.at("fp").get<long long>();
    c.missed = j.at("missed").get<long long>();
    c.lowIou = j.at("low_iou").get<long long>();
    c.wrongClass = j.at("wrong_class").get<long long>();
    c.score = j.at("score").get<double>();
    return c;
}

json toJson(const EpochValidation& e) {
    json worst = json::array();
    for (const auto& image : e.worst) {
        json boxes = json::array();
        for (const auto& b : image.boxes)
            boxes.push_back({rounded(b.x1, 0.1), rounded(b.y1, 0.1), rounded(b.x2, 0.1), rounded(b.y2, 0.1),
                             b.classId, b.isDetection() ? rounded(b.score, 1e-3) : -1.0,
                             static_cast<int>(b.mark)});
        json entry = countsJson(image.counts);
        entry.erase("images");
        entry["id"] = image.imageId;
        entry["name"] = image.name;
        entry["truths"] = image.truths;
        entry["boxes"] = std::move(boxes);
        worst.push_back(std::move(entry));
    }
    json cells = json::array();
    for (const auto& cell : e.cells)
        cells.push_back({cell.detected, cell.actual, cell.count, cell.imageCount, cell.imageIds});
    return {{"epoch", e.epoch},
            {"conf", e.confidence},
            {"iou", e.iou},
            {"matrix_conf", e.matrixConfidence},
            {"matrix_iou", e.matrixIou},
            {"names", e.classNames},
            {"totals", countsJson(e.totals)},
            {"rest", countsJson(e.rest)},
            {"worst", std::move(worst)},
            {"matrix", e.matrix},
            {"cells", std::move(cells)}};
}

EpochValidation fromJson(const json& j) {
    EpochValidation e;
    e.epoch = j.at("epoch").get<int>();
    e.confidence = j.at("conf").get<double>();
    e.iou = j.at("iou").get<double>();
    e.matrixConfidence = j.at("matrix_conf").get<double>();
    e.matrixIou = j.at("matrix_iou").get<double>();
    e.classNames = j.at("names").get<std::vector<std::string>>();
    e.totals = countsFrom(j.at("totals"));
    e.rest = countsFrom(j.at("rest"));
    for (const auto& entry : j.at("worst")) {
        ValImageResult image;
        json counts = entry;
        counts["images"] = 1;
        image.counts = countsFrom(counts);
        image.imageId = entry.at("id").get<std::int64_t>();
        image.name = entry.at("name").get<std::string>();
        image.truths = entry.at("truths").get<int>();
        for (const auto& b : entry.at("boxes")) {
            ValBox box;
            box.x1 = b.at(0).get<float>();
            box.y1 = b.at(1).get<float>();
            box.x2 = b.at(2).get<float>();
            box.y2 = b.at(3).get<float>();
            box.classId = b.at(4).get<int>();
            box.score = b.at(5).get<float>();
            const int mark = b.at(6).get<int>();
            if (mark < 0 || mark > static_cast<int>(ValMark::WrongClass))
                throw std::out_of_range("unknown box mark " + std::to_string(mark));
            box.mark = static_cast<ValMark>(mark);
            image.boxes.push_back(box);
        }
        e.worst.push_back(std::move(image));
    }
    e.matrix = j.at("matrix").get<std::vector<long long>>();
    const size_t side = e.classNames.size() + 1;
    if (e.matrix.size() != side * side)
        throw std::out_of_range("matrix has " + std::to_string(e.matrix.size()) + " counts, expected " +
                                std::to_string(side * side));
    for (const auto& c : j.at("cells")) {
        ValCell cell;
        cell.detected = c.at(0).get<int>();
        cell.actual = c.at(1).get<int>();
        cell.count = c.at(2).get<long long>();
        cell.imageCount = c.at(3).get<long long>();
        cell.imageIds = c.at(4).get<std::vector<std::int64_t>>();
        e.cells.push_back(std::move(cell));
    }
    return e;
}

} // namespace

void ValCounts::add(const ValCounts& other) {
    images += other.images;
    truePositives += other.truePositives;
    falsePositives += other.falsePositives;
    missed += other.missed;
    lowIou += other.lowIou;
    wrongClass += other.wrongClass;
    score += other.score;
}

long long EpochValidation::matrixCount(int detected, int actual) const {
    const int side = static_cast<int>(classNames.size()) + 1;
    if (detected < 0 || actual < 0 || detected >= side || actual >= side ||
        matrix.size() != static_cast<size_t>(side * side))
        return 0;
    return matrix[static_cast<size_t>(detected * side + actual)];
}

const ValCell* EpochValidation::cell(int detected, int actual) const {
    for (const auto& c : cells)
        if (c.detected == detected && c.actual == actual)
            return &c;
    return nullptr;
}

Status appendEpochValidation(const std::filesystem::path& file, const EpochValidation& epoch) {
    const std::string line = toJson(epoch).dump() + "\n";
    std::FILE* out = std::fopen(file.c_str(), "ab");
    if (!out)
        return fail(file.string() + ": cannot open for appending");
    const bool written = std::fwrite(line.data(), 1, line.size(), out) == line.size() &&
                         std::fflush(out) == 0 && ::fsync(fileno(out)) == 0;
    const bool closed = std::fclose(out) == 0;
    if (!written || !closed)
        return fail(file.string() + ": cannot write the validation of epoch " + std::to_string(epoch.epoch) +
                    " (disk full?)");
    return {};
}

Expected<std::vector<EpochValidation>> readValidationFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in)
        return fail(file.string() + ": cannot open (the run has no per-image validation results; runs "
                                    "trained before they were recorded have none)");
    std::map<int, EpochValidation> byEpoch;
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty())
            continue;
        const bool last = in.peek() == std::char_traits<char>::eof();
        json parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
        if (parsed.is_discarded()) {
            if (last)
                break; // a line cut short by a crash
            return fail(file.string() + ":" + std::to_string(number) + ": not valid JSON");
        }
        try {
            auto epoch = fromJson(parsed);
            byEpoch[epoch.epoch] = std::move(epoch);
        } catch (const std::exception& error) {
            return fail(file.string() + ":" + std::to_string(number) + ": " + error.what());
        }
    }
    std::vector<EpochValidation> out;
    out.reserve(byEpoch.size());
    for (auto& [epoch, value] : byEpoch)
        out.push_back(std::move(value));
    return out;
}

std::optional<EpochValidation> findEpoch(const std::vector<EpochValidation>& epochs, int epoch) {
    if (epochs.empty())
        return std::nullopt;
    if (epoch == 0)
        return epochs.back();
    for (const auto& e : epochs)
        if (e.epoch == epoch)
            return e;
    return std::nullopt;
}

} // namespace osprey::run
