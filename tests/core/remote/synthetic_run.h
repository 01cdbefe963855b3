#pragma once
// A synthetic trainer for the remote tests: writes weights files into a run folder and emits
// trainer-shaped events (core/run/EVENTS.md) into a RunReporter, so the reporter is tested without
// LibTorch. Weights are deterministic pseudo-random bytes, different every epoch.

#include "fake_platform.h"
#include "project/project.h"
#include "remote/run_reporter.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>

namespace osprey::test {

/// Creates an empty project in `folder` (the outbox lives in its database).
inline bool makeProject(const std::filesystem::path& folder) {
    return project::Project::create(folder).hasValue();
}

/// A temporary project `proj` with the run folder `proj/runs/run1` (not created).
struct RunFixture {
    QTemporaryDir dir;
    std::filesystem::path project, runDir;
    RunFixture() {
        project = std::filesystem::path(dir.path().toStdString()) / "proj";
        runDir = project / "runs" / "run1";
        makeProject(project);
    }
};

inline void writeWeights(const std::filesystem::path& path, int epoch, size_t bytes) {
    std::filesystem::create_directories(path.parent_path());
    std::mt19937 random(static_cast<unsigned>(epoch * 7919 + bytes));
    std::string data(bytes, '\0');
    for (auto& c : data)
        c = static_cast<char>(random() & 0xff);
    const auto temp = path.string() + ".tmp";
    std::ofstream(temp, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
    std::filesystem::rename(temp, path);
}

/// Feeds one trainer-shaped event to the reporter as the line a trainer writes (the reporter reads it
/// through run::parseEvent, as from osprey-cli); a line that is not an event is a test bug.
inline void feed(remote::RunReporter& reporter, const nlohmann::json& event) {
    const std::string line = event.dump();
    if (!reporter.handleEventLine(line))
        throw std::runtime_error("not an event line: " + line);
}

inline std::string readAll(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

struct SyntheticRun {
    std::filesystem::path runDir;
    int epochs = 5;
    int logLinesPerEpoch = 3;
    size_t weightBytes = 256 * 1024;
    int bestEveryNth = 1; ///< epoch e improves the fitness when e % bestEveryNth == 0

    nlohmann::json runStarted() const {
        return {
            {"type", "run_started"},
            {"config",
             {{"model", "yolov8n"}, {"epochs", std::to_string(epochs)}, {"device", "cpu"}, {"imgsz", "320"}}},
            {"dataset", {{"train_images", 32}, {"val_images", 8}, {"names", {"circle", "square"}}}},
            {"model", {{"name", "yolov8n"}, {"parameters", 3011238}, {"gflops", 8.2}}},
            {"run_dir", runDir.string()},
            {"epochs", epochs}};
    }
    double fitnessOf(int epoch) const { return 0.1 * epoch; }
    nlohmann::json epochEvent(int epoch) const {
        return {{"type", "epoch"},
                {"epoch", epoch},
                {"epochs", epochs},
                {"best", epoch % bestEveryNth == 0},
                {"metrics",
                 {{"train/box_loss", 2.0 / epoch},
                  {"train/cls_loss", 1.0 / epoch},
                  {"train/dfl_loss", 1.5},
                  {"metrics/precision(B)", 0.5},
                  {"metrics/recall(B)", 0.4},
                  {"metrics/mAP50(B)", 0.05 * epoch},
                  {"metrics/mAP50-95(B)", fitnessOf(epoch)},
                  {"val/box_loss", epoch == 1 ? std::nan("") : 1.0},
                  {"lr/pg0", 0.01},
                  {"fitness", fitnessOf(epoch)}}}};
    }

    /// Emits epoch `epoch` (1-based): log lines, a system sample, the epoch, then the checkpoints.
    void emitEpoch(remote::RunReporter& reporter, int epoch) const {
        for (int i = 0; i < logLinesPerEpoch; ++i)
            feed(reporter, {{"type", "log"},
                            {"message", "epoch " + std::to_string(epoch) + " line " + std::to_string(i)}});
        feed(reporter, {{"type", "system"},
                        {"cpu_percent", 50.0},
                        {"ram_used_mb", 1024.0},
                        {"ram_total_mb", 4096.0},
                        {"gpu", nullptr}});
        feed(reporter, epochEvent(epoch));
        writeWeights(runDir / "weights" / "last.pt", epoch, weightBytes);
        feed(reporter, {{"type", "checkpoint"},
                        {"epoch", epoch},
                        {"kind", "last"},
                        {"path", (runDir / "weights" / "last.pt").string()}});
        if (epoch % bestEveryNth == 0) {
            writeWeights(runDir / "weights" / "best.pt", epoch, weightBytes);
            feed(reporter, {{"type", "checkpoint"},
                            {"epoch", epoch},
                            {"kind", "best"},
                            {"path", (runDir / "weights" / "best.pt").string()}});
        }
    }
    nlohmann::json finished(const std::string& status = "finished") const {
        return {{"type", "finished"},
                {"status", status},
                {"epochs_completed", epochs},
                {"best_epoch", epochs},
                {"best_fitness", fitnessOf(epochs)},
                {"best_path", (runDir / "weights" / "best.pt").string()},
                {"last_path", (runDir / "weights" / "last.pt").string()}};
    }
};

/// Fast retries for tests; the production defaults are seconds.
inline remote::ReporterOptions testOptions(const std::filesystem::path& project, const std::string& url) {
    remote::ReporterOptions options;
    options.projectFolder = project;
    options.remote = "Tester/My Project!";
    options.name = "Run 1";
    options.localRun = "run1";
    options.command = "osprey-cli train project=p remote=Tester/My Project!";
    options.retry.initialBackoff = std::chrono::milliseconds(100);
    options.retry.maxBackoff = std::chrono::milliseconds(1000);
    options.finishTimeout = std::chrono::seconds(60);
    options.checkpointInterval = std::chrono::hours(1);
    remote::PlatformSettings settings;
    settings.apiKey = kTestKey;
    settings.baseUrl = url;
    settings.keySource = remote::SettingSource::Environment;
    options.settings = settings;
    return options;
}

} // namespace osprey::test
