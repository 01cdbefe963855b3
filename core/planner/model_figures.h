#pragma once
// The detectors' size figures without torch: parameters and GFLOPs (unfused, 640 x 640, nc = 80) of each
// family and scale, as the training recipe lists them and core/model's detector tests check them
// (tests/core/model reads this table; it is the one declaration). The planner scales them: FLOPs with
// the pixel count (the networks are fully convolutional), which is exact at multiples of 32 up to the
// head's small class-count term. Thread-safe.

#include <cstdint>
#include <optional>
#include <string>

namespace osprey::planner {

struct ModelFigures {
    const char* name;
    std::int64_t params;
    double gflops; ///< forward pass of one 640 x 640 image
    bool small;    ///< n and s scales
};

inline constexpr ModelFigures kModelFigures[] = {
    {"yolov8n", 3157200, 8.9, true},
    {"yolov8s", 11166560, 28.8, true},
    {"yolov8m", 25902640, 79.3, false},
    {"yolov8l", 43691520, 165.7, false},
    {"yolov8x", 68229648, 258.5, false},
    {"yolo11n", 2624080, 6.6, true},
    {"yolo11s", 9458752, 21.7, true},
    {"yolo11m", 20114688, 68.5, false},
    {"yolo11l", 25372160, 87.6, false},
    {"yolo11x", 56966176, 196.0, false},
    // YOLO26: both head branches (one-to-many and one-to-one), as training runs them (spec yolo26 §3).
    {"yolo26n", 2572280, 6.1, true},
    {"yolo26s", 10009784, 22.8, true},
    {"yolo26m", 21896248, 75.4, false},
    {"yolo26l", 26299704, 93.8, false},
    {"yolo26x", 58993368, 209.5, false},
};

/// The figures of "yolov8s", "YOLO11x.pt", ... (case and a .pt/.yaml suffix ignored); none if unknown.
std::optional<ModelFigures> findModelFigures(const std::string& name);

/// The scale letter of a model name ('n' .. 'x'), 0 if none.
char modelScale(const std::string& name);

/// The same family at scale `scale` ("yolov8s", 'n' -> "yolov8n").
std::string withScale(const std::string& name, char scale);

} // namespace osprey::planner
