#pragma once
// MainWindow: a thin shell that owns the open ProjectDocument and composes the panels (image list,
// viewer, class legend). Menus: File > New / Open / Open Recent / Close / Quit. Window state and the
// recent-projects list are remembered in QSettings.

#include <QMainWindow>
#include <memory>

class QDockWidget;
class QMenu;

namespace osprey::ui {

class ImageListModel;
class ImageListPanel;
class ImageView;
class ClassLegendPanel;
class ProjectDocument;
class ThumbnailCache;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a project folder; shows an error dialog (unless `quiet`) and returns false on failure.
    bool openProject(const QString& folder, bool quiet = false);
    void closeProject();

    ProjectDocument* document() const { return m_document.get(); }
    ImageListPanel* imageList() const { return m_imageList; }
    ImageListModel* imageModel() const { return m_imageModel; }
    ImageView* imageView() const { return m_view; }

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    void newProject();
    void chooseProject();
    void rebuildRecentMenu();
    void addRecent(const QString& folder);
    void updateTitle();

    std::unique_ptr<ProjectDocument> m_document;
    ThumbnailCache* m_thumbnails = nullptr;
    ImageListModel* m_imageModel = nullptr;
    ImageListPanel* m_imageList = nullptr;
    ClassLegendPanel* m_legend = nullptr;
    ImageView* m_view = nullptr;
    QDockWidget* m_listDock = nullptr;
    QDockWidget* m_legendDock = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_closeAction = nullptr;
};

/// Applies Osprey's dark Fusion theme to the application.
void applyTheme();

} // namespace osprey::ui
