#include "ui/assist/review_queue_actions.h"

#include "ui/common/background_task.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"

#include <QAction>
#include <QListView>

namespace osprey::ui {

ReviewQueueActions::ReviewQueueActions(QObject* parent) : QObject(parent), m_task(new BackgroundTask(this)) {
    m_confidence = new QAction(tr("Review Queue: &Lowest Confidence First"), this);
    m_confidence->setObjectName("reviewByConfidence");
    m_confidence->setToolTip(tr("Walk the images with unchecked model boxes, the least confident first"));
    m_disagreement = new QAction(tr("Review Queue: Most &Disagreement First"), this);
    m_disagreement->setObjectName("reviewByDisagreement");
    m_disagreement->setToolTip(tr("Walk the images where the model boxes and the existing labels disagree "
                                  "most (false positives and missed boxes at IoU 0.5) first"));
    connect(m_confidence, &QAction::triggered, this, [this] { open(assist::ReviewOrder::Confidence); });
    connect(m_disagreement, &QAction::triggered, this, [this] { open(assist::ReviewOrder::Disagreement); });
    m_labelNext = new QAction(tr("Label &Next Queue"), this);
    m_labelNext->setObjectName("labelNextQueue");
    m_labelNext->setToolTip(tr("Walk the images last picked to label next (Choose Images to Label Next…), "
                               "each with the reason it was picked"));
    connect(m_labelNext, &QAction::triggered, this, &ReviewQueueActions::openLabelNext);
    connect(m_task, &BackgroundTask::finished, this, [this](const TaskResult& result) {
        updateActions();
        if (!m_document || !m_imageList)
            return;
        if (m_task->property("labelNext").toBool()) {
            showLabelNext(result);
            return;
        }
        if (!result.ok()) {
            emit message(tr("Cannot build the review queue: %1").arg(result.error));
            emit queueOpened(0);
            return;
        }
        const QVariantMap queue = result.value.toMap();
        const auto ids = queue.value(QStringLiteral("ids")).value<QList<qint64>>();
        const int withoutLabels = queue.value(QStringLiteral("withoutLabels")).toInt();
        if (ids.isEmpty()) {
            emit message(withoutLabels > 0
                             ? tr("Nothing to compare: the images that need review (%1) have no manual or "
                                  "imported labels; use the confidence order")
                                   .arg(withoutLabels)
                             : tr("No image needs review: every image with model boxes has been reviewed"));
            emit queueOpened(0);
            return;
        }
        const int count = static_cast<int>(ids.size());
        const QString images = count == 1 ? tr("1 image") : tr("%1 images").arg(count);
        QString title =
            m_task->property("disagreement").toBool()
                ? tr("<b>Review queue</b>, most disagreement with the labels first: %1.").arg(images)
                : tr("<b>Review queue</b>, lowest model confidence first: %1.").arg(images);
        if (withoutLabels > 0)
            title += QLatin1Char(' ') +
                     tr("Left out: %1 without labels to compare.")
                         .arg(withoutLabels == 1 ? tr("1 image") : tr("%1 images").arg(withoutLabels));
        title += QLatin1Char(' ') + tr("D/A walk it, Space marks an image reviewed.");
        auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model());
        if (!model)
            return;
        model->setImageOrder(std::vector<std::int64_t>(ids.begin(), ids.end()), title);
        m_imageList->selectRow(0);
        emit message(tr("Review queue: %1 to check").arg(images));
        emit queueOpened(count);
    });
    updateActions();
}

ReviewQueueActions::~ReviewQueueActions() {
    m_task->cancel();
    m_task->wait();
}

void ReviewQueueActions::setDocument(ProjectDocument* document, ImageListPanel* imageList) {
    if (m_task->isRunning()) {
        m_task->cancel();
        m_task->wait();
    }
    if (m_imageList)
        disconnect(m_imageList, nullptr, this, nullptr);
    m_document = document;
    m_imageList = imageList;
    m_reasons.clear();
    if (m_imageList)
        connect(m_imageList, &ImageListPanel::currentImageChanged, this, &ReviewQueueActions::showReason);
    updateActions();
}

void ReviewQueueActions::updateActions() {
    const bool enabled = m_document && m_imageList && !m_task->isRunning();
    m_confidence->setEnabled(enabled);
    m_disagreement->setEnabled(enabled);
    m_labelNext->setEnabled(enabled);
}

QString ReviewQueueActions::reasonText(const assist::LabelNextItem& item) {
    QString group;
    if (item.group >= 0)
        group = item.groupSize == 1
                    ? tr("scene group %1 (1 image)").arg(item.group + 1)
                    : tr("scene group %1 (%2 images)").arg(item.group + 1).arg(item.groupSize);
    switch (item.strategy) {
    case assist::SelectStrategy::Uncertainty: {
        QString text = tr("Uncertain %1: mirror disagreement %2, ambiguous boxes %3, class confusion %4")
                           .arg(item.score, 0, 'f', 2)
                           .arg(item.evidence.mirrorDisagreement, 0, 'f', 2)
                           .arg(item.evidence.ambiguity, 0, 'f', 2)
                           .arg(item.evidence.classConfusion, 0, 'f', 2);
        return group.isEmpty() ? text : text + QStringLiteral("; ") + group;
    }
    case assist::SelectStrategy::Diversity:
        return tr("One image per scene: %1, the image nearest its centre").arg(group);
    case assist::SelectStrategy::Random:
        return tr("Picked at random");
    }
    return {};
}

void ReviewQueueActions::openLabelNext() {
    if (!m_document || !m_imageList || m_task->isRunning())
        return;
    m_task->setProperty("labelNext", true);
    const std::string folder = m_document->folder().toStdString();
    m_task->start([folder](TaskContext&) {
        TaskResult result;
        auto project = project::Project::open(folder);
        if (!project) {
            result.error = QString::fromStdString(project.message());
            return result;
        }
        auto queue = assist::labelNextQueue(**project);
        if (!queue) {
            result.error = QString::fromStdString(queue.message());
            return result;
        }
        QList<qint64> ids;
        QStringList reasons;
        for (const auto& item : *queue) {
            ids.push_back(item.imageId);
            reasons.push_back(reasonText(item));
        }
        result.value = QVariantMap{{QStringLiteral("ids"), QVariant::fromValue(ids)},
                                   {QStringLiteral("reasons"), reasons}};
        return result;
    });
    updateActions();
}

void ReviewQueueActions::showLabelNext(const TaskResult& result) {
    m_reasons.clear();
    if (!result.ok()) {
        emit message(tr("Cannot open the label-next queue: %1").arg(result.error));
        emit queueOpened(0);
        return;
    }
    const QVariantMap queue = result.value.toMap();
    const auto ids = queue.value(QStringLiteral("ids")).value<QList<qint64>>();
    const QStringList reasons = queue.value(QStringLiteral("reasons")).toStringList();
    if (ids.isEmpty()) {
        emit message(tr("The label-next queue is empty: choose images with Edit > Model Proposals > Choose "
                        "Images to Label Next…"));
        emit queueOpened(0);
        return;
    }
    for (qsizetype i = 0; i < ids.size() && i < reasons.size(); ++i)
        m_reasons.insert(ids[i], reasons[i]);
    auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model());
    if (!model)
        return;
    const int count = static_cast<int>(ids.size());
    m_labelNextTitle = (count == 1 ? tr("<b>Label next</b>: 1 image.")
                                   : tr("<b>Label next</b>: %1 images, the most "
                                        "useful first.")
                                         .arg(count)) +
                       QLatin1Char(' ') + tr("D/A walk it.");
    model->setImageOrder(std::vector<std::int64_t>(ids.begin(), ids.end()), m_labelNextTitle);
    m_imageList->selectRow(0);
    showReason(ids.front());
    emit queueOpened(count);
}

void ReviewQueueActions::showReason(qint64 imageId) {
    if (!m_imageList || m_reasons.isEmpty())
        return;
    auto* model = qobject_cast<ImageListModel*>(m_imageList->view()->model());
    if (!model || !model->hasImageOrder() || model->imageOrderTitle() != m_labelNextTitle)
        return;
    if (const auto it = m_reasons.constFind(imageId); it != m_reasons.constEnd())
        emit message(tr("Picked to label next: %1").arg(*it));
}

void ReviewQueueActions::open(assist::ReviewOrder order) {
    if (!m_document || !m_imageList || m_task->isRunning())
        return;
    m_task->setProperty("labelNext", false);
    m_task->setProperty("disagreement", order == assist::ReviewOrder::Disagreement);
    const std::string folder = m_document->folder().toStdString();
    emit message(tr("Building the review queue…"));
    m_task->start([folder, order](TaskContext&) {
        TaskResult result;
        auto project = project::Project::open(folder);
        if (!project) {
            result.error = QString::fromStdString(project.message());
            return result;
        }
        assist::ReviewOptions options;
        options.order = order;
        auto queue = assist::reviewQueue(**project, options);
        if (!queue) {
            result.error = QString::fromStdString(queue.message());
            return result;
        }
        QList<qint64> ids;
        ids.reserve(static_cast<qsizetype>(queue->items.size()));
        for (const auto& item : queue->items)
            ids.push_back(item.imageId);
        result.value = QVariantMap{{QStringLiteral("ids"), QVariant::fromValue(ids)},
                                   {QStringLiteral("withoutLabels"), queue->withoutLabels}};
        return result;
    });
    updateActions();
}

} // namespace osprey::ui
