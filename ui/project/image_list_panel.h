#pragma once
// ImageListPanel: the filter bar and the virtualised image list (thumbnail, name, status, box count).
// While the model shows an image order (a review queue), a bar above the list names it and leads back to
// the filtered list.

#include <QWidget>

class QComboBox;
class QFrame;
class QLabel;
class QListView;

namespace osprey::ui {

class ImageListModel;
class ProjectDocument;

class ImageListPanel : public QWidget {
    Q_OBJECT
public:
    ImageListPanel(ProjectDocument* document, ImageListModel* model, QWidget* parent = nullptr);

    QListView* view() const { return m_view; }
    /// Selects a row and scrolls to it.
    void selectRow(int row);
    std::int64_t currentImageId() const;

signals:
    void currentImageChanged(qint64 imageId);

private:
    void applyFilter();
    void refillClassFilter();
    void updateCount();
    void updateOrderBar();
    void restoreCurrent();

    ProjectDocument* m_document;
    ImageListModel* m_model;
    QComboBox* m_statusFilter;
    QComboBox* m_splitFilter;
    QComboBox* m_classFilter;
    QListView* m_view;
    QLabel* m_count;
    QFrame* m_orderBar;
    QLabel* m_orderTitle;
    std::int64_t m_currentBeforeReset = 0;
    bool m_restoring = false;
};

} // namespace osprey::ui
