#include "ui/project/health_panel.h"

#include "quality/health_check.h"
#include "ui/common/background_task.h"
#include "ui/project/project_document.h"
#include "ui/project/task_progress.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <memory>

namespace osprey::ui {

namespace {
constexpr int kImageIdRole = Qt::UserRole + 1;
}

HealthPanel::HealthPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_task(new BackgroundTask(this)) {
    m_imgsz = new QSpinBox(this);
    m_imgsz->setRange(32, 4096);
    m_imgsz->setSingleStep(32);
    m_imgsz->setValue(640);
    m_imgsz->setPrefix(tr("imgsz "));
    m_imgsz->setToolTip(tr("Training size: boxes smaller than 4 px at this size are reported"));
    m_decode = new QCheckBox(tr("Decode images"), this);
    m_decode->setChecked(true);
    m_decode->setToolTip(tr("Decode every image to find corrupt files (slower)"));
    m_run = new QPushButton(tr("Check"), this);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_progress->setTextVisible(false);
    m_progress->setMaximumHeight(6);
    m_summary =
        new QLabel(tr("Run the check to find missing or corrupt images, bad boxes and duplicates."), this);
    m_summary->setWordWrap(true);
    m_tree = new QTreeWidget(this);
    m_tree->setHeaderLabels({tr("Finding"), tr("Details")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    auto* top = new QHBoxLayout;
    top->addWidget(m_imgsz);
    top->addWidget(m_decode);
    top->addStretch(1);
    top->addWidget(m_cancel);
    top->addWidget(m_run);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary);
    layout->addWidget(m_tree, 1);
    connect(m_run, &QPushButton::clicked, this, &HealthPanel::run);
    connect(m_cancel, &QPushButton::clicked, m_task, &BackgroundTask::cancel);
    showTaskProgress(m_task, m_progress);
    connect(m_task, &BackgroundTask::finished, this, &HealthPanel::onFinished);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const qint64 imageId = item->data(0, kImageIdRole).toLongLong();
        if (imageId > 0)
            emit imageActivated(imageId);
    });
}

bool HealthPanel::isBusy() const {
    return m_task->isRunning();
}

void HealthPanel::run() {
    quality::HealthOptions options;
    options.imgsz = m_imgsz->value();
    options.decode = m_decode->isChecked();
    const std::string folder = m_document->folder().toStdString();
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, 0);
    m_summary->setText(tr("Checking…"));
    m_task->start(healthCheckJob(folder, options));
}

void HealthPanel::onFinished(const TaskResult& result) {
    m_run->setEnabled(true);
    m_cancel->setEnabled(false);
    m_progress->setRange(0, 1);
    m_progress->setValue(1);
    m_tree->clear();
    if (!result.ok()) {
        m_summary->setText(tr("The check did not finish: %1").arg(result.error));
        return;
    }
    const auto report = result.value.value<std::shared_ptr<quality::HealthReport>>();
    if (!report)
        return;
    m_summary->setText(
        report->healthy() ? tr("%1 images, %2 boxes: no errors found.").arg(report->images).arg(report->boxes)
                          : tr("%1 images, %2 boxes: problems found; errors block training.")
                                .arg(report->images)
                                .arg(report->boxes));
    std::map<int, QTreeWidgetItem*> groups;
    for (const auto& issue : report->issues) {
        QTreeWidgetItem*& group = groups[static_cast<int>(issue.check)];
        if (!group) {
            group = new QTreeWidgetItem(m_tree);
            const auto severity = quality::checkSeverity(issue.check);
            group->setText(0, QString::fromStdString(quality::checkTitle(issue.check)));
            group->setForeground(0, severity == quality::Severity::Error     ? QColor(0xff, 0x6b, 0x6b)
                                    : severity == quality::Severity::Warning ? QColor(0xff, 0xc1, 0x4d)
                                                                             : QColor(0x9a, 0xa0, 0xa6));
        }
        auto* item = new QTreeWidgetItem(group);
        item->setText(0, QString::fromStdString(issue.path));
        item->setText(1, QString::fromStdString(issue.detail));
        item->setData(0, kImageIdRole, QVariant::fromValue<qint64>(issue.imageId));
        item->setToolTip(0, tr("Double-click to open this image"));
    }
    for (auto& [check, group] : groups)
        group->setText(1, tr("%n finding(s)", "", group->childCount()));
    if (groups.size() <= 3)
        m_tree->expandAll();
}

} // namespace osprey::ui
