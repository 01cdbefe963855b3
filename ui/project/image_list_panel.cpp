#include "ui/project/image_list_panel.h"

#include "ui/project/image_list_delegate.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_view.h"
#include "ui/project/project_document.h"

#include <QComboBox>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

namespace osprey::ui {

ImageListPanel::ImageListPanel(ProjectDocument* document, ImageListModel* model, QWidget* parent)
    : QWidget(parent), m_document(document), m_model(model) {
    m_statusFilter = new QComboBox(this);
    m_statusFilter->addItem(tr("Any status"), -1);
    for (auto status : {project::ImageStatus::New, project::ImageStatus::Labeled,
                        project::ImageStatus::Reviewed, project::ImageStatus::VerifiedEmpty})
        m_statusFilter->addItem(ImageListModel::statusText(status), static_cast<int>(status));
    m_splitFilter = new QComboBox(this);
    m_splitFilter->addItem(tr("Any split"), -1);
    for (auto split :
         {project::Split::Train, project::Split::Val, project::Split::Test, project::Split::None})
        m_splitFilter->addItem(ImageListModel::splitText(split), static_cast<int>(split));
    m_classFilter = new QComboBox(this);
    m_statusFilter->setToolTip(tr("Show only images with this status"));
    m_splitFilter->setToolTip(tr("Show only images in this split"));
    m_classFilter->setToolTip(tr("Show only images with at least one box of this class"));
    refillClassFilter();

    m_view = new ImageListView(this);
    m_view->setModel(model);
    m_view->setItemDelegate(new ImageListDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setMouseTracking(true);
    m_count = new QLabel(this);
    m_count->setObjectName("imageCount");

    m_orderBar = new QFrame(this);
    m_orderBar->setObjectName("imageOrderBar");
    m_orderBar->setFrameShape(QFrame::StyledPanel);
    m_orderBar->setAutoFillBackground(true);
    QPalette barPalette = m_orderBar->palette();
    barPalette.setColor(QPalette::Window, barPalette.color(QPalette::Highlight).darker(130));
    m_orderBar->setPalette(barPalette);
    m_orderTitle = new QLabel(m_orderBar);
    m_orderTitle->setWordWrap(true);
    auto* leave = new QToolButton(m_orderBar);
    leave->setObjectName("leaveImageOrder");
    leave->setText(tr("Show All"));
    leave->setToolTip(tr("Leave this order and show the filtered image list again"));
    connect(leave, &QToolButton::clicked, this, [this] {
        m_model->clearImageOrder(); // the image shown stays current when the list has it
        if (!m_view->currentIndex().isValid() && m_model->rowCount() > 0)
            selectRow(0);
    });
    auto* barLayout = new QHBoxLayout(m_orderBar);
    barLayout->setContentsMargins(6, 4, 4, 4);
    barLayout->addWidget(m_orderTitle, 1);
    barLayout->addWidget(leave, 0, Qt::AlignTop);

    auto* filters = new QHBoxLayout;
    filters->setSpacing(4);
    filters->addWidget(m_statusFilter, 1);
    filters->addWidget(m_splitFilter, 1);
    filters->addWidget(m_classFilter, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(filters);
    layout->addWidget(m_orderBar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_count);

    for (QComboBox* box : {m_statusFilter, m_splitFilter, m_classFilter})
        connect(box, &QComboBox::currentIndexChanged, this, &ImageListPanel::applyFilter);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) {
                if (current.isValid() && !m_restoring)
                    emit currentImageChanged(current.data(ImageListModel::ImageIdRole).toLongLong());
            });
    // A reset (after an import or an auto-label run) keeps the current image current, so that D/A go on
    // from it, without showing it again.
    connect(model, &QAbstractItemModel::modelAboutToBeReset, this,
            [this] { m_currentBeforeReset = currentImageId(); });
    connect(model, &QAbstractItemModel::modelReset, this, &ImageListPanel::restoreCurrent);
    connect(model, &QAbstractItemModel::modelReset, this, &ImageListPanel::updateCount);
    connect(model, &ImageListModel::imageOrderChanged, this, &ImageListPanel::updateOrderBar);
    connect(document, &ProjectDocument::classesChanged, this, &ImageListPanel::refillClassFilter);
    updateCount();
    updateOrderBar();
}

void ImageListPanel::restoreCurrent() {
    const std::int64_t id = std::exchange(m_currentBeforeReset, 0);
    if (id == 0)
        return;
    int row = m_model->rowOfImage(id);
    if (row < 0 && !m_model->hasImageOrder())
        if (const auto found = m_document->project().images().row(id, m_model->filter()))
            row = static_cast<int>(*found);
    const QModelIndex index = m_model->index(row);
    if (!index.isValid() || index.data(ImageListModel::ImageIdRole).toLongLong() != id)
        return; // filtered out now, or gone
    m_restoring = true;
    m_view->setCurrentIndex(index);
    m_restoring = false;
    m_view->scrollTo(index);
}

void ImageListPanel::updateOrderBar() {
    const bool ordered = m_model->hasImageOrder();
    m_orderBar->setVisible(ordered);
    m_orderTitle->setText(m_model->imageOrderTitle());
    // The filters do not apply to an order; they come back with "Show All".
    for (QComboBox* box : {m_statusFilter, m_splitFilter, m_classFilter})
        box->setEnabled(!ordered);
    updateCount();
}

void ImageListPanel::refillClassFilter() {
    const QVariant current = m_classFilter->currentData();
    const QSignalBlocker blocker(m_classFilter);
    m_classFilter->clear();
    m_classFilter->addItem(tr("Any class"), QVariant::fromValue<qint64>(-1));
    for (const auto& info : m_document->classes()) {
        QPixmap swatch(12, 12);
        swatch.fill(QColor(QString::fromStdString(info.color)));
        m_classFilter->addItem(QIcon(swatch), QString::fromStdString(info.name),
                               QVariant::fromValue<qint64>(info.id));
    }
    const int index = m_classFilter->findData(current);
    m_classFilter->setCurrentIndex(index >= 0 ? index : 0);
}

void ImageListPanel::applyFilter() {
    project::ImageQuery filter;
    if (const int status = m_statusFilter->currentData().toInt(); status >= 0)
        filter.status = static_cast<project::ImageStatus>(status);
    if (const int split = m_splitFilter->currentData().toInt(); split >= 0)
        filter.split = static_cast<project::Split>(split);
    if (const qint64 classId = m_classFilter->currentData().toLongLong(); classId >= 0)
        filter.classId = classId;
    m_model->setFilter(filter);
    if (m_model->rowCount() > 0)
        selectRow(0);
}

void ImageListPanel::updateCount() {
    const auto total = m_document->project().images().count();
    if (m_model->hasImageOrder())
        m_count->setText(tr("%1 images in this order (%2 in the project)")
                             .arg(m_model->rowCount())
                             .arg(total ? *total : 0));
    else
        m_count->setText(tr("%1 of %2 images").arg(m_model->rowCount()).arg(total ? *total : 0));
}

void ImageListPanel::selectRow(int row) {
    const QModelIndex index = m_model->index(row);
    if (!index.isValid())
        return;
    m_view->setCurrentIndex(index);
    m_view->scrollTo(index);
}

std::int64_t ImageListPanel::currentImageId() const {
    const QModelIndex index = m_view->currentIndex();
    return index.isValid() ? index.data(ImageListModel::ImageIdRole).toLongLong() : 0;
}

} // namespace osprey::ui
