#pragma once
// EditorActions: the editor's QActions and the menus that show them with their shortcuts (Edit, View,
// Image, Class), registered in a ShortcutRegistry so the user can change them. Also the cheat sheet
// (F1, ?) and the shortcut settings dialog. The main window only places the menus. GUI thread only.

#include <QObject>

class QAction;
class QMenu;
class QWidget;

namespace osprey::ui {

class AnnotationEditor;
class ShortcutRegistry;

class EditorActions : public QObject {
    Q_OBJECT
public:
    /// Creates the actions for `editor`; `window` receives the window-wide shortcuts.
    EditorActions(AnnotationEditor* editor, QWidget* window);

    QMenu* editMenu() const { return m_edit; }
    QMenu* viewMenu() const { return m_view; }
    QMenu* imageMenu() const { return m_image; }
    QMenu* classMenu() const { return m_class; }
    QAction* cheatSheetAction() const { return m_cheatSheet; }
    QAction* shortcutsAction() const { return m_shortcuts; }
    ShortcutRegistry* registry() const { return m_registry; }
    /// An action by its registry id (e.g. "image.next").
    QAction* action(const QString& id) const;

public slots:
    void showCheatSheet();
    void showShortcutSettings();

private:
    enum class Scope { Window, Canvas };
    QAction* add(QMenu* menu, const QString& id, const QString& text, const QList<QKeySequence>& keys,
                 Scope scope);
    void createEditMenu();
    void createViewMenu();
    void createImageMenu();
    void createClassMenu();
    void createAssistMenu();
    void updateClassActions();

    AnnotationEditor* m_editor;
    QWidget* m_window;
    ShortcutRegistry* m_registry;
    QMenu* m_edit;
    QMenu* m_view;
    QMenu* m_image;
    QMenu* m_class;
    QAction* m_cheatSheet;
    QAction* m_shortcuts;
    QList<QAction*> m_classActions;
};

} // namespace osprey::ui
