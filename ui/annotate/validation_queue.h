#pragma once
// ValidationQueue: "Worst images at epoch N" of a training run as a queue in the editor, like the review
// queue. It reads the run's per-image validation results (<run>/validation.jsonl, run/val_results.h) off
// the GUI thread, orders the image list by them (D/A walk it) and draws over each image that epoch's
// detections, dashed, beside the labels, with the verdicts marked: false positives and missed labels in
// red, wrong classes in magenta, low-IoU matches in yellow. The labels stay editable as always (every edit
// an undo command). The same overlay serves the images behind a confusion-matrix cell. GUI thread only.

#include "run/val_results.h"
#include "ui/annotate/box_canvas.h"

#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <optional>

namespace osprey::ui {

class AnnotationSession;
class BackgroundTask;
class ImageListPanel;
class ProjectDocument;

class ValidationQueue : public QObject, public CanvasOverlay {
    Q_OBJECT
public:
    ValidationQueue(BoxCanvas* canvas, AnnotationSession* session, QObject* parent = nullptr);
    ~ValidationQueue() override;

    /// The open project and its image list (null when it closes: the queue ends).
    void setDocument(ProjectDocument* document, ImageListPanel* imageList);

    /// Opens the worst images of the run in `runDir` at `epoch` (0: the last validated epoch); `opened`
    /// follows with the number of images (0 and a message on failure).
    void openWorstImages(const QString& runDir, int epoch);
    /// Opens the images behind cell (detected, actual) of `validation`'s confusion matrix.
    void openCell(const run::EpochValidation& validation, const QString& runName, int detected, int actual);
    /// The same, reading the run in `runDir` at `epoch` first (off the GUI thread).
    void openConfusionCell(const QString& runDir, int epoch, int detected, int actual);
    /// Ends the queue: the list's order and the overlay go.
    void close();

    bool isOpen() const { return m_validation.has_value(); }
    /// The validation shown (null when closed).
    const run::EpochValidation* validation() const { return m_validation ? &*m_validation : nullptr; }
    /// The kept results of `imageId` at the shown epoch (null when it has none).
    const run::ValImageResult* resultFor(std::int64_t imageId) const;
    QString title() const { return m_title; }

    void paintOverlay(QPainter& painter, const QRectF& avoid) override;
    bool overlayClicked(QPointF imagePx) override;

signals:
    void opened(int images);
    void message(const QString& text);

private:
    void show(run::EpochValidation validation, std::vector<std::int64_t> ids, const QString& title);
    /// Reads `epoch` of the run in `runDir` off the GUI thread, then calls `then` on the GUI thread.
    void read(const QString& runDir, int epoch, std::function<void(run::EpochValidation)> then);
    void deactivate();
    std::int64_t classIdOf(int classIndex) const;
    QString classNameOf(int classIndex) const;

    BoxCanvas* m_canvas;
    AnnotationSession* m_session;
    ProjectDocument* m_document = nullptr;
    ImageListPanel* m_imageList = nullptr;
    BackgroundTask* m_reading;
    CanvasOverlay* m_previous = nullptr; ///< the overlay the queue replaced (the model proposals)
    std::optional<run::EpochValidation> m_validation;
    std::map<std::int64_t, size_t> m_index; ///< image id -> position in m_validation->worst
    QString m_title;
};

} // namespace osprey::ui
