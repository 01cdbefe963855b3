#pragma once
// Which detector to build: family, scale and number of classes, plus the scaling rules of the
// training recipe (depth, width and channel cap per scale). Plain values; no torch. Thread-safe.

#include "common/expected.h"

#include <string>

namespace osprey::model {

/// The detector families Osprey builds, with Ultralytics-compatible module names.
enum class Family { YoloV8, Yolo11, Yolo26 };

/// The five sizes of each family.
enum class Scale { N, S, M, L, X };

/// A complete description of a network's shape: family, scale and class count.
struct ModelSpec {
    Family family = Family::YoloV8;
    Scale scale = Scale::N;
    int numClasses = 80; ///< nc; any value >= 1
    /// Whether SPPF's cv1 ends in SiLU. True for Osprey's networks and the official Ultralytics v8/11
    /// files; false for networks built by Ultralytics >= 8.4.0, whose SPPF.cv1 has no activation, and for
    /// every YOLO26 (its recipe has none).
    bool sppfActivation = true;

    /// "yolov8n", "yolo11x", "yolo26s", ...
    std::string name() const;
};

/// Scaling factors of one family at one scale, as listed in the recipe.
struct ScaleFactors {
    double depth = 1.0;  ///< repeats multiplier
    double width = 1.0;  ///< channel multiplier
    int maxChannels = 0; ///< channels are capped at this value before the width multiplier
};

ScaleFactors scaleFactors(Family family, Scale scale);

/// Parses "yolov8n", "yolo11s", "yolo26m", "YOLOv8x.pt" (a ".pt"/".yaml" suffix is ignored). The error lists
/// the accepted names.
Expected<ModelSpec> parseModelName(const std::string& text, int numClasses = 80);

std::string familyName(Family family); ///< "yolov8", "yolo11" or "yolo26"
char scaleLetter(Scale scale);         ///< 'n', 's', 'm', 'l' or 'x'
Expected<Family> parseFamily(const std::string& text);
Expected<Scale> parseScale(const std::string& text);

/// Rounds up to a multiple of `divisor` (Ultralytics make_divisible).
int makeDivisible(double value, int divisor);

/// Channels after the width multiplier and the cap: make_divisible(min(c, max) * width, 8).
int scaledChannels(int channels, const ScaleFactors& factors);

/// Repeats after the depth multiplier: max(round(n * depth), 1).
int scaledRepeats(int repeats, const ScaleFactors& factors);

} // namespace osprey::model
