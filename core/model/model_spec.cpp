#include "model/model_spec.h"

#include "common/strings.h"

#include <algorithm>
#include <cmath>

namespace osprey::model {

std::string familyName(Family family) {
    switch (family) {
    case Family::YoloV8:
        return "yolov8";
    case Family::Yolo11:
        return "yolo11";
    case Family::Yolo26:
        return "yolo26";
    }
    return "yolov8";
}

char scaleLetter(Scale scale) {
    switch (scale) {
    case Scale::N:
        return 'n';
    case Scale::S:
        return 's';
    case Scale::M:
        return 'm';
    case Scale::L:
        return 'l';
    case Scale::X:
        return 'x';
    }
    return 'n';
}

std::string ModelSpec::name() const {
    return familyName(family) + scaleLetter(scale);
}

ScaleFactors scaleFactors(Family family, Scale scale) {
    if (family == Family::YoloV8) {
        switch (scale) {
        case Scale::N:
            return {0.33, 0.25, 1024};
        case Scale::S:
            return {0.33, 0.50, 1024};
        case Scale::M:
            return {0.67, 0.75, 768};
        case Scale::L:
            return {1.00, 1.00, 512};
        case Scale::X:
            return {1.00, 1.25, 512};
        }
    }
    // YOLO11 and YOLO26 share their scales (yolo11.yaml, yolo26.yaml).
    switch (scale) {
    case Scale::N:
        return {0.50, 0.25, 1024};
    case Scale::S:
        return {0.50, 0.50, 1024};
    case Scale::M:
        return {0.50, 1.00, 512};
    case Scale::L:
        return {1.00, 1.00, 512};
    case Scale::X:
        return {1.00, 1.50, 512};
    }
    return {};
}

Expected<Family> parseFamily(const std::string& text) {
    const std::string lower = toLower(text);
    if (lower == "yolov8")
        return Family::YoloV8;
    if (lower == "yolo11" || lower == "yolov11")
        return Family::Yolo11;
    if (lower == "yolo26" || lower == "yolov26")
        return Family::Yolo26;
    return fail("unknown model family '" + text + "': expected yolov8, yolo11 or yolo26", "invalid");
}

Expected<Scale> parseScale(const std::string& text) {
    const std::string lower = toLower(text);
    if (lower.size() == 1) {
        switch (lower[0]) {
        case 'n':
            return Scale::N;
        case 's':
            return Scale::S;
        case 'm':
            return Scale::M;
        case 'l':
            return Scale::L;
        case 'x':
            return Scale::X;
        default:
            break;
        }
    }
    return fail("unknown model scale '" + text + "': expected n, s, m, l or x", "invalid");
}

Expected<ModelSpec> parseModelName(const std::string& text, int numClasses) {
    std::string lower = toLower(trim(text));
    for (const char* suffix : {".pt", ".yaml", ".yml"})
        if (endsWith(lower, suffix))
            lower.resize(lower.size() - std::string(suffix).size());
    const auto bad = [&] {
        return fail(
            "unknown model '" + text +
                "': expected yolov8n|s|m|l|x, yolo11n|s|m|l|x or yolo26n|s|m|l|x (e.g. model=yolov8n)",
            "invalid");
    };
    if (numClasses < 1)
        return fail("invalid number of classes " + std::to_string(numClasses) + ": nc must be at least 1",
                    "invalid");
    if (lower.size() < 2)
        return bad();
    const auto family = parseFamily(lower.substr(0, lower.size() - 1));
    const auto scale = parseScale(lower.substr(lower.size() - 1));
    if (!family || !scale)
        return bad();
    ModelSpec spec{*family, *scale, numClasses};
    spec.sppfActivation = *family != Family::Yolo26;
    return spec;
}

int makeDivisible(double value, int divisor) {
    return static_cast<int>(std::ceil(value / divisor)) * divisor;
}

int scaledChannels(int channels, const ScaleFactors& factors) {
    return makeDivisible(std::min(channels, factors.maxChannels) * factors.width, 8);
}

int scaledRepeats(int repeats, const ScaleFactors& factors) {
    // Python's round() is banker's rounding; no repeat count in the recipe lands on .5 exactly.
    return std::max(static_cast<int>(std::lround(repeats * factors.depth)), 1);
}

} // namespace osprey::model
