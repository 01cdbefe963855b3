#pragma once
// BreakEvenBox: when buying a GPU pays off against renting one (core/planner/break_even.h). Hardware
// cost, power $/h, cloud $/h and training hours per day in; break-even hours and months out, with the
// articles' caveats. The inputs are planner::planBreakEvenOptions() drawn by the generic OptionForm, so they
// start at the declared defaults (the articles' example: $3,000, $0.10/h, $0.89/h, 8 h/day). GUI thread
// only.

#include <QGroupBox>

class QDoubleSpinBox;
class QLabel;

namespace osprey::ui {

class OptionForm;

class BreakEvenBox : public QGroupBox {
    Q_OBJECT
public:
    explicit BreakEvenBox(QWidget* parent = nullptr);

    QDoubleSpinBox* hardware() const { return m_hardware; }
    QDoubleSpinBox* power() const { return m_power; }
    QDoubleSpinBox* cloud() const { return m_cloud; }
    QDoubleSpinBox* hoursPerDay() const { return m_hoursPerDay; }
    /// The result line shown ("about 3,800 h: 15.8 months at 8 h/day, 5.3 at 24 h/day").
    QString resultText() const;

private:
    void update();

    OptionForm* m_inputs;
    QDoubleSpinBox* m_hardware;
    QDoubleSpinBox* m_power;
    QDoubleSpinBox* m_cloud;
    QDoubleSpinBox* m_hoursPerDay;
    QLabel* m_result;
};

} // namespace osprey::ui
