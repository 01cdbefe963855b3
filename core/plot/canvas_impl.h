#pragma once
// Private to core/plot: a white raster picture (OpenCV) with anti-aliased lines and FreeType text, and
// the axes of a chart on it. Text is drawn with a sans-serif font that has Chinese glyphs (fontconfig's
// choice for "sans-serif:lang=zh-cn", so class names in Chinese render), else any font fontconfig finds.
// Thread affinity: a Canvas belongs to one thread; the font cache is shared and guarded.

#include "common/expected.h"

#include <opencv2/core.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace osprey::plot {

/// Colours as OpenCV holds them (B, G, R).
cv::Scalar rgb(int r, int g, int b);
/// The colour of class `index`: matplotlib's ten-colour cycle ("tab10"), which Ultralytics' curves use.
cv::Scalar classColor(int index);

enum class Align { Start, Center, End };

/// A chart's plot area and its data ranges; maps data to pixels.
struct Axes {
    cv::Rect area;
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    cv::Point2d toPixel(double x, double y) const;
};

class Canvas {
public:
    Canvas(int width, int height);
    cv::Mat& image() { return m_image; }
    int width() const { return m_image.cols; }
    int height() const { return m_image.rows; }

    /// Draws UTF-8 `text` at `at` with the given pixel size; `rotated` turns it 90° counter-clockwise (a
    /// y-axis title). Alignment is about `at` along and across the text.
    void text(const std::string& text, cv::Point at, int pixels, cv::Scalar color,
              Align horizontal = Align::Start, Align vertical = Align::End, bool rotated = false);
    /// The width and height `text` takes at `pixels`.
    cv::Size measure(const std::string& text, int pixels);

    void line(cv::Point2d a, cv::Point2d b, cv::Scalar color, int thickness = 1);
    /// A data polyline on `axes` (points outside the ranges are clipped by the area).
    void curve(const Axes& axes, const std::vector<double>& xs, const std::vector<double>& ys,
               cv::Scalar color, int thickness, bool markers = false, bool dotted = false);
    void fill(const cv::Rect& rect, cv::Scalar color);
    void frame(const cv::Rect& rect, cv::Scalar color, int thickness = 1);

    /// Frame, grid, ticks with labels, the axis titles and the chart title of `axes`.
    void drawAxes(const Axes& axes, const std::string& xTitle, const std::string& yTitle,
                  const std::string& title, int fontPixels, bool showXTicks = true);
    /// A legend box in a corner of `axes`: a line sample and a label each.
    struct LegendEntry {
        std::string label;
        cv::Scalar color;
        int thickness = 2;
    };
    enum class Corner { UpperRight, UpperLeft };
    void legend(const Axes& axes, const std::vector<LegendEntry>& entries, int fontPixels,
                Corner corner = Corner::UpperRight);

    /// Writes PNG or JPEG (by extension) atomically: a reader never sees half a picture.
    Status save(const std::filesystem::path& file) const;

private:
    cv::Mat m_image;
};

/// Tick positions for [lo, hi]: 4-8 "nice" steps (1, 2, 5 x 10^k).
std::vector<double> niceTicks(double lo, double hi);
/// A tick label: as few decimals as the step needs.
std::string tickLabel(double value, double step);

} // namespace osprey::plot
