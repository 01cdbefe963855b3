#pragma once
// RunViewer: what the dashboard's charts show when it is not the live run. A past run replayed from its
// files, several runs overlaid, and a run another process is still training, followed as its
// events.jsonl grows (Stop reaches that trainer through the process id in its run_started event). Run
// files are read and parsed off the GUI thread and arrive as values (TrainingRunModel::RunFiles).
// GUI thread only.

#include "run/events_tail.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

class QTimer;

namespace osprey::ui {

class BackgroundTask;
class TrainingRunModel;
class TrainingView;

class RunViewer : public QObject {
    Q_OBJECT
public:
    /// Shows runs in `view`; `live` is the model of the run this window trains (compare() reuses it).
    RunViewer(TrainingView* view, TrainingRunModel* live, QObject* parent = nullptr);

    /// Replays the run in `runDir` (named `name`); `opened` follows. A run still being written by a
    /// trainer this window did not start is then followed.
    void open(const QString& runDir, const QString& name);
    /// Overlays the runs `names` under `runsDir`; the one named `liveName` is shown from the live model.
    void compare(const QString& runsDir, const QStringList& names, const QString& liveName);
    /// Stops following (the view shows something else now).
    void stopFollowing();

    bool isFollowing() const;
    /// A followed run whose trainer process is still there.
    bool followedRunCanStop() const;
    /// Asks the followed run's trainer to finish the batch, save and exit (SIGTERM).
    void stopFollowedRun();

    TrainingRunModel* replay() const { return m_replay; }
    const QList<TrainingRunModel*>& comparedModels() const { return m_compared; }

signals:
    void opened(const QString& name);
    void comparisonShown(const QStringList& names);
    /// Following started or ended, or the followed run changed state (the Stop button).
    void followChanged();
    /// The followed run ended (finished, failed or its trainer died): the runs table is out of date.
    void followedRunEnded();

private:
    void follow();

    TrainingView* m_view;
    TrainingRunModel* m_live;
    TrainingRunModel* m_replay;
    QList<TrainingRunModel*> m_compared;
    BackgroundTask* m_reading = nullptr;   ///< the read in flight; a newer request supersedes it
    QTimer* m_follow;                      ///< reads new lines of a run trained by another process
    std::optional<run::EventsTail> m_tail; ///< its events.jsonl, from the bytes already ingested
};

} // namespace osprey::ui
