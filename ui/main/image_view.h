#pragma once
// ImageView: shows the current image fitted to the widget with its boxes drawn in class colours and
// labelled. Read-only. The image is decoded off the GUI thread; a newer request supersedes older ones.

#include <QFutureWatcher>
#include <QImage>
#include <QWidget>

#include "project/types.h"

namespace osprey::ui {

class ProjectDocument;

class ImageView : public QWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);

    void setDocument(ProjectDocument* document);
    /// Shows an image (0 clears the view).
    void showImage(qint64 imageId);
    qint64 imageId() const { return m_imageId; }
    bool hasImage() const { return !m_image.isNull(); }
    const std::vector<project::BoxRecord>& boxes() const { return m_boxes; }
    /// Where image pixel (x, y) lands in widget coordinates.
    QPointF toWidget(QPointF imagePoint) const;

signals:
    /// The image and its boxes are on screen.
    void imageShown(qint64 imageId);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    void onDecoded();
    void reloadBoxes();
    QRectF imageRect() const;

    ProjectDocument* m_document = nullptr;
    qint64 m_imageId = 0;
    project::ImageRecord m_record;
    QImage m_image;
    QString m_error;
    std::vector<project::BoxRecord> m_boxes;
    QFutureWatcher<QImage> m_watcher;
    qint64 m_pendingId = 0;
};

} // namespace osprey::ui
