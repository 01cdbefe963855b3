#include "planner/break_even.h"

#include <cmath>

namespace osprey::planner {

double roundSignificant(double value, int digits) {
    if (value == 0 || !std::isfinite(value))
        return value;
    const double magnitude =
        std::pow(10.0, digits - 1 - static_cast<int>(std::floor(std::log10(std::abs(value)))));
    return std::round(value * magnitude) / magnitude;
}

Expected<BreakEven> breakEven(const BreakEvenInputs& in) {
    if (!(in.hardwareCost >= 0))
        return fail("hardware: the hardware cost must be a number >= 0", "bad_field");
    if (!(in.powerPerHour >= 0))
        return fail("power: the electricity cost per hour must be a number >= 0", "bad_field");
    if (!(in.cloudPerHour >= 0))
        return fail("cloud: the cloud price per hour must be a number >= 0", "bad_field");
    if (!(in.hoursPerDay > 0 && in.hoursPerDay <= 24))
        return fail("hours_per_day: must be more than 0 and at most 24", "bad_field");
    if (!(in.cloudPerHour > in.powerPerHour))
        return fail("cloud: the cloud price ($" + std::to_string(in.cloudPerHour) +
                        "/h) is not above the power cost: buying never pays off in this model",
                    "never");
    BreakEven out;
    out.savingPerHour = in.cloudPerHour - in.powerPerHour;
    out.hours = in.hardwareCost / out.savingPerHour;
    out.roundedHours = roundSignificant(out.hours, 2);
    out.days = out.hours / in.hoursPerDay;
    out.months = out.days / 30.0;
    out.roundedMonths = std::round(out.months * 10.0) / 10.0;
    return out;
}

const std::vector<std::string>& breakEvenCaveats() {
    static const std::vector<std::string> kCaveats{
        "Left out: cooling, idle power, repairs, financing, resale value and the owner's time.",
        "It assumes the owned GPU trains as fast as the cloud one; a slower card needs more hours.",
        "Buying wins when the GPU is busy almost continuously, or when the hardware is already owned.",
        "Renting wins for bursts, for GPUs larger than one can buy, and when the local machine is busy.",
    };
    return kCaveats;
}

} // namespace osprey::planner
