#pragma once
// The text files of a run folder: args.yaml and results.csv (Ultralytics 8.4 columns), each rewritten
// atomically so that a reader never sees half a file, and the events.jsonl writer. No torch.
// Thread affinity: ResultsCsv belongs to the training thread; JsonlFileSink is thread-safe.

#include "common/expected.h"
#include "run/train_events.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::run {

/// The results.csv header, Ultralytics 8.4: epoch, time, train/box_loss, ..., lr/pg2.
const std::vector<std::string>& resultsCsvColumns();
/// A YOLO26 run's header: the third loss is its L1 box term, named train/l1_loss and val/l1_loss as
/// Ultralytics 8.4.190 names it (EpochMetrics::dflLoss and valDflLoss hold it).
const std::vector<std::string>& endToEndResultsCsvColumns();
/// The short name of the third loss for the log: "l1" for a YOLO26 model ("yolo26n", ...), else "dfl".
const char* thirdLossName(std::string_view modelName);

/// One results.csv row as its cells, in resultsCsvColumns() order, formatted as the file holds them.
std::vector<std::string> resultsCsvCells(const EpochMetrics& metrics);

/// results.csv as read back: the header's columns and one row of numbers per epoch (a cell that is not a
/// number reads as NaN).
struct ResultsTable {
    std::vector<std::string> columns;
    std::vector<std::vector<double>> rows;
    /// The values of one column over the epochs; empty when there is no such column. A YOLO26 run's
    /// train/l1_loss and val/l1_loss also answer to train/dfl_loss and val/dfl_loss (the third loss).
    std::vector<double> column(const std::string& name) const;
};

/// Reads a results.csv (Osprey's or Ultralytics'); an error names the file and the line.
Expected<ResultsTable> readResultsCsv(const std::filesystem::path& path);

/// Claims a new run folder under `runsDir`: `base`, else `base2`, `base3`, ... (as Ultralytics
/// increments), creating it. Creating the folder is the claim (mkdir is atomic): of several processes
/// asking at once, each gets a different folder, so a run folder has exactly one writer. Fails when
/// `runsDir` cannot be created or written.
Expected<std::filesystem::path> claimRunDir(const std::filesystem::path& runsDir, const std::string& base);

/// Writes `args` as a flat YAML mapping (values quoted where YAML would misread them).
Status writeArgsYaml(const std::filesystem::path& path, const std::map<std::string, std::string>& args);

/// Reads a flat YAML mapping written by writeArgsYaml.
Expected<std::map<std::string, std::string>> readArgsYaml(const std::filesystem::path& path);

/// "Retrain from this run": the `osprey-cli train` arguments that fine-tune the run's best.pt on the
/// project as it is now with the run's own options: every training option of its args.yaml shown on the
/// command line, except the run's name (the new run gets the next free one), resume and weights, then
/// weights=<run>/weights/best.pt. Fails, naming the file, when the run has no args.yaml or no best.pt.
Expected<std::vector<std::string>> retrainArguments(const std::filesystem::path& runDir);

/// Key of the dataset snapshot's hash (core/quality) in the runs table's config JSON and in run_started's
/// config.
inline constexpr const char* kSnapshotConfigKey = "dataset_snapshot";

/// The runs table's config JSON (core/project's runs.config, SCHEMA.md): the run's arguments, as args.yaml
/// holds them, as one JSON object of strings, plus kSnapshotConfigKey.
std::string writeRunConfigJson(const std::map<std::string, std::string>& args);

/// The one reader of a runs table's config JSON: every value as text (older rows may hold numbers: their
/// JSON text). Text that is not a JSON object reads as no arguments.
std::map<std::string, std::string> readRunConfigJson(std::string_view json);

/// results.csv kept in memory and rewritten atomically after each epoch.
class ResultsCsv {
public:
    /// `endToEnd`: a YOLO26 run (endToEndResultsCsvColumns).
    explicit ResultsCsv(std::filesystem::path path, bool endToEnd = false);
    /// Resume: keeps the rows of epochs 1..lastEpoch already in the file.
    Status loadExisting(int lastEpoch);
    Status append(const EpochMetrics& metrics);
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
    bool m_endToEnd;
    std::vector<std::string> m_rows;
};

/// Appends each event as one JSON line to a file (flushed per line).
class JsonlFileSink : public EventSink {
public:
    /// Opens for appending (resume keeps the earlier events).
    static Expected<std::unique_ptr<JsonlFileSink>> open(const std::filesystem::path& path);
    ~JsonlFileSink() override;
    void onEvent(const TrainEvent& event) override;

private:
    explicit JsonlFileSink(std::FILE* file) : m_file(file) {}
    std::mutex m_mutex;
    std::FILE* m_file;
};

/// Forwards every event to several sinks in order.
class FanOutSink : public EventSink {
public:
    void add(EventSink* sink) { m_sinks.push_back(sink); }
    void onEvent(const TrainEvent& event) override {
        for (auto* sink : m_sinks)
            sink->onEvent(event);
    }

private:
    std::vector<EventSink*> m_sinks;
};

} // namespace osprey::run
