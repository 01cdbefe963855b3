#pragma once
// MainWindow: a thin shell that owns the open ProjectDocument and composes the panels: the image list,
// the annotation editor (central) and the class panel. It places the editor's menus (Edit, View, Image,
// Class) next to File and Help. Window state and the recent-projects list are remembered in QSettings.

#include <QMainWindow>
#include <memory>

class QDockWidget;
class QMenu;

namespace osprey::ui {

class AnnotationEditor;
class ClassPanel;
class DatasetActions;
class EditorActions;
class ImageListModel;
class ImageListPanel;
class ProjectDocument;
class ThumbnailCache;
class TrainActions;
class ValidationQueue;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Opens a project folder; shows an error dialog (unless `quiet`) and returns false on failure.
    bool openProject(const QString& folder, bool quiet = false);
    void closeProject();
    /// Edits the database has refused so far are kept by the editor: try them again, and ask before they
    /// would be lost (Retry, Discard, Cancel). True when closing may go on.
    bool confirmUnsavedEdits();

    ProjectDocument* document() const { return m_document.get(); }
    ImageListPanel* imageList() const { return m_imageList; }
    ImageListModel* imageModel() const { return m_imageModel; }
    AnnotationEditor* editor() const { return m_editor; }
    EditorActions* editorActions() const { return m_actions; }
    ClassPanel* classPanel() const { return m_classPanel; }
    DatasetActions* datasetActions() const { return m_dataset; }
    TrainActions* trainActions() const { return m_train; }
    /// The worst images of a run at an epoch, opened from a chart point, as a queue in the editor.
    ValidationQueue* validationQueue() const { return m_validationQueue; }
    /// Selects an image in the list (clearing the list's filters when they hide it).
    void showImage(qint64 imageId);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createMenus();
    /// Settings ▸ Language: the system's, English or Chinese, stored for the next start.
    void createLanguageMenu(QMenu* settingsMenu);
    void newProject();
    void chooseProject();
    void rebuildRecentMenu();
    void addRecent(const QString& folder);
    void updateTitle();

    std::unique_ptr<ProjectDocument> m_document;
    ThumbnailCache* m_thumbnails = nullptr;
    ImageListModel* m_imageModel = nullptr;
    ImageListPanel* m_imageList = nullptr;
    ClassPanel* m_classPanel = nullptr;
    AnnotationEditor* m_editor = nullptr;
    EditorActions* m_actions = nullptr;
    DatasetActions* m_dataset = nullptr;
    TrainActions* m_train = nullptr;
    ValidationQueue* m_validationQueue = nullptr;
    QDockWidget* m_listDock = nullptr;
    QDockWidget* m_legendDock = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_closeAction = nullptr;
};

/// Applies Osprey's dark Fusion theme to the application.
void applyTheme();

} // namespace osprey::ui
