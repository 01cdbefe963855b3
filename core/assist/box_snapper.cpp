#include "assist/box_snapper.h"

#include "assist/box_cut_impl.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace osprey::assist {
namespace {

// GrabCut and k-means draw from OpenCV's thread-local RNG; a fixed state makes a snap depend on its input
// only, not on what ran before on the thread.
class FixedRandomState {
public:
    FixedRandomState() : m_saved(cv::theRNG().state) { cv::theRNG().state = 0x5EED0F5A9ull; }
    ~FixedRandomState() { cv::theRNG().state = m_saved; }
    FixedRandomState(const FixedRandomState&) = delete;
    FixedRandomState& operator=(const FixedRandomState&) = delete;

private:
    std::uint64_t m_saved;
};

cv::Mat ellipse(int radius) {
    return cv::getStructuringElement(cv::MORPH_ELLIPSE, {2 * radius + 1, 2 * radius + 1});
}

cv::Mat largestComponent(const cv::Mat& mask) {
    cv::Mat labels, stats, centroids;
    const int count = cv::connectedComponentsWithStats(mask, labels, stats, centroids, 8, CV_32S);
    int best = 0, bestArea = 0;
    for (int i = 1; i < count; ++i)
        if (const int area = stats.at<int>(i, cv::CC_STAT_AREA); area > bestArea) {
            bestArea = area;
            best = i;
        }
    return best == 0 ? cv::Mat::zeros(mask.size(), CV_8UC1) : cv::Mat(labels == best);
}

// Whether most of the object's interior (eroded by a tenth of its size, so that leaks along its edge do
// not count) lies within a few levels of one colour: painted shapes, signs, logos. Textured objects
// (people, animals) fail this and keep GrabCut's five-component model.
bool isFlatColoured(const cv::Mat& rgb, const cv::Mat& object) {
    const cv::Rect extent = cv::boundingRect(object);
    cv::Mat interior;
    cv::erode(object, interior, ellipse(std::max(2, std::min(extent.width, extent.height) / 10)));
    std::vector<cv::Vec3b> pixels;
    for (int y = 0; y < rgb.rows; ++y)
        for (int x = 0; x < rgb.cols; ++x)
            if (interior.at<unsigned char>(y, x))
                pixels.push_back(rgb.at<cv::Vec3b>(y, x));
    if (pixels.size() < 20)
        return false;
    cv::Vec3b median;
    for (int c = 0; c < 3; ++c) {
        std::vector<unsigned char> channel(pixels.size());
        std::transform(pixels.begin(), pixels.end(), channel.begin(),
                       [c](const cv::Vec3b& p) { return p[c]; });
        std::nth_element(channel.begin(), channel.begin() + static_cast<long>(channel.size() / 2),
                         channel.end());
        median[c] = channel[channel.size() / 2];
    }
    const auto close = std::count_if(pixels.begin(), pixels.end(), [&](const cv::Vec3b& p) {
        for (int c = 0; c < 3; ++c)
            if (std::abs(int(p[c]) - int(median[c])) > 12)
                return false;
        return true;
    });
    return static_cast<double>(close) >= 0.8 * static_cast<double>(pixels.size());
}

// Opening removes parts thinner than 5 px (lines, wires joined to the object); growing back 2 px inside
// the original mask restores the corners the opening rounded.
cv::Mat removeThinParts(const cv::Mat& object) {
    cv::Mat body;
    cv::morphologyEx(object, body, cv::MORPH_OPEN, ellipse(2));
    body = largestComponent(body);
    if (cv::countNonZero(body) == 0)
        return object;
    const cv::Mat cross = cv::getStructuringElement(cv::MORPH_CROSS, {3, 3});
    for (int step = 0; step < 2; ++step) {
        cv::Mat grown;
        cv::dilate(body, grown, cross);
        body = grown & object;
    }
    return body;
}

// A graph cut rounds off sharp tips and corners (the smoothness term pays less for a short cut across a
// tip than the tip's pixels cost). Grow the object's body back by up to 6 px into pixels that are a mix
// of the object's colour and the local background with at least 60% object: alpha = (c - b).(f - b) /
// |f - b|^2, with a small residual off the f-b line, so that a differently coloured line is not taken.
cv::Mat growBackTips(const cv::Mat& rgb, const cv::Mat& object, const cv::Rect& inside) {
    cv::Mat body;
    cv::morphologyEx(object, body, cv::MORPH_OPEN, ellipse(2));
    body = largestComponent(body);
    if (cv::countNonZero(body) <= 10)
        return object;
    cv::Mat core;
    cv::erode(body, core, ellipse(2));
    const cv::Scalar objectColour = cv::mean(rgb, cv::countNonZero(core) >= 10 ? core : body);

    // The local background colour: the mean of the known background (2 px clear of the object) in a 9x9
    // window around each pixel.
    cv::Mat near;
    cv::dilate(object | body, near, ellipse(2));
    cv::Mat backgroundWeight;
    cv::Mat(near == 0).convertTo(backgroundWeight, CV_32F, 1.0 / 255);
    cv::Mat colours;
    rgb.convertTo(colours, CV_32FC3);
    std::vector<cv::Mat> channels;
    cv::split(colours, channels);
    for (auto& channel : channels)
        channel = channel.mul(backgroundWeight);
    cv::Mat weighted, backgroundSum, backgroundCount;
    cv::merge(channels, weighted);
    cv::boxFilter(weighted, backgroundSum, -1, {9, 9}, {-1, -1}, false);
    cv::boxFilter(backgroundWeight, backgroundCount, -1, {9, 9}, {-1, -1}, false);

    cv::Mat candidate(rgb.size(), CV_8UC1, cv::Scalar(0));
    const cv::Vec3f f(static_cast<float>(objectColour[0]), static_cast<float>(objectColour[1]),
                      static_cast<float>(objectColour[2]));
    for (int y = inside.y; y < inside.y + inside.height; ++y)
        for (int x = inside.x; x < inside.x + inside.width; ++x) {
            const float count = backgroundCount.at<float>(y, x);
            if (count < 3)
                continue;
            const cv::Vec3f b = backgroundSum.at<cv::Vec3f>(y, x) / count;
            const cv::Vec3f fb = f - b;
            const float contrast = fb.dot(fb);
            if (contrast < 400) // under 20 levels apart: a blend cannot be told from noise
                continue;
            const cv::Vec3f cb = colours.at<cv::Vec3f>(y, x) - b;
            const float alpha = cb.dot(fb) / contrast;
            const cv::Vec3f residual = cb - alpha * fb;
            if (alpha >= 0.6f && residual.dot(residual) < 0.25f * contrast)
                candidate.at<unsigned char>(y, x) = 255;
        }
    const cv::Mat square = cv::getStructuringElement(cv::MORPH_RECT, {3, 3});
    for (int step = 0; step < 6; ++step) {
        cv::Mat grown;
        cv::dilate(body, grown, square);
        body |= grown & candidate;
    }
    return body;
}

} // namespace

Expected<SnapBox> snapBox(const imaging::Image& image, const SnapBox& rough, const SnapOptions& options) {
    if (image.channels != 3 || image.empty())
        return fail("snap: need a decoded RGB image", "invalid");
    const int x1 = std::clamp(static_cast<int>(std::floor(rough.x1)), 0, image.width);
    const int y1 = std::clamp(static_cast<int>(std::floor(rough.y1)), 0, image.height);
    const int x2 = std::clamp(static_cast<int>(std::ceil(rough.x2)), 0, image.width);
    const int y2 = std::clamp(static_cast<int>(std::ceil(rough.y2)), 0, image.height);
    if (x2 - x1 < 3 || y2 - y1 < 3)
        return fail("snap: the box is too small (under 3 px) to refine", "invalid");
    const int margin = std::max(0, options.marginPx);
    const cv::Rect roi(std::max(0, x1 - margin), std::max(0, y1 - margin),
                       std::min(image.width, x2 + margin) - std::max(0, x1 - margin),
                       std::min(image.height, y2 + margin) - std::max(0, y1 - margin));
    const cv::Rect inside(x1 - roi.x, y1 - roi.y, x2 - x1, y2 - y1);
    // The band inside the drawn edge is background too, except along the image border, where an object
    // cut off by the frame legitimately touches the box.
    cv::Rect free = inside;
    if (const int band = std::max(0, options.borderPx); inside.width > 4 * band && inside.height > 4 * band) {
        const int left = x1 > 0 ? band : 0, top = y1 > 0 ? band : 0;
        const int right = x2 < image.width ? band : 0, bottom = y2 < image.height ? band : 0;
        free = cv::Rect(inside.x + left, inside.y + top, inside.width - left - right,
                        inside.height - top - bottom);
    }
    if (free.area() == roi.area())
        return fail("snap: the box covers the whole image; there is no background to tell the object from",
                    "invalid");
    try {
        const FixedRandomState fixedRandomState;
        const cv::Mat rgb =
            cv::Mat(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.pixels.data()))(roi);
        // Sensor noise splits GrabCut's colour models; a small median keeps edges and removes most of it.
        cv::Mat smooth;
        cv::medianBlur(rgb, smooth, 3);
        cv::Mat mask(smooth.size(), CV_8UC1, cv::Scalar(cv::GC_BGD));
        mask(free).setTo(cv::Scalar(cv::GC_PR_FGD));
        cv::Mat backgroundModel, foregroundModel;
        cv::grabCut(smooth, mask, free, backgroundModel, foregroundModel, std::max(1, options.iterations),
                    cv::GC_INIT_WITH_MASK);
        cv::Mat object = largestComponent((mask == cv::GC_FGD) | (mask == cv::GC_PR_FGD));
        if (cv::countNonZero(object) == 0)
            return fail("snap: no object found inside the box", "empty");

        bool refined = false;
        if (isFlatColoured(rgb, object)) {
            cv::Mat labels(smooth.size(), CV_8UC1, cv::Scalar(detail::kBackground));
            labels(free).setTo(cv::Scalar(detail::kProbableForeground));
            if (detail::segmentSingleColour(smooth, labels, 12)) {
                const cv::Mat single = largestComponent(labels == detail::kProbableForeground);
                if (cv::countNonZero(single) > 0) {
                    object = growBackTips(rgb, single, inside);
                    refined = true;
                }
            }
        }
        if (!refined)
            object = removeThinParts(object);

        const cv::Rect found = cv::boundingRect(object);
        // Whole pixels can reach past a fractional rough box by under a pixel; the contract is "never
        // larger".
        const SnapBox snapped{std::max(rough.x1, static_cast<double>(roi.x + found.x)),
                              std::max(rough.y1, static_cast<double>(roi.y + found.y)),
                              std::min(rough.x2, static_cast<double>(roi.x + found.x + found.width)),
                              std::min(rough.y2, static_cast<double>(roi.y + found.y + found.height))};
        const double roughArea = (rough.x2 - rough.x1) * (rough.y2 - rough.y1);
        if ((snapped.x2 - snapped.x1) * (snapped.y2 - snapped.y1) < options.minAreaFraction * roughArea)
            return fail("snap: the object found covers less than " +
                            std::to_string(static_cast<int>(options.minAreaFraction * 100)) +
                            "% of the box; it is more likely a part of the object, so the box is kept",
                        "unsure");
        return snapped;
    } catch (const cv::Exception& error) {
        return fail(std::string("snap: segmentation failed: ") + error.what(), "opencv");
    }
}

} // namespace osprey::assist
