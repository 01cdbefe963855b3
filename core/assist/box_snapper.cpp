#include "assist/box_snapper.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>

namespace osprey::assist {

Expected<SnapBox> snapBox(const imaging::Image& image, const SnapBox& rough, const SnapOptions& options) {
    if (image.channels != 3 || image.empty())
        return fail("snap: need a decoded RGB image", "invalid");
    const int x1 = std::clamp(static_cast<int>(std::floor(rough.x1)), 0, image.width);
    const int y1 = std::clamp(static_cast<int>(std::floor(rough.y1)), 0, image.height);
    const int x2 = std::clamp(static_cast<int>(std::ceil(rough.x2)), 0, image.width);
    const int y2 = std::clamp(static_cast<int>(std::ceil(rough.y2)), 0, image.height);
    if (x2 - x1 < 3 || y2 - y1 < 3)
        return fail("snap: the box is too small (under 3 px) to refine", "invalid");
    // GrabCut sees only the box plus a margin, so the cost follows the box, not the image.
    const cv::Rect roi(std::max(0, x1 - options.marginPx), std::max(0, y1 - options.marginPx),
                       std::min(image.width, x2 + options.marginPx) - std::max(0, x1 - options.marginPx),
                       std::min(image.height, y2 + options.marginPx) - std::max(0, y1 - options.marginPx));
    try {
        const cv::Mat rgb(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.pixels.data()));
        // Sensor noise splits GrabCut's colour models; a small median keeps edges and removes most of it.
        cv::Mat crop;
        cv::medianBlur(rgb(roi), crop, 3);
        cv::Mat mask(crop.size(), CV_8UC1, cv::Scalar(cv::GC_BGD));
        const cv::Rect inner(x1 - roi.x, y1 - roi.y, x2 - x1, y2 - y1);
        mask(inner).setTo(cv::Scalar(cv::GC_PR_FGD));
        cv::Mat background, foreground;
        cv::grabCut(crop, mask, inner, background, foreground, options.iterations, cv::GC_INIT_WITH_MASK);
        cv::Mat objectMask = (mask == cv::GC_FGD) | (mask == cv::GC_PR_FGD);
        // Keep the largest connected region: stray foreground specks would otherwise stretch the box.
        cv::Mat labels, stats, centroids;
        const int count = cv::connectedComponentsWithStats(objectMask, labels, stats, centroids, 8, CV_32S);
        int best = 0, bestArea = 0;
        for (int i = 1; i < count; ++i)
            if (const int area = stats.at<int>(i, cv::CC_STAT_AREA); area > bestArea) {
                bestArea = area;
                best = i;
            }
        if (best == 0)
            return fail("snap: no object found inside the box", "empty");
        const int left = stats.at<int>(best, cv::CC_STAT_LEFT), top = stats.at<int>(best, cv::CC_STAT_TOP);
        return SnapBox{static_cast<double>(roi.x + left), static_cast<double>(roi.y + top),
                       static_cast<double>(roi.x + left + stats.at<int>(best, cv::CC_STAT_WIDTH)),
                       static_cast<double>(roi.y + top + stats.at<int>(best, cv::CC_STAT_HEIGHT))};
    } catch (const cv::Exception& error) {
        return fail(std::string("snap: GrabCut failed: ") + error.what(), "opencv");
    }
}

} // namespace osprey::assist
