#include "plot/canvas_impl.h"
#include "plot/run_plots.h"

#include "common/atomic_file.h"
#include "common/log.h"

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>

namespace osprey::plot {
namespace {

/// The one FreeType face, loaded on first use.
struct Font {
    FT_Library library = nullptr;
    FT_Face face = nullptr;
    std::mutex mutex;
};

std::pair<std::string, int> findFontFile() {
    if (!FcInit())
        return {};
    std::pair<std::string, int> found;
    for (const char* query : {"sans-serif:lang=zh-cn", "sans-serif"}) {
        FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>(query));
        FcConfigSubstitute(nullptr, pattern, FcMatchPattern);
        FcDefaultSubstitute(pattern);
        FcResult result;
        FcPattern* match = FcFontMatch(nullptr, pattern, &result);
        FcChar8* file = nullptr;
        int index = 0;
        if (match && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch) {
            FcPatternGetInteger(match, FC_INDEX, 0, &index);
            found = {reinterpret_cast<const char*>(file), index};
        }
        if (match)
            FcPatternDestroy(match);
        FcPatternDestroy(pattern);
        if (!found.first.empty())
            break;
    }
    return found;
}

Font& font() {
    static Font* loaded = [] {
        auto* f = new Font;
        const auto [file, index] = findFontFile();
        if (FT_Init_FreeType(&f->library) != 0 || file.empty() ||
            FT_New_Face(f->library, file.c_str(), index, &f->face) != 0) {
            f->face = nullptr;
            log::warn("plots: no usable font found through fontconfig; text is drawn with OpenCV's built-in "
                      "font (Latin letters only). Install fonts-noto-cjk.");
        }
        return f;
    }();
    return *loaded;
}

std::vector<char32_t> decodeUtf8(const std::string& text) {
    std::vector<char32_t> out;
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
        if (extra < 0 || i + size_t(extra) >= text.size() + (extra == 0 ? 1 : 0)) {
            out.push_back(U'?');
            ++i;
            continue;
        }
        char32_t code = extra == 0 ? c : c & (0x3F >> extra);
        for (int k = 1; k <= extra; ++k)
            code = (code << 6) | (static_cast<unsigned char>(text[i + size_t(k)]) & 0x3F);
        out.push_back(code);
        i += size_t(extra) + 1;
    }
    return out;
}

/// The text's coverage (0..255), one line, height = ascender - descender.
cv::Mat renderMask(const std::string& text, int pixels) {
    Font& f = font();
    if (!f.face) {
        int baseline = 0;
        const double scale = pixels / 30.0;
        const cv::Size size = cv::getTextSize(text, cv::FONT_HERSHEY_SIMPLEX, scale, 1, &baseline);
        cv::Mat mask(size.height + baseline + 2, size.width + 2, CV_8UC1, cv::Scalar(0));
        cv::putText(mask, text, {1, size.height + 1}, cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(255), 1,
                    cv::LINE_AA);
        return mask;
    }
    std::lock_guard lock(f.mutex);
    FT_Set_Pixel_Sizes(f.face, 0, static_cast<FT_UInt>(pixels));
    const int ascender = static_cast<int>(f.face->size->metrics.ascender >> 6);
    const int descender = static_cast<int>(-(f.face->size->metrics.descender >> 6));
    const auto codes = decodeUtf8(text);
    int width = 0;
    for (const char32_t code : codes)
        if (FT_Load_Char(f.face, code, FT_LOAD_DEFAULT) == 0)
            width += static_cast<int>(f.face->glyph->advance.x >> 6);
    cv::Mat mask(std::max(1, ascender + descender), std::max(1, width + 1), CV_8UC1, cv::Scalar(0));
    int pen = 0;
    for (const char32_t code : codes) {
        if (FT_Load_Char(f.face, code, FT_LOAD_RENDER) != 0)
            continue;
        const FT_GlyphSlot glyph = f.face->glyph;
        const FT_Bitmap& bitmap = glyph->bitmap;
        const int left = pen + glyph->bitmap_left;
        const int top = ascender - glyph->bitmap_top;
        for (unsigned row = 0; row < bitmap.rows; ++row) {
            const int y = top + static_cast<int>(row);
            if (y < 0 || y >= mask.rows)
                continue;
            for (unsigned col = 0; col < bitmap.width; ++col) {
                const int x = left + static_cast<int>(col);
                if (x < 0 || x >= mask.cols)
                    continue;
                auto& cell = mask.at<unsigned char>(y, x);
                cell = std::max(cell, bitmap.buffer[row * static_cast<unsigned>(bitmap.pitch) + col]);
            }
        }
        pen += static_cast<int>(glyph->advance.x >> 6);
    }
    return mask;
}

void blend(cv::Mat& image, const cv::Mat& mask, cv::Point topLeft, cv::Scalar color) {
    const cv::Rect target = cv::Rect(topLeft, mask.size()) & cv::Rect(0, 0, image.cols, image.rows);
    for (int y = target.y; y < target.y + target.height; ++y) {
        auto* row = image.ptr<cv::Vec3b>(y);
        const auto* cover = mask.ptr<unsigned char>(y - topLeft.y);
        for (int x = target.x; x < target.x + target.width; ++x) {
            const double a = cover[x - topLeft.x] / 255.0;
            if (a <= 0)
                continue;
            for (int c = 0; c < 3; ++c)
                row[x][c] = cv::saturate_cast<unsigned char>(row[x][c] * (1 - a) + color[c] * a);
        }
    }
}

} // namespace

bool fontCovers(const std::string& utf8) {
    Font& f = font();
    if (!f.face)
        return false;
    std::lock_guard lock(f.mutex);
    for (const char32_t code : decodeUtf8(utf8))
        if (FT_Get_Char_Index(f.face, code) == 0)
            return false;
    return true;
}

cv::Scalar rgb(int r, int g, int b) {
    return cv::Scalar(b, g, r);
}

cv::Scalar classColor(int index) {
    static const int kTab10[10][3] = {{31, 119, 180},  {255, 127, 14}, {44, 160, 44},   {214, 39, 40},
                                      {148, 103, 189}, {140, 86, 75},  {227, 119, 194}, {127, 127, 127},
                                      {188, 189, 34},  {23, 190, 207}};
    const auto& c = kTab10[((index % 10) + 10) % 10];
    return rgb(c[0], c[1], c[2]);
}

cv::Point2d Axes::toPixel(double x, double y) const {
    const double fx = x1 == x0 ? 0.5 : (x - x0) / (x1 - x0);
    const double fy = y1 == y0 ? 0.5 : (y - y0) / (y1 - y0);
    return {area.x + fx * (area.width - 1), area.y + (1 - fy) * (area.height - 1)};
}

Canvas::Canvas(int width, int height) : m_image(height, width, CV_8UC3, cv::Scalar(255, 255, 255)) {}

cv::Size Canvas::measure(const std::string& text, int pixels) {
    return renderMask(text, pixels).size();
}

void Canvas::text(const std::string& text, cv::Point at, int pixels, cv::Scalar color, Align horizontal,
                  Align vertical, bool rotated) {
    if (text.empty())
        return;
    cv::Mat mask = renderMask(text, pixels);
    if (rotated)
        cv::rotate(mask, mask, cv::ROTATE_90_COUNTERCLOCKWISE);
    const auto offset = [](Align align, int length) {
        return align == Align::Start ? 0 : align == Align::Center ? length / 2 : length;
    };
    blend(m_image, mask, {at.x - offset(horizontal, mask.cols), at.y - offset(vertical, mask.rows)}, color);
}

void Canvas::line(cv::Point2d a, cv::Point2d b, cv::Scalar color, int thickness) {
    constexpr int kShift = 4;
    const auto fixed = [](cv::Point2d p) {
        return cv::Point(static_cast<int>(std::lround(p.x * (1 << kShift))),
                         static_cast<int>(std::lround(p.y * (1 << kShift))));
    };
    cv::line(m_image, fixed(a), fixed(b), color, thickness, cv::LINE_AA, kShift);
}

void Canvas::curve(const Axes& axes, const std::vector<double>& xs, const std::vector<double>& ys,
                   cv::Scalar color, int thickness, bool markers, bool dotted) {
    cv::Mat clipped = m_image(axes.area);
    const cv::Point2d origin(axes.area.x, axes.area.y);
    Canvas inner(0, 0);
    inner.m_image = clipped; // shares the pixels: drawing is clipped to the plot area
    const size_t n = std::min(xs.size(), ys.size());
    // Dashes: 12 px drawn, 8 px left out, measured along the line across its points.
    constexpr double kDash = 12, kGap = 8;
    double phase = 0;
    for (size_t i = 0; i + 1 < n; ++i) {
        if (!std::isfinite(ys[i]) || !std::isfinite(ys[i + 1]))
            continue;
        const cv::Point2d a = axes.toPixel(xs[i], ys[i]) - origin,
                          b = axes.toPixel(xs[i + 1], ys[i + 1]) - origin;
        if (!dotted) {
            inner.line(a, b, color, thickness);
            continue;
        }
        const double length = cv::norm(b - a);
        double at = 0;
        while (at < length) {
            const double inPattern = std::fmod(phase + at, kDash + kGap);
            const double step = inPattern < kDash ? kDash - inPattern : kDash + kGap - inPattern;
            const double end = std::min(length, at + step);
            if (inPattern < kDash)
                inner.line(a + (b - a) * (at / length), a + (b - a) * (end / length), color, thickness);
            at = end;
        }
        phase += length;
    }
    if (markers)
        for (size_t i = 0; i < n; ++i)
            if (std::isfinite(ys[i])) {
                const cv::Point2d p = axes.toPixel(xs[i], ys[i]) - origin;
                cv::circle(clipped,
                           cv::Point(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y))),
                           thickness + 2, color, cv::FILLED, cv::LINE_AA);
            }
}

void Canvas::fill(const cv::Rect& rect, cv::Scalar color) {
    cv::rectangle(m_image, rect, color, cv::FILLED);
}

void Canvas::frame(const cv::Rect& rect, cv::Scalar color, int thickness) {
    cv::rectangle(m_image, rect, color, thickness);
}

std::vector<double> niceTicks(double lo, double hi) {
    if (!(hi > lo))
        return {lo};
    const double raw = (hi - lo) / 5.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = magnitude;
    for (const double factor : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (raw <= factor * magnitude) {
            step = factor * magnitude;
            break;
        }
    std::vector<double> ticks;
    for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step)
        ticks.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    return ticks;
}

std::string tickLabel(double value, double step) {
    int decimals = 0;
    while (decimals < 6 &&
           std::abs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    char text[32];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

void Canvas::drawAxes(const Axes& axes, const std::string& xTitle, const std::string& yTitle,
                      const std::string& title, int fontPixels, bool showXTicks) {
    const cv::Scalar grid = rgb(225, 225, 225), ink = rgb(40, 40, 40);
    const auto xTicks = showXTicks ? niceTicks(axes.x0, axes.x1) : std::vector<double>{};
    const auto yTicks = niceTicks(axes.y0, axes.y1);
    const double xStep = xTicks.size() > 1 ? xTicks[1] - xTicks[0] : 1,
                 yStep = yTicks.size() > 1 ? yTicks[1] - yTicks[0] : 1;
    const int tick = std::max(4, fontPixels / 3);
    for (const double x : xTicks) {
        const auto p = axes.toPixel(x, axes.y0);
        line({p.x, double(axes.area.y)}, {p.x, double(axes.area.y + axes.area.height - 1)}, grid);
        line(p, {p.x, p.y + tick}, ink);
        text(tickLabel(x, xStep), {int(std::lround(p.x)), int(p.y) + tick + 2}, fontPixels, ink,
             Align::Center, Align::Start);
    }
    for (const double y : yTicks) {
        const auto p = axes.toPixel(axes.x0, y);
        line({double(axes.area.x), p.y}, {double(axes.area.x + axes.area.width - 1), p.y}, grid);
        line(p, {p.x - tick, p.y}, ink);
        text(tickLabel(y, yStep), {int(p.x) - tick - 4, int(std::lround(p.y))}, fontPixels, ink, Align::End,
             Align::Center);
    }
    frame(axes.area, ink, 1);
    const int below = axes.area.y + axes.area.height + tick + fontPixels + fontPixels / 2;
    text(xTitle, {axes.area.x + axes.area.width / 2, below}, fontPixels, ink, Align::Center, Align::Start);
    int labelWidth = 0;
    for (const double y : yTicks)
        labelWidth = std::max(labelWidth, measure(tickLabel(y, yStep), fontPixels).width);
    text(yTitle, {axes.area.x - tick - 8 - labelWidth - fontPixels / 2, axes.area.y + axes.area.height / 2},
         fontPixels, ink, Align::End, Align::Center, true);
    text(title, {axes.area.x + axes.area.width / 2, axes.area.y - fontPixels / 2}, fontPixels + 2, ink,
         Align::Center, Align::End);
}

void Canvas::legend(const Axes& axes, const std::vector<LegendEntry>& entries, int fontPixels,
                    Corner corner) {
    if (entries.empty())
        return;
    const int sample = fontPixels * 2, gap = fontPixels / 2, rowHeight = fontPixels * 3 / 2;
    int width = 0;
    for (const auto& entry : entries)
        width = std::max(width, measure(entry.label, fontPixels).width);
    const cv::Size box(sample + gap * 3 + width, rowHeight * int(entries.size()) + gap);
    const cv::Point at =
        corner == Corner::UpperLeft
            ? cv::Point(axes.area.x + gap * 2, axes.area.y + gap * 2)
            : cv::Point(axes.area.x + axes.area.width - gap * 2 - box.width, axes.area.y + gap * 2);
    const cv::Rect rect = cv::Rect(at, box) & cv::Rect(0, 0, m_image.cols, m_image.rows);
    cv::Mat region = m_image(rect); // a translucent white box
    cv::addWeighted(region, 0.15, cv::Mat(region.size(), region.type(), cv::Scalar::all(255)), 0.85, 0,
                    region);
    frame(rect, rgb(200, 200, 200));
    for (size_t i = 0; i < entries.size(); ++i) {
        const int y = at.y + gap + rowHeight * int(i) + rowHeight / 2;
        line({double(at.x + gap), double(y)}, {double(at.x + gap + sample), double(y)}, entries[i].color,
             entries[i].thickness);
        text(entries[i].label, {at.x + gap * 2 + sample, y}, fontPixels, rgb(40, 40, 40), Align::Start,
             Align::Center);
    }
}

Status Canvas::save(const std::filesystem::path& file) const {
    std::vector<unsigned char> bytes;
    const std::string extension = file.extension().string();
    std::vector<int> params;
    if (extension == ".jpg" || extension == ".jpeg")
        params = {cv::IMWRITE_JPEG_QUALITY, 92};
    if (!cv::imencode(extension, m_image, bytes, params))
        return fail(file.string() + ": cannot encode the picture");
    return writeFileAtomic(file, std::string(bytes.begin(), bytes.end()));
}

} // namespace osprey::plot
