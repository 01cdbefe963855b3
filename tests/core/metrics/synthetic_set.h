#pragma once
// Seeded synthetic detection data for tests and the benchmark: ground truth of every COCO size, a few
// crowd boxes, detections that jitter the truth plus clutter, and scores rounded to two decimals so that
// ties (and the stable tie-breaking) are exercised.

#include "metrics/eval_set.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

namespace osprey::metrics::test {

struct SyntheticSpec {
    int images = 100;
    int classes = 5;
    int truthsPerImage = 7;
    int detectionsPerImage = 20;
    double crowdFraction = 0.03;
    unsigned seed = 1;
};

inline EvalSet makeSyntheticSet(const SyntheticSpec& spec) {
    std::mt19937_64 random(spec.seed);
    const auto uniform = [&](double low, double high) {
        return low + (high - low) * (static_cast<double>(random() >> 11) * 0x1.0p-53);
    };
    const auto pick = [&](int count) { return static_cast<int>(random() % static_cast<unsigned>(count)); };
    EvalSet set;
    for (int k = 0; k < spec.classes; ++k)
        set.classNames.push_back("class" + std::to_string(k));
    set.images.resize(static_cast<size_t>(spec.images));
    for (int i = 0; i < spec.images; ++i) {
        auto& image = set.images[static_cast<size_t>(i)];
        image.name = std::to_string(i);
        image.widthPx = 640;
        image.heightPx = 480;
        const int truthCount = pick(2 * spec.truthsPerImage + 1);
        for (int g = 0; g < truthCount; ++g) {
            // Side lengths from 4 to 300 px on a log scale: small, medium and large all occur.
            const double w = std::exp(uniform(std::log(4.0), std::log(300.0)));
            const double h = w * uniform(0.5, 2.0);
            const double x = uniform(0, 640 - w / 2), y = uniform(0, 480 - h / 2);
            GroundTruthBox truth;
            truth.boxPx = {x, y, x + w, y + h};
            truth.classId = pick(spec.classes);
            truth.crowd = uniform(0, 1) < spec.crowdFraction;
            image.truths.push_back(truth);
        }
        for (int d = 0; d < spec.detectionsPerImage; ++d) {
            DetectionBox detection;
            if (!image.truths.empty() && uniform(0, 1) < 0.5) {
                const auto& truth =
                    image.truths[static_cast<size_t>(pick(static_cast<int>(image.truths.size())))];
                const double w = truth.boxPx.width(), h = truth.boxPx.height();
                const double jitter = uniform(0.0, 0.3);
                const double x1 = truth.boxPx.x1 + w * uniform(-jitter, jitter);
                const double y1 = truth.boxPx.y1 + h * uniform(-jitter, jitter);
                detection.boxPx = {x1, y1, x1 + w * uniform(1 - jitter, 1 + jitter),
                                   y1 + h * uniform(1 - jitter, 1 + jitter)};
                detection.classId = uniform(0, 1) < 0.8 ? truth.classId : pick(spec.classes);
            } else {
                const double w = std::exp(uniform(std::log(4.0), std::log(300.0)));
                const double h = w * uniform(0.5, 2.0);
                const double x = uniform(0, 640 - w / 2), y = uniform(0, 480 - h / 2);
                detection.boxPx = {x, y, x + w, y + h};
                detection.classId = pick(spec.classes);
            }
            detection.score = std::round(uniform(0, 1) * 100) / 100;
            image.detections.push_back(detection);
        }
    }
    return set;
}

} // namespace osprey::metrics::test
