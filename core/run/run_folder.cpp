#include "run/run_folder.h"

#include <algorithm>

namespace osprey::run {

std::optional<RunFolder> RunFolder::ofWeights(const std::filesystem::path& weights) {
    if (weights.parent_path().filename() != kWeightsFolder)
        return std::nullopt;
    return RunFolder(weights.parent_path().parent_path());
}

std::vector<RunFolder> RunFolder::list(const std::filesystem::path& projectFolder) {
    std::vector<RunFolder> runs;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(runsDir(projectFolder), error))
        if (entry.is_directory(error))
            runs.emplace_back(entry.path());
    std::sort(runs.begin(), runs.end(),
              [](const RunFolder& a, const RunFolder& b) { return a.name() < b.name(); });
    return runs;
}

std::optional<RunFolder> RunFolder::latestResumable(const std::filesystem::path& projectFolder) {
    std::optional<RunFolder> latest;
    std::filesystem::file_time_type latestTime{};
    for (auto& run : list(projectFolder)) {
        std::error_code error;
        const auto time = std::filesystem::last_write_time(run.lastWeights(), error);
        if (error)
            continue; // no last.pt
        if (!latest || time > latestTime) {
            latest = std::move(run);
            latestTime = time;
        }
    }
    return latest;
}

const char* RunFolder::pictureName(Picture picture) {
    switch (picture) {
    case Picture::Results:
        return "results.png";
    case Picture::PrCurve:
        return "PR_curve.png";
    case Picture::F1Curve:
        return "F1_curve.png";
    case Picture::PCurve:
        return "P_curve.png";
    case Picture::RCurve:
        return "R_curve.png";
    case Picture::ConfusionMatrix:
        return "confusion_matrix.png";
    case Picture::ConfusionMatrixNormalized:
        return "confusion_matrix_normalized.png";
    case Picture::Labels:
        return "labels.jpg";
    }
    return "results.png";
}

const std::vector<std::string>& RunFolder::pictureNames() {
    static const std::vector<std::string> kNames = [] {
        std::vector<std::string> names;
        for (int i = 0; i <= static_cast<int>(Picture::Labels); ++i)
            names.emplace_back(pictureName(static_cast<Picture>(i)));
        return names;
    }();
    return kNames;
}

} // namespace osprey::run
