// NMS against a brute-force reference on random boxes, the tensor front end (thresholds, multi-label,
// max_det), letterbox geometry and the mapping back to original coordinates.
#include "model/inference_torch_impl.h"

#include <QtTest>

#include <algorithm>
#include <random>

using namespace osprey::model;

namespace {

// The textbook definition, written independently of greedyNms: full IoU matrix, suppression flags.
std::vector<int> referenceNms(const std::vector<Detection>& boxes, float iouThreshold, int maxDetections,
                              bool perClass) {
    const size_t n = boxes.size();
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return boxes[a].score > boxes[b].score; });
    std::vector<std::vector<double>> iou(n, std::vector<double>(n));
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) {
            const auto& a = boxes[i];
            const auto& b = boxes[j];
            const double w = std::max(0.0, double(std::min(a.x2, b.x2)) - std::max(a.x1, b.x1));
            const double h = std::max(0.0, double(std::min(a.y2, b.y2)) - std::max(a.y1, b.y1));
            const double inter = w * h;
            const double areaA = double(a.x2 - a.x1) * (a.y2 - a.y1),
                         areaB = double(b.x2 - b.x1) * (b.y2 - b.y1);
            iou[i][j] = inter > 0 ? inter / (areaA + areaB - inter) : 0.0;
        }
    }
    std::vector<bool> suppressed(n, false);
    std::vector<int> kept;
    for (size_t rank = 0; rank < n; ++rank) {
        const size_t i = order[rank];
        if (suppressed[i])
            continue;
        kept.push_back(static_cast<int>(i));
        for (size_t later = rank + 1; later < n; ++later) {
            const size_t j = order[later];
            if ((!perClass || boxes[i].classId == boxes[j].classId) && iou[i][j] > iouThreshold)
                suppressed[j] = true;
        }
    }
    if (static_cast<int>(kept.size()) > maxDetections)
        kept.resize(static_cast<size_t>(maxDetections));
    return kept;
}

std::vector<Detection> randomBoxes(std::mt19937& rng, int count, int classes) {
    std::uniform_real_distribution<float> position(0, 200), size(5, 80), score(0, 1);
    std::uniform_int_distribution<int> cls(0, classes - 1);
    std::vector<Detection> boxes;
    for (int i = 0; i < count; ++i) {
        const float x = position(rng), y = position(rng);
        boxes.push_back({x, y, x + size(rng), y + size(rng), score(rng), cls(rng)});
    }
    return boxes;
}

} // namespace

class TestNms : public QObject {
    Q_OBJECT
private slots:
    void matchesBruteForce_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("count");
        QTest::addColumn<float>("iou");
        QTest::addColumn<int>("maxDet");
        QTest::addColumn<bool>("perClass");
        QTest::newRow("dense per-class") << 1 << 400 << 0.5f << 300 << true;
        QTest::newRow("dense agnostic") << 2 << 400 << 0.5f << 300 << false;
        QTest::newRow("loose threshold") << 3 << 300 << 0.7f << 1000 << true;
        QTest::newRow("tight threshold") << 4 << 300 << 0.1f << 1000 << true;
        QTest::newRow("max_det cuts") << 5 << 500 << 0.6f << 20 << true;
    }
    void matchesBruteForce() {
        QFETCH(int, seed);
        QFETCH(int, count);
        QFETCH(float, iou);
        QFETCH(int, maxDet);
        QFETCH(bool, perClass);
        std::mt19937 rng(static_cast<unsigned>(seed));
        for (int round = 0; round < 5; ++round) {
            const auto boxes = randomBoxes(rng, count, 4);
            const auto expected = referenceNms(boxes, iou, maxDet, perClass);
            const auto actual =
                greedyNms(boxes, iou, maxDet, perClass ? ClassMode::PerClass : ClassMode::Agnostic);
            QVERIFY(expected.size() > 5);
            QCOMPARE(actual, expected);
        }
    }

    void iouOfKnownBoxes() {
        const Detection a{0, 0, 10, 10, 1, 0}, b{5, 0, 15, 10, 1, 0}, c{20, 20, 30, 30, 1, 0};
        QCOMPARE(boxIou(a, b), 50.0f / 150.0f);
        QCOMPARE(boxIou(a, c), 0.0f);
        QCOMPARE(boxIou(a, a), 1.0f);
    }

    void tensorFrontEnd() {
        // Two images, 3 classes, 5 anchors: [N, 4 + nc, A] as cx, cy, w, h, scores.
        auto decoded = torch::zeros({2, 7, 5});
        const float rows[5][7] = {
            {50, 50, 20, 20, 0.9f, 0.6f, 0.0f},   // best class 0; class 1 also above 0.5
            {51, 50, 20, 20, 0.8f, 0.0f, 0.0f},   // overlaps anchor 0, same class -> suppressed
            {51, 50, 20, 20, 0.0f, 0.0f, 0.7f},   // overlaps anchor 0, other class -> kept
            {150, 150, 10, 10, 0.3f, 0.0f, 0.0f}, // below conf 0.5
            {10, 10, 4, 6, 0.0f, 0.55f, 0.0f},
        };
        for (int a = 0; a < 5; ++a)
            for (int k = 0; k < 7; ++k)
                decoded[0][k][a] = rows[a][k];
        NmsOptions options;
        options.confThreshold = 0.5f;
        options.iouThreshold = 0.5f;
        auto results = nonMaxSuppression(decoded, options);
        QCOMPARE(results.size(), size_t(2));
        QVERIFY(results[1].empty());
        QCOMPARE(results[0].size(), size_t(3));
        QCOMPARE(results[0][0].score, 0.9f);
        QCOMPARE(results[0][0].classId, 0);
        QCOMPARE(results[0][0].x1, 40.0f);
        QCOMPARE(results[0][0].y2, 60.0f);
        QCOMPARE(results[0][1].classId, 2);
        QCOMPARE(results[0][2].classId, 1);
        QCOMPARE(results[0][2].x1, 8.0f);
        QCOMPARE(results[0][2].y1, 7.0f);

        options.labels = LabelMode::Multi;
        results = nonMaxSuppression(decoded, options);
        QCOMPARE(results[0].size(), size_t(4)); // anchor 0 also as class 1
        options.classes = ClassMode::Agnostic;
        results = nonMaxSuppression(decoded, options);
        QCOMPARE(results[0].size(), size_t(2));
        options.maxDetections = 1;
        QCOMPARE(nonMaxSuppression(decoded, options)[0].size(), size_t(1));
    }

    void letterboxAndMapBack() {
        // 1280x720 into 640: scale 0.5, 640x360 content; square pads 140 top and bottom.
        auto square = letterboxGeometry(1280, 720, 640, 32, false);
        QCOMPARE(square.info.scale, 0.5);
        QCOMPARE(square.info.padX, 0.0);
        QCOMPARE(square.info.padY, 140.0);
        QCOMPARE(square.outWidth, 640);
        QCOMPARE(square.outHeight, 640);
        // Minimal rectangle: 360 -> 384 (pad 24, 12 each side).
        auto rect = letterboxGeometry(1280, 720, 640, 32, true);
        QCOMPARE(rect.outHeight, 384);
        QCOMPARE(rect.info.padY, 12.0);
        std::vector<Detection> boxes{{100, 150, 300, 400, 0.9f, 1}, {-5, 130, 700, 200, 0.5f, 0}};
        mapToOriginal(boxes, square.info, 1280, 720);
        QCOMPARE(boxes[0].x1, 200.0f);
        QCOMPARE(boxes[0].y1, 20.0f);
        QCOMPARE(boxes[0].x2, 600.0f);
        QCOMPARE(boxes[0].y2, 520.0f);
        QCOMPARE(boxes[1].x1, 0.0f);    // clipped
        QCOMPARE(boxes[1].y1, 0.0f);    // clipped
        QCOMPARE(boxes[1].x2, 1280.0f); // clipped
    }

    void torchLetterboxAndBatchInput() {
        std::vector<std::uint8_t> pixels(40 * 20 * 3, 200);
        LetterboxInfo info;
        const auto tensor = letterboxToTensor(ImageView{pixels.data(), 40, 20}, 64, 32, false, &info);
        QVERIFY(tensor);
        QCOMPARE(tensor->sizes().vec(), (std::vector<int64_t>{3, 64, 64}));
        QCOMPARE(info.scale, 1.6);
        QCOMPARE(info.padY, 16.0);
        QCOMPARE((*tensor)[0][0][0].item<float>(), 114.0f / 255.0f);
        QCOMPARE((*tensor)[1][32][32].item<float>(), 200.0f / 255.0f);

        std::vector<std::uint8_t> a(32 * 32 * 3, 0), b(32 * 32 * 3, 255);
        a[3 * (32 * 1 + 2) + 1] = 51; // row 1, column 2, green
        const auto batch =
            imagesToTensor({ImageView{a.data(), 32, 32}, ImageView{b.data(), 32, 32}}, torch::kCPU);
        QVERIFY(batch);
        QCOMPARE(batch->sizes().vec(), (std::vector<int64_t>{2, 3, 32, 32}));
        QCOMPARE((*batch)[0][1][1][2].item<float>(), 0.2f);
        QCOMPARE((*batch)[1][2][31][31].item<float>(), 1.0f);
        QVERIFY(!imagesToTensor({ImageView{a.data(), 32, 32}, ImageView{b.data(), 16, 64}}, torch::kCPU));
        QVERIFY(parseDevice("cpu"));
        QVERIFY(!parseDevice("gpu"));
        if (!torch::cuda::is_available())
            QVERIFY(!parseDevice("0"));
    }
};

QTEST_GUILESS_MAIN(TestNms)
#include "tst_nms.moc"
