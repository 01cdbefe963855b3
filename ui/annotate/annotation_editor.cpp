#include "ui/annotate/annotation_editor.h"

#include "ui/annotate/annotation_session.h"
#ifdef OSPREY_HAVE_ASSIST
#include "ui/assist/assist_bar.h"
#include "ui/assist/assist_controller.h"
#include "ui/assist/review_queue_actions.h"
#endif
#include "ui/annotate/box_canvas.h"
#include "ui/annotate/class_picker_dialog.h"
#include "ui/annotate/editor_banner.h"
#include "ui/annotate/image_prefetcher.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"

#include <QListView>
#include <QVBoxLayout>

namespace osprey::ui {

AnnotationEditor::AnnotationEditor(QWidget* parent)
    : QWidget(parent), m_session(new AnnotationSession(this)), m_canvas(new BoxCanvas(m_session, this)),
      m_prefetcher(new ImagePrefetcher(qint64(768) << 20, this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
#ifdef OSPREY_HAVE_ASSIST
    m_assist = new AssistController(m_session, m_canvas, this);
    m_review = new ReviewQueueActions(this);
    m_assistBar = new AssistBar(m_assist, this);
    m_assistBar->addReviewActions({m_review->confidenceAction(), m_review->disagreementAction()});
    layout->addWidget(m_assistBar);
    connect(m_assist, &AssistController::message, this, &AnnotationEditor::message);
    connect(m_review, &ReviewQueueActions::message, this, &AnnotationEditor::message);
#endif
    m_banner = new EditorBanner(m_session, this);
    layout->addWidget(m_banner);
    layout->addWidget(m_canvas, 1);
    setFocusProxy(m_canvas);
    connect(m_prefetcher, &ImagePrefetcher::ready, this, &AnnotationEditor::onDecoded);
    connect(m_prefetcher, &ImagePrefetcher::failed, this, [this](qint64 id, const QString& error) {
        if (id == m_session->imageId())
            m_canvas->setPlaceholder(tr("Cannot read this image: %1").arg(error));
    });
    connect(m_canvas, &BoxCanvas::framePainted, this, &AnnotationEditor::onFramePainted);
    connect(m_session, &AnnotationSession::message, this, &AnnotationEditor::message);
}

AnnotationEditor::~AnnotationEditor() {
#ifdef OSPREY_HAVE_ASSIST
    delete m_assist; // before the canvas it draws on; waits for a running suggestion
    delete m_review; // waits for a queue being built
#endif
    m_prefetcher->clear();
    m_prefetcher->waitForDone();
}

void AnnotationEditor::setDocument(ProjectDocument* document, ImageListPanel* imageList) {
    if (m_imageList)
        disconnect(m_imageList, nullptr, this, nullptr);
    m_prefetcher->clear();
    m_imageList = imageList;
    m_announced = 0;
    m_session->setDocument(document);
    m_banner->refresh();
#ifdef OSPREY_HAVE_ASSIST
    m_assist->loadProjectModel();
    m_review->setDocument(document, imageList);
#endif
    if (imageList)
        connect(imageList, &ImageListPanel::currentImageChanged, this, &AnnotationEditor::showImage);
}

void AnnotationEditor::showImage(qint64 imageId) {
    ProjectDocument* document = m_session->document();
    if (!document)
        return;
    m_session->setImage(imageId);
    if (imageId == 0)
        return;
    m_announced = 0;
    if (auto pyramid = m_prefetcher->cached(imageId))
        m_canvas->setPyramid(std::move(pyramid));
    else
        m_prefetcher->request(imageId, document->imageFilePath(m_session->image()));
    if (m_imageList)
        prefetchAround(m_imageList->view()->currentIndex().row());
}

void AnnotationEditor::prefetchAround(int row) {
    ProjectDocument* document = m_session->document();
    auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model());
    if (!document || !model || row < 0)
        return;
    QList<qint64> wanted{m_session->imageId()};
    // Forward first: annotators mostly walk ahead. Requests made later are decoded first, so the
    // nearest neighbours go last.
    for (int distance = m_prefetchRadius; distance >= 1; --distance)
        for (const int r : {row - distance, row + distance}) {
            if (r < 0 || r >= model->rowCount())
                continue;
            const qint64 id = model->imageIdAt(r);
            wanted.append(id);
            m_prefetcher->request(id, model->index(r).data(ImageListModel::PathRole).toString());
        }
    m_prefetcher->setWanted(wanted);
}

void AnnotationEditor::onDecoded(qint64 imageId) {
    if (imageId == m_session->imageId() && !m_canvas->hasImage())
        m_canvas->setPyramid(m_prefetcher->cached(imageId));
}

void AnnotationEditor::onFramePainted(qint64 imageId) {
    if (imageId != 0 && imageId != m_announced) {
        m_announced = imageId;
        emit imageShown(imageId);
    }
}

void AnnotationEditor::stepImage(int step) {
    if (!m_imageList)
        return;
    const int row = m_imageList->view()->currentIndex().row() + step;
    if (row >= 0 && row < m_imageList->view()->model()->rowCount())
        m_imageList->selectRow(row);
}

void AnnotationEditor::nextImage() {
    stepImage(+1);
}

void AnnotationEditor::previousImage() {
    stepImage(-1);
}

void AnnotationEditor::nextUnlabeledImage() {
    if (!m_imageList)
        return;
    auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model());
    const int rows = model ? model->rowCount() : 0;
    const int start = m_imageList->view()->currentIndex().row();
    for (int i = 1; i <= rows; ++i) {
        const int row = (start + i + rows) % rows;
        if (model->index(row).data(ImageListModel::StatusRole).toInt() == int(project::ImageStatus::New)) {
            m_imageList->selectRow(row);
            return;
        }
    }
    emit message(tr("No unlabeled image left in this list"));
}

void AnnotationEditor::markReviewed() {
    if (m_session->setStatus(project::ImageStatus::Reviewed))
        emit message(tr("Marked reviewed"));
}

void AnnotationEditor::markVerifiedEmpty() {
    if (m_session->setStatus(project::ImageStatus::VerifiedEmpty))
        emit message(tr("Marked verified empty: this image has no objects"));
}

void AnnotationEditor::deleteSelection() {
    m_session->deleteBoxes(m_canvas->selection());
}

void AnnotationEditor::copySelection() {
    if (!m_canvas->selection().empty())
        m_session->copyBoxes(m_canvas->selection());
}

void AnnotationEditor::paste() {
    m_canvas->setSelection(m_session->paste());
}

void AnnotationEditor::pasteFromPreviousImage() {
    if (!m_imageList)
        return;
    const int row = m_imageList->view()->currentIndex().row();
    auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model());
    // The previous row in the list; on the first row, the image shown before this one.
    const qint64 source = row > 0 && model ? model->imageIdAt(row - 1) : m_session->previousImageId();
    m_canvas->setSelection(m_session->pasteFromImage(source));
}

void AnnotationEditor::setClassByIndex(int index) {
    ProjectDocument* document = m_session->document();
    if (!document || index < 0 || index >= static_cast<int>(document->classes().size()))
        return;
    const std::int64_t classId = document->classes()[static_cast<size_t>(index)].id;
    m_session->setBoxClass(m_canvas->selection(), classId);
    emit message(tr("Class: %1").arg(document->className(classId)));
}

void AnnotationEditor::chooseClass() {
    ProjectDocument* document = m_session->document();
    if (!document)
        return;
    ClassPickerDialog picker(document, m_session->currentClassId(), this);
    if (picker.exec() == QDialog::Accepted && picker.classId() != 0)
        m_session->setBoxClass(m_canvas->selection(), picker.classId());
}

} // namespace osprey::ui
