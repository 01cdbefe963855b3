#include "plot/run_plots.h"

#include "plot/canvas_impl.h"
#include "run/run_folder.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace osprey::plot {
namespace {

namespace fs = std::filesystem;

const cv::Scalar kInk = rgb(40, 40, 40);
const cv::Scalar kMean = rgb(0, 0, 255); // the "all classes" line, blue as Ultralytics draws it
const cv::Scalar kSmooth = rgb(255, 127, 14);
const cv::Scalar kMarker = rgb(50, 50, 50); // the best-F1 confidence, dashed; no class has this colour

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

PlotArea areaOf(const Axes& axes) {
    return {axes.area.x, axes.area.y, axes.area.width, axes.area.height, axes.x0, axes.x1, axes.y0, axes.y1};
}

/// scipy's gaussian_filter1d(sigma=3, mode="reflect"), as Ultralytics smooths results.png.
std::vector<double> gaussianSmooth(const std::vector<double>& ys, double sigma = 3.0) {
    const int n = static_cast<int>(ys.size()), radius = static_cast<int>(4 * sigma + 0.5);
    std::vector<double> kernel(size_t(2 * radius + 1));
    for (int k = -radius; k <= radius; ++k)
        kernel[size_t(k + radius)] = std::exp(-0.5 * k * k / (sigma * sigma));
    const double sum = std::accumulate(kernel.begin(), kernel.end(), 0.0);
    const auto reflect = [n](int i) {
        if (n == 1)
            return 0;
        while (i < 0 || i >= n)
            i = i < 0 ? -i - 1 : 2 * n - i - 1;
        return i;
    };
    std::vector<double> out(ys.size());
    for (int i = 0; i < n; ++i) {
        double value = 0;
        for (int k = -radius; k <= radius; ++k)
            value += kernel[size_t(k + radius)] * ys[size_t(reflect(i + k))];
        out[size_t(i)] = value / sum;
    }
    return out;
}

std::pair<double, double> rangeOf(const std::vector<double>& values) {
    double lo = INFINITY, hi = -INFINITY;
    for (const double v : values)
        if (std::isfinite(v)) {
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    if (!std::isfinite(lo))
        return {0, 1};
    if (hi - lo < 1e-12) {
        const double pad = std::max(std::abs(hi) * 0.05, 1e-3);
        return {lo - pad, hi + pad};
    }
    const double pad = (hi - lo) * 0.05;
    return {lo - pad, hi + pad};
}

/// matplotlib's "Blues" from white to dark blue, at t in [0, 1].
cv::Scalar blues(double t) {
    t = std::clamp(t, 0.0, 1.0);
    const double stops[5][3] = {
        {247, 251, 255}, {198, 219, 239}, {107, 174, 214}, {33, 113, 181}, {8, 48, 107}};
    const double at = t * 4;
    const int i = std::min(3, static_cast<int>(at));
    const double f = at - i;
    return rgb(int(stops[i][0] + (stops[i + 1][0] - stops[i][0]) * f),
               int(stops[i][1] + (stops[i + 1][1] - stops[i][1]) * f),
               int(stops[i][2] + (stops[i + 1][2] - stops[i][2]) * f));
}

std::vector<double> meanOverRows(const std::vector<std::vector<double>>& rows) {
    if (rows.empty())
        return {};
    std::vector<double> mean(rows.front().size(), 0.0);
    for (const auto& row : rows)
        for (size_t i = 0; i < mean.size() && i < row.size(); ++i)
            mean[i] += row[i] / double(rows.size());
    return mean;
}

/// A 2-D histogram of (x, y) in [0,1]^2 as a heat map in `area`.
void heatMap(Canvas& canvas, const Axes& axes, const std::vector<std::pair<double, double>>& points) {
    constexpr int kBins = 50;
    std::vector<double> counts(kBins * kBins, 0.0);
    for (const auto& [x, y] : points) {
        const int bx = std::clamp(static_cast<int>(x * kBins), 0, kBins - 1);
        const int by = std::clamp(static_cast<int>(y * kBins), 0, kBins - 1);
        counts[size_t(by * kBins + bx)] += 1;
    }
    const double most = *std::max_element(counts.begin(), counts.end());
    for (int by = 0; by < kBins; ++by)
        for (int bx = 0; bx < kBins; ++bx) {
            const double c = counts[size_t(by * kBins + bx)];
            if (c <= 0)
                continue;
            const auto a = axes.toPixel(bx / double(kBins), (by + 1) / double(kBins));
            const auto b = axes.toPixel((bx + 1) / double(kBins), by / double(kBins));
            canvas.fill(
                cv::Rect(cv::Point(int(a.x), int(a.y)), cv::Point(int(std::ceil(b.x)), int(std::ceil(b.y)))),
                blues(0.25 + 0.75 * std::log1p(c) / std::log1p(most)));
        }
}

} // namespace

double PlotArea::pixelX(double value) const {
    return x + (value - x0) / (x1 - x0) * (width - 1);
}

double PlotArea::pixelY(double value) const {
    return y + (1 - (value - y0) / (y1 - y0)) * (height - 1);
}

const char* curveFileName(CurveKind kind) {
    using Picture = run::RunFolder::Picture;
    switch (kind) {
    case CurveKind::PrecisionRecall:
        return run::RunFolder::pictureName(Picture::PrCurve);
    case CurveKind::F1:
        return run::RunFolder::pictureName(Picture::F1Curve);
    case CurveKind::Precision:
        return run::RunFolder::pictureName(Picture::PCurve);
    case CurveKind::Recall:
        return run::RunFolder::pictureName(Picture::RCurve);
    }
    return run::RunFolder::pictureName(Picture::PrCurve);
}

Status writeResultsPlot(const fs::path& file, const run::ResultsTable& results) {
    // Ultralytics' layout: train losses and P, R on the first row; val losses and the mAPs on the second.
    static const char* kPanels[10] = {
        "train/box_loss", "train/cls_loss", "train/dfl_loss", "metrics/precision(B)", "metrics/recall(B)",
        "val/box_loss",   "val/cls_loss",   "val/dfl_loss",   "metrics/mAP50(B)",     "metrics/mAP50-95(B)"};
    const auto epochs = results.column("epoch");
    if (epochs.empty())
        return fail(file.string() + ": results.csv has no epochs to draw");
    constexpr int kWidth = 2400, kHeight = 1200, kFont = 22;
    Canvas canvas(kWidth, kHeight);
    const int cellW = kWidth / 5, cellH = kHeight / 2;
    for (int i = 0; i < 10; ++i) {
        const auto values = results.column(kPanels[i]);
        const cv::Rect cell((i % 5) * cellW, (i / 5) * cellH, cellW, cellH);
        Axes axes;
        axes.area = cv::Rect(cell.x + 95, cell.y + 50, cellW - 120, cellH - 130);
        const auto [xlo, xhi] = epochs.size() > 1 ? std::pair{epochs.front(), epochs.back()}
                                                  : std::pair{epochs.front() - 1, epochs.front() + 1};
        axes.x0 = xlo;
        axes.x1 = xhi;
        const auto [ylo, yhi] = rangeOf(values);
        axes.y0 = ylo;
        axes.y1 = yhi;
        // A YOLO26 run's third loss is its L1 box term (train/l1_loss): the panel says which it shows.
        std::string title = kPanels[i];
        if (const auto dfl = title.find("/dfl_loss"); dfl != std::string::npos) {
            const std::string l1 = title.substr(0, dfl) + "/l1_loss";
            if (std::find(results.columns.begin(), results.columns.end(), l1) != results.columns.end())
                title = l1;
        }
        canvas.drawAxes(axes, "epoch", "", title, kFont);
        if (values.empty())
            continue;
        canvas.curve(axes, epochs, values, kMean, 2, epochs.size() <= 60);
        if (values.size() >= 3)
            canvas.curve(axes, epochs, gaussianSmooth(values), kSmooth, 2, false, true);
        if (i == 0)
            canvas.legend(axes, {{"results", kMean, 2}, {"smooth", kSmooth, 2}}, kFont - 2);
    }
    return canvas.save(file);
}

Expected<PlotArea> writeCurvePlot(const fs::path& file, const run::RunCurves& curves, CurveKind kind) {
    const auto& rows = kind == CurveKind::PrecisionRecall ? curves.precisionAtRecall
                       : kind == CurveKind::F1            ? curves.f1
                       : kind == CurveKind::Precision     ? curves.precision
                                                          : curves.recall;
    if (rows.empty() || curves.x.empty())
        return fail(file.string() + ": the run has no validated classes to draw curves for");
    constexpr int kWidth = 2250, kHeight = 1500, kFont = 26;
    Canvas canvas(kWidth, kHeight);
    Axes axes;
    axes.area = cv::Rect(140, 90, 1500, kHeight - 220);
    const bool perClassLegend = curves.classes.size() < 21;
    const char* titles[4] = {"Precision-Recall Curve", "F1-Confidence Curve", "Precision-Confidence Curve",
                             "Recall-Confidence Curve"};
    const char* yTitles[4] = {"Precision", "F1", "Precision", "Recall"};
    const int k = static_cast<int>(kind);
    canvas.drawAxes(axes, kind == CurveKind::PrecisionRecall ? "Recall" : "Confidence", yTitles[k], titles[k],
                    kFont);
    std::vector<Canvas::LegendEntry> legend;
    for (size_t row = 0; row < rows.size(); ++row) {
        const int classId = row < curves.classes.size() ? curves.classes[row] : int(row);
        const cv::Scalar color = perClassLegend ? classColor(classId) : rgb(160, 160, 160);
        canvas.curve(axes, curves.x, rows[row], color, 2);
        if (!perClassLegend)
            continue;
        std::string label = size_t(classId) < curves.classNames.size() ? curves.classNames[size_t(classId)]
                                                                       : std::to_string(classId);
        if (kind == CurveKind::PrecisionRecall && row < curves.ap.size() && !curves.ap[row].empty())
            label += format(" %.3f", curves.ap[row][0]);
        legend.push_back({label, color, 2});
    }
    const auto mean = meanOverRows(rows);
    std::string meanLabel;
    if (kind == CurveKind::PrecisionRecall) {
        double map50 = 0;
        for (const auto& ap : curves.ap)
            map50 += ap.empty() ? 0 : ap[0] / double(curves.ap.size());
        meanLabel = format("all classes %.3f mAP@0.5", map50);
    } else {
        const auto best = std::max_element(mean.begin(), mean.end());
        const double at = curves.x[size_t(best - mean.begin())];
        meanLabel = kind == CurveKind::F1 ? format("all classes %.2f", curves.bestF1) +
                                                format(" at %.3f", curves.bestConfidence)
                                          : format("all classes %.2f", *best) + format(" at %.3f", at);
    }
    canvas.curve(axes, curves.x, mean, kMean, 5);
    legend.push_back({meanLabel, kMean, 5});
    if (kind != CurveKind::PrecisionRecall) {
        // The best-F1 confidence: the default confidence wherever this model proposes boxes.
        const auto top = axes.toPixel(curves.bestConfidence, axes.y1),
                   bottom = axes.toPixel(curves.bestConfidence, axes.y0);
        for (double y = top.y; y < bottom.y; y += 16)
            canvas.line({top.x, y}, {top.x, std::min(y + 8, bottom.y)}, kMarker, 2);
        legend.push_back({format("best F1 confidence %.3f", curves.bestConfidence), kMarker, 2});
    }
    // The legend beside the chart, as Ultralytics places it (upper left outside the axes).
    Axes side;
    side.area = cv::Rect(axes.area.x + axes.area.width + 10, axes.area.y - 10,
                         kWidth - axes.area.x - axes.area.width - 20, axes.area.height);
    canvas.legend(side, legend, kFont - 4, Canvas::Corner::UpperLeft);
    if (auto saved = canvas.save(file); !saved)
        return fail(saved.error());
    return areaOf(axes);
}

Expected<PlotArea> writeConfusionMatrix(const fs::path& file, const run::RunCurves& curves, bool normalized) {
    const int n = static_cast<int>(curves.classNames.size()) + 1;
    if (curves.confusionMatrix.size() != size_t(n * n))
        return fail(file.string() + ": the run's confusion matrix does not match its " +
                    std::to_string(n - 1) + " classes");
    std::vector<double> matrix = curves.confusionMatrix; // [predicted][true]
    if (normalized)
        for (int col = 0; col < n; ++col) {
            double sum = 0;
            for (int row = 0; row < n; ++row)
                sum += matrix[size_t(row * n + col)];
            for (int row = 0; row < n; ++row)
                matrix[size_t(row * n + col)] /= sum + 1e-9;
        }
    const double most = std::max(1e-9, *std::max_element(matrix.begin(), matrix.end()));
    const bool labels = n < 31, numbers = n < 31;
    const int cell = std::clamp(1500 / n, 18, 140), font = std::clamp(cell / 4, 12, 26);
    std::vector<std::string> names = curves.classNames;
    names.push_back("background");
    Canvas measurer(1, 1);
    int nameWidth = 0;
    for (const auto& name : names)
        nameWidth = std::max(nameWidth, measurer.measure(name, font).width);
    const int left = 120 + (labels ? nameWidth : 0), top = 110, bottomPad = 90 + (labels ? nameWidth : 0);
    Canvas canvas(left + n * cell + 60, top + n * cell + bottomPad);
    Axes axes;
    axes.area = cv::Rect(left, top, n * cell, n * cell);
    axes.x0 = 0;
    axes.x1 = n;
    axes.y0 = n;
    axes.y1 = 0;
    for (int row = 0; row < n; ++row)
        for (int col = 0; col < n; ++col) {
            const double v = matrix[size_t(row * n + col)];
            const cv::Rect rect(left + col * cell, top + row * cell, cell, cell);
            canvas.fill(rect, blues(v / most));
            if (numbers && v > (normalized ? 0.005 : 0))
                canvas.text(normalized ? format("%.2f", v) : format("%.0f", v),
                            {rect.x + cell / 2, rect.y + cell / 2}, font,
                            v / most > 0.5 ? rgb(255, 255, 255) : kInk, Align::Center, Align::Center);
        }
    canvas.frame(axes.area, kInk);
    if (labels)
        for (int i = 0; i < n; ++i) {
            canvas.text(names[size_t(i)], {left - 8, top + i * cell + cell / 2}, font, kInk, Align::End,
                        Align::Center);
            canvas.text(names[size_t(i)], {left + i * cell + cell / 2, top + n * cell + 8}, font, kInk,
                        Align::Center, Align::Start, true);
        }
    canvas.text("True", {left + n * cell / 2, top + n * cell + (labels ? nameWidth : 0) + 30}, font + 4, kInk,
                Align::Center, Align::Start);
    canvas.text("Predicted", {30, top + n * cell / 2}, font + 4, kInk, Align::Start, Align::Center, true);
    canvas.text(normalized ? "Confusion Matrix Normalized" : "Confusion Matrix",
                {left + n * cell / 2, top - 30}, font + 8, kInk, Align::Center, Align::End);
    canvas.text(format("conf %.2f", curves.matrixConfidence) + format(", IoU %.2f", curves.matrixIou),
                {left + n * cell / 2, top - 8}, font, rgb(110, 110, 110), Align::Center, Align::End);
    if (auto saved = canvas.save(file); !saved)
        return fail(saved.error());
    return areaOf(axes);
}

Status writeLabelsPlot(const fs::path& file, const std::vector<std::string>& classNames,
                       const std::vector<LabelBox>& boxes) {
    constexpr int kSize = 1600, kFont = 22, kHalf = kSize / 2;
    Canvas canvas(kSize, kSize);
    const int nc = static_cast<int>(classNames.size());
    // Instances per class.
    std::vector<double> counts(size_t(std::max(nc, 1)), 0.0);
    for (const auto& box : boxes)
        if (box.classIndex >= 0 && box.classIndex < nc)
            counts[size_t(box.classIndex)] += 1;
    int nameWidth = 0;
    for (const auto& name : classNames)
        nameWidth = std::max(nameWidth, canvas.measure(name, kFont - 4).width);
    const bool names = nc < 30;
    Axes bars;
    bars.area = cv::Rect(110, 60, kHalf - 150, kHalf - 100 - (names ? std::min(nameWidth, 220) : 40));
    bars.x0 = 0;
    bars.x1 = std::max(nc, 1);
    bars.y0 = 0;
    bars.y1 = std::max(1.0, *std::max_element(counts.begin(), counts.end()) * 1.08);
    canvas.drawAxes(bars, "", "instances", "", kFont, false);
    // Names under the bars: across when every one fits its bar, else turned.
    const bool across = nc > 0 && nameWidth < bars.area.width / nc - 6;
    for (int c = 0; c < nc; ++c) {
        const auto a = bars.toPixel(c + 0.1, counts[size_t(c)]), b = bars.toPixel(c + 0.9, 0);
        canvas.fill(cv::Rect(cv::Point(int(a.x), int(a.y)), cv::Point(int(b.x), int(b.y))), classColor(c));
        if (names)
            canvas.text(classNames[size_t(c)], {int((a.x + b.x) / 2), bars.area.y + bars.area.height + 6},
                        kFont - 4, kInk, Align::Center, Align::Start, !across);
    }
    // Box layout: up to 1000 boxes centred, as Ultralytics draws them.
    Axes layout;
    layout.area = cv::Rect(kHalf + 60, 60, kHalf - 100, kHalf - 100);
    canvas.frame(layout.area, kInk);
    for (size_t i = 0; i < boxes.size() && i < 1000; ++i) {
        const auto a = layout.toPixel(0.5 - boxes[i].w / 2, 0.5 + boxes[i].h / 2);
        const auto b = layout.toPixel(0.5 + boxes[i].w / 2, 0.5 - boxes[i].h / 2);
        cv::rectangle(canvas.image(), cv::Point(int(a.x), int(a.y)), cv::Point(int(b.x), int(b.y)),
                      classColor(boxes[i].classIndex), 1, cv::LINE_AA);
    }
    // Centres and sizes.
    std::vector<std::pair<double, double>> centres, sizes;
    for (const auto& box : boxes) {
        centres.emplace_back(box.cx, 1 - box.cy); // y grows downwards in the image
        sizes.emplace_back(box.w, box.h);
    }
    Axes xy, wh;
    xy.area = cv::Rect(110, kHalf + 40, kHalf - 150, kHalf - 130);
    wh.area = cv::Rect(kHalf + 110, kHalf + 40, kHalf - 150, kHalf - 130);
    heatMap(canvas, xy, centres);
    heatMap(canvas, wh, sizes);
    canvas.drawAxes(xy, "x", "y", "", kFont);
    canvas.drawAxes(wh, "width", "height", "", kFont);
    return canvas.save(file);
}

Status writeBatchPicture(const fs::path& file, const std::vector<BatchImage>& images,
                         const std::vector<std::string>& classNames) {
    const int n = std::min<int>(16, static_cast<int>(images.size()));
    if (n == 0)
        return fail(file.string() + ": a batch without images");
    const int columns = static_cast<int>(std::ceil(std::sqrt(double(n))));
    const int rows = (n + columns - 1) / columns;
    int side = 0;
    for (int i = 0; i < n; ++i)
        side = std::max({side, images[size_t(i)].width, images[size_t(i)].height});
    const double scale = std::min(1.0, 1920.0 / (columns * std::max(side, 1)));
    const int tile = std::max(1, static_cast<int>(side * scale));
    Canvas canvas(columns * tile, rows * tile);
    const int font = std::clamp(tile / 28, 11, 20);
    for (int i = 0; i < n; ++i) {
        const BatchImage& image = images[size_t(i)];
        if (!image.rgb || image.width <= 0 || image.height <= 0)
            continue;
        const cv::Point origin((i % columns) * tile, (i / columns) * tile);
        const cv::Mat pixels(image.height, image.width, CV_8UC3, const_cast<unsigned char*>(image.rgb));
        cv::Mat bgr;
        cv::cvtColor(pixels, bgr, cv::COLOR_RGB2BGR);
        cv::Mat scaled;
        cv::resize(bgr, scaled,
                   cv::Size(std::max(1, int(image.width * scale)), std::max(1, int(image.height * scale))), 0,
                   0, cv::INTER_AREA);
        scaled.copyTo(canvas.image()(cv::Rect(origin, scaled.size()) &
                                     cv::Rect(0, 0, canvas.width(), canvas.height())));
        for (const auto& box : image.boxes) {
            const cv::Point a(origin.x + int(box.x1 * scale), origin.y + int(box.y1 * scale));
            const cv::Point b(origin.x + int(box.x2 * scale), origin.y + int(box.y2 * scale));
            const cv::Scalar color = classColor(box.classIndex);
            cv::rectangle(canvas.image(), a, b, color, 2, cv::LINE_AA);
            std::string name = box.classIndex >= 0 && size_t(box.classIndex) < classNames.size()
                                   ? classNames[size_t(box.classIndex)]
                                   : std::to_string(box.classIndex);
            if (box.score >= 0)
                name += format(" %.2f", box.score);
            const cv::Size size = canvas.measure(name, font);
            const cv::Rect label(a.x, std::max(origin.y, a.y - size.height), size.width + 4, size.height);
            canvas.fill(label, color);
            canvas.text(name, {label.x + 2, label.y}, font, rgb(255, 255, 255), Align::Start, Align::Start);
        }
        canvas.frame(cv::Rect(origin, cv::Size(tile, tile)), rgb(255, 255, 255), 2);
    }
    return canvas.save(file);
}

Expected<std::vector<fs::path>> writeRunPlots(const fs::path& runDir,
                                              const std::vector<std::string>& classNames,
                                              const std::vector<LabelBox>* labels) {
    std::vector<fs::path> written;
    std::error_code ec;
    const run::RunFolder folder(runDir);
    const fs::path resultsFile = folder.results(), curvesFile = folder.curves();
    const bool haveResults = fs::exists(resultsFile, ec), haveCurves = fs::exists(curvesFile, ec);
    if (!haveResults && !haveCurves && !labels)
        return fail(runDir.string() + ": neither results.csv nor curves.json, so there is nothing to draw");
    if (haveResults) {
        auto results = run::readResultsCsv(resultsFile);
        if (!results)
            return fail(results.error());
        if (!results->rows.empty()) {
            const fs::path file = folder.picture(run::RunFolder::Picture::Results);
            if (auto status = writeResultsPlot(file, *results); !status)
                return fail(status.error());
            written.push_back(file);
        }
    }
    std::vector<std::string> names = classNames;
    if (haveCurves) {
        auto curves = run::readRunCurves(curvesFile);
        if (!curves)
            return fail(curves.error());
        names = curves->classNames;
        if (!curves->x.empty() && !curves->precisionAtRecall.empty())
            for (const CurveKind kind :
                 {CurveKind::PrecisionRecall, CurveKind::F1, CurveKind::Precision, CurveKind::Recall}) {
                if (auto drawn = writeCurvePlot(runDir / curveFileName(kind), *curves, kind); !drawn)
                    return fail(drawn.error());
                written.push_back(runDir / curveFileName(kind));
            }
        for (const bool normalized : {false, true}) {
            const fs::path file =
                folder.picture(normalized ? run::RunFolder::Picture::ConfusionMatrixNormalized
                                          : run::RunFolder::Picture::ConfusionMatrix);
            if (auto drawn = writeConfusionMatrix(file, *curves, normalized); !drawn)
                return fail(drawn.error());
            written.push_back(file);
        }
    }
    if (labels) {
        const fs::path file = folder.picture(run::RunFolder::Picture::Labels);
        if (auto status = writeLabelsPlot(file, names, *labels); !status)
            return fail(status.error());
        written.push_back(file);
    }
    return written;
}

} // namespace osprey::plot
