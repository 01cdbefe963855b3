#pragma once
// TrainingRunModel: everything the dashboard shows about one training run, built from the trainer's
// JSON event lines (core/run/EVENTS.md), live from the child process or replayed from events.jsonl,
// or from an older run's results.csv. No widgets: views read it and listen to `changed`.
// GUI thread only; a run's files are read on any thread into RunFiles (a value) and load() replays them.

#include "run/train_events.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QVector>

namespace osprey::ui {

class TrainingRunModel : public QObject {
    Q_OBJECT
public:
    enum class Status { Empty, Running, Finished, EarlyStopped, Stopped, Failed, Crashed };

    /// The latest training progress (from `batch` and `epoch` events).
    struct Progress {
        int epoch = 0;           ///< current epoch, from 1
        int epochs = 0;          ///< total epochs of the run
        int batch = 0;           ///< batches done in this epoch
        int batches = 0;         ///< batches per epoch
        double imagesPerS = 0.0; ///< training throughput (all ranks together)
        /// data-parallel runs: each rank's images/s (index = rank); empty for one process
        QVector<double> rankImagesPerS;
        double etaS = -1.0;      ///< seconds to the end; negative when unknown
        double elapsedS = 0.0;   ///< the latest event's `t`
        int completedEpochs = 0; ///< epochs with validation done
    };

    /// The latest `system` sample.
    struct SystemSample {
        bool valid = false;  ///< false before the first sample
        bool hasGpu = false; ///< false: no NVIDIA GPU/driver found
        QString gpuName;
        double gpuUtilPercent = 0.0, gpuMemUsedMb = 0.0, gpuMemTotalMb = 0.0, gpuTempC = 0.0;
        double cpuPercent = 0.0, ramUsedMb = 0.0, ramTotalMb = 0.0, processRssMb = 0.0;
    };

    /// The latest `remote` line: how streaming to the platform goes (`remote=user/proj` runs only).
    struct RemoteState {
        bool valid = false;     ///< false before the first `remote` line
        QString state;          ///< connecting, connected, retrying, unauthorized, finished or off
        qint64 queued = 0;      ///< events waiting in the outbox
        qint64 delivered = 0;   ///< events the platform accepted
        qint64 failed = 0;      ///< events the platform rejected (not retried)
        QString error;          ///< the latest failure, e.g. "HTTP 401"; empty when none
        QString dashboardUrl;   ///< the run's page on the platform; empty until known
        bool uploading = false; ///< a weights upload is in progress
        qint64 uploadSentBytes = 0, uploadTotalBytes = 0;
        bool cancelled = false; ///< the platform asked the run to stop
    };

    explicit TrainingRunModel(QObject* parent = nullptr);

    /// Forgets everything (status Empty).
    void clear();
    /// Ingests one JSON event line through core/run's event reader; returns false (and ignores it) when
    /// it is not a JSON object. An object without a known `type` (a newer writer) is skipped.
    bool ingestLine(const QByteArray& line);
    /// Ingests one event.
    void ingestEvent(const run::TrainEvent& event);
    /// A run folder's files read and parsed, off the GUI thread if need be: a value, so that no QObject
    /// crosses threads. load() replays it into a model on the GUI thread.
    struct RunFiles {
        bool hasEvents = false;               ///< read from events.jsonl (else results.csv)
        QVector<run::TrainEvent> events;      ///< events.jsonl's events, in order
        qint64 eventsOffset = 0;              ///< bytes up to the last complete line
        QVector<QHash<QString, double>> rows; ///< results.csv's rows, by column
        QString error;                        ///< why nothing could be read; empty on success
    };
    /// Reads `<runDir>/events.jsonl`, or `<runDir>/results.csv` when there are no events. Any thread.
    static RunFiles readRunFolder(const QString& runDir);
    /// Clears, then replays what readRunFolder() read (a read error shows as a crashed run). Emits
    /// `changed` once.
    void load(const RunFiles& files);

    /// Clears, then replays a run's events.jsonl. Emits `changed` once. False with `error` on IO failure.
    bool loadEventsFile(const QString& path, QString* error = nullptr);
    /// After loadEventsFile(): the byte offset just past the last complete line read, where a reader
    /// following a run that is still being written continues.
    qint64 eventsFileOffset() const { return m_eventsFileOffset; }
    /// Clears, then loads the epoch rows of an Ultralytics-style results.csv.
    bool loadResultsCsv(const QString& path, QString* error = nullptr);
    /// Clears, then loads `<runDir>/events.jsonl`, or `<runDir>/results.csv` when there are no events.
    bool loadRunFolder(const QString& runDir, QString* error = nullptr);
    /// The trainer process ended without a `finished` or `failed` event.
    void markCrashed(const QString& reason);
    /// Adds a console line that did not come as an event (e.g. the trainer's stderr).
    void appendLog(const QString& line);

    // ---- series (one point per validated epoch) ------------------------------------------------
    /// The x values: epoch numbers.
    const QVector<double>& epochs() const { return m_epochs; }
    /// Values of a results.csv column (e.g. "train/box_loss", "metrics/mAP50-95(B)"), aligned with
    /// epochs(); NaN where a value was missing or not finite. Empty for an unknown key.
    QVector<double> series(const QString& key) const { return m_series.value(key); }
    /// The columns known so far.
    QStringList seriesKeys() const { return m_series.keys(); }

    // ---- state -----------------------------------------------------------------------------------
    Status status() const { return m_status; }
    /// A failed or crashed run's reason, or the finished event's summary.
    QString statusMessage() const { return m_statusMessage; }
    const Progress& progress() const { return m_progress; }
    const SystemSample& system() const { return m_system; }
    const RemoteState& remote() const { return m_remote; }
    /// `run_started` fields: the model name and the run folder.
    QString modelName() const { return m_modelName; }
    QString runDir() const { return m_runDir; }
    /// The training process's id from `run_started` (0 when not given).
    qint64 trainerPid() const { return m_trainerPid; }
    int bestEpoch() const { return m_bestEpoch; }
    double bestFitness() const { return m_bestFitness; }

    /// The most recent log lines (at most kMaxLogLines) and how many were ever added, so a console can
    /// append only what is new.
    const QStringList& logLines() const { return m_log; }
    qint64 logTotal() const { return m_logTotal; }
    static constexpr int kMaxLogLines = 5000;

    /// Batches changed signals: while true, ingestion emits nothing (replay emits once at the end).
    void setSignalsBatched(bool batched) { m_batched = batched; }

signals:
    /// Something changed; views should refresh (throttled on their side).
    void changed();
    /// The run reached a terminal status (finished, stopped, failed or crashed).
    void ended();

private:
    void ingestRemote(const run::TrainEvent& event);
    void addEpochRow(const QHash<QString, double>& row);
    void notify();

    QVector<double> m_epochs;
    QHash<QString, QVector<double>> m_series;
    Status m_status = Status::Empty;
    QString m_statusMessage;
    Progress m_progress;
    SystemSample m_system;
    RemoteState m_remote;
    QString m_modelName;
    QString m_runDir;
    qint64 m_trainerPid = 0;
    int m_bestEpoch = 0;
    double m_bestFitness = 0.0;
    QStringList m_log;
    qint64 m_logTotal = 0;
    bool m_batched = false;
    qint64 m_eventsFileOffset = 0;
};

} // namespace osprey::ui
