#pragma once
// ImageListView: the list view of the image list. A plain QListView lays out every row again whenever
// any row's data changes (a thumbnail arriving, a status changing after an edit), which costs about
// 2.5 ms per 100,000 rows on each change. Rows here all have the same height, so changed data never
// moves a row: the view repaints the changed rows and keeps the layout. GUI thread only.

#include <QListView>

namespace osprey::ui {

class ImageListView : public QListView {
    Q_OBJECT
public:
    explicit ImageListView(QWidget* parent = nullptr);

protected:
    void dataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                     const QList<int>& roles = QList<int>()) override;
};

} // namespace osprey::ui
