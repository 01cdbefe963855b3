#include "ui/project/image_list_view.h"

namespace osprey::ui {

ImageListView::ImageListView(QWidget* parent) : QListView(parent) {
    // Uniform rows let the view skip measuring every row: essential for 100,000 images.
    setUniformItemSizes(true);
    setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
}

void ImageListView::dataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                                const QList<int>& roles) {
    if (uniformItemSizes() && viewMode() == ListMode && !isWrapping()) {
        // QListView::dataChanged would schedule a layout of all rows; the base class only repaints.
        QAbstractItemView::dataChanged(topLeft, bottomRight, roles);
        return;
    }
    QListView::dataChanged(topLeft, bottomRight, roles);
}

} // namespace osprey::ui
