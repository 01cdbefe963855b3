#include "ui/planner/break_even_box.h"

#include "planner/break_even.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>

namespace osprey::ui {

namespace {

QDoubleSpinBox* amount(double value, double maximum, int decimals, const QString& prefix,
                       const QString& suffix, QWidget* parent) {
    auto* box = new QDoubleSpinBox(parent);
    box->setRange(0, maximum);
    box->setDecimals(decimals);
    box->setValue(value);
    box->setPrefix(prefix);
    box->setSuffix(suffix);
    return box;
}

} // namespace

BreakEvenBox::BreakEvenBox(QWidget* parent) : QGroupBox(tr("Buy or rent: break-even"), parent) {
    const planner::BreakEvenInputs defaults; // the declared defaults (planner::planBreakEvenOptions())
    m_hardware = amount(defaults.hardwareCost, 1e7, 0, QStringLiteral("$"), QString(), this);
    m_power = amount(defaults.powerPerHour, 100, 2, QStringLiteral("$"), tr(" /h"), this);
    m_cloud = amount(defaults.cloudPerHour, 1000, 2, QStringLiteral("$"), tr(" /h"), this);
    m_hoursPerDay = amount(defaults.hoursPerDay, 24, 1, QString(), tr(" h/day"), this);
    m_hoursPerDay->setMinimum(0.5);
    m_hardware->setToolTip(tr("What the machine with the GPU costs to buy."));
    m_power->setToolTip(tr("Electricity per hour of training."));
    m_cloud->setToolTip(tr("The cloud price of the same GPU per hour."));
    m_result = new QLabel(this);
    m_result->setObjectName(QStringLiteral("breakEvenResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* caveats = new QLabel(this);
    caveats->setWordWrap(true);
    caveats->setStyleSheet(QStringLiteral("color: #8a8f98;"));
    QStringList lines;
    lines
        << tr("Left out: cooling, idle power, repairs, financing, resale value and the owner's time.")
        << tr("It assumes the owned GPU trains as fast as the cloud one.")
        << tr("Buying wins when the GPU is busy almost continuously, or when the hardware is already owned.");
    caveats->setText(lines.join(QLatin1Char('\n')));
    auto* form = new QFormLayout(this);
    form->addRow(tr("Hardware"), m_hardware);
    form->addRow(tr("Power"), m_power);
    form->addRow(tr("Cloud GPU"), m_cloud);
    form->addRow(tr("Training"), m_hoursPerDay);
    form->addRow(m_result);
    form->addRow(caveats);
    for (auto* box : {m_hardware, m_power, m_cloud, m_hoursPerDay})
        connect(box, &QDoubleSpinBox::valueChanged, this, &BreakEvenBox::update);
    update();
}

QString BreakEvenBox::resultText() const {
    return m_result->text();
}

void BreakEvenBox::update() {
    const planner::BreakEvenInputs in{m_hardware->value(), m_power->value(), m_cloud->value(),
                                      m_hoursPerDay->value()};
    const auto result = planner::breakEven(in);
    if (!result) {
        m_result->setText(result.error().code == "never"
                              ? tr("The cloud price is not above the power cost: buying never pays off.")
                              : tr("Check the inputs."));
        return;
    }
    const auto allDay = planner::breakEven({in.hardwareCost, in.powerPerHour, in.cloudPerHour, 24});
    const QLocale locale;
    m_result->setText(
        tr("Break-even after about %1 h of training (%2 h): %3 months at %4 h/day, %5 months at "
           "24 h/day (30-day months).")
            .arg(locale.toString(result->roundedHours, 'f', 0))
            .arg(locale.toString(result->hours, 'f', 1))
            .arg(locale.toString(result->roundedMonths, 'f', 1))
            .arg(locale.toString(in.hoursPerDay, 'g', 3))
            .arg(locale.toString(allDay->roundedMonths, 'f', 1)));
}

} // namespace osprey::ui
