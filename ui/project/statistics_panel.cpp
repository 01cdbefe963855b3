#include "ui/project/statistics_panel.h"

#include "quality/dataset_stats.h"
#include "ui/common/background_task.h"
#include "ui/project/project_document.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>
#include <memory>
#include <qcustomplot.h>

Q_DECLARE_METATYPE(std::shared_ptr<osprey::quality::DatasetStats>)

namespace osprey::ui {

namespace {

// Dark-theme styling shared by the three plots.
void stylePlot(QCustomPlot* plot, const QString& title) {
    const QColor text(0xd0, 0xd3, 0xd8), grid(0x3a, 0x3e, 0x45);
    plot->setBackground(QColor(0x1b, 0x1d, 0x21));
    for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
        axis->setBasePen(QPen(text));
        axis->setTickPen(QPen(text));
        axis->setSubTickPen(QPen(text));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    }
    plot->plotLayout()->insertRow(0);
    auto* heading = new QCPTextElement(plot, title, QFont(plot->font().family(), 10, QFont::Bold));
    heading->setTextColor(text);
    plot->plotLayout()->addElement(0, 0, heading);
    plot->legend->setBrush(QColor(0x23, 0x25, 0x2a, 220));
    plot->legend->setTextColor(text);
    plot->legend->setBorderPen(QPen(grid));
    plot->setMinimumHeight(200);
}

const QColor kSplitColors[] = {QColor(0x3d, 0x8b, 0xfd), QColor(0xff, 0x9f, 0x43), QColor(0x2e, 0xb8, 0x72),
                               QColor(0x8a, 0x8f, 0x98)};

} // namespace

StatisticsPanel::StatisticsPanel(ProjectDocument* document, QWidget* parent)
    : QWidget(parent), m_document(document), m_task(new BackgroundTask(this)) {
    qRegisterMetaType<std::shared_ptr<quality::DatasetStats>>();
    m_summary = new QLabel(this);
    m_summary->setWordWrap(true);
    m_refresh = new QPushButton(tr("Refresh"), this);
    m_classPlot = new QCustomPlot(this);
    m_sizePlot = new QCustomPlot(this);
    m_perImagePlot = new QCustomPlot(this);
    m_layoutPlot = new QCustomPlot(this);
    m_centrePlot = new QCustomPlot(this);
    m_shapePlot = new QCustomPlot(this);
    stylePlot(m_classPlot, tr("Boxes per class"));
    stylePlot(m_sizePlot, tr("Box size relative to the image"));
    stylePlot(m_perImagePlot, tr("Boxes per image"));
    stylePlot(m_layoutPlot, tr("Box shapes (centred)"));
    stylePlot(m_centrePlot, tr("Box centres in the image"));
    stylePlot(m_shapePlot, tr("Box width and height"));
    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_refresh);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_classPlot, 1);
    layout->addWidget(m_sizePlot, 1);
    layout->addWidget(m_perImagePlot, 1);
    auto* maps = new QHBoxLayout;
    maps->addWidget(m_layoutPlot, 1);
    maps->addWidget(m_centrePlot, 1);
    maps->addWidget(m_shapePlot, 1);
    layout->addLayout(maps, 1);
    connect(m_refresh, &QPushButton::clicked, this, &StatisticsPanel::refresh);
    connect(m_task, &BackgroundTask::finished, this, &StatisticsPanel::onFinished);
    connect(document, &ProjectDocument::imagesReset, this, &StatisticsPanel::refresh);
    refresh();
}

bool StatisticsPanel::isBusy() const {
    return m_task->isRunning();
}

void StatisticsPanel::refresh() {
    if (m_task->isRunning())
        return;
    m_refresh->setEnabled(false);
    m_summary->setText(tr("Computing statistics…"));
    const std::string folder = m_document->folder().toStdString();
    m_task->start([folder](TaskContext&) {
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{{}, QString::fromStdString(project.message())};
        auto stats = quality::projectStats(**project, 20);
        if (!stats)
            return TaskResult{{}, QString::fromStdString(stats.message())};
        return TaskResult{
            QVariant::fromValue(std::make_shared<quality::DatasetStats>(std::move(stats.value()))), {}};
    });
}

void StatisticsPanel::onFinished(const TaskResult& result) {
    m_refresh->setEnabled(true);
    if (!result.ok()) {
        m_summary->setText(tr("Cannot compute statistics: %1").arg(result.error));
        return;
    }
    if (const auto stats = result.value.value<std::shared_ptr<quality::DatasetStats>>())
        plot(*stats);
}

void StatisticsPanel::plot(const quality::DatasetStats& stats) {
    m_summary->setText(
        tr("%1 images (%2 labeled, %3 verified empty, %4 not labeled yet), %5 boxes, %6 classes")
            .arg(stats.images)
            .arg(stats.labeled)
            .arg(stats.verifiedEmpty)
            .arg(stats.unlabeled)
            .arg(stats.boxes)
            .arg(stats.classes.size()));
    // Boxes per class, stacked by split.
    m_classPlot->clearPlottables();
    QVector<double> ticks;
    QVector<QString> labels;
    for (size_t c = 0; c < stats.classes.size(); ++c) {
        ticks << static_cast<double>(c + 1);
        labels << QString::fromStdString(stats.classes[c].name);
    }
    const QString splitNames[] = {tr("train"), tr("val"), tr("test"), tr("none")};
    QCPBars* below = nullptr;
    for (int split = 0; split < quality::kSplitCount; ++split) {
        QVector<double> values;
        bool any = false;
        for (const auto& cls : stats.classes) {
            values << static_cast<double>(cls.boxesBySplit[static_cast<size_t>(split)]);
            any = any || values.back() > 0;
        }
        if (!any)
            continue;
        auto* bars = new QCPBars(m_classPlot->xAxis, m_classPlot->yAxis);
        bars->setName(splitNames[split]);
        bars->setData(ticks, values);
        bars->setBrush(kSplitColors[split]);
        bars->setPen(Qt::NoPen);
        bars->setWidth(0.7);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    ticker->addTicks(ticks, labels);
    m_classPlot->xAxis->setTicker(ticker);
    m_classPlot->xAxis->setTickLabelRotation(labels.size() > 8 ? 45 : 0);
    m_classPlot->xAxis->setRange(0.3, static_cast<double>(labels.size()) + 0.7);
    m_classPlot->yAxis->setLabel(tr("boxes"));
    m_classPlot->rescaleAxes(true);
    m_classPlot->yAxis->setRangeLower(0);
    m_classPlot->yAxis->scaleRange(1.1, 0);
    m_classPlot->yAxis->setRangeLower(0);
    m_classPlot->legend->setVisible(true);
    m_classPlot->replot();

    // Relative width and height histograms as step lines.
    m_sizePlot->clearGraphs();
    auto addHistogram = [this](const quality::Histogram& histogram, const QString& name,
                               const QColor& color) {
        QVector<double> x, y;
        const double width = histogram.binWidth();
        for (size_t i = 0; i < histogram.counts.size(); ++i) {
            x << histogram.lower + width * (static_cast<double>(i) + 0.5);
            y << static_cast<double>(histogram.counts[i]);
        }
        QCPGraph* graph = m_sizePlot->addGraph();
        graph->setName(name);
        graph->setData(x, y);
        graph->setLineStyle(QCPGraph::lsStepCenter);
        graph->setPen(QPen(color, 2));
    };
    addHistogram(stats.relativeWidth, tr("width / image width"), kSplitColors[0]);
    addHistogram(stats.relativeHeight, tr("height / image height"), kSplitColors[1]);
    m_sizePlot->xAxis->setRange(0, 1);
    m_sizePlot->xAxis->setLabel(tr("relative size"));
    m_sizePlot->yAxis->setLabel(tr("boxes"));
    m_sizePlot->rescaleAxes(true);
    m_sizePlot->xAxis->setRange(0, 1);
    m_sizePlot->yAxis->setRangeLower(0);
    m_sizePlot->legend->setVisible(true);
    m_sizePlot->replot();

    m_perImagePlot->clearPlottables();
    QVector<double> counts, images;
    for (size_t k = 0; k < stats.boxesPerImage.size(); ++k) {
        counts << static_cast<double>(k);
        images << static_cast<double>(stats.boxesPerImage[k]);
    }
    auto* perImage = new QCPBars(m_perImagePlot->xAxis, m_perImagePlot->yAxis);
    perImage->setData(counts, images);
    perImage->setBrush(kSplitColors[2]);
    perImage->setPen(Qt::NoPen);
    m_perImagePlot->xAxis->setLabel(tr("boxes in the image"));
    m_perImagePlot->yAxis->setLabel(tr("images"));
    m_perImagePlot->rescaleAxes();
    m_perImagePlot->xAxis->setRange(-0.7, static_cast<double>(counts.size()) - 0.3);
    m_perImagePlot->yAxis->setRangeLower(0);
    m_perImagePlot->replot();

    // labels.jpg's box layout and heat maps, live from the project.
    boxLayout(stats.layout);
    heatMap(m_centrePlot, stats.centres, tr("x"), tr("y (from the top)"), true);
    heatMap(m_shapePlot, stats.sizes, tr("width"), tr("height"), false);
}

void StatisticsPanel::boxLayout(const std::vector<LabelBox>& boxes) {
    m_layoutPlot->clearItems();
    const auto& classes = m_document->classes();
    for (const auto& box : boxes) {
        auto* rect = new QCPItemRect(m_layoutPlot);
        rect->topLeft->setCoords(0.5 - box.w / 2, 0.5 - box.h / 2);
        rect->bottomRight->setCoords(0.5 + box.w / 2, 0.5 + box.h / 2);
        QColor color =
            box.classIndex >= 0 && box.classIndex < static_cast<int>(classes.size())
                ? QColor(QString::fromStdString(classes[static_cast<size_t>(box.classIndex)].color))
                : QColor(Qt::magenta);
        color.setAlpha(90); // overlapping outlines build up where most boxes are
        rect->setPen(QPen(color, 1));
        rect->setBrush(Qt::NoBrush);
        rect->setSelectable(false);
    }
    m_layoutPlot->xAxis->setRange(0, 1);
    m_layoutPlot->yAxis->setRange(0, 1);
    // No scale: the boxes share a centre, not a position in the image (labels.jpg draws it without axes).
    for (QCPAxis* axis : {m_layoutPlot->xAxis, m_layoutPlot->yAxis}) {
        axis->setTicks(false);
        axis->setTickLabels(false);
        axis->grid()->setVisible(false);
        axis->setBasePen(Qt::NoPen);
    }
    m_layoutPlot->replot();
}

void StatisticsPanel::heatMap(QCustomPlot* plot, const quality::Histogram2D& grid, const QString& xLabel,
                              const QString& yLabel, bool fromTop) {
    plot->clearPlottables();
    auto* map = new QCPColorMap(plot->xAxis, plot->yAxis);
    map->data()->setSize(grid.bins, grid.bins);
    const double half = grid.bins > 0 ? 0.5 / grid.bins : 0;
    map->data()->setRange(QCPRange(half, 1 - half), QCPRange(half, 1 - half));
    double most = 0;
    for (int y = 0; y < grid.bins; ++y)
        for (int x = 0; x < grid.bins; ++x) {
            // log(1 + n): a few crowded cells do not hide the rest.
            const double value = std::log1p(static_cast<double>(grid.at(x, y)));
            map->data()->setCell(x, y, value);
            most = std::max(most, value);
        }
    QCPColorGradient gradient;
    gradient.setColorStopAt(0, QColor(0x1b, 0x1d, 0x21)); // empty cells are the background
    gradient.setColorStopAt(0.01, QColor(0x1f, 0x3f, 0x7a));
    gradient.setColorStopAt(1, QColor(0x9f, 0xd0, 0xff));
    map->setGradient(gradient);
    map->setDataRange(QCPRange(0, std::max(most, 1.0)));
    map->setInterpolate(false);
    plot->xAxis->setRange(0, 1);
    plot->yAxis->setRange(0, 1);
    plot->yAxis->setRangeReversed(fromTop); // image rows grow downwards
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->replot();
}

} // namespace osprey::ui
