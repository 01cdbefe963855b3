#pragma once
// ReviewQueueActions: opens the review queue (core/assist/review_queue.h) in the image list: the images
// whose model boxes nobody has checked yet, likeliest mistakes first, either by the lowest mean model score
// or by the most disagreement between the model boxes and the manual/imported labels. The queue is built
// off the GUI thread on its own connection; the list then shows exactly those images in that order and the
// annotator walks it with D/A, marking each one reviewed (Space). GUI thread only.

#include "assist/review_queue.h"

#include <QObject>

class QAction;

namespace osprey::ui {

class BackgroundTask;
class ImageListPanel;
class ProjectDocument;

class ReviewQueueActions : public QObject {
    Q_OBJECT
public:
    explicit ReviewQueueActions(QObject* parent = nullptr);
    ~ReviewQueueActions() override;

    /// The open project and its image list (both null when the project closes).
    void setDocument(ProjectDocument* document, ImageListPanel* imageList);

    QAction* confidenceAction() const { return m_confidence; }
    QAction* disagreementAction() const { return m_disagreement; }

public slots:
    /// Builds the queue in this order and shows it in the image list, starting at its first image.
    void open(assist::ReviewOrder order);

signals:
    void message(const QString& text);
    /// The queue is shown (or turned out empty).
    void queueOpened(int images);

private:
    void updateActions();

    ProjectDocument* m_document = nullptr;
    ImageListPanel* m_imageList = nullptr;
    BackgroundTask* m_task;
    QAction* m_confidence;
    QAction* m_disagreement;
};

} // namespace osprey::ui
