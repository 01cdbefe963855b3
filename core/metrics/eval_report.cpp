#include "metrics/eval_report.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace osprey::metrics {

namespace {

std::string nameOf(const std::vector<std::string>& names, int classId) {
    return classId >= 0 && classId < static_cast<int>(names.size()) ? names[static_cast<size_t>(classId)]
                                                                    : std::to_string(classId);
}

} // namespace

std::string cocoReportJson(const CocoResult& result) {
    nlohmann::ordered_json out;
    for (size_t i = 0; i < kCocoStatNames.size(); ++i)
        out[kCocoStatNames[i]] = result.stats[i];
    return out.dump();
}

std::string vocReportText(const VocResult& result, const std::vector<std::string>& classNames) {
    std::ostringstream out;
    char line[256];
    for (const auto& entry : result.perClass) {
        if (entry.truths == 0)
            continue;
        std::snprintf(line, sizeof line, "%-20s AP %.4f  (%d truths, %d detections, %d TP, %d FP)\n",
                      nameOf(classNames, entry.classId).c_str(), entry.ap, entry.truths, entry.detections,
                      entry.truePositives, entry.falsePositives);
        out << line;
    }
    std::snprintf(line, sizeof line, "mAP %.4f\n", result.map);
    out << line;
    return out.str();
}

std::string vocReportJson(const VocResult& result, const std::vector<std::string>& classNames) {
    nlohmann::ordered_json out;
    out["mAP"] = result.map;
    out["per_class"] = nlohmann::ordered_json::object();
    for (const auto& entry : result.perClass)
        if (entry.truths > 0)
            out["per_class"][nameOf(classNames, entry.classId)] = entry.ap;
    return out.dump();
}

std::string ultralyticsReportText(const DetectionMetrics& metrics,
                                  const std::vector<std::string>& classNames) {
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%22s%11s%11s%11s%11s%11s%11s\n", "Class", "Images", "Instances",
                  "Box(P", "R", "mAP50", "mAP50-95)");
    out << line;
    std::snprintf(line, sizeof line, "%22s%11d%11d%11.3g%11.3g%11.3g%11.3g\n", "all", metrics.images,
                  metrics.instances, metrics.precision, metrics.recall, metrics.map50, metrics.map50to95);
    out << line;
    for (const auto& entry : metrics.perClass) {
        std::snprintf(line, sizeof line, "%22s%11d%11d%11.3g%11.3g%11.3g%11.3g\n",
                      nameOf(classNames, entry.classId).c_str(), entry.images, entry.instances,
                      entry.precision, entry.recall, entry.ap50(), entry.ap50to95());
        out << line;
    }
    return out.str();
}

std::string ultralyticsReportJson(const DetectionMetrics& metrics,
                                  const std::vector<std::string>& classNames) {
    nlohmann::ordered_json out;
    out["mAP50"] = metrics.map50;
    out["mAP50-95"] = metrics.map50to95;
    out["precision"] = metrics.precision;
    out["recall"] = metrics.recall;
    out["f1"] = metrics.f1;
    out["confidence"] = metrics.bestConfidence;
    out["per_class"] = nlohmann::ordered_json::object();
    for (const auto& entry : metrics.perClass)
        out["per_class"][nameOf(classNames, entry.classId)] = {{"images", entry.images},
                                                               {"instances", entry.instances},
                                                               {"precision", entry.precision},
                                                               {"recall", entry.recall},
                                                               {"f1", entry.f1},
                                                               {"mAP50", entry.ap50()},
                                                               {"mAP50-95", entry.ap50to95()}};
    return out.dump();
}

} // namespace osprey::metrics
