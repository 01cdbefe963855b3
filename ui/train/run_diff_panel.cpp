#include "ui/train/run_diff_panel.h"

#include "project/run_info.h"
#include "quality/run_snapshot.h"
#include "quality/snapshot_diff.h"
#include "ui/common/background_task.h"
#include "ui/project/project_document.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <map>
#include <memory>
#include <set>

namespace osprey::ui {

namespace {

/// What the worker hands to the GUI.
struct DiffResult {
    quality::SnapshotDiff data;
    std::vector<quality::ArgChange> args;
    std::vector<std::pair<std::string, QString>> changes; ///< image path, what changed (GUI text)
    QList<qint64> imageIds;
};

QString fromView(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

QString boxText(const std::array<double, 4>& xyxy) {
    return QStringLiteral("(%1, %2, %3, %4)")
        .arg(xyxy[0], 0, 'f', 1)
        .arg(xyxy[1], 0, 'f', 1)
        .arg(xyxy[2], 0, 'f', 1)
        .arg(xyxy[3], 0, 'f', 1);
}

} // namespace

RunDiffPanel::RunDiffPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_task(new BackgroundTask(this)) {
    setObjectName("runDiffPanel");
    m_summary = new QLabel(tr("Compare two runs to see what differs."), this);
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);
    m_args = new QTableWidget(0, 3, this);
    m_args->setHorizontalHeaderLabels({tr("Argument"), tr("First run"), tr("Second run")});
    m_args->horizontalHeader()->setStretchLastSection(true);
    m_args->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_changes = new QTableWidget(0, 2, this);
    m_changes->setHorizontalHeaderLabels({tr("Image"), tr("Change")});
    m_changes->horizontalHeader()->setStretchLastSection(true);
    m_changes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_open = new QPushButton(tr("Open the Changed Images in the Editor"), this);
    m_open->setObjectName("openChangedImages");
    m_open->setEnabled(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(new QLabel(tr("Arguments"), this));
    layout->addWidget(m_args, 1);
    layout->addWidget(new QLabel(tr("Data"), this));
    layout->addWidget(m_changes, 2);
    layout->addWidget(m_open, 0, Qt::AlignLeft);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString images = m_changed.size() == 1 ? tr("1 image") : tr("%1 images").arg(m_changed.size());
        emit changedImagesRequested(m_changed, tr("<b>Changed between runs %1 and %2</b>: %3. D/A walk them.")
                                                   .arg(m_a.toHtmlEscaped(), m_b.toHtmlEscaped(), images));
    });
}

RunDiffPanel::~RunDiffPanel() {
    m_task->cancel();
    m_task->wait();
}

void RunDiffPanel::compare(const QString& a, const QString& b) {
    if (!m_document)
        return;
    if (m_task->isRunning()) {
        m_task->cancel();
        m_task->wait();
    }
    m_a = a;
    m_b = b;
    m_open->setEnabled(false);
    m_summary->setText(tr("Comparing %1 with %2…").arg(a.toHtmlEscaped(), b.toHtmlEscaped()));
    const std::string folder = m_document->folder().toStdString();
    const std::string nameA = a.toStdString(), nameB = b.toStdString();
    auto holder = std::make_shared<DiffResult>();
    disconnect(m_task, &BackgroundTask::finished, this, nullptr);
    connect(m_task, &BackgroundTask::finished, this, [this, holder](const TaskResult& result) {
        m_args->setRowCount(0);
        m_changes->setRowCount(0);
        m_changed.clear();
        if (!result.ok()) {
            m_summary->setText(tr("Cannot compare the runs: %1").arg(result.error.toHtmlEscaped()));
            emit compared(false);
            return;
        }
        const auto& d = holder->data;
        QStringList lines;
        lines << (d.sameData() ? tr("<b>Same data</b> (dataset snapshot %1).")
                                     .arg(QString::fromStdString(quality::shortHash(d.hashA)))
                               : tr("<b>The data differs</b> (snapshot %1 → %2).")
                                     .arg(QString::fromStdString(quality::shortHash(d.hashA)),
                                          QString::fromStdString(quality::shortHash(d.hashB))));
        if (!d.sameData())
            lines << tr("Images: %1 added, %2 removed, %3 moved between splits, %4 with another status, %5 "
                        "with "
                        "other content.")
                         .arg(d.imagesAdded.size())
                         .arg(d.imagesRemoved.size())
                         .arg(d.imagesMoved.size())
                         .arg(d.statusChanged.size())
                         .arg(d.contentChanged.size())
                  << tr("Boxes: %1 added, %2 removed, %3 moved, %4 relabelled, %5 adjusted slightly.")
                         .arg(d.boxesAdded.size())
                         .arg(d.boxesRemoved.size())
                         .arg(d.boxesMoved.size())
                         .arg(d.boxesRelabelled.size())
                         .arg(d.boxesAdjusted)
                  << tr("Classes: %1 renamed, %2 added, %3 removed%4.")
                         .arg(d.classesRenamed.size())
                         .arg(d.classesAdded.size())
                         .arg(d.classesRemoved.size())
                         .arg(d.classOrderChanged ? tr(", reordered") : QString());
        lines << (holder->args.empty() ? tr("Arguments: the same.")
                                       : tr("Arguments: %1 changed.").arg(holder->args.size()));
        m_summary->setText(lines.join(QStringLiteral("<br>")));
        for (const auto& change : holder->args) {
            const int row = m_args->rowCount();
            m_args->insertRow(row);
            m_args->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(change.key)));
            m_args->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(change.before)));
            m_args->setItem(row, 2, new QTableWidgetItem(QString::fromStdString(change.after)));
        }
        for (const auto& [path, text] : holder->changes) {
            const int row = m_changes->rowCount();
            m_changes->insertRow(row);
            m_changes->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(path)));
            m_changes->setItem(row, 1, new QTableWidgetItem(text));
        }
        m_args->resizeColumnsToContents();
        m_changes->resizeColumnToContents(0);
        m_changed = holder->imageIds;
        m_open->setEnabled(!m_changed.isEmpty());
        emit compared(true);
    });
    m_task->start([folder, nameA, nameB, holder](TaskContext&) {
        TaskResult result;
        auto project = project::Project::open(folder);
        if (!project) {
            result.error = QString::fromStdString(project.message());
            return result;
        }
        auto runA = project::findRun(**project, nameA);
        auto runB = runA ? project::findRun(**project, nameB) : runA;
        if (!runA || !runB) {
            result.error = QString::fromStdString(!runA ? runA.message() : runB.message());
            return result;
        }
        auto snapshotA = quality::loadRunSnapshot(*runA);
        auto snapshotB = snapshotA ? quality::loadRunSnapshot(*runB) : snapshotA;
        if (!snapshotA || !snapshotB) {
            result.error = QString::fromStdString(!snapshotA ? snapshotA.message() : snapshotB.message());
            return result;
        }
        holder->data = quality::diffSnapshots(*snapshotA, *snapshotB);
        auto argsA = runA->args, argsB = runB->args;
        argsA.erase("name");
        argsB.erase("name");
        holder->args = quality::diffArgs(argsA, argsB);
        const auto& d = holder->data;
        auto& changes = holder->changes;
        for (const auto& image : d.imagesAdded)
            changes.emplace_back(image.path, tr("added, with %1 boxes").arg(image.boxes));
        for (const auto& image : d.imagesRemoved)
            changes.emplace_back(image.path, tr("removed"));
        for (const auto& move : d.imagesMoved)
            changes.emplace_back(move.path, tr("moved from %1 to %2")
                                                .arg(fromView(project::toString(move.from)),
                                                     fromView(project::toString(move.to))));
        for (const auto& status : d.statusChanged)
            changes.emplace_back(status.path, tr("status %1 → %2")
                                                  .arg(fromView(project::toString(status.from)),
                                                       fromView(project::toString(status.to))));
        for (const auto& path : d.contentChanged)
            changes.emplace_back(path, tr("other content"));
        for (const auto& box : d.boxesAdded)
            changes.emplace_back(
                box.path,
                tr("box added: %1 %2").arg(QString::fromStdString(box.className), boxText(box.xyxy)));
        for (const auto& box : d.boxesRemoved)
            changes.emplace_back(
                box.path,
                tr("box removed: %1 %2").arg(QString::fromStdString(box.className), boxText(box.xyxy)));
        for (const auto& move : d.boxesMoved)
            changes.emplace_back(move.path, tr("box moved: %1 %2 → %3 (IoU %4)")
                                                .arg(QString::fromStdString(move.className),
                                                     boxText(move.before), boxText(move.after))
                                                .arg(move.iou, 0, 'f', 2));
        for (const auto& relabel : d.boxesRelabelled)
            changes.emplace_back(relabel.path, tr("box relabelled: %1 → %2")
                                                   .arg(QString::fromStdString(relabel.from),
                                                        QString::fromStdString(relabel.to)));
        // The changed images that are still in the project, in the order listed, each once.
        auto images = (*project)->images().list({.limit = 0});
        if (!images) {
            result.error = QString::fromStdString(images.message());
            return result;
        }
        std::map<std::string, qint64> idOf;
        for (const auto& image : *images)
            idOf[image.path] = image.id;
        std::set<qint64> seen;
        for (const auto& change : changes) {
            const auto found = idOf.find(change.first);
            if (found != idOf.end() && seen.insert(found->second).second)
                holder->imageIds.push_back(found->second);
        }
        return result;
    });
}

} // namespace osprey::ui
