#include "ui/train/run_curves_view.h"

#include "run/run_folder.h"
#include "ui/train/training_charts.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QSlider>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace osprey::ui {

namespace {

const QColor kText(0xd0, 0xd3, 0xd8), kGrid(0x3a, 0x3e, 0x45), kBackground(0x1b, 0x1d, 0x21);
const QColor kMean(0x3d, 0x8b, 0xfd), kChosen(0xff, 0x9f, 0x43);
/// Above this many classes the per-class lines are grey and left out of the legend (as Ultralytics does
/// above 20).
constexpr int kLegendClasses = 10;

/// The mean over rows, point by point.
std::vector<double> meanOf(const std::vector<std::vector<double>>& rows, size_t points) {
    std::vector<double> mean(points, 0.0);
    if (rows.empty())
        return mean;
    for (const auto& row : rows)
        for (size_t i = 0; i < points && i < row.size(); ++i)
            mean[i] += row[i];
    for (auto& value : mean)
        value /= static_cast<double>(rows.size());
    return mean;
}

/// `ys` at `x` on the increasing grid `xs`, linearly interpolated (clamped at the ends).
double at(const std::vector<double>& xs, const std::vector<double>& ys, double x) {
    if (xs.empty() || ys.size() != xs.size())
        return 0;
    if (x <= xs.front())
        return ys.front();
    if (x >= xs.back())
        return ys.back();
    const auto upper = static_cast<size_t>(std::upper_bound(xs.begin(), xs.end(), x) - xs.begin());
    const size_t lower = upper - 1;
    const double t = (x - xs[lower]) / (xs[upper] - xs[lower]);
    return ys[lower] + t * (ys[upper] - ys[lower]);
}

QCustomPlot* makePlot(QWidget* parent, const QString& title, const QString& xLabel, const QString& yLabel) {
    auto* plot = new QCustomPlot(parent);
    plot->setBackground(kBackground);
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setBasePen(QPen(kText));
        axis->setTickPen(QPen(kText));
        axis->setSubTickPen(QPen(kText));
        axis->setTickLabelColor(kText);
        axis->setLabelColor(kText);
        axis->grid()->setPen(QPen(kGrid, 1, Qt::DotLine));
        axis->setRange(0, 1);
    }
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->plotLayout()->insertRow(0);
    auto* heading = new QCPTextElement(plot, title, QFont(plot->font().family(), 10, QFont::Bold));
    heading->setTextColor(kText);
    plot->plotLayout()->addElement(0, 0, heading);
    plot->legend->setVisible(true);
    plot->legend->setBrush(QColor(0x23, 0x25, 0x2a, 200));
    plot->legend->setTextColor(kText);
    plot->legend->setBorderPen(QPen(kGrid));
    plot->legend->setFont(QFont(plot->font().family(), 8));
    plot->setMinimumSize(300, 240);
    return plot;
}

void addCurve(QCustomPlot* plot, const std::vector<double>& xs, const std::vector<double>& ys,
              const QPen& pen, const QString& name) {
    QCPGraph* graph = plot->addGraph();
    graph->setPen(pen);
    graph->setName(name);
    QVector<double> keys(xs.begin(), xs.end()), values(ys.begin(), ys.end());
    for (auto& value : values)
        if (!std::isfinite(value))
            value = 0;
    graph->setData(keys, values, true);
    if (name.isEmpty())
        graph->removeFromLegend();
}

} // namespace

RunCurvesView::RunCurvesView(QWidget* parent)
    : QWidget(parent), m_summary(new QLabel(this)),
      m_pr(makePlot(this, tr("Precision-Recall (IoU 0.5)"), tr("recall"), tr("precision"))),
      m_f1(makePlot(this, tr("F1 over confidence"), tr("confidence"), QStringLiteral("F1"))),
      m_slider(new QSlider(Qt::Horizontal, this)), m_choice(new QLabel(this)) {
    m_summary->setObjectName(QStringLiteral("curvesSummary"));
    m_summary->setWordWrap(true);
    m_slider->setObjectName(QStringLiteral("curvesConfidence"));
    m_slider->setRange(1, 99);
    m_slider->setToolTip(
        tr("A confidence threshold: the mean precision, recall and F1 over the classes there"));
    m_choice->setObjectName(QStringLiteral("curvesChoice"));
    auto* plots = new QHBoxLayout;
    plots->addWidget(m_pr, 1);
    plots->addWidget(m_f1, 1);
    auto* choice = new QHBoxLayout;
    choice->addWidget(new QLabel(tr("Confidence:"), this));
    choice->addWidget(m_slider, 1);
    choice->addWidget(m_choice);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_summary);
    layout->addLayout(plots, 1);
    layout->addLayout(choice);
    connect(m_slider, &QSlider::valueChanged, this, [this] { updateChoice(); });
    for (QCustomPlot* plot : {m_pr, m_f1})
        connect(plot, &QCustomPlot::mouseMove, this,
                [this, plot](QMouseEvent* event) { showHover(plot, event); });
    redraw();
}

void RunCurvesView::setRunDir(const QString& runDir) {
    const QString file = runDir.isEmpty()
                             ? QString()
                             : QString::fromStdString(run::RunFolder(runDir.toStdString()).curves().string());
    const QFileInfo info(file);
    const QDateTime modified = info.exists() ? info.lastModified() : QDateTime();
    if (file == m_file && modified == m_loadedAt)
        return;
    m_file = file;
    m_loadedAt = modified;
    load(file);
}

void RunCurvesView::load(const QString& file) {
    m_curves.reset();
    QString problem;
    if (!file.isEmpty() && QFileInfo::exists(file)) {
        if (auto read = run::readRunCurves(file.toStdString()))
            m_curves = std::move(read.value());
        else
            problem = QString::fromStdString(read.message());
    }
    if (m_curves)
        m_slider->setValue(std::clamp(static_cast<int>(std::lround(m_curves->bestConfidence * 100)), 1, 99));
    m_summary->setText(!problem.isEmpty() ? problem
                       : m_curves
                           ? tr("Best model, epoch %1: mean F1 %2 at confidence %3 over %4 classes with "
                                "labels (curves.json)")
                                 .arg(m_curves->epoch)
                                 .arg(m_curves->bestF1, 0, 'f', 3)
                                 .arg(m_curves->bestConfidence, 0, 'f', 3)
                                 .arg(m_curves->classes.size())
                           : tr("No curves yet: a run writes them (curves.json) when an epoch becomes the "
                                "best."));
    redraw();
}

void RunCurvesView::redraw() {
    for (QCustomPlot* plot : {m_pr, m_f1}) {
        plot->clearGraphs();
        plot->clearItems();
    }
    if (m_curves) {
        const auto& c = *m_curves;
        const size_t rows = c.classes.size();
        const bool named = rows <= static_cast<size_t>(kLegendClasses);
        double map50 = 0;
        for (size_t r = 0; r < rows; ++r) {
            // The mean is blue, the first run colour; the classes take the colours after it.
            const QColor color =
                named ? TrainingCharts::runColor(static_cast<int>(r) + 1) : QColor(0x80, 0x84, 0x8c);
            const auto id = static_cast<size_t>(c.classes[r]);
            const QString name =
                named && id < c.classNames.size() ? QString::fromStdString(c.classNames[id]) : QString();
            const double ap50 = c.ap[r].empty() ? 0.0 : c.ap[r].front();
            map50 += ap50;
            addCurve(m_pr, c.x, c.precisionAtRecall[r], QPen(color, 1),
                     name.isEmpty() ? name : QStringLiteral("%1 %2").arg(name).arg(ap50, 0, 'f', 3));
            addCurve(m_f1, c.x, c.f1[r], QPen(color, 1), name);
        }
        map50 /= std::max<size_t>(rows, 1);
        addCurve(m_pr, c.x, meanOf(c.precisionAtRecall, c.x.size()), QPen(kMean, 3),
                 tr("all classes %1 mAP50").arg(map50, 0, 'f', 3));
        addCurve(m_f1, c.x, meanOf(c.f1, c.x.size()), QPen(kMean, 3),
                 tr("all classes %1 at %2").arg(c.bestF1, 0, 'f', 2).arg(c.bestConfidence, 0, 'f', 3));
        auto* line = new QCPItemStraightLine(m_f1);
        line->setPen(QPen(kChosen, 1, Qt::DashLine));
        line->point1->setCoords(chosenConfidence(), 0);
        line->point2->setCoords(chosenConfidence(), 1);
    }
    for (QCustomPlot* plot : {m_pr, m_f1}) {
        plot->legend->setVisible(plot->graphCount() > 0);
        plot->replot();
    }
    updateChoice();
}

QString RunCurvesView::textAt(double confidence) const {
    if (!m_curves)
        return {};
    const auto& c = *m_curves;
    const size_t points = c.x.size();
    return tr("confidence %1: P %2, R %3, F1 %4")
        .arg(confidence, 0, 'f', 2)
        .arg(at(c.x, meanOf(c.precision, points), confidence), 0, 'f', 3)
        .arg(at(c.x, meanOf(c.recall, points), confidence), 0, 'f', 3)
        .arg(at(c.x, meanOf(c.f1, points), confidence), 0, 'f', 3);
}

double RunCurvesView::chosenConfidence() const {
    return m_slider->value() / 100.0;
}

void RunCurvesView::setChosenConfidence(double confidence) {
    m_slider->setValue(std::clamp(static_cast<int>(std::lround(confidence * 100)), 1, 99));
}

void RunCurvesView::updateChoice() {
    m_slider->setEnabled(m_curves.has_value());
    m_choice->setText(m_curves ? textAt(chosenConfidence()) : QString());
    if (m_f1->itemCount() > 0) {
        auto* line = static_cast<QCPItemStraightLine*>(m_f1->item(0));
        line->point1->setCoords(chosenConfidence(), 0);
        line->point2->setCoords(chosenConfidence(), 1);
        m_f1->replot(QCustomPlot::rpQueuedReplot);
    }
}

void RunCurvesView::showHover(QCustomPlot* plot, QMouseEvent* event) {
    if (!m_curves)
        return;
    const double x = std::clamp(plot->xAxis->pixelToCoord(event->position().x()), 0.0, 1.0);
    QString text;
    if (plot == m_f1) {
        text = textAt(x);
    } else {
        const auto& c = *m_curves;
        text = tr("recall %1: precision %2 (all classes)")
                   .arg(x, 0, 'f', 2)
                   .arg(at(c.x, meanOf(c.precisionAtRecall, c.x.size()), x), 0, 'f', 3);
    }
    QToolTip::showText(event->globalPosition().toPoint(), text, plot);
}

} // namespace osprey::ui
