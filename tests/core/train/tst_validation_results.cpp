// Per-image validation results (issue 20): the error analysis of one image on hand-made cases, the
// confusion matrix's cells per image, the validation.jsonl round trip and its damaged files, the letterbox
// mapping against the real val loader, and the recorder end to end on synthetic scorer calls.
#include "metrics/confusion_matrix.h"
#include "metrics/image_errors.h"
#include "run/run_folder.h"
#include "run/val_results.h"
#include "train/data_loader.h"
#include "train/validation_recorder.h"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace osprey;
using metrics::ErrorMark;
namespace fs = std::filesystem;

namespace {

metrics::GroundTruthBox truth(double x1, double y1, double x2, double y2, int classId) {
    return {{x1, y1, x2, y2}, classId};
}
metrics::DetectionBox detection(double x1, double y1, double x2, double y2, int classId, double score) {
    return {{x1, y1, x2, y2}, classId, score};
}

/// Counts every box of one image as run::ValMark, for the recorder test.
class CountingScorer : public train::DetectionScorer {
public:
    void reset() override { images = 0; }
    void addImage(const std::vector<train::TargetBox>&, const std::vector<train::ScoredBox>&) override {
        ++images;
    }
    train::ValMetrics compute() override { return {0.5, 0.25, 0.125, 0.0625}; }
    int images = 0;
};

} // namespace

class TestValidationResults : public QObject {
    Q_OBJECT
private slots:
    void perfectImageCostsOnlyItsShyness() {
        const std::vector truths{truth(0, 0, 10, 10, 0), truth(20, 20, 40, 40, 1)};
        const std::vector dets{detection(0, 0, 10, 10, 0, 0.9), detection(21, 21, 40, 40, 1, 0.6),
                               detection(50, 50, 60, 60, 2, 0.01)}; // below the score floor: ignored
        const auto e = metrics::analyseImageErrors(truths, dets);
        QCOMPARE(e.truePositives, 2);
        QCOMPARE(e.falsePositives, 0);
        QCOMPARE(e.missed, 0);
        QVERIFY(std::abs(e.score - (0.1 + 0.4) / 3) < 1e-12);
        QCOMPARE(e.detectionMarks, (std::vector{ErrorMark::Match, ErrorMark::Match, ErrorMark::Hidden}));
        QCOMPARE(e.truthMarks, (std::vector{ErrorMark::Match, ErrorMark::Match}));
    }
    void falsePositivesMissedLowIouAndWrongClass() {
        const std::vector truths{
            truth(0, 0, 10, 10, 0),     // found only by a shy detection (0.2 < 0.25): missed
            truth(100, 0, 120, 20, 0),  // overlapped at IoU 0.29 by a class-0 detection: low IoU
            truth(200, 0, 220, 20, 1),  // a confident class-2 detection on it: wrong class
            truth(300, 0, 320, 20, 3)}; // nothing near it: missed
        const std::vector dets{detection(0, 0, 10, 10, 0, 0.2), detection(110, 0, 135, 20, 0, 0.7),
                               detection(200, 0, 220, 20, 2, 0.8), detection(500, 500, 520, 520, 1, 0.3)};
        const auto e = metrics::analyseImageErrors(truths, dets);
        QCOMPARE(e.truePositives, 0);
        // FP: the wrong-class detection and the background one; missed: boxes 0, 2 (wrong class) and 3.
        QCOMPARE(e.falsePositives, 2);
        QCOMPARE(e.missed, 3);
        QCOMPARE(e.lowIou, 1);
        QCOMPARE(e.wrongClass, 1);
        QCOMPARE(e.detectionMarks, (std::vector{ErrorMark::Hidden, ErrorMark::LowIou, ErrorMark::WrongClass,
                                                ErrorMark::FalsePositive}));
        QCOMPARE(e.truthMarks, (std::vector{ErrorMark::Missed, ErrorMark::LowIou, ErrorMark::WrongClass,
                                            ErrorMark::Missed}));
        // IoU of box 1 and its partner: 10 x 20 over (400 + 500 - 200).
        QVERIFY(std::abs(e.truthIou[1] - 200.0 / 700.0) < 1e-12);
        // Score: box 0 matched at 0.2 -> 0.8; boxes 1-3 unmatched -> 1 each; unmatched detections 0.7 + 0.8 +
        // 0.3; over 4 boxes + 1.
        QVERIFY2(std::abs(e.score - (0.8 + 3 + 0.7 + 0.8 + 0.3) / 5) < 1e-12,
                 qPrintable(QString::number(e.score)));
    }
    void aSwappedLabelOutscoresAnUnsureModel() {
        // The model finds the object with 0.6 but the label says another class: (1 + 0.6) / 2; a correct
        // label found with the same confidence: 0.4 / 2.
        const std::vector swapped{truth(0, 0, 50, 50, 1)};
        const std::vector correct{truth(0, 0, 50, 50, 0)};
        const std::vector dets{detection(1, 1, 50, 50, 0, 0.6)};
        QVERIFY(std::abs(metrics::analyseImageErrors(swapped, dets).score - 0.8) < 1e-9);
        QVERIFY(std::abs(metrics::analyseImageErrors(correct, dets).score - 0.2) < 1e-9);
        // A second guess of another class on the same object is left out (not a false positive).
        const std::vector twoGuesses{detection(1, 1, 50, 50, 0, 0.6), detection(0, 0, 50, 50, 2, 0.5)};
        const auto e = metrics::analyseImageErrors(correct, twoGuesses);
        QCOMPARE(e.falsePositives, 0);
        QCOMPARE(e.detectionMarks[1], ErrorMark::Hidden);
        QVERIFY(std::abs(e.score - 0.2) < 1e-9);
    }
    void crowdBoxesCostNothing() {
        std::vector truths{truth(0, 0, 10, 10, 0)};
        truths[0].crowd = true;
        const auto e = metrics::analyseImageErrors(truths, std::vector<metrics::DetectionBox>{});
        QCOMPARE(e.missed, 0);
        QCOMPARE(e.score, 0.0);
    }
    void confusionCellsAddUpToTheMatrix() {
        const std::vector truths{truth(0, 0, 10, 10, 0), truth(20, 0, 30, 10, 1), truth(40, 0, 50, 10, 1)};
        const std::vector dets{detection(0, 0, 10, 10, 0, 0.9), detection(20, 0, 30, 10, 0, 0.8),
                               detection(80, 0, 90, 10, 1, 0.5), detection(40, 0, 50, 10, 1, 0.1)};
        metrics::ConfusionMatrix matrix(2);
        auto cells = matrix.imageCells(truths, dets);
        QVERIFY(cells);
        using Cell = std::pair<int, int>;
        std::vector<Cell> sorted = cells.value();
        std::sort(sorted.begin(), sorted.end());
        // (0,0) hit, (0,1) confused, (2,1) missed box 2 (its detection is below 0.25), (1,2) background FP.
        QCOMPARE(sorted, (std::vector<Cell>{{0, 0}, {0, 1}, {1, 2}, {2, 1}}));
        QVERIFY(matrix.addImage(truths, dets));
        QCOMPARE(matrix.count(0, 1), 1LL);
        QCOMPARE(matrix.count(2, 1), 1LL);
        QCOMPARE(matrix.count(1, 2), 1LL);
    }

    void fileRoundTripAndDamage() {
        QTemporaryDir dir;
        const fs::path file = run::RunFolder(dir.path().toStdString()).validation();
        run::EpochValidation e;
        e.epoch = 2;
        e.classNames = {"a", "b"};
        e.matrix.assign(9, 0);
        e.matrix[0 * 3 + 1] = 4;
        e.cells.push_back({0, 1, 4, 2, {7, 9}});
        e.totals = {10, 5, 3, 4, 1, 1, 6.5};
        e.rest = {8, 5, 0, 1, 0, 0, 0.75};
        run::ValImageResult image;
        image.imageId = 9;
        image.name = "x.jpg";
        image.truths = 2;
        image.counts = {1, 0, 2, 2, 1, 1, 3.25};
        image.boxes.push_back({1.04f, 2, 30, 40.26f, 1, 0.8765f, run::ValMark::WrongClass});
        image.boxes.push_back({5, 6, 7, 8, 0, -1, run::ValMark::Missed});
        e.worst.push_back(image);
        QVERIFY(run::appendEpochValidation(file, e));
        e.epoch = 1;
        QVERIFY(run::appendEpochValidation(file, e));
        e.epoch = 2;
        e.totals.falsePositives = 99; // a resumed run validates epoch 2 again: the later line wins
        QVERIFY(run::appendEpochValidation(file, e));

        auto read = run::readValidationFile(file);
        QVERIFY2(read, read ? "" : read.message().c_str());
        QCOMPARE(read->size(), size_t(2));
        QCOMPARE(read->at(0).epoch, 1);
        const auto& back = read->at(1);
        QCOMPARE(back.epoch, 2);
        QCOMPARE(back.totals.falsePositives, 99LL);
        QCOMPARE(back.rest.score, 0.75);
        QCOMPARE(back.matrixCount(0, 1), 4LL);
        QCOMPARE(back.cell(0, 1)->imageIds, (std::vector<std::int64_t>{7, 9}));
        QVERIFY(back.cell(1, 1) == nullptr);
        QCOMPARE(back.worst.size(), size_t(1));
        const auto& b = back.worst[0];
        QCOMPARE(b.imageId, std::int64_t(9));
        QCOMPARE(b.name, std::string("x.jpg"));
        QCOMPARE(b.counts.score, 3.25);
        QCOMPARE(b.counts.wrongClass, 1LL);
        QCOMPARE(b.boxes.size(), size_t(2));
        QVERIFY(std::abs(b.boxes[0].x1 - 1.0f) < 1e-4f); // rounded to 0.1 px
        QVERIFY(std::abs(b.boxes[0].y2 - 40.3f) < 1e-4f);
        QVERIFY(std::abs(b.boxes[0].score - 0.877f) < 1e-6f);
        QCOMPARE(b.boxes[0].mark, run::ValMark::WrongClass);
        QVERIFY(!b.boxes[1].isDetection());
        QCOMPARE(run::findEpoch(*read, 0)->epoch, 2);
        QVERIFY(!run::findEpoch(*read, 5));

        // A crash mid-line: the cut line is skipped.
        {
            std::ofstream out(file, std::ios::app);
            out << "{\"epoch\": 3, \"conf\"";
        }
        read = run::readValidationFile(file);
        QVERIFY(read);
        QCOMPARE(read->size(), size_t(2));
        // A bad line in the middle is an error naming the file and the line.
        {
            std::ofstream out(file, std::ios::app);
            out << "\n";
        }
        QVERIFY(run::appendEpochValidation(file, e));
        read = run::readValidationFile(file);
        QVERIFY(!read);
        QVERIFY2(read.message().find(file.string() + ":4: not valid JSON") != std::string::npos,
                 read.message().c_str());
        QVERIFY(!run::readValidationFile(file.parent_path() / "none.jsonl"));
    }

    /// Ultralytics' rect val batch shapes (pad 0.5, stride 32): ceil(ratio x imgsz / 32 + 0.5) x 32 for the
    /// short side, from the batch's extreme height/width ratios; worked by hand from its formula.
    void valBatchesAreUltralyticsRectangles() {
        using Sizes = std::vector<std::pair<int, int>>;
        const struct {
            Sizes sizes;
            int imgsz, width, height;
        } cases[] = {
            {{{320, 320}}, 320, 352, 352},                     // square: half a stride of padding each side
            {{{640, 480}, {640, 360}}, 640, 672, 512},         // landscape: 0.75 x 20 + 0.5 = 15.5 -> 16 x 32
            {{{480, 640}, {300, 600}}, 640, 512, 672},         // portrait: widest 0.75
            {{{640, 480}, {480, 640}}, 640, 672, 672},         // mixed: square
            {{{1000, 100}}, 320, 352, 64},                     // 0.1 x 10 + 0.5 = 1.5 -> 2 x 32
            {{{200, 120}, {200, 119}, {50, 30}}, 96, 128, 96}, // highest 0.6: 0.6 x 3 + 0.5 = 2.3 -> 3 x 32
        };
        for (const auto& c : cases) {
            const auto shape = train::valBatchShape(c.sizes, c.imgsz);
            QCOMPARE(shape.width, c.width);
            QCOMPARE(shape.height, c.height);
        }
    }

    void letterboxMappingMatchesTheValLoader() {
        QTemporaryDir dir;
        const struct {
            int width, height, imgsz;
        } cases[] = {{200, 120, 96}, {77, 131, 64}, {64, 64, 64}, {50, 30, 128}};
        for (const auto& c : cases) {
            const fs::path file =
                fs::path(dir.path().toStdString()) / QString("i%1.png").arg(c.width).toStdString();
            QVERIFY(cv::imwrite(file.string(), cv::Mat(c.height, c.width, CV_8UC3, cv::Scalar(9, 9, 9))));
            train::Sample sample;
            sample.imageId = 1;
            sample.path = file;
            sample.boxes.push_back({2, 0.1f * c.width, 0.2f * c.height, 0.9f * c.width, 0.7f * c.height});
            train::LoaderOptions options;
            options.mode = train::LoaderMode::Val;
            options.imgsz = c.imgsz;
            options.batch = 1;
            options.workers = 0;
            train::DataLoader loader({sample}, options);
            loader.startEpoch({0, false, false});
            const auto batch = loader.next();
            QVERIFY(batch && batch->boxes.size() == 1);
            const auto images = train::recordedImagesOf({sample});
            QCOMPARE(images[0].width, c.width);
            // The loader letterboxes to the batch's rectangular shape (Ultralytics' rect val batches).
            const auto shape = train::valBatchShape({{c.width, c.height}}, c.imgsz);
            QCOMPARE(batch->width, shape.width);
            QCOMPARE(batch->height, shape.height);
            const train::LetterboxMapping map(images[0].width, images[0].height, c.imgsz, shape.width,
                                              shape.height);
            const auto& b = batch->boxes[0];
            const auto& s = sample.boxes[0];
            QVERIFY2(
                std::abs(map.toImageX(b.x1) - s.x1) < 1e-3 && std::abs(map.toImageY(b.y1) - s.y1) < 1e-3 &&
                    std::abs(map.toImageX(b.x2) - s.x2) < 1e-3 && std::abs(map.toImageY(b.y2) - s.y2) < 1e-3,
                qPrintable(QString("%1x%2 at %3: (%4, %5) -> (%6, %7)")
                               .arg(c.width)
                               .arg(c.height)
                               .arg(c.imgsz)
                               .arg(b.x1)
                               .arg(b.y1)
                               .arg(map.toImageX(b.x1))
                               .arg(map.toImageY(b.y1))));
        }
    }

    void recorderRanksAndWritesOnTheEpochEvent() {
        QTemporaryDir dir;
        const fs::path file = run::RunFolder(dir.path().toStdString()).validation();
        // Three 100x50 images validated at imgsz 100: the letterbox scale is 1, the top padding 25.
        std::vector<train::RecordedImage> images;
        for (int i = 0; i < 3; ++i) {
            train::RecordedImage image;
            image.imageId = 10 + i;
            image.name = QString("img%1.jpg").arg(i).toStdString();
            image.width = 100;
            image.height = 50;
            image.boxes.push_back({0, 0, 10, 10, 30, 30});
            images.push_back(image);
        }
        CountingScorer inner;
        run::ValidationLimits limits;
        limits.worstImages = 2;
        train::ValidationRecorder recorder(inner, images, {"a", "b"}, 100, file, limits);
        recorder.reset();
        const std::vector<train::TargetBox> truths{{0, 0, 10, 35, 30, 55}};
        // Image 0: found (0.9). Image 1: nothing found. Image 2: found as class 1 (a swapped label).
        recorder.addImage(truths, {{10, 35, 30, 55, 0.9f, 0}});
        recorder.addImage(truths, {});
        recorder.addImage(truths, {{10, 35, 30, 55, 0.8f, 1}});
        const auto metrics = recorder.compute();
        QCOMPARE(metrics.map50, 0.125); // the wrapped scorer's, unchanged
        QCOMPARE(inner.images, 3);
        QVERIFY(!fs::exists(file)); // written on the epoch event
        run::TrainEvent log;
        log.type = run::TrainEvent::Type::Log;
        recorder.onEvent(log);
        QVERIFY(!fs::exists(file));
        run::TrainEvent epoch;
        epoch.type = run::TrainEvent::Type::Epoch;
        epoch.metrics.epoch = 4;
        recorder.onEvent(epoch);
        recorder.onEvent(epoch); // once per validation

        auto read = run::readValidationFile(file);
        QVERIFY2(read, read ? "" : read.message().c_str());
        QCOMPARE(read->size(), size_t(1));
        const auto& e = read->front();
        QCOMPARE(e.epoch, 4);
        QCOMPARE(e.totals.images, 3LL);
        QCOMPARE(e.totals.truePositives, 1LL);
        QCOMPARE(e.totals.wrongClass, 1LL);
        QCOMPARE(e.worst.size(), size_t(2));
        QCOMPARE(e.worst[0].imageId, std::int64_t(12)); // (1 + 0.8) / 2
        QCOMPARE(e.worst[1].imageId, std::int64_t(11)); // 1 / 2
        QVERIFY(std::abs(e.worst[0].counts.score - 0.9) < 1e-3);
        QCOMPARE(e.rest.images, 1LL);
        QVERIFY(std::abs(e.rest.score - 0.05) < 1e-3);
        // The detection comes back in image pixels (top padding 25 removed), beside the box it missed.
        const auto& worst = e.worst[0];
        QCOMPARE(worst.boxes.size(), size_t(2));
        QVERIFY(worst.boxes[0].isDetection());
        QCOMPARE(worst.boxes[0].mark, run::ValMark::WrongClass);
        QVERIFY(std::abs(worst.boxes[0].y1 - 10.0f) < 1e-3f && std::abs(worst.boxes[0].x2 - 30.0f) < 1e-3f);
        QCOMPARE(worst.boxes[1].mark, run::ValMark::WrongClass);
        QVERIFY(!worst.boxes[1].isDetection());
        // The confusion matrix: (a, a) once, (b detected, a labelled) once, (background, a) once.
        QCOMPARE(e.matrixCount(0, 0), 1LL);
        QCOMPARE(e.matrixCount(1, 0), 1LL);
        QCOMPARE(e.matrixCount(2, 0), 1LL);
        QCOMPARE(e.cell(1, 0)->imageIds, (std::vector<std::int64_t>{12}));
        QCOMPARE(e.cell(0, 0)->imageIds, (std::vector<std::int64_t>{10}));

        // A validation that scored fewer images than the val set is not recorded.
        recorder.reset();
        recorder.addImage(truths, {});
        recorder.compute();
        epoch.metrics.epoch = 5;
        recorder.onEvent(epoch);
        read = run::readValidationFile(file);
        QVERIFY(read);
        QCOMPARE(read->size(), size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestValidationResults)
#include "tst_validation_results.moc"
