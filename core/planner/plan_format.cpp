#include "planner/estimate_plan.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <sstream>

namespace osprey::planner {

using nlohmann::json;

namespace {

std::string withThousands(long long value) {
    const std::string digits = std::to_string(std::llabs(value));
    std::string out = value < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

std::string rangeText(const TimeRange& t) {
    return formatDuration(t.lowS) + " - " + formatDuration(t.highS);
}

json rangeJson(const std::optional<TimeRange>& t) {
    if (!t)
        return nullptr;
    return {{"low", t->lowS}, {"mid", t->midS}, {"high", t->highS}};
}

std::string pad(const std::string& text, std::size_t width) {
    return text.size() >= width ? text : text + std::string(width - text.size(), ' ');
}

} // namespace

std::string formatDuration(double seconds) {
    if (!std::isfinite(seconds))
        return "?";
    char text[48];
    const long long s = std::llround(seconds);
    if (seconds < 1)
        return "< 1 s";
    if (s < 90)
        std::snprintf(text, sizeof text, "%lld s", s);
    else if (s < 3600)
        std::snprintf(text, sizeof text, "%lld min", (s + 30) / 60);
    else if (s < 48 * 3600)
        std::snprintf(text, sizeof text, "%lld h %02lld min", s / 3600, (s % 3600 + 30) / 60 % 60);
    else
        std::snprintf(text, sizeof text, "%.1f days", seconds / 86400.0);
    return text;
}

std::string formatMoney(double usd) {
    char text[48];
    if (!std::isfinite(usd))
        return "?";
    if (usd >= 1000) {
        std::string text = "$";
        text += withThousands(std::llround(usd));
        return text;
    }
    if (usd >= 0.1 || usd == 0)
        std::snprintf(text, sizeof text, "$%.2f", usd);
    else
        std::snprintf(text, sizeof text, "$%.3f", usd);
    return text;
}

std::string formatPlan(const Plan& plan) {
    const Workload& w = plan.workload;
    std::ostringstream out;
    out << w.model << ", " << w.epochs << " epochs, imgsz " << w.imgsz << ", batch " << w.batch << ", "
        << withThousands(w.trainImages) << " train + " << withThousands(w.valImages) << " val images";
    if (w.meanWidthPx > 0)
        out << " (mean " << std::lround(w.meanWidthPx) << "x" << std::lround(w.meanHeightPx) << " px)";
    out << "\n\n";
    const std::vector<std::string> header{"GPU",  "VRAM",    "$/h",       "time (range)",
                                          "cost", "$/epoch", "max batch", "basis"};
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : plan.rows) {
        std::vector<std::string> line;
        line.push_back(row.name);
        line.push_back(row.vramGb > 0 ? std::to_string(static_cast<int>(row.vramGb)) + " GB" : "-");
        line.push_back(row.pricePerHour ? formatMoney(*row.pricePerHour) : "no price");
        line.push_back(row.time ? rangeText(*row.time) : "-");
        line.push_back(row.cost ? formatMoney(row.cost->lowS) + " - " + formatMoney(row.cost->highS) : "-");
        line.push_back(row.costPerEpoch ? formatMoney(*row.costPerEpoch) : "-");
        line.push_back(row.maxBatch < 0 ? "-" : std::to_string(row.maxBatch) + (row.batchFits ? "" : " (!)"));
        line.push_back(toString(row.basis));
        cells.push_back(std::move(line));
    }
    std::vector<std::size_t> widths(header.size());
    for (std::size_t c = 0; c < header.size(); ++c) {
        widths[c] = header[c].size();
        for (const auto& line : cells)
            widths[c] = std::max(widths[c], line[c].size());
    }
    const auto printLine = [&](const std::vector<std::string>& line) {
        std::string text;
        for (std::size_t c = 0; c < line.size(); ++c) {
            if (c)
                text += "  ";
            text += c + 1 == line.size() ? line[c] : pad(line[c], widths[c]);
        }
        out << text << "\n";
    };
    printLine(header);
    for (const auto& line : cells)
        printLine(line);
    out << "\n";
    if (!plan.cheapest.empty())
        out << "Cheapest: " << plan.cheapest << "\n";
    if (!plan.fastest.empty())
        out << "Fastest:  " << plan.fastest << "\n";
    out << "Recommended: " << (plan.recommendation.gpu.empty() ? "-" : plan.recommendation.gpu) << ". "
        << plan.recommendation.reason << "\n";
    const StartSmall& s = plan.startSmall;
    if (!s.model.empty()) {
        out << "Start small: " << s.note;
        if (s.time)
            out << " On " << s.gpu << ": " << rangeText(*s.time)
                << (s.cost ? ", " + formatMoney(s.cost->lowS) + " - " + formatMoney(s.cost->highS) : "")
                << ".";
        out << "\n";
    }
    for (const auto& warning : plan.warnings)
        out << "warning: " << warning << "\n";
    out << "Times are ranges: the scaling model (compute by TFLOP/s, memory by bandwidth) is fitted to "
        << plan.fit.points << " timing points with " << std::lround(plan.fit.relativeError * 100)
        << " % RMS error; prices are the catalogue's, edit them with osprey-cli plan gpus set.\n";
    return out.str();
}

std::string planToJson(const Plan& plan) {
    const Workload& w = plan.workload;
    json root;
    root["workload"] = {{"model", w.model},
                        {"params", w.params},
                        {"gflops", w.gflops()},
                        {"train_images", w.trainImages},
                        {"val_images", w.valImages},
                        {"classes", w.classes},
                        {"mean_width_px", w.meanWidthPx},
                        {"mean_height_px", w.meanHeightPx},
                        {"epochs", w.epochs},
                        {"imgsz", w.imgsz},
                        {"batch", w.batch}};
    root["rows"] = json::array();
    for (const auto& row : plan.rows) {
        root["rows"].push_back(
            {{"name", row.name},
             {"this_machine", row.thisMachine},
             {"tier", toString(row.tier)},
             {"vram_gb", row.vramGb},
             {"price_per_hour", row.pricePerHour ? json(*row.pricePerHour) : json(nullptr)},
             {"price_source", row.priceSource},
             {"price_date", row.priceDate},
             {"basis", toString(row.basis)},
             {"basis_detail", row.basisDetail},
             {"time_s", rangeJson(row.time)},
             {"seconds_per_epoch", row.secondsPerEpoch},
             {"cost_usd", rangeJson(row.cost)},
             {"cost_per_epoch_usd", row.costPerEpoch ? json(*row.costPerEpoch) : json(nullptr)},
             {"max_batch", row.maxBatch < 0 ? json(nullptr) : json(row.maxBatch)},
             {"batch_fits", row.batchFits}});
    }
    root["cheapest"] = plan.cheapest;
    root["fastest"] = plan.fastest;
    root["recommendation"] = {{"gpu", plan.recommendation.gpu}, {"reason", plan.recommendation.reason}};
    const StartSmall& s = plan.startSmall;
    root["start_small"] = {{"model", s.model}, {"epochs", s.epochs},          {"fraction", s.fraction},
                           {"gpu", s.gpu},     {"time_s", rangeJson(s.time)}, {"cost_usd", rangeJson(s.cost)},
                           {"note", s.note}};
    root["warnings"] = plan.warnings;
    root["scaling"] = {{"compute_efficiency", plan.fit.computeEfficiency},
                       {"memory_traffic_factor", plan.fit.memoryTrafficFactor},
                       {"relative_error", plan.fit.relativeError},
                       {"points", plan.fit.points}};
    return root.dump(2);
}

} // namespace osprey::planner
