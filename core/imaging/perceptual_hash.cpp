#include "imaging/perceptual_hash.h"

#include <opencv2/imgproc.hpp>

namespace osprey::imaging {

std::uint64_t differenceHash(const Image& image) {
    if (image.empty() || image.width <= 0 || image.height <= 0)
        return 0;
    const cv::Mat pixels(image.height, image.width, image.channels == 1 ? CV_8UC1 : CV_8UC3,
                         const_cast<std::uint8_t*>(image.pixels.data()));
    cv::Mat grey, small;
    if (image.channels == 1)
        grey = pixels;
    else
        cv::cvtColor(pixels, grey, cv::COLOR_RGB2GRAY);
    // Area averaging keeps the hash stable under noise and compression; float keeps ties rare.
    grey.convertTo(grey, CV_32F);
    cv::resize(grey, small, cv::Size(9, 8), 0, 0, cv::INTER_AREA);
    std::uint64_t hash = 0;
    for (int y = 0; y < 8; ++y) {
        const float* row = small.ptr<float>(y);
        for (int x = 0; x < 8; ++x)
            if (row[x] > row[x + 1])
                hash |= std::uint64_t{1} << (8 * y + x);
    }
    return hash;
}

} // namespace osprey::imaging
