#include "ui/train/runs_table.h"

#include "quality/dataset_snapshot.h"
#include "run/run_files.h"
#include "ui/project/project_document.h"
#include "ui/train/training_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <ctime>

namespace osprey::ui {

namespace {

QTableWidgetItem* item(const QString& text, const QVariant& sortValue = {}) {
    auto* cell = new QTableWidgetItem(text);
    cell->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    if (sortValue.isValid())
        cell->setData(Qt::UserRole, sortValue);
    return cell;
}

} // namespace

QString RunsTable::statusName(project::RunStatus status) {
    switch (status) {
    case project::RunStatus::Running:
        return tr("running");
    case project::RunStatus::Finished:
        return tr("finished");
    case project::RunStatus::Stopped:
        return tr("stopped");
    case project::RunStatus::Failed:
        return tr("failed");
    }
    return {};
}

RunsTable::RunsTable(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_table(new QTableWidget(0, ColumnCount, this)) {
    m_table->setHorizontalHeaderLabels({tr("Run"), tr("Status"), tr("Model"), tr("Epochs"),
                                        tr("Best mAP50-95"), tr("Dataset"), tr("Duration")});
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setToolTip(tr("Select one run to see its charts, or several (Ctrl+click) to compare them."));
    m_empty = new QLabel(tr("No runs yet in this project."), this);
    m_empty->setStyleSheet(QStringLiteral("color: #8a8f98;"));
    m_open = new QPushButton(tr("Show Charts"), this);
    m_open->setObjectName(QStringLiteral("showCharts"));
    m_open->setToolTip(tr("Show the selected run's charts (double-click a row does the same); with several "
                          "runs selected, overlay their charts."));
    m_resume = new QPushButton(tr("Resume"), this);
    m_resume->setObjectName(QStringLiteral("resumeRun"));
    m_resume->setToolTip(tr("Continue the selected stopped run from its last.pt."));
    m_retrain = new QPushButton(tr("Retrain"), this);
    m_retrain->setObjectName(QStringLiteral("retrainRun"));
    m_retrain->setToolTip(tr("Fine-tune the selected run's best.pt on the project as it is now (with the "
                             "images labelled since), with the run's own settings, as a new run."));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_resume);
    buttons->addWidget(m_retrain);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("<b>Runs</b>"), this));
    layout->addWidget(m_table, 1);
    layout->addWidget(m_empty);
    layout->addLayout(buttons);

    connect(m_open, &QPushButton::clicked, this, [this] { emit openRequested(selectedRuns()); });
    connect(m_resume, &QPushButton::clicked, this, [this] { emit resumeRequested(selectedRun()); });
    connect(m_retrain, &QPushButton::clicked, this, [this] { emit retrainRequested(selectedRun()); });
    connect(m_table, &QTableWidget::cellDoubleClicked, this,
            [this](int row) { emit openRequested({m_table->item(row, ColumnName)->text()}); });
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &RunsTable::updateButtons);
    reload();
}

void RunsTable::setTraining(bool training) {
    m_training = training;
    updateButtons();
}

void RunsTable::reload() {
    auto runs = m_document->project().runs().list();
    m_table->setRowCount(0);
    if (!runs) {
        m_empty->setText(tr("Cannot read the runs table: %1").arg(QString::fromStdString(runs.message())));
        m_empty->show();
        return;
    }
    const auto& records = runs.value();
    m_table->setRowCount(int(records.size()));
    for (int row = 0; row < int(records.size()); ++row) {
        const project::RunRecord& run = records[size_t(row)];
        auto config = run::readRunConfigJson(run.config); // core/run's one reader of the config JSON
        const std::int64_t end = run.finishedAt.value_or(std::time(nullptr));
        m_table->setItem(row, ColumnName, item(QString::fromStdString(run.name)));
        m_table->setItem(row, ColumnStatus, item(statusName(run.status)));
        m_table->setItem(row, ColumnModel, item(QString::fromStdString(config["model"])));
        m_table->setItem(row, ColumnEpochs, item(QString::fromStdString(config["epochs"])));
        m_table->setItem(
            row, ColumnBest,
            item(run.bestFitness
                     ? tr("%1 (epoch %2)").arg(*run.bestFitness, 0, 'f', 4).arg(run.bestEpoch.value_or(0))
                     : tr("–"),
                 run.bestFitness.value_or(-1.0)));
        const std::string snapshot = config[run::kSnapshotConfigKey];
        auto* data = item(snapshot.empty() ? tr("–") : QString::fromStdString(quality::shortHash(snapshot)));
        data->setToolTip(QString::fromStdString(snapshot));
        m_table->setItem(row, ColumnSnapshot, data);
        m_table->setItem(row, ColumnDuration,
                         item(TrainingView::formatDuration(double(end - run.startedAt))));
    }
    m_empty->setVisible(records.empty());
    updateButtons();
}

QString RunsTable::selectedRun() const {
    const QStringList names = selectedRuns();
    return names.isEmpty() ? QString() : names.first();
}

QStringList RunsTable::selectedRuns() const {
    QList<int> rows;
    for (const QModelIndex& index : m_table->selectionModel()->selectedRows())
        rows.append(index.row());
    std::sort(rows.begin(), rows.end());
    QStringList names;
    for (int row : rows)
        names.append(m_table->item(row, ColumnName)->text());
    return names;
}

void RunsTable::updateButtons() {
    const auto rows = m_table->selectionModel()->selectedRows();
    m_open->setEnabled(!rows.isEmpty());
    m_open->setText(rows.size() > 1 ? tr("Compare %1 Runs").arg(rows.size()) : tr("Show Charts"));
    const bool stopped = rows.size() == 1 && m_table->item(rows.first().row(), ColumnStatus)->text() ==
                                                 statusName(project::RunStatus::Stopped);
    m_resume->setEnabled(stopped && !m_training);
    m_retrain->setEnabled(rows.size() == 1 && !m_training);
}

} // namespace osprey::ui
