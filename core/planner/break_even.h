#pragma once
// Buying a GPU against renting one, as the Ultralytics Platform articles reckon it: the owned GPU is
// taken to train as fast as the cloud one, so every training hour saves (cloud $/h - power $/h).
//
//   break-even hours  = hardware cost / (cloud $/h - power $/h)
//   break-even months = hours / hours of training per day / 30 (30-day months)
//
// Rounding for display: hours to two significant figures ("about 3,800 h"), months to one decimal. The
// articles' example: $3,000, $0.10/h, $0.89/h -> 3,797.5 h, about 3,800 h; 5.3 months at 24 h/day, 15.8
// months at 8 h/day. Pure functions; thread-safe.

#include "common/expected.h"
#include "planner/planner_options.h"

#include <string>
#include <vector>

namespace osprey::planner {

/// The defaults are the declared ones (planBreakEvenOptions()).
struct BreakEvenInputs {
    double hardwareCost = run::defaultNumber(planBreakEvenOptions(), "hardware"); ///< USD
    double powerPerHour =
        run::defaultNumber(planBreakEvenOptions(), "power"); ///< USD of electricity per training hour
    double cloudPerHour = run::defaultNumber(planBreakEvenOptions(), "cloud"); ///< USD per GPU-hour
    double hoursPerDay =
        run::defaultNumber(planBreakEvenOptions(), "hours_per_day"); ///< training hours per day, 0 < h <= 24
};

struct BreakEven {
    double hours = 0;         ///< exact
    double roundedHours = 0;  ///< two significant figures
    double days = 0;          ///< calendar days at hoursPerDay
    double months = 0;        ///< exact, 30-day months
    double roundedMonths = 0; ///< one decimal
    double savingPerHour = 0; ///< cloud - power
};

/// Fails (naming the field) when an input is negative, hours per day is outside (0, 24], or the cloud
/// is not dearer than the power (buying never pays off).
Expected<BreakEven> breakEven(const BreakEvenInputs& inputs);

/// What the simple formula leaves out, and when buying wins (the articles' caveats).
const std::vector<std::string>& breakEvenCaveats();

/// Rounds to `digits` significant figures (3797.5, 2 -> 3800).
double roundSignificant(double value, int digits);

} // namespace osprey::planner
