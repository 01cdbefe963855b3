#include "ui/annotate/validation_queue.h"

#include "run/run_folder.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_painter.h"
#include "ui/common/background_task.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"

#include <QDir>
#include <QListView>
#include <QPainter>

#include <memory>

namespace osprey::ui {

namespace {

const QColor kFalse(0xff, 0x3b, 0x3b);
const QColor kWrongClass(0xe0, 0x40, 0xfb);
const QColor kLowIou(0xff, 0xd0, 0x2a);

QColor markColor(run::ValMark mark, const QColor& classColor) {
    switch (mark) {
    case run::ValMark::FalsePositive:
    case run::ValMark::Missed:
        return kFalse;
    case run::ValMark::WrongClass:
        return kWrongClass;
    case run::ValMark::LowIou:
        return kLowIou;
    case run::ValMark::Match:
        break;
    }
    return classColor;
}

} // namespace

ValidationQueue::ValidationQueue(BoxCanvas* canvas, AnnotationSession* session, QObject* parent)
    : QObject(parent), m_canvas(canvas), m_session(session), m_reading(new BackgroundTask(this)) {
    connect(m_session, &AnnotationSession::imageChanged, this, [this] {
        if (isOpen())
            m_canvas->update();
    });
}

ValidationQueue::~ValidationQueue() {
    m_reading->cancel();
    m_reading->wait();
    if (m_canvas->overlay() == this)
        m_canvas->setOverlay(m_previous);
}

void ValidationQueue::setDocument(ProjectDocument* document, ImageListPanel* imageList) {
    if (m_reading->isRunning()) {
        m_reading->cancel();
        m_reading->wait();
    }
    deactivate();
    if (m_imageList)
        if (auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model()))
            disconnect(model, nullptr, this, nullptr);
    m_document = document;
    m_imageList = imageList;
    if (!m_imageList)
        return;
    if (auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model()))
        connect(model, &ImageListModel::imageOrderChanged, this, [this, model] {
            // Another order (a review queue, a filter, clearing it) ends this queue.
            if (isOpen() && model->imageOrderTitle() != m_title)
                deactivate();
        });
}

void ValidationQueue::openWorstImages(const QString& runDir, int epoch) {
    const QString runName = QDir(runDir).dirName();
    read(runDir, epoch, [this, runName](run::EpochValidation validation) {
        std::vector<std::int64_t> ids;
        for (const auto& image : validation.worst)
            ids.push_back(image.imageId);
        const int count = static_cast<int>(ids.size());
        const QString images = count == 1 ? tr("1 image") : tr("%1 images").arg(count);
        const QString title = tr("<b>Worst images at epoch %1</b> of run %2: %3, the most false positives "
                                 "and missed labels per "
                                 "object first. Dashed: the model's detections at that epoch; red: a false "
                                 "positive or a missed "
                                 "label, magenta: a wrong class, yellow: a low-IoU match. D/A walk it.")
                                  .arg(validation.epoch)
                                  .arg(runName.toHtmlEscaped(), images);
        show(std::move(validation), std::move(ids), title);
    });
}

void ValidationQueue::openConfusionCell(const QString& runDir, int epoch, int detected, int actual) {
    const QString runName = QDir(runDir).dirName();
    read(runDir, epoch, [this, runName, detected, actual](run::EpochValidation validation) {
        openCell(validation, runName, detected, actual);
    });
}

void ValidationQueue::read(const QString& runDir, int epoch, std::function<void(run::EpochValidation)> then) {
    if (!m_document || !m_imageList || m_reading->isRunning())
        return;
    const std::filesystem::path file = run::RunFolder(runDir.toStdString()).validation();
    auto holder = std::make_shared<std::optional<run::EpochValidation>>();
    disconnect(m_reading, &BackgroundTask::finished, this, nullptr);
    connect(m_reading, &BackgroundTask::finished, this, [this, holder, then](const TaskResult& result) {
        if (!result.ok() || !holder->has_value()) {
            emit message(tr("Cannot open the worst images: %1").arg(result.error));
            emit opened(0);
            return;
        }
        then(std::move(**holder));
    });
    emit message(tr("Reading the validation results…"));
    m_reading->start([file, epoch, holder](TaskContext&) {
        TaskResult result;
        auto epochs = run::readValidationFile(file);
        if (!epochs) {
            result.error = QString::fromStdString(epochs.message());
            return result;
        }
        auto found = run::findEpoch(*epochs, epoch);
        if (!found) {
            result.error = epoch > 0 ? tr("epoch %1 has no validation results in %2")
                                           .arg(epoch)
                                           .arg(QString::fromStdString(file.string()))
                                     : tr("no epoch has been validated yet");
            return result;
        }
        *holder = std::move(*found);
        return result;
    });
}

void ValidationQueue::openCell(const run::EpochValidation& validation, const QString& runName, int detected,
                               int actual) {
    if (!m_document || !m_imageList)
        return;
    const run::ValCell* cell = validation.cell(detected, actual);
    std::vector<std::int64_t> ids;
    if (cell)
        ids = cell->imageIds;
    const int count = static_cast<int>(ids.size());
    const QString images = count == 1 ? tr("1 image") : tr("%1 images").arg(count);
    const QString title =
        tr("<b>Confusion matrix, epoch %1</b> of run %2: labelled %3, detected %4: %5, the worst "
           "first. Dashed: the model's detections at that epoch. D/A walk it.")
            .arg(validation.epoch)
            .arg(runName.toHtmlEscaped(), classNameOf(actual).toHtmlEscaped(),
                 classNameOf(detected).toHtmlEscaped(), images);
    show(validation, std::move(ids), title);
}

void ValidationQueue::show(run::EpochValidation validation, std::vector<std::int64_t> ids,
                           const QString& title) {
    auto* model = m_imageList ? qobject_cast<ImageListModel*>(m_imageList->view()->model()) : nullptr;
    if (!model)
        return;
    if (ids.empty()) {
        emit message(tr("No image to show: the list is empty"));
        emit opened(0);
        return;
    }
    m_validation = std::move(validation);
    m_index.clear();
    for (size_t i = 0; i < m_validation->worst.size(); ++i)
        m_index[m_validation->worst[i].imageId] = i;
    m_title = title;
    if (m_canvas->overlay() != this) {
        m_previous = m_canvas->overlay();
        m_canvas->setOverlay(this);
    }
    const int count = static_cast<int>(ids.size());
    model->setImageOrder(std::move(ids), title);
    m_imageList->selectRow(0);
    m_canvas->update();
    emit message(tr("Worst images: %1 to check").arg(count));
    emit opened(count);
}

void ValidationQueue::close() {
    if (!isOpen())
        return;
    if (auto* model = m_imageList ? qobject_cast<ImageListModel*>(m_imageList->view()->model()) : nullptr;
        model && model->imageOrderTitle() == m_title)
        model->clearImageOrder();
    deactivate();
}

void ValidationQueue::deactivate() {
    if (m_canvas->overlay() == this)
        m_canvas->setOverlay(m_previous);
    m_previous = nullptr;
    m_validation.reset();
    m_index.clear();
    m_title.clear();
    m_canvas->update();
}

const run::ValImageResult* ValidationQueue::resultFor(std::int64_t imageId) const {
    const auto found = m_index.find(imageId);
    return found == m_index.end() ? nullptr : &m_validation->worst[found->second];
}

std::int64_t ValidationQueue::classIdOf(int classIndex) const {
    if (!m_document || classIndex < 0 || classIndex >= static_cast<int>(m_document->classes().size()))
        return 0;
    return m_document->classes()[static_cast<size_t>(classIndex)].id;
}

QString ValidationQueue::classNameOf(int classIndex) const {
    if (m_validation && classIndex >= 0 && classIndex < static_cast<int>(m_validation->classNames.size()))
        return QString::fromStdString(m_validation->classNames[static_cast<size_t>(classIndex)]);
    return tr("background");
}

void ValidationQueue::paintOverlay(QPainter& painter, const QRectF& avoid) {
    if (!isOpen() || !m_document || !m_canvas->hasImage())
        return;
    const run::ValImageResult* result = resultFor(m_session->imageId());
    if (!result)
        return;
    // Labels' verdicts first (under the detections), then the detections, weakest first.
    for (int pass = 0; pass < 2; ++pass)
        for (auto it = result->boxes.rbegin(); it != result->boxes.rend(); ++it) {
            const run::ValBox& box = *it;
            if (box.isDetection() != (pass == 1))
                continue;
            const QRectF r(m_canvas->toWidget(QPointF(box.x1, box.y1)),
                           m_canvas->toWidget(QPointF(box.x2, box.y2)));
            const QColor classColor = m_document->classColor(classIdOf(box.classId));
            const QColor color = markColor(box.mark, classColor);
            const QString name = classNameOf(box.classId);
            painter.save();
            painter.setBrush(Qt::NoBrush);
            QString label;
            if (box.isDetection()) {
                const int width = box.mark == run::ValMark::Match ? 1 : 2;
                const QRectF line = BoxPainter::snapped(r, width);
                painter.setPen(
                    QPen(BoxPainter::haloFor(color), width + 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
                painter.drawRect(line);
                QPen dashed(color, width, Qt::CustomDashLine, Qt::FlatCap, Qt::MiterJoin);
                dashed.setDashPattern({4, 3});
                painter.setPen(dashed);
                painter.drawRect(line);
                const QString scored = QStringLiteral("%1 %2").arg(name).arg(double(box.score), 0, 'f', 2);
                switch (box.mark) {
                case run::ValMark::FalsePositive:
                    label = tr("FP %1").arg(scored);
                    break;
                case run::ValMark::WrongClass:
                    label = tr("wrong class? %1").arg(scored);
                    break;
                case run::ValMark::LowIou:
                    label = tr("low IoU %1").arg(scored);
                    break;
                case run::ValMark::Match:
                case run::ValMark::Missed:
                    label = scored;
                    break;
                }
            } else {
                // A label the model got wrong: a dotted frame just outside it, so the label's own box shows.
                const QRectF frame = BoxPainter::snapped(r.adjusted(-3, -3, 3, 3), 2);
                painter.setPen(
                    QPen(BoxPainter::haloFor(color), 4, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
                painter.drawRect(frame);
                painter.setPen(QPen(color, 2, Qt::DotLine, Qt::FlatCap, Qt::MiterJoin));
                painter.drawRect(frame);
                switch (box.mark) {
                case run::ValMark::WrongClass:
                    label = tr("labelled %1: another class detected").arg(name);
                    break;
                case run::ValMark::LowIou:
                    label = tr("labelled %1: found at low IoU").arg(name);
                    break;
                default:
                    label = tr("FN: %1 missed").arg(name);
                    break;
                }
            }
            painter.restore();
            if (box.isDetection())
                BoxPainter::paintLabel(painter, r, color, label, m_canvas->rect(), avoid);
            else {
                // The tag goes under the label's box, clear of the detection's tag above it.
                const double tag = painter.fontMetrics().height() + 6;
                const QRectF below(r.left() - 3, r.bottom() + 3 + tag, r.width() + 6, 1);
                BoxPainter::paintLabel(painter, below, color, label, m_canvas->rect(), avoid);
            }
        }
}

bool ValidationQueue::overlayClicked(QPointF) {
    return false; // the labels under it stay editable
}

} // namespace osprey::ui
