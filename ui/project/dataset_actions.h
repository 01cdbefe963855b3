#pragma once
// DatasetActions: the Dataset menu (Import, Import Videos, Export, Split, Health Check, Statistics) and the
// dock panels it opens. A controller, so MainWindow only adds the menu and forwards the open document.

#include <QObject>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace osprey::ui {

class HealthPanel;
class ProjectDocument;
class StatisticsPanel;

class DatasetActions : public QObject {
    Q_OBJECT
public:
    explicit DatasetActions(QMainWindow* window);

    QMenu* menu() const { return m_menu; }
    /// The open project, or null when none is open.
    void setDocument(ProjectDocument* document);

    void openImport();
    /// Videos cut into frames (VideoImportDialog).
    void openVideoImport();
    void openExport();
    void openSplit();
    void showHealth();
    void showStatistics();
    HealthPanel* healthPanel() const { return m_health; }
    StatisticsPanel* statisticsPanel() const { return m_statistics; }

signals:
    /// A health finding was activated: the window should show this image.
    void imageActivated(qint64 imageId);

private:
    QMainWindow* m_window;
    ProjectDocument* m_document = nullptr;
    QMenu* m_menu;
    QDockWidget* m_healthDock;
    QDockWidget* m_statisticsDock;
    HealthPanel* m_health = nullptr;
    StatisticsPanel* m_statistics = nullptr;
};

} // namespace osprey::ui
