#pragma once
// TrainActions: the Train menu (Dashboard, Start, Stop) and the training dock that holds the TrainPanel.
// A controller, so MainWindow only adds the menu and forwards the open document. It also asks before
// the window closes while a run is in progress.

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

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void updateActions();

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
