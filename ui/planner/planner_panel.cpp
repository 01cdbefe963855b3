#include "ui/planner/planner_panel.h"

#include "planner/planner_paths.h"
#include "ui/common/background.h"
#include "ui/planner/break_even_box.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <memory>

namespace osprey::ui {

namespace {

QString duration(double seconds) {
    return QString::fromStdString(planner::formatDuration(seconds));
}

QString money(double usd) {
    return QString::fromStdString(planner::formatMoney(usd));
}

QString basisText(planner::Basis basis) {
    switch (basis) {
    case planner::Basis::Measured:
        return PlannerPanel::tr("measured");
    case planner::Basis::Scaled:
        return PlannerPanel::tr("scaled");
    case planner::Basis::Modelled:
        return PlannerPanel::tr("modelled");
    case planner::Basis::NotCalibrated:
        return PlannerPanel::tr("not calibrated");
    }
    return {};
}

} // namespace

PlannerPanel::PlannerPanel(QWidget* parent) : QWidget(parent) {
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("plannerSummary"));
    m_summary->setWordWrap(true);
    m_table = new QTableWidget(0, 7, this);
    m_table->setObjectName(QStringLiteral("plannerTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("GPU"), tr("VRAM"), tr("$/h"), tr("Time"), tr("Cost"), tr("Max batch"), tr("Basis")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setMinimumHeight(220);
    m_chart = new QCustomPlot(this);
    m_chart->setObjectName(QStringLiteral("plannerChart"));
    m_chart->setMinimumHeight(230);
    m_advice = new QLabel(this);
    m_advice->setObjectName(QStringLiteral("plannerAdvice"));
    m_advice->setWordWrap(true);
    m_advice->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_breakEven = new BreakEvenBox(this);

    auto* content = new QWidget(this);
    auto* layout = new QVBoxLayout(content);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_summary);
    layout->addWidget(m_table, 3);
    layout->addWidget(m_chart, 2);
    layout->addWidget(m_advice);
    layout->addWidget(m_breakEven);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    (void)planner::setModel(m_inputs.workload, "yolov8n");
    m_inputs.machine = planner::machineId();
    reloadData();
}

void PlannerPanel::reloadData() {
    const auto catalogue = planner::loadCatalogue(planner::userCataloguePath());
    m_catalogueError = catalogue ? QString() : QString::fromStdString(catalogue.message());
    if (catalogue)
        m_inputs.catalogue = *catalogue;
    const auto points = planner::loadMeasurements(planner::measurementsPath());
    m_inputs.measurements = points ? *points : std::vector<planner::Measurement>{};
    recompute();
}

void PlannerPanel::setProjectFolder(const QString& folder) {
    const std::string path = folder.toStdString();
    runInBackground(
        this,
        [path] {
            auto workload = std::make_shared<planner::Workload>();
            const auto status = planner::readProjectDataset(path, *workload);
            return std::make_pair(workload, status ? QString() : QString::fromStdString(status.message()));
        },
        [this](std::pair<std::shared_ptr<planner::Workload>, QString> result) {
            if (result.second.isEmpty()) {
                m_inputs.workload.trainImages = result.first->trainImages;
                m_inputs.workload.valImages = result.first->valImages;
                m_inputs.workload.meanWidthPx = result.first->meanWidthPx;
                m_inputs.workload.meanHeightPx = result.first->meanHeightPx;
                m_inputs.workload.classes = result.first->classes;
            } else {
                m_catalogueError = result.second;
            }
            recompute();
            emit datasetRead();
        });
}

void PlannerPanel::setDataset(qint64 trainImages, qint64 valImages) {
    m_inputs.workload.trainImages = trainImages;
    m_inputs.workload.valImages = valImages;
    recompute();
}

void PlannerPanel::setRunValue(const QString& key, const QVariant& value) {
    planner::Workload& w = m_inputs.workload;
    if (key == QLatin1String("model")) {
        if (!planner::setModel(w, value.toString().toStdString()))
            return;
    } else if (key == QLatin1String("epochs")) {
        w.epochs = std::max(1, value.toInt());
    } else if (key == QLatin1String("imgsz")) {
        w.imgsz = std::max(32, value.toInt());
    } else if (key == QLatin1String("batch")) {
        w.batch = std::max(1, value.toInt());
    } else if (key == QLatin1String("device")) {
        const QString device = value.toString();
        m_inputs.thisDevice =
            device.isEmpty() || device == QLatin1String("cpu") ? "cpu" : m_inputs.thisDevice;
    } else {
        return;
    }
    recompute();
}

void PlannerPanel::watch(const QList<QWidget*>& editors, std::function<QVariant(const QString&)> valueOf) {
    m_valueOf = std::move(valueOf);
    const QMetaMethod slot = metaObject()->method(metaObject()->indexOfSlot("pullFromForm()"));
    for (QWidget* editor : editors) {
        if (!editor)
            continue;
        const QMetaProperty property = editor->metaObject()->userProperty();
        if (property.hasNotifySignal())
            connect(editor, property.notifySignal(), this, slot);
    }
    pullFromForm();
}

void PlannerPanel::pullFromForm() {
    if (!m_valueOf)
        return;
    planner::Workload& w = m_inputs.workload;
    const QString model = m_valueOf(QStringLiteral("model")).toString();
    if (!model.isEmpty())
        (void)planner::setModel(w, model.toStdString());
    for (const auto& [key, field] :
         {std::pair{"epochs", &w.epochs}, {"imgsz", &w.imgsz}, {"batch", &w.batch}}) {
        const QVariant value = m_valueOf(QLatin1String(key));
        if (value.isValid() && value.toInt() > 0)
            *field = value.toInt();
    }
    recompute();
}

void PlannerPanel::recompute() {
    m_plan = planner::makePlan(m_inputs);
    const planner::Workload& w = m_plan.workload;
    QString summary = tr("%1, %2 epochs at imgsz %3, batch %4, on %5 train and %6 val images.")
                          .arg(QString::fromStdString(w.model))
                          .arg(w.epochs)
                          .arg(w.imgsz)
                          .arg(w.batch)
                          .arg(w.trainImages)
                          .arg(w.valImages);
    if (!m_catalogueError.isEmpty())
        summary += QLatin1Char('\n') + m_catalogueError;
    m_summary->setText(summary);
    fillTable();
    fillChart();
    QStringList advice;
    if (!m_plan.cheapest.empty())
        advice << tr("<b>Cheapest:</b> %1. <b>Fastest:</b> %2.")
                      .arg(QString::fromStdString(m_plan.cheapest), QString::fromStdString(m_plan.fastest));
    advice << tr("<b>Recommended:</b> %1")
                  .arg(QString::fromStdString(m_plan.recommendation.reason).toHtmlEscaped());
    const planner::StartSmall& s = m_plan.startSmall;
    if (!s.model.empty()) {
        QString line = tr("<b>Start small:</b> %1").arg(QString::fromStdString(s.note).toHtmlEscaped());
        if (s.time)
            line += QLatin1Char(' ') + tr("On %1: about %2%3.")
                                           .arg(QString::fromStdString(s.gpu), duration(s.time->midS),
                                                s.cost ? tr(", %1").arg(money(s.cost->midS)) : QString());
        advice << line;
    }
    for (const auto& warning : m_plan.warnings)
        advice << tr("<b>Warning:</b> %1").arg(QString::fromStdString(warning).toHtmlEscaped());
    advice << tr("<span style='color:#8a8f98'>Times are ranges from measured throughput scaled by compute "
                 "(TFLOP/s) and memory bandwidth; prices are the catalogue's (osprey-cli plan gpus).</span>");
    m_advice->setText(advice.join(QStringLiteral("<br>")));
    emit planChanged();
}

void PlannerPanel::fillTable() {
    m_table->setRowCount(static_cast<int>(m_plan.rows.size()));
    int r = 0;
    for (const auto& row : m_plan.rows) {
        const auto set = [&](int column, const QString& text, const QString& tip = {}) {
            auto* item = new QTableWidgetItem(text);
            item->setToolTip(tip);
            if (column > 0 && column < 6)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (!row.batchFits)
                item->setForeground(QColor(0xd0, 0x50, 0x50));
            m_table->setItem(r, column, item);
        };
        const QString name = row.thisMachine
                                 ? tr("This machine (%1)").arg(QString::fromStdString(m_inputs.thisDevice))
                                 : QString::fromStdString(row.name);
        set(0, name);
        set(1, row.vramGb > 0 ? tr("%1 GB").arg(row.vramGb) : QStringLiteral("–"));
        set(2, row.pricePerHour ? money(*row.pricePerHour) : tr("no price"),
            QString::fromStdString(row.priceDate + " " + row.priceSource));
        set(3, row.time ? tr("%1 – %2").arg(duration(row.time->lowS), duration(row.time->highS))
                        : QStringLiteral("–"));
        set(4,
            row.cost ? tr("%1 – %2").arg(money(row.cost->lowS), money(row.cost->highS)) : QStringLiteral("–"),
            row.costPerEpoch ? tr("%1 per epoch").arg(money(*row.costPerEpoch)) : QString());
        set(5, row.maxBatch < 0 ? QStringLiteral("–") : QString::number(row.maxBatch),
            row.batchFits ? QString() : tr("The chosen batch does not fit this GPU's memory."));
        set(6, basisText(row.basis), QString::fromStdString(row.basisDetail));
        if (QString::fromStdString(row.name) == QString::fromStdString(m_plan.recommendation.gpu))
            for (int c = 0; c < 7; ++c)
                m_table->item(r, c)->setBackground(QColor(0x2e, 0x7d, 0x32, 60));
        ++r;
    }
}

void PlannerPanel::fillChart() {
    m_chart->clearPlottables();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, hours, costs;
    for (const auto& row : m_plan.rows) {
        if (row.thisMachine || !row.time || !row.cost)
            continue;
        const double key = keys.size() + 1;
        keys << key;
        hours << row.time->midS / 3600.0;
        costs << row.cost->midS;
        ticker->addTick(key, QString::fromStdString(row.name));
    }
    auto* time = new QCPBars(m_chart->xAxis, m_chart->yAxis);
    time->setName(tr("time (h)"));
    time->setWidth(0.38);
    time->setPen(Qt::NoPen);
    time->setBrush(QColor(0x42, 0x85, 0xf4));
    auto* cost = new QCPBars(m_chart->xAxis, m_chart->yAxis2);
    cost->setName(tr("cost ($)"));
    cost->setWidth(0.38);
    cost->setPen(Qt::NoPen);
    cost->setBrush(QColor(0xf4, 0xb4, 0x00));
    QVector<double> left, right;
    for (double k : keys) {
        left << k - 0.2;
        right << k + 0.2;
    }
    time->setData(left, hours);
    cost->setData(right, costs);
    m_chart->xAxis->setTicker(ticker);
    m_chart->xAxis->setTickLabelRotation(30);
    m_chart->xAxis->setRange(0.4, keys.size() + 0.6);
    m_chart->xAxis->grid()->setVisible(false);
    m_chart->yAxis->setLabel(tr("time (h)"));
    m_chart->yAxis2->setLabel(tr("cost ($)"));
    m_chart->yAxis2->setVisible(true);
    const auto maxOf = [](const QVector<double>& v) {
        double m = 0;
        for (double x : v)
            m = std::max(m, x);
        return m > 0 ? m * 1.35 : 1.0; // headroom above the bars for the legend
    };
    m_chart->yAxis->setRange(0, maxOf(hours));
    m_chart->yAxis2->setRange(0, maxOf(costs));
    m_chart->legend->setVisible(true);
    m_chart->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_chart->legend->setWrap(2);
    m_chart->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    m_chart->replot();
}

} // namespace osprey::ui
