#pragma once
// ReviewQueueActions: opens the review queue (core/assist/review_queue.h) in the image list: the images
// whose model boxes nobody has checked yet, likeliest mistakes first, either by the lowest mean model score
// or by the most disagreement between the model boxes and the manual/imported labels. The queue is built
// off the GUI thread on its own connection; the list then shows exactly those images in that order and the
// annotator walks it with D/A, marking each one reviewed (Space). It also opens the label-next queue
// (core/assist/label_selector.h: the images picked to label next, saved by LabelNextDialog or `osprey-cli
// select`) the same way, and says in the status bar why the image shown was picked. GUI thread only.

#include "assist/label_selector.h"
#include "assist/review_queue.h"

#include <QHash>
#include <QObject>

class QAction;

namespace osprey::ui {

class BackgroundTask;
struct TaskResult;
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
    QAction* labelNextAction() const { return m_labelNext; }

    /// Why an image of the label-next queue was picked, in the user's language.
    static QString reasonText(const assist::LabelNextItem& item);

public slots:
    /// Builds the queue in this order and shows it in the image list, starting at its first image.
    void open(assist::ReviewOrder order);
    /// Shows the saved label-next queue in the image list, starting at its first image.
    void openLabelNext();

signals:
    void message(const QString& text);
    /// The queue is shown (or turned out empty).
    void queueOpened(int images);

private:
    void updateActions();

    void showLabelNext(const TaskResult& result);
    void showReason(qint64 imageId);

    ProjectDocument* m_document = nullptr;
    ImageListPanel* m_imageList = nullptr;
    BackgroundTask* m_task;
    QAction* m_confidence;
    QAction* m_disagreement;
    QAction* m_labelNext;
    QHash<qint64, QString> m_reasons; ///< of the label-next queue while it is shown
    QString m_labelNextTitle;
};

} // namespace osprey::ui
