#pragma once
// ClassLegendPanel: the project's classes with their colour and box count (read-only here; the class
// editor belongs to the annotation feature).

#include <QWidget>

class QTreeWidget;

namespace osprey::ui {

class ProjectDocument;

class ClassLegendPanel : public QWidget {
    Q_OBJECT
public:
    explicit ClassLegendPanel(ProjectDocument* document, QWidget* parent = nullptr);
    void refresh();

private:
    ProjectDocument* m_document;
    QTreeWidget* m_tree;
};

} // namespace osprey::ui
