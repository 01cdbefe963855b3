#pragma once
// ClassPanel: the editable class list. Adds, renames (double-click or F2), recolours and reorders classes
// through undoable commands, shows live image and box counts, and marks the class the next box gets
// (clicking a class makes it that class). GUI thread only.

#include <QWidget>

class QTimer;
class QTreeWidget;
class QTreeWidgetItem;
class QToolButton;

namespace osprey::ui {

class AnnotationSession;

class ClassPanel : public QWidget {
    Q_OBJECT
public:
    explicit ClassPanel(AnnotationSession* session, QWidget* parent = nullptr);

    QTreeWidget* tree() const { return m_tree; }
    /// Re-reads classes and counts now.
    void refresh();

public slots:
    /// Asks for a name and adds a class.
    void addClass();
    /// Adds a class without asking (tests, import); returns false on a duplicate or empty name.
    bool addClassNamed(const QString& name, const QString& color = {});
    bool renameClass(std::int64_t classId, const QString& name);
    void recolorClass(std::int64_t classId, const QColor& color);
    /// Moves a class up (-1) or down (+1) in the list.
    void moveClass(std::int64_t classId, int step);

private:
    std::int64_t selectedClassId() const;
    void onItemChanged(QTreeWidgetItem* item, int column);
    void chooseColor();

    AnnotationSession* m_session;
    QTreeWidget* m_tree;
    QTimer* m_countTimer;
    bool m_filling = false;
};

} // namespace osprey::ui
