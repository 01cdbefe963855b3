// The run folder's pictures (issue 33) drawn from known numbers and read back: each file opens at its size
// and is not blank, and the known curves pass where they must — the per-class and all-classes lines of the
// PR curve, the best-F1 confidence marker, the darkest cell of the confusion matrix — while places no curve
// passes stay background. Chinese class names have glyphs in the font the pictures use.
#include "plot/run_plots.h"
#include "run/run_folder.h"

#include <QTemporaryDir>
#include <QTest>

#include <opencv2/imgcodecs.hpp>

#include <chrono>
#include <cmath>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

run::RunCurves knownCurves() {
    run::RunCurves curves;
    curves.epoch = 7;
    curves.classNames = {"circle", "螺丝", "nut"};
    curves.classes = {0, 1}; // "nut" has no val labels
    for (int i = 0; i <= 100; ++i)
        curves.x.push_back(i / 100.0);
    std::vector<double> pr0, pr1, f0, f1, p0, r0;
    for (const double x : curves.x) {
        pr0.push_back(x <= 0.5 ? 1.0 : 0.2);
        pr1.push_back(0.6);
        f0.push_back(1.0 - std::abs(x - 0.3));
        f1.push_back(0.5 - 0.5 * x);
        p0.push_back(x);
        r0.push_back(1 - x);
    }
    curves.precisionAtRecall = {pr0, pr1};
    curves.f1 = {f0, f1};
    curves.precision = {p0, p0};
    curves.recall = {r0, r0};
    curves.ap = {std::vector<double>(10, 0.8), std::vector<double>(10, 0.6)};
    curves.bestConfidence = 0.3;
    curves.bestF1 = 0.6;
    curves.classBestConfidence = {0.3, 0.0};
    curves.confusionMatrix = {40, 2, 0, 1, 3, 25, 0, 2, 0, 0, 0, 0, 5, 1, 0, 0};
    return curves;
}

double distance(const cv::Vec3b& pixel, cv::Vec3b expected) {
    return cv::norm(cv::Vec3d(pixel[0], pixel[1], pixel[2]) -
                    cv::Vec3d(expected[0], expected[1], expected[2]));
}

/// The distance from `expected` (BGR) of the closest pixel within `radius` of (x, y).
double closest(const cv::Mat& image, double x, double y, cv::Vec3b expected, int radius = 3) {
    double best = 1e9;
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            const int px = static_cast<int>(std::lround(x)) + dx, py = static_cast<int>(std::lround(y)) + dy;
            if (px >= 0 && py >= 0 && px < image.cols && py < image.rows)
                best = std::min(best, distance(image.at<cv::Vec3b>(py, px), expected));
        }
    return best;
}

bool nonBlank(const cv::Mat& image) {
    cv::Mat grey;
    image.convertTo(grey, CV_64F);
    cv::Scalar mean, deviation;
    cv::meanStdDev(image, mean, deviation);
    return deviation[0] > 5 && deviation[1] > 5 && deviation[2] > 5;
}

const cv::Vec3b kWhite(255, 255, 255);
const cv::Vec3b kMeanBlue(255, 0, 0);  // BGR of the "all classes" line
const cv::Vec3b kClass0(180, 119, 31); // BGR of the first class colour (matplotlib's tab10 blue)
const cv::Vec3b kMarker(50, 50, 50);

} // namespace

class TestRunPlots : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    fs::path path(const char* name) { return fs::path(m_dir.path().toStdString()) / name; }

private slots:
    void chineseNamesHaveGlyphs() {
        // fonts-noto-cjk is one of the packages the README's setup installs.
        QVERIFY(plot::fontCovers("circle"));
        QVERIFY(plot::fontCovers("螺丝 垫圈"));
    }

    void prCurvePassesWhereItMust() {
        auto area =
            plot::writeCurvePlot(path("PR_curve.png"), knownCurves(), plot::CurveKind::PrecisionRecall);
        QVERIFY2(area, area ? "" : area.message().c_str());
        const cv::Mat image = cv::imread(path("PR_curve.png").string());
        QCOMPARE(image.cols, 2250);
        QCOMPARE(image.rows, 1500);
        QVERIFY(nonBlank(image));
        // Class 0 at precision 1 up to recall 0.5; the mean of the two classes (0.8) over the same span.
        for (const double recall : {0.1, 0.25, 0.4}) {
            QVERIFY(closest(image, area->pixelX(recall), area->pixelY(1.0), kClass0) < 60);
            QVERIFY(closest(image, area->pixelX(recall), area->pixelY(0.8), kMeanBlue) < 40);
            // No curve at precision 0.35 there: background (white, or a light grid line).
            QVERIFY(distance(image.at<cv::Vec3b>(int(area->pixelY(0.35)), int(area->pixelX(recall)) + 1),
                             kWhite) < 60);
        }
        // After recall 0.5 the mean drops to (0.2 + 0.6) / 2.
        QVERIFY(closest(image, area->pixelX(0.8), area->pixelY(0.4), kMeanBlue) < 40);
        QVERIFY(closest(image, area->pixelX(0.8), area->pixelY(0.8), kMeanBlue) > 100);
    }

    void f1CurveMarksTheBestConfidence() {
        auto area = plot::writeCurvePlot(path("F1_curve.png"), knownCurves(), plot::CurveKind::F1);
        QVERIFY(area);
        const cv::Mat image = cv::imread(path("F1_curve.png").string());
        QVERIFY(nonBlank(image));
        // The dashed marker at confidence 0.3, from bottom to top.
        int marked = 0;
        for (double f1 = 0.05; f1 < 1.0; f1 += 0.05)
            marked += closest(image, area->pixelX(0.3), area->pixelY(f1), kMarker, 5) < 60;
        QVERIFY2(marked >= 10, qPrintable(QString::number(marked)));
        // The mean of the two F1 curves, (1 - |x - 0.3| + 0.5 - 0.5x) / 2, at x = 0.8.
        QVERIFY(closest(image, area->pixelX(0.8), area->pixelY((0.5 + 0.1) / 2), kMeanBlue) < 40);
        QVERIFY(closest(image, area->pixelX(0.6), area->pixelY(0.9), kMarker, 5) > 100);
    }

    void confusionMatrixShadesByCount() {
        const auto curves = knownCurves();
        auto area = plot::writeConfusionMatrix(path("confusion_matrix.png"), curves, false);
        QVERIFY(area);
        const cv::Mat image = cv::imread(path("confusion_matrix.png").string());
        QVERIFY(nonBlank(image));
        const double cell = area->width / 4.0;
        // [predicted 0][true 0] = 40, the largest count: the darkest blue (sampled off the number).
        const cv::Vec3b dark = image.at<cv::Vec3b>(int(area->y + cell * 0.1), int(area->x + cell * 0.1));
        QVERIFY2(distance(dark, cv::Vec3b(107, 48, 8)) < 30,
                 qPrintable(QString::number(distance(dark, cv::Vec3b(107, 48, 8)))));
        // [predicted 2][true 2] = 0: white.
        QVERIFY(distance(image.at<cv::Vec3b>(int(area->y + cell * 2.1), int(area->x + cell * 2.1)),
                         cv::Vec3b(255, 251, 247)) < 10);
        // Normalised by true class: column 0 sums 40 + 3 + 0 + 5 = 48, so its top cell is 0.83, not the
        // darkest.
        auto normalized = plot::writeConfusionMatrix(path("confusion_matrix_normalized.png"), curves, true);
        QVERIFY(normalized);
        const cv::Mat scaled = cv::imread(path("confusion_matrix_normalized.png").string());
        QVERIFY(nonBlank(scaled));
    }

    void resultsAndLabels() {
        run::ResultsTable results;
        results.columns = run::resultsCsvColumns();
        for (int epoch = 1; epoch <= 12; ++epoch) {
            std::vector<double> row(results.columns.size(), 1.0 / epoch);
            row[0] = epoch;
            results.rows.push_back(row);
        }
        QVERIFY(plot::writeResultsPlot(path("results.png"), results));
        const cv::Mat picture = cv::imread(path("results.png").string());
        QCOMPARE(picture.cols, 2400);
        QCOMPARE(picture.rows, 1200);
        QVERIFY(nonBlank(picture));

        std::vector<LabelBox> boxes;
        for (int i = 0; i < 300; ++i)
            boxes.push_back({i % 3, 0.2 + 0.002 * i, 0.5, 0.1 + 0.001 * i, 0.2});
        QVERIFY(plot::writeLabelsPlot(path("labels.jpg"), {"circle", "螺丝", "nut"}, boxes));
        const cv::Mat labels = cv::imread(path("labels.jpg").string());
        QCOMPARE(labels.cols, 1600);
        QVERIFY(nonBlank(labels));
    }

    void batchPictureShowsTheImagesAndBoxes() {
        // Four 200x200 images, a grey level each, one box on the third.
        std::vector<std::vector<unsigned char>> pixels;
        std::vector<plot::BatchImage> images;
        for (int i = 0; i < 4; ++i)
            pixels.emplace_back(200 * 200 * 3, static_cast<unsigned char>(40 + 60 * i));
        for (int i = 0; i < 4; ++i)
            images.push_back({200, 200, pixels[size_t(i)].data(), {}});
        images[2].boxes.push_back({1, 50, 60, 150, 160});
        QVERIFY(plot::writeBatchPicture(path("train_batch0.jpg"), images, {"circle", "螺丝"}));
        const cv::Mat picture = cv::imread(path("train_batch0.jpg").string());
        QCOMPARE(picture.cols, 400); // 2 x 2 tiles of 200 px
        QCOMPARE(picture.rows, 400);
        // Each tile keeps its image (JPEG: within a few levels), the box's edge is the class colour.
        for (int i = 0; i < 4; ++i) {
            const cv::Vec3b centre = picture.at<cv::Vec3b>((i / 2) * 200 + 20, (i % 2) * 200 + 100);
            QVERIFY2(std::abs(int(centre[1]) - (40 + 60 * i)) < 8, qPrintable(QString::number(centre[1])));
        }
        QVERIFY(closest(picture, 0 + 150, 200 + 110, cv::Vec3b(14, 127, 255), 2) < 60); // tab10 orange, BGR
        QVERIFY(!plot::writeBatchPicture(path("empty.jpg"), {}, {}));
    }

    void aRunFolderGetsEveryPicture() {
        const fs::path run = path("run");
        fs::create_directories(run);
        QVERIFY(!plot::writeRunPlots(run)); // nothing to draw from: an error, no files
        QVERIFY(run::writeRunCurves(run::RunFolder(run).curves(), knownCurves()));
        std::vector<LabelBox> boxes(50, LabelBox{1, 0.5, 0.5, 0.2, 0.3});
        const auto started = std::chrono::steady_clock::now();
        auto written = plot::writeRunPlots(run, {}, &boxes);
        qInfo("all pictures of a run: %.2f s",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
        QVERIFY2(written, written ? "" : written.message().c_str());
        QCOMPARE(written->size(), size_t(7)); // no results.csv: no results.png
        for (const char* name : {"PR_curve.png", "F1_curve.png", "P_curve.png", "R_curve.png",
                                 "confusion_matrix.png", "confusion_matrix_normalized.png", "labels.jpg"})
            QVERIFY2(!cv::imread((run / name).string()).empty(), name);
    }
};

QTEST_GUILESS_MAIN(TestRunPlots)
#include "tst_run_plots.moc"
