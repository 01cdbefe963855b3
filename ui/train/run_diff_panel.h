#pragma once
// RunDiffPanel: beside the overlaid charts of a comparison, what differs between the first two runs: their
// arguments (args.yaml) and their data (the dataset snapshots: images added, removed or moved between
// splits, boxes added, removed, moved or relabelled, classes renamed), as `osprey-cli runs diff` reports
// it, and "Open the Changed Images in the Editor". The snapshots are read and compared off the GUI thread.
// GUI thread only.

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace osprey::ui {

class BackgroundTask;
class ProjectDocument;

class RunDiffPanel : public QWidget {
    Q_OBJECT
public:
    explicit RunDiffPanel(ProjectDocument* document, QWidget* parent = nullptr);
    ~RunDiffPanel() override;

    /// Compares run `a` with run `b` (names in the runs table); `compared` follows.
    void compare(const QString& a, const QString& b);

    QLabel* summary() const { return m_summary; }
    QTableWidget* arguments() const { return m_args; }
    QTableWidget* changes() const { return m_changes; }
    QPushButton* openButton() const { return m_open; }
    /// The project's ids of the images that changed between the runs and are still in the project.
    const QList<qint64>& changedImages() const { return m_changed; }

signals:
    void compared(bool ok);
    /// Open these images as a queue in the editor, with `title` above the list.
    void changedImagesRequested(const QList<qint64>& imageIds, const QString& title);

private:
    ProjectDocument* m_document;
    BackgroundTask* m_task;
    QString m_a, m_b;
    QLabel* m_summary;
    QTableWidget* m_args;
    QTableWidget* m_changes;
    QPushButton* m_open;
    QList<qint64> m_changed;
};

} // namespace osprey::ui
