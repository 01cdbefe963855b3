#include "ui/project/class_legend_panel.h"

#include "ui/project/project_document.h"

#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <map>

namespace osprey::ui {

ClassLegendPanel::ClassLegendPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document) {
    m_tree = new QTreeWidget(this);
    m_tree->setRootIsDecorated(false);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Class"), tr("Images"), tr("Boxes")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tree);
    connect(document, &ProjectDocument::classesChanged, this, &ClassLegendPanel::refresh);
    connect(document, &ProjectDocument::imagesReset, this, &ClassLegendPanel::refresh);
    refresh();
}

void ClassLegendPanel::refresh() {
    m_tree->clear();
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> totals;
    if (auto counts = m_document->project().classSplitCounts()) {
        for (const auto& row : *counts) {
            totals[row.classId].first += row.images;
            totals[row.classId].second += row.boxes;
        }
    }
    int index = 0;
    for (const auto& info : m_document->classes()) {
        auto* item = new QTreeWidgetItem(m_tree);
        QPixmap swatch(14, 14);
        swatch.fill(QColor(QString::fromStdString(info.color)));
        item->setIcon(0, QIcon(swatch));
        // The number is the digit key that assigns this class in the editor.
        item->setText(0, index < 9
                             ? QStringLiteral("%1  %2").arg(index + 1).arg(QString::fromStdString(info.name))
                             : QString::fromStdString(info.name));
        item->setText(1, QString::number(totals[info.id].first));
        item->setText(2, QString::number(totals[info.id].second));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        ++index;
    }
}

} // namespace osprey::ui
