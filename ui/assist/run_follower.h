#pragma once
// RunFollower: watches a project's training runs for a new best checkpoint. The run followed is the one
// whose weights/best.pt was written last (the active run while one trains, otherwise the latest one), so a
// run started later, by the GUI, the CLI or a background trainer, is picked up by itself. The trainer
// replaces best.pt atomically (rename), so a checkpoint seen here is always complete. Polls the runs
// folder (a few stat calls) every interval while on. GUI thread only.

#include <QDateTime>
#include <QObject>
#include <QString>

class QTimer;

namespace osprey::ui {

class RunFollower : public QObject {
    Q_OBJECT
public:
    explicit RunFollower(QObject* parent = nullptr);

    /// The project folder whose runs/ are watched ("" stops watching).
    void setProjectFolder(const QString& folder);
    void setEnabled(bool on);
    bool isEnabled() const { return m_enabled; }
    void setInterval(int ms);

    /// The best.pt followed now ("" when no run has written one yet) and its run's name.
    const QString& checkpoint() const { return m_checkpoint; }
    const QString& runName() const { return m_runName; }

    /// The newest runs/*/weights/best.pt under `projectFolder` ("" when none) and its modification time.
    static QString newestBestCheckpoint(const QString& projectFolder, QDateTime* modified = nullptr);

public slots:
    /// Looks now (the timer does it every interval while enabled); emits checkpointChanged when there is
    /// a newer best.pt than the one last announced.
    void check();

signals:
    void checkpointChanged(const QString& path, const QString& runName);

private:
    QTimer* m_timer;
    QString m_folder;
    bool m_enabled = false;
    QString m_checkpoint;
    QString m_runName;
    QDateTime m_modified;
};

} // namespace osprey::ui
