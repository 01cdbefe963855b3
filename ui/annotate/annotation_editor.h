#pragma once
// AnnotationEditor: the central widget of the main window. Composes the BoxCanvas, the AnnotationSession
// (undo stack, edits) and the ImagePrefetcher, and follows the image list: D/A walk the list, the
// neighbours of the current image are decoded ahead off the GUI thread. GUI thread only.

#include <QWidget>

namespace osprey::ui {

class AnnotationSession;
class AssistBar;
class AssistController;
class BoxCanvas;
class EditorBanner;
class ImageListPanel;
class ImagePrefetcher;
class ProjectDocument;
class ReviewQueueActions;

class AnnotationEditor : public QWidget {
    Q_OBJECT
public:
    explicit AnnotationEditor(QWidget* parent = nullptr);
    ~AnnotationEditor() override;

    /// Attaches the open project and its image list (both null when the project closes).
    void setDocument(ProjectDocument* document, ImageListPanel* imageList);
    AnnotationSession* session() const { return m_session; }
    BoxCanvas* canvas() const { return m_canvas; }
    /// Says when edits are not stored (a read-only project, edits kept for a retry).
    EditorBanner* banner() const { return m_banner; }
    ImagePrefetcher* prefetcher() const { return m_prefetcher; }
    /// Model proposals: the predictor, its proposals on the canvas and the bar above it (null in builds
    /// without core/assist, i.e. without torch).
    AssistController* assist() const { return m_assist; }
    AssistBar* assistBar() const { return m_assistBar; }
    /// The review queue of auto-labelled images (null without core/assist).
    ReviewQueueActions* reviewQueue() const { return m_review; }
    /// How many images on each side of the current one are decoded ahead (0 turns prefetch off).
    void setPrefetchRadius(int images) { m_prefetchRadius = images; }

public slots:
    /// Shows an image (normally called when the list's current row changes).
    void showImage(qint64 imageId);
    void nextImage();
    void previousImage();
    /// Jumps to the next image (after the current one, wrapping) whose status is new.
    void nextUnlabeledImage();
    void markReviewed();
    void markVerifiedEmpty();
    void deleteSelection();
    void copySelection();
    void paste();
    /// Copies every box of the previous image in the list onto this one.
    void pasteFromPreviousImage();
    /// Sets the class of the selection (or of the next box) to the class at `index` (0-based).
    void setClassByIndex(int index);
    /// Opens the class picker (Ctrl+E).
    void chooseClass();

signals:
    /// The image and its boxes have been painted (key press to on-screen ends here).
    void imageShown(qint64 imageId);
    void message(const QString& text);

private:
    void stepImage(int step);
    void prefetchAround(int row);
    void onDecoded(qint64 imageId);
    void onFramePainted(qint64 imageId);

    AnnotationSession* m_session;
    BoxCanvas* m_canvas;
    EditorBanner* m_banner = nullptr;
    ImagePrefetcher* m_prefetcher;
    AssistController* m_assist = nullptr;
    AssistBar* m_assistBar = nullptr;
    ReviewQueueActions* m_review = nullptr;
    ImageListPanel* m_imageList = nullptr;
    int m_prefetchRadius = 2;
    qint64 m_announced = 0;
};

} // namespace osprey::ui
