#pragma once
// TrainActions: the Train menu (Dashboard, Start, Stop) and the training dock that holds the TrainPanel.
// A controller, so MainWindow only adds the menu and forwards the open document. When the window is
// closed while a run is in progress it asks: keep the run going in the background (the trainer is
// detached and outlives the GUI), stop it (waiting while it saves), or cancel the close.

#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QMenu;

namespace osprey::ui {

class ProjectDocument;
class TrainPanel;

class TrainActions : public QObject {
    Q_OBJECT
public:
    explicit TrainActions(QMainWindow* window);

    QMenu* menu() const { return m_menu; }
    /// The open project, or null when none is open (a running trainer is then stopped and saved).
    void setDocument(ProjectDocument* document);
    /// Shows the dashboard dock (creating the panel for the open project).
    void showDashboard();
    /// The panel, or null before the dashboard was shown for this project.
    TrainPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }

    /// Asks what to do with a run in progress before the window closes (the dialog is named
    /// "closeWhileTraining", its buttons "keepRunning", "stopRun" and "cancel"). True when the window
    /// may close: the run was detached or has stopped. True at once when no run is in progress.
    bool confirmClose();

signals:
    /// The dashboard asks for the worst images of a run at an epoch (a chart point was clicked).
    void worstImagesRequested(const QString& runDir, int epoch);
    void confusionCellRequested(const QString& runDir, int epoch, int detected, int actual);
    void changedImagesRequested(const QList<qint64>& imageIds, const QString& title);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateActions();
    /// Stops the run and waits, with a progress dialog whose button ends the trainer at once.
    bool stopAndWait();

    QMainWindow* m_window;
    ProjectDocument* m_document = nullptr;
    QMenu* m_menu;
    QAction* m_dashboard;
    QAction* m_start;
    QAction* m_stop;
    QDockWidget* m_dock;
    TrainPanel* m_panel = nullptr;
};

} // namespace osprey::ui
