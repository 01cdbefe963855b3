#include "ui/planner/break_even_box.h"

#include "planner/break_even.h"
#include "ui/common/option_form.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>

namespace osprey::ui {

namespace {

QDoubleSpinBox* amount(const OptionForm* form, const char* key) {
    return qobject_cast<QDoubleSpinBox*>(form->editor(QString::fromLatin1(key)));
}

} // namespace

BreakEvenBox::BreakEvenBox(QWidget* parent) : QGroupBox(tr("Buy or rent: break-even"), parent) {
    // Hardware, power, cloud and hours per day are `osprey-cli plan breakeven`'s declared options, drawn by
    // the generic form with their defaults, units and ranges.
    m_inputs = new OptionForm(OptionForm::guiFields(planner::planBreakEvenOptions()), this);
    m_inputs->layout()->setContentsMargins(0, 0, 0, 0);
    m_hardware = amount(m_inputs, "hardware");
    m_power = amount(m_inputs, "power");
    m_cloud = amount(m_inputs, "cloud");
    m_hoursPerDay = amount(m_inputs, "hours_per_day");
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
    form->addRow(m_inputs);
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
