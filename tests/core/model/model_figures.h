#pragma once
// The recipe's check figures (unfused, at 640), shared by the fast and the slow detector tests.

#include <cstdint>

namespace osprey::test {

struct ModelFigures {
    const char* name;
    std::int64_t params;
    double gflops;
    bool small; ///< n and s scales: cheap enough for the fast tier
};

inline constexpr ModelFigures kModelFigures[] = {
    {"yolov8n", 3157200, 8.9, true},     {"yolov8s", 11166560, 28.8, true},
    {"yolov8m", 25902640, 79.3, false},  {"yolov8l", 43691520, 165.7, false},
    {"yolov8x", 68229648, 258.5, false}, {"yolo11n", 2624080, 6.6, true},
    {"yolo11s", 9458752, 21.7, true},    {"yolo11m", 20114688, 68.5, false},
    {"yolo11l", 25372160, 87.6, false},  {"yolo11x", 56966176, 196.0, false},
};

} // namespace osprey::test
