#include "ui/train/training_view.h"

#include "ui/train/remote_status_widget.h"
#include "ui/train/run_curves_view.h"
#include "ui/train/run_plots_view.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"

#include "planner/run_estimate.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace osprey::ui {

TrainingView::TrainingView(QWidget* parent) : QWidget(parent), m_timer(new QTimer(this)) {
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_remote = new RemoteStatusWidget(this);
    m_progress = new QProgressBar(this);
    m_progress->setTextVisible(true);
    m_progressLabel = new QLabel(this);
    m_progressLabel->setStyleSheet(QStringLiteral("color: #b0b4bb;"));
    m_charts = new TrainingCharts(this);
    m_curves = new RunCurvesView(this);
    m_plots = new RunPlotsView(this);
    m_system = new QLabel(this);
    m_system->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_system->setTextFormat(Qt::RichText);
    m_system->setMargin(12);
    m_console = new QPlainTextEdit(this);
    m_console->setReadOnly(true);
    m_console->setMaximumBlockCount(TrainingRunModel::kMaxLogLines);
    m_console->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_charts, tr("Charts"));
    m_tabs->addTab(m_curves, tr("Curves"));
    m_tabs->addTab(m_plots, tr("Plots"));
    m_tabs->addTab(m_system, tr("System"));
    m_tabs->addTab(m_console, tr("Console"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_status);
    layout->addWidget(m_remote);
    layout->addWidget(m_progress);
    layout->addWidget(m_progressLabel);
    layout->addWidget(m_tabs, 1);
    m_timer->setSingleShot(true);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, &TrainingView::refresh);
    refresh();
}

void TrainingView::setModel(TrainingRunModel* model) {
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = model;
    m_comparing = false;
    m_comparedNames.clear();
    m_charts->setModel(model);
    m_console->clear();
    m_logShown = 0;
    if (m_model) {
        connect(m_model, &TrainingRunModel::changed, this, &TrainingView::markDirty);
        connect(m_model, &QObject::destroyed, this, [this] { setModel(nullptr); });
    }
    refresh();
}

void TrainingView::setComparison(const QList<ChartRun>& runs) {
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_model = nullptr;
    m_comparing = true;
    m_comparedNames.clear();
    for (const ChartRun& run : runs)
        m_comparedNames.append(run.name);
    m_charts->setRuns(runs);
    m_console->clear();
    m_logShown = 0;
    m_tabs->setCurrentWidget(m_charts);
    refresh();
}

void TrainingView::markDirty() {
    if (!m_timer->isActive())
        m_timer->start();
}

QString TrainingView::formatDuration(double seconds) {
    if (!(seconds >= 0) || !std::isfinite(seconds))
        return QStringLiteral("–");
    const qint64 s = qint64(std::llround(seconds));
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(s / 3600)
            .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString TrainingView::progressText() const {
    if (!m_model || m_model->status() == TrainingRunModel::Status::Empty)
        return {};
    const auto& p = m_model->progress();
    QString text = tr("epoch %1/%2").arg(p.epoch).arg(p.epochs);
    if (p.batches > 0)
        text += tr(" · batch %1/%2").arg(p.batch).arg(p.batches);
    if (p.imagesPerS > 0)
        text += tr(" · %1 images/s").arg(p.imagesPerS, 0, 'f', 1) + ranksText(p.rankImagesPerS);
    text += tr(" · elapsed %1").arg(formatDuration(p.elapsedS));
    if (m_model->status() == TrainingRunModel::Status::Running && p.etaS >= 0)
        text += tr(" · ETA %1").arg(formatDuration(p.etaS));
    return text;
}

QString TrainingView::ranksText(const QVector<double>& speeds) {
    if (speeds.size() < 2)
        return {};
    const auto figure = [](double speed) { return QString::number(speed, 'f', 1); };
    if (speeds.size() <= 4) {
        QStringList parts;
        for (const double speed : speeds)
            parts.append(figure(speed));
        return tr(" (%1 ranks: %2)").arg(speeds.size()).arg(parts.join(QStringLiteral(" + ")));
    }
    const auto [low, high] = std::minmax_element(speeds.begin(), speeds.end());
    return tr(" (%1 ranks: %2–%3 each)").arg(speeds.size()).arg(figure(*low), figure(*high));
}

QString TrainingView::estimateText() const {
    if (!m_model || m_model->runDir().isEmpty())
        return {};
    const double tookS = m_model->progress().elapsedS;
    const QString key = m_model->runDir() + QLatin1Char('|') + QString::number(tookS);
    if (key == m_estimateKey)
        return m_estimateLine;
    m_estimateKey = key;
    m_estimateLine.clear();
    // A few hundred bytes, read once per run and duration shown.
    const auto estimate = planner::readRunEstimate(m_model->runDir().toStdString());
    if (!estimate || !estimate->has_value())
        return m_estimateLine;
    const auto& e = **estimate;
    if (!e.estimated) {
        m_estimateLine = tr(" Planner: no estimate for this run (this machine was not calibrated for it).");
        return m_estimateLine;
    }
    const double error = planner::estimateErrorPercent(e, tookS);
    m_estimateLine =
        tr(" Planner: estimated %1 (%2–%3), took %4 (%5 %).")
            .arg(formatDuration(e.midS), formatDuration(e.lowS), formatDuration(e.highS),
                 formatDuration(tookS))
            .arg(error >= 0 ? QStringLiteral("+%1").arg(error, 0, 'f', 0) : QString::number(error, 'f', 0));
    return m_estimateLine;
}

QString TrainingView::statusText() const {
    if (m_comparing)
        return tr("Comparing runs: %1.").arg(m_comparedNames.join(QStringLiteral(", ")));
    if (!m_model)
        return tr("No run selected.");
    // A best of 0 (nothing detected yet in the first epochs) says nothing worth a line.
    const QString best = m_model->bestEpoch() > 0 && m_model->bestFitness() > 0
                             ? tr(" Best mAP50-95 %1 at epoch %2.")
                                   .arg(m_model->bestFitness(), 0, 'f', 4)
                                   .arg(m_model->bestEpoch())
                             : QString();
    const QString model =
        m_model->modelName().isEmpty() ? QString() : m_model->modelName() + QStringLiteral(": ");
    switch (m_model->status()) {
    case TrainingRunModel::Status::Empty:
        return tr("No run selected.");
    case TrainingRunModel::Status::Running:
        return model + tr("Training.") + best;
    case TrainingRunModel::Status::Finished:
        return model + tr("Finished.") + best + estimateText();
    case TrainingRunModel::Status::EarlyStopped:
        return model + tr("Stopped early: no improvement within the patience.") + best + estimateText();
    case TrainingRunModel::Status::Stopped:
        return model + tr("Stopped; weights were saved and the run can be resumed.") + best;
    case TrainingRunModel::Status::Failed:
        return model + tr("Failed: %1").arg(m_model->statusMessage());
    case TrainingRunModel::Status::Crashed:
        return model + tr("The trainer crashed: %1").arg(m_model->statusMessage());
    }
    return {};
}

QString TrainingView::systemText() const {
    if (m_comparing)
        return tr("System metrics are shown for one run at a time: open a single run.");
    if (!m_model || !m_model->system().valid)
        return tr("No system samples yet. The trainer reports GPU, CPU and memory every 2 seconds.");
    const auto& s = m_model->system();
    QString html = QStringLiteral("<table cellspacing='6'>");
    const auto row = [&html](const QString& name, const QString& value) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                    .arg(name.toHtmlEscaped(), value.toHtmlEscaped());
    };
    if (s.hasGpu) {
        row(tr("GPU"), s.gpuName);
        row(tr("GPU utilisation"), tr("%1 %").arg(s.gpuUtilPercent, 0, 'f', 0));
        row(tr("GPU memory"),
            tr("%1 / %2 MB").arg(s.gpuMemUsedMb, 0, 'f', 0).arg(s.gpuMemTotalMb, 0, 'f', 0));
        row(tr("GPU temperature"), tr("%1 °C").arg(s.gpuTempC, 0, 'f', 0));
    } else {
        row(tr("GPU"), tr("no NVIDIA GPU found (training on the CPU)"));
    }
    row(tr("CPU load"), tr("%1 %").arg(s.cpuPercent, 0, 'f', 0));
    row(tr("RAM"), tr("%1 / %2 MB").arg(s.ramUsedMb, 0, 'f', 0).arg(s.ramTotalMb, 0, 'f', 0));
    row(tr("Trainer memory"), tr("%1 MB").arg(s.processRssMb, 0, 'f', 0));
    // Data parallel: the ranks' throughput, one row each (rank 0 reports the system samples).
    const auto& speeds = m_model->progress().rankImagesPerS;
    if (speeds.size() > 1) {
        row(tr("Data parallel"), tr("%1 ranks, %2 images/s in total")
                                     .arg(speeds.size())
                                     .arg(m_model->progress().imagesPerS, 0, 'f', 1));
        for (qsizetype rank = 0; rank < speeds.size(); ++rank)
            row(tr("Rank %1").arg(rank), tr("%1 images/s").arg(speeds[rank], 0, 'f', 1));
    }
    return html + QStringLiteral("</table>");
}

void TrainingView::refresh() {
    m_status->setText(statusText());
    m_curves->setRunDir(m_model && !m_comparing ? m_model->runDir() : QString());
    m_plots->setRunDir(m_model && !m_comparing ? m_model->runDir() : QString());
    const bool failed = m_model && (m_model->status() == TrainingRunModel::Status::Failed ||
                                    m_model->status() == TrainingRunModel::Status::Crashed);
    m_status->setStyleSheet(failed ? QStringLiteral("color: #ff6b6b; font-weight: bold;")
                                   : QStringLiteral("font-weight: bold;"));
    m_remote->setState(m_model ? m_model->remote() : TrainingRunModel::RemoteState{});
    m_progress->setVisible(!m_comparing);
    m_progressLabel->setVisible(!m_comparing);
    m_console->setPlaceholderText(m_comparing ? tr("Open a single run to see its log.")
                                              : tr("The trainer's log appears here."));
    if (m_model && m_model->progress().epochs > 0) {
        const auto& p = m_model->progress();
        const int batches = std::max(1, p.batches);
        const int done = std::max(0, p.epoch - 1) * batches + std::min(p.batch, batches);
        m_progress->setRange(0, p.epochs * batches);
        m_progress->setValue(p.completedEpochs >= p.epoch ? p.epoch * batches : done);
        m_progress->setFormat(tr("%p% (epoch %1 of %2)").arg(p.epoch).arg(p.epochs));
    } else {
        m_progress->setRange(0, 1);
        m_progress->setValue(0);
        m_progress->setFormat(tr("no run"));
    }
    m_progressLabel->setText(progressText());
    m_system->setText(systemText());
    if (m_model && m_model->logTotal() > m_logShown) {
        const qint64 fresh = std::min<qint64>(m_model->logTotal() - m_logShown, m_model->logLines().size());
        const QStringList& lines = m_model->logLines();
        QScrollBar* bar = m_console->verticalScrollBar();
        const bool atBottom = bar->value() == bar->maximum();
        m_console->appendPlainText(lines.mid(lines.size() - fresh).join(QLatin1Char('\n')));
        if (atBottom)
            bar->setValue(bar->maximum());
        m_logShown = m_model->logTotal();
    }
}

} // namespace osprey::ui
