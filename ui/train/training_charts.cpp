#include "ui/train/training_charts.h"

#include "run/run_files.h"
#include "ui/train/training_run_model.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QStackedLayout>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <qcustomplot.h>

namespace osprey::ui {

namespace {

const QColor kText(0xd0, 0xd3, 0xd8), kGrid(0x3a, 0x3e, 0x45), kBackground(0x1b, 0x1d, 0x21);
const QColor kBlue(0x3d, 0x8b, 0xfd), kOrange(0xff, 0x9f, 0x43), kGreen(0x2e, 0xb8, 0x72),
    kPurple(0xb3, 0x7d, 0xf0);

struct LineSpec {
    const char* column; ///< results.csv column
    const char* name;   ///< legend text (translated in context TrainingCharts)
    QColor color;
    bool dashed;
};

struct PlotSpec {
    const char* title;
    const char* axisLabel;
    bool loss; ///< follows the log-scale toggle
    QList<LineSpec> lines;
};

/// The plot of the third loss (DFL, or YOLO26's L1 box term) in plotSpecs().
constexpr int kThirdLossPlot = 2;

// The charts as data: one entry per plot, one line per results.csv column.
const QList<PlotSpec>& plotSpecs() {
    static const QList<PlotSpec> specs = {
        {QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "Box loss (CIoU)"),
         QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "loss"),
         true,
         {{"train/box_loss", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "train"), kBlue, false},
          {"val/box_loss", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "val"), kOrange, true}}},
        {QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "Class loss (BCE)"),
         QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "loss"),
         true,
         {{"train/cls_loss", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "train"), kBlue, false},
          {"val/cls_loss", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "val"), kOrange, true}}},
        {QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "DFL loss"),
         QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "loss"),
         true,
         {{"train/dfl_loss", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "train"), kBlue, false},
          {"val/dfl_loss", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "val"), kOrange, true}}},
        {QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "mAP (val)"),
         QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "mAP"),
         false,
         {{"metrics/mAP50(B)", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "mAP50"), kGreen, false},
          {"metrics/mAP50-95(B)", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "mAP50-95"), kPurple,
           false}}},
        {QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "Precision and recall (val)"),
         QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "fraction"),
         false,
         {{"metrics/precision(B)", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "precision"), kBlue,
           false},
          {"metrics/recall(B)", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "recall"), kOrange, false}}},
        {QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "Learning rate"),
         QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "learning rate"),
         false,
         {{"lr/pg0", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "pg0 weights"), kBlue, false},
          {"lr/pg1", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "pg1 BatchNorm"), kGreen, false},
          {"lr/pg2", QT_TRANSLATE_NOOP("osprey::ui::TrainingCharts", "pg2 biases"), kOrange, true}}},
    };
    return specs;
}

QString translated(const char* text) {
    return QCoreApplication::translate("osprey::ui::TrainingCharts", text);
}

void stylePlot(QCustomPlot* plot, const QString& title, const QString& axisLabel) {
    plot->setBackground(kBackground);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setBasePen(QPen(kText));
        axis->setTickPen(QPen(kText));
        axis->setSubTickPen(QPen(kText));
        axis->setTickLabelColor(kText);
        axis->setLabelColor(kText);
        axis->grid()->setPen(QPen(kGrid, 1, Qt::DotLine));
    }
    plot->xAxis->setLabel(QCoreApplication::translate("osprey::ui::TrainingCharts", "epoch"));
    plot->yAxis->setLabel(axisLabel);
    plot->plotLayout()->insertRow(0);
    auto* heading = new QCPTextElement(plot, title, QFont(plot->font().family(), 10, QFont::Bold));
    heading->setTextColor(kText);
    plot->plotLayout()->addElement(0, 0, heading);
    plot->legend->setVisible(true);
    plot->legend->setBrush(QColor(0x23, 0x25, 0x2a, 200));
    plot->legend->setTextColor(kText);
    plot->legend->setBorderPen(QPen(kGrid));
    plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot->setMinimumSize(260, 190);
    plot->setNoAntialiasingOnDrag(true);
}

} // namespace

TrainingCharts::TrainingCharts(QWidget* parent) : QWidget(parent), m_timer(new QTimer(this)) {
    m_logScale = new QCheckBox(tr("Logarithmic loss axes"), this);
    m_logScale->setToolTip(tr("Show the three loss charts on a log scale, which makes late, small "
                              "improvements visible."));
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setStyleSheet(QStringLiteral("color: #8a8f98; font-size: 13px;"));
    m_grid = new QWidget(this);
    auto* grid = new QGridLayout(m_grid);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    const auto& specs = plotSpecs();
    for (int i = 0; i < specs.size(); ++i) {
        auto* plot = new QCustomPlot(m_grid);
        stylePlot(plot, translated(specs[i].title), translated(specs[i].axisLabel));
        // Losses and the LR fall over a run, mAP, precision and recall rise: keep the legend where the
        // lines are not.
        if (qstrcmp(specs[i].axisLabel, "mAP") == 0 || qstrcmp(specs[i].axisLabel, "fraction") == 0)
            plot->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
        plot->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(plot, &QCustomPlot::customContextMenuRequested, this,
                [this, i](const QPoint& pos) { showContextMenu(i, pos); });
        connect(plot, &QCustomPlot::mouseMove, this,
                [this, plot](QMouseEvent* event) { showTooltip(plot, event); });
        connect(plot, &QCustomPlot::mousePress, this, [this, i](QMouseEvent* event) {
            if (event->button() != Qt::LeftButton)
                return;
            if (const int epoch = epochAt(i, event->pos()))
                emit epochClicked(epoch);
        });
        grid->addWidget(plot, i / 3, i % 3);
        m_plots.append(plot);
    }
    auto* stack = new QStackedLayout;
    stack->addWidget(m_empty);
    stack->addWidget(m_grid);
    m_runLegend = new QLabel(this);
    m_runLegend->setTextFormat(Qt::RichText);
    m_runLegend->setWordWrap(true);
    m_runLegend->hide();
    auto* top = new QHBoxLayout;
    top->addWidget(m_runLegend, 1);
    top->addWidget(m_logScale, 0, Qt::AlignRight | Qt::AlignVCenter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addLayout(stack, 1);
    connect(m_logScale, &QCheckBox::toggled, this, &TrainingCharts::setLogScale);
    // The throttle: events only mark the charts dirty; at most one replot per 100 ms.
    m_timer->setSingleShot(true);
    m_timer->setInterval(100);
    connect(m_timer, &QTimer::timeout, this, &TrainingCharts::refresh);
    rebuildGraphs();
    refresh();
}

QColor TrainingCharts::runColor(int index) {
    static const QColor colors[] = {kBlue,
                                    kOrange,
                                    kGreen,
                                    kPurple,
                                    QColor(0xff, 0x5c, 0x7a),
                                    QColor(0x2b, 0xc4, 0xd0),
                                    QColor(0xe8, 0xd4, 0x4d),
                                    QColor(0xa0, 0xa6, 0xb0)};
    return colors[index % int(std::size(colors))];
}

void TrainingCharts::watch(TrainingRunModel* model) {
    connect(model, &TrainingRunModel::changed, this, &TrainingCharts::markDirty);
    connect(model, &QObject::destroyed, this, [this, model] {
        QList<ChartRun> left;
        for (const ChartRun& run : std::as_const(m_runs))
            if (run.model != model)
                left.append(run);
        if (!m_comparing || left.size() < 2)
            setModel(left.size() == 1 ? left.first().model : nullptr);
        else
            setRuns(left);
    });
}

void TrainingCharts::setModel(TrainingRunModel* model) {
    assignRuns(model ? QList<ChartRun>{{QString(), model}} : QList<ChartRun>{}, false);
}

void TrainingCharts::setRuns(const QList<ChartRun>& runs) {
    assignRuns(runs, true);
}

void TrainingCharts::assignRuns(const QList<ChartRun>& runs, bool comparing) {
    for (const ChartRun& run : std::as_const(m_runs))
        disconnect(run.model, nullptr, this, nullptr);
    m_runs.clear();
    for (const ChartRun& run : runs)
        if (run.model)
            m_runs.append(run);
    m_model = m_runs.isEmpty() ? nullptr : m_runs.first().model;
    for (const ChartRun& run : std::as_const(m_runs))
        watch(run.model);
    m_comparing = comparing;
    QString legend;
    for (int r = 0; r < m_runs.size(); ++r)
        legend += QStringLiteral("<span style='color:%1; font-size:15px;'>&#9632;</span>&nbsp;<b>%2</b>"
                                 "&nbsp;&nbsp;&nbsp;&nbsp;")
                      .arg(runColor(r).name(), m_runs[r].name.toHtmlEscaped());
    m_runLegend->setText(legend);
    m_runLegend->setVisible(m_comparing);
    rebuildGraphs();
    refresh();
}

void TrainingCharts::rebuildGraphs() {
    static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine};
    m_graphs.clear();
    const auto& specs = plotSpecs();
    const int runs = m_comparing ? int(m_runs.size()) : 1;
    for (int i = 0; i < m_plots.size(); ++i) {
        QCustomPlot* plot = m_plots[i];
        plot->clearGraphs();
        for (int r = 0; r < runs; ++r) {
            for (int l = 0; l < specs[i].lines.size(); ++l) {
                const LineSpec& line = specs[i].lines[l];
                QCPGraph* graph = plot->addGraph();
                if (m_comparing) {
                    graph->setName(QStringLiteral("%1 · %2").arg(m_runs[r].name, translated(line.name)));
                    graph->setPen(QPen(runColor(r), 2, styles[l % 3]));
                } else {
                    graph->setName(translated(line.name));
                    graph->setPen(QPen(line.color, 2, line.dashed ? Qt::DashLine : Qt::SolidLine));
                }
                m_graphs.append({r, QString::fromLatin1(line.column), graph});
            }
        }
        // Many lines would hide the chart behind its legend; in a comparison it becomes compact.
        plot->legend->setFont(QFont(plot->font().family(), m_comparing ? 7 : 8));
        plot->legend->setRowSpacing(m_comparing ? -2 : 0);
    }
}

void TrainingCharts::markDirty() {
    m_dirty = true;
    if (!m_timer->isActive())
        m_timer->start();
}

QCPGraph* TrainingCharts::graph(const QString& column, int run) const {
    for (const Binding& binding : m_graphs)
        if (binding.run == run && binding.column == column)
            return binding.graph;
    return nullptr;
}

void TrainingCharts::refresh() {
    m_dirty = false;
    auto* stack = static_cast<QStackedLayout*>(static_cast<QVBoxLayout*>(layout())->itemAt(1)->layout());
    bool hasData = false, anyStarted = false;
    qsizetype mostPoints = 0;
    double lastEpoch = 0;
    for (const ChartRun& run : std::as_const(m_runs)) {
        const QVector<double>& x = run.model->epochs();
        anyStarted = anyStarted || run.model->status() != TrainingRunModel::Status::Empty;
        if (x.isEmpty())
            continue;
        hasData = true;
        mostPoints = std::max(mostPoints, x.size());
        // A live run's axis spans all its planned epochs; a comparison spans what the runs reached.
        lastEpoch = std::max({lastEpoch, x.last(), m_comparing ? 0.0 : double(run.model->progress().epochs)});
    }
    if (!hasData) {
        if (m_comparing && anyStarted)
            m_empty->setText(tr("None of the selected runs has finished an epoch yet."));
        else if (!m_model || m_model->status() == TrainingRunModel::Status::Empty)
            m_empty->setText(tr("No run to show.\nStart a training run, or open a past run from the runs "
                                "table."));
        else
            m_empty->setText(tr("Training epoch %1 of %2.\nThe charts appear after the first validation.")
                                 .arg(std::max(1, m_model->progress().epoch))
                                 .arg(m_model->progress().epochs));
        stack->setCurrentWidget(m_empty);
        return;
    }
    stack->setCurrentWidget(m_grid);
    // YOLO26 logs its L1 box term where YOLOv8 and YOLO11 log the DFL (Ultralytics' l1_loss column).
    qsizetype endToEnd = 0;
    for (const ChartRun& run : std::as_const(m_runs))
        endToEnd += qstrcmp(run::thirdLossName(run.model->modelName().toStdString()), "l1") == 0;
    const QString thirdLoss = endToEnd == 0               ? translated(plotSpecs()[kThirdLossPlot].title)
                              : endToEnd == m_runs.size() ? tr("L1 box loss")
                                                          : tr("DFL / L1 box loss");
    if (auto* heading = qobject_cast<QCPTextElement*>(m_plots[kThirdLossPlot]->plotLayout()->element(0, 0));
        heading && heading->text() != thirdLoss) {
        heading->setText(thirdLoss);
    }
    for (const Binding& binding : std::as_const(m_graphs)) {
        if (binding.run >= m_runs.size()) {
            binding.graph->data()->clear();
            continue;
        }
        const TrainingRunModel* model = m_runs[binding.run].model;
        // An old results.csv may lack a column: that chart line stays empty.
        const QVector<double> y = model->series(binding.column);
        if (!model->epochs().isEmpty() && y.size() == model->epochs().size())
            binding.graph->setData(model->epochs(), y, true);
        else
            binding.graph->data()->clear();
    }
    const auto& specs = plotSpecs();
    for (int i = 0; i < m_plots.size(); ++i) {
        QCustomPlot* plot = m_plots[i];
        plot->xAxis->setRange(0, std::max(2.0, lastEpoch));
        bool found = false;
        QCPRange range;
        const bool fraction =
            qstrcmp(specs[i].axisLabel, "mAP") == 0 || qstrcmp(specs[i].axisLabel, "fraction") == 0;
        // Markers make the first few epochs visible; on long runs they would only clutter the lines.
        const QCPScatterStyle marker(mostPoints <= 40 ? QCPScatterStyle::ssDisc : QCPScatterStyle::ssNone, 5);
        for (int g = 0; g < plot->graphCount(); ++g)
            plot->graph(g)->setScatterStyle(marker);
        const QCP::SignDomain domain = logScale() && specs[i].loss ? QCP::sdPositive : QCP::sdBoth;
        for (int g = 0; g < plot->graphCount(); ++g) {
            bool ok = false;
            const QCPRange one = plot->graph(g)->getValueRange(ok, domain);
            if (!ok)
                continue;
            range =
                found ? QCPRange(std::min(range.lower, one.lower), std::max(range.upper, one.upper)) : one;
            found = true;
        }
        if (!found)
            continue;
        if (logScale() && specs[i].loss) {
            plot->yAxis->setRange(range.lower / 1.2, range.upper * 1.2);
        } else if (fraction) {
            // mAP, precision and recall live in 0..1; near zero early on, a tiny span would look noisy.
            plot->yAxis->setRange(0.0, std::clamp(range.upper * 1.1, 0.1, 1.05));
        } else {
            const double pad = std::max(1e-6, (range.upper - std::min(0.0, range.lower)) * 0.05);
            plot->yAxis->setRange(std::min(0.0, range.lower), range.upper + pad);
        }
        plot->replot();
    }
    ++m_replots;
}

void TrainingCharts::setLogScale(bool logScale) {
    if (m_logScale->isChecked() != logScale)
        m_logScale->setChecked(logScale);
    const auto& specs = plotSpecs();
    for (int i = 0; i < m_plots.size(); ++i) {
        if (!specs[i].loss)
            continue;
        QCPAxis* axis = m_plots[i]->yAxis;
        axis->setScaleType(logScale ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        if (logScale)
            axis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        else
            axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    refresh();
}

bool TrainingCharts::logScale() const {
    return m_logScale->isChecked();
}

QString TrainingCharts::tooltipText(int plotIndex, double epoch) const {
    if (plotIndex < 0 || plotIndex >= m_plots.size())
        return {};
    // The nearest epoch any shown run has; then every line's value at exactly that epoch.
    double nearest = 0;
    bool found = false;
    for (const ChartRun& run : m_runs)
        for (double x : run.model->epochs())
            if (!found || std::abs(x - epoch) < std::abs(nearest - epoch)) {
                nearest = x;
                found = true;
            }
    if (!found)
        return {};
    QCustomPlot* plot = m_plots[plotIndex];
    QString text = tr("epoch %1").arg(nearest);
    for (int g = 0; g < plot->graphCount(); ++g) {
        const auto data = plot->graph(g)->data();
        const auto it = data->findBegin(nearest, false);
        if (it != data->constEnd() && it->key == nearest)
            text += QStringLiteral("\n%1: %2").arg(plot->graph(g)->name()).arg(it->value, 0, 'g', 5);
    }
    return text;
}

void TrainingCharts::showTooltip(QCustomPlot* plot, QMouseEvent* event) {
    const QString text =
        tooltipText(int(m_plots.indexOf(plot)), plot->xAxis->pixelToCoord(event->position().x()));
    if (!text.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), text, plot);
}

bool TrainingCharts::exportPng(int plotIndex, const QString& path) const {
    if (plotIndex < 0 || plotIndex >= m_plots.size())
        return false;
    return m_plots[plotIndex]->savePng(path, 0, 0, 2.0);
}

int TrainingCharts::epochAt(int plotIndex, const QPoint& pos) const {
    if (m_comparing || !m_model || plotIndex < 0 || plotIndex >= m_plots.size())
        return 0;
    const QCustomPlot* plot = m_plots[plotIndex];
    double nearest = 0, nearestPx = 1e9;
    for (const double epoch : m_model->epochs()) {
        const double distance = std::abs(plot->xAxis->coordToPixel(epoch) - pos.x());
        if (distance < nearestPx) {
            nearestPx = distance;
            nearest = epoch;
        }
    }
    return nearestPx <= 12 ? static_cast<int>(std::lround(nearest)) : 0;
}

void TrainingCharts::showContextMenu(int plotIndex, const QPoint& pos) {
    QMenu menu(this);
    QAction* worstAction = nullptr;
    QAction* matrixAction = nullptr;
    if (const int epoch = epochAt(plotIndex, pos)) {
        worstAction = menu.addAction(tr("Worst Images at Epoch %1").arg(epoch));
        matrixAction = menu.addAction(tr("Confusion Matrix at Epoch %1").arg(epoch));
    }
    QAction* exportAction = menu.addAction(tr("Export Chart as PNG…"));
    QAction* chosen = menu.exec(m_plots[plotIndex]->mapToGlobal(pos));
    if (chosen && chosen == worstAction) {
        emit epochClicked(epochAt(plotIndex, pos));
        return;
    }
    if (chosen && chosen == matrixAction) {
        emit confusionMatrixRequested(epochAt(plotIndex, pos));
        return;
    }
    if (chosen != exportAction)
        return;
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Chart"), QString(), tr("PNG image (*.png)"));
    if (!path.isEmpty() && !exportPng(plotIndex, path))
        QToolTip::showText(QCursor::pos(), tr("Could not write %1.").arg(path), this);
}

} // namespace osprey::ui
