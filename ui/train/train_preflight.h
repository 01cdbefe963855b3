#pragma once
// TrainPreflight: the dataset health check (core/quality) that runs before a training run starts, on a
// worker thread through BackgroundTask. Errors block the start; warnings are shown and the user may go
// on. The result is a short summary, one line per failing check, for the dialog that presents it.
// GUI thread only; the check itself reads its own connection to the project database.

#include <QMetaType>
#include <QObject>
#include <QStringList>

class QMessageBox;
class QWidget;

namespace osprey::quality {
struct HealthReport;
}

namespace osprey::ui {

class BackgroundTask;

/// What the check found, ready to show.
struct PreflightResult {
    QStringList errors;   ///< one line per check of severity Error: count, title, an example
    QStringList warnings; ///< the same for warnings
    qint64 images = 0;
    qint64 boxes = 0;
    QString failure;        ///< the check could not run (e.g. the database cannot be read)
    bool cancelled = false; ///< cancel() was called
    bool blocksStart() const { return !errors.isEmpty(); }
};

class TrainPreflight : public QObject {
    Q_OBJECT
public:
    explicit TrainPreflight(QObject* parent = nullptr);

    /// Checks the project in `projectFolder` for training at `imgsz` (boxes too small at that size are
    /// warnings). Image headers only: corrupt pixel data is found by Dataset → Health Check, and the
    /// trainer skips such images with a warning. False when a check is already running.
    bool start(const QString& projectFolder, int imgsz);
    void cancel();
    bool isRunning() const;
    /// The worker task, for progress display.
    BackgroundTask* task() const { return m_task; }

    /// Groups a report by check into error and warning lines (information findings are left out).
    static PreflightResult summarize(const quality::HealthReport& report);

    /// The dialog for a result with errors (only OK, object name "trainPreflightErrors") or with
    /// warnings only ("Start Anyway" named "startAnyway" and Cancel, object name "trainPreflightWarnings";
    /// accepted means start). Deletes itself when closed.
    static QMessageBox* createDialog(const PreflightResult& result, QWidget* parent);

signals:
    void finished(const osprey::ui::PreflightResult& result);

private:
    BackgroundTask* m_task;
    bool m_cancelRequested = false;
};

} // namespace osprey::ui

Q_DECLARE_METATYPE(osprey::ui::PreflightResult)
