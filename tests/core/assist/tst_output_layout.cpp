// The ONNX output layout decoders on synthetic tensors with known boxes, and class-aware NMS.
#include "assist/output_layout.h"

#include <QtTest>

using namespace osprey::assist;

class TestOutputLayout : public QObject {
    Q_OBJECT
private slots:
    void channelsFirst() {
        // [1, 4+3, 5]: anchor 2 holds class 1 at (100, 50) 40x20 with 0.9; anchor 4 class 2 with 0.2.
        const int nc = 3, anchors = 5;
        std::vector<float> data(static_cast<size_t>((4 + nc) * anchors), 0.0f);
        const auto set = [&](int attribute, int anchor, float value) {
            data[static_cast<size_t>(attribute * anchors + anchor)] = value;
        };
        set(0, 2, 100), set(1, 2, 50), set(2, 2, 40), set(3, 2, 20), set(4 + 1, 2, 0.9f), set(4 + 0, 2, 0.5f);
        set(0, 4, 10), set(1, 4, 10), set(2, 4, 4), set(3, 4, 4), set(4 + 2, 4, 0.2f);
        QVERIFY(*detectLayout({1, 7, 5}, 3) == OutputLayout::ChannelsFirst);
        auto out = decodeOutput(data.data(), {1, 4 + nc, anchors}, 0.25f, nc);
        QVERIFY2(out, out ? "" : out.message().c_str());
        QCOMPARE(out->size(), size_t(1));
        const Proposal& p = (*out)[0];
        QCOMPARE(p.classIndex, 1);
        QCOMPARE(p.score, 0.9f);
        QCOMPARE(p.x1, 80.0f);
        QCOMPARE(p.y1, 40.0f);
        QCOMPARE(p.x2, 120.0f);
        QCOMPARE(p.y2, 60.0f);
        // Without the class count the shape alone still decides.
        QVERIFY(*detectLayout({1, 84, 8400}) == OutputLayout::ChannelsFirst);
    }

    void anchorsFirst() {
        // [1, 8, 5+2]: row 3 = box (30, 40) 10x20, objectness 0.8, class 1 score 0.5 -> 0.4.
        const int nc = 2, anchors = 8, columns = 5 + nc;
        std::vector<float> data(static_cast<size_t>(anchors * columns), 0.0f);
        float* row = data.data() + 3 * columns;
        row[0] = 30, row[1] = 40, row[2] = 10, row[3] = 20, row[4] = 0.8f, row[5] = 0.1f, row[6] = 0.5f;
        float* weak = data.data() + 5 * columns; // objectness 0.9 but class 0.2 -> 0.18: dropped
        weak[0] = 5, weak[1] = 5, weak[2] = 2, weak[3] = 2, weak[4] = 0.9f, weak[5] = 0.2f;
        QVERIFY(*detectLayout({1, 25200, 85}) == OutputLayout::AnchorsFirst);
        auto out = decodeOutput(data.data(), {1, anchors, columns}, 0.25f, nc);
        QVERIFY2(out, out ? "" : out.message().c_str());
        QCOMPARE(out->size(), size_t(1));
        QCOMPARE((*out)[0].classIndex, 1);
        QVERIFY(std::abs((*out)[0].score - 0.4f) < 1e-6f);
        QCOMPARE((*out)[0].x1, 25.0f);
        QCOMPARE((*out)[0].y2, 50.0f);
    }

    void endToEnd() {
        std::vector<float> data(300 * 6, 0.0f);
        const float first[6] = {10, 20, 110, 220, 0.95f, 7};
        const float second[6] = {5, 5, 15, 15, 0.1f, 2};
        std::copy(first, first + 6, data.begin());
        std::copy(second, second + 6, data.begin() + 6);
        QVERIFY(*detectLayout({1, 300, 6}) == OutputLayout::EndToEnd);
        auto out = decodeOutput(data.data(), {1, 300, 6}, 0.25f, 80);
        QVERIFY2(out, out ? "" : out.message().c_str());
        QCOMPARE(out->size(), size_t(1));
        QCOMPARE((*out)[0].classIndex, 7);
        QCOMPARE((*out)[0].x2, 110.0f);
        QCOMPARE((*out)[0].y2, 220.0f);
        // A one-class YOLOv5 export also ends in 6 columns; the class count tells them apart.
        QVERIFY(*detectLayout({1, 25200, 6}, 1) == OutputLayout::AnchorsFirst);
    }

    void endToEndRowsGetNoNms() {
        // Ultralytics' end2end export (YOLO26 nms=False): two overlapping boxes of one class, as the
        // one-to-one head gives them, both stay (AutoBackend applies only the confidence filter); the same
        // boxes in the [1, 4+nc, A] layout go through NMS and one is left.
        const int nc = 2;
        std::vector<float> rows(300 * 6, 0.0f);
        const float a[6] = {40, 60, 140, 160, 0.9f, 1}, b[6] = {42, 62, 142, 162, 0.8f, 1},
                    c[6] = {0, 0, 20, 20, 0.3f, 0}, weak[6] = {50, 50, 60, 60, 0.25f, 0};
        const float* filled[] = {a, b, c, weak};
        for (size_t i = 0; i < 4; ++i)
            std::copy(filled[i], filled[i] + 6, rows.begin() + static_cast<std::ptrdiff_t>(6 * i));
        // 640x480 image letterboxed to 320: scale 0.5, padY 40.
        const Letterbox letterbox = letterboxFor(640, 480, 320);
        QCOMPARE(letterbox.scale, 0.5);
        QCOMPARE(letterbox.padX, 0);
        QCOMPARE(letterbox.padY, 40);
        SuggestOptions options;
        options.confThreshold = 0.25f;
        auto kept = detectionsFromOutput(rows.data(), {1, 300, 6}, letterbox, options, nc);
        QVERIFY2(kept, kept ? "" : kept.message().c_str());
        QCOMPARE(kept->size(), size_t(3)); // 0.25 is not above the threshold
        QCOMPARE((*kept)[0].score, 0.9f);
        QCOMPARE((*kept)[1].score, 0.8f);
        QCOMPARE((*kept)[1].classIndex, 1);
        QCOMPARE((*kept)[0].x1, 80.0f); // (40 - 0) / 0.5
        QCOMPARE((*kept)[0].y1, 40.0f); // (60 - 40) / 0.5
        QCOMPARE((*kept)[0].y2, 240.0f);
        QCOMPARE((*kept)[2].y1, 0.0f); // clipped to the image
        options.maxDetections = 2;
        QCOMPARE(detectionsFromOutput(rows.data(), {1, 300, 6}, letterbox, options, nc)->size(), size_t(2));

        // The same two boxes as [1, 4+nc, 3] candidates: NMS keeps one.
        options.maxDetections = 300;
        const int anchors = 3;
        std::vector<float> channels(static_cast<size_t>((4 + nc) * anchors), 0.0f);
        const auto set = [&](int attribute, int anchor, float value) {
            channels[static_cast<size_t>(attribute * anchors + anchor)] = value;
        };
        set(0, 0, 90), set(1, 0, 110), set(2, 0, 100), set(3, 0, 100), set(4 + 1, 0, 0.9f);
        set(0, 1, 92), set(1, 1, 112), set(2, 1, 100), set(3, 1, 100), set(4 + 1, 1, 0.8f);
        auto suppressed = detectionsFromOutput(channels.data(), {1, 4 + nc, anchors}, letterbox, options, nc);
        QVERIFY(suppressed);
        QCOMPARE(suppressed->size(), size_t(1));
        QCOMPARE((*suppressed)[0].x1, 80.0f);
    }

    void unknownLayoutNamesTheShape() {
        for (const std::vector<std::int64_t>& shape :
             std::vector<std::vector<std::int64_t>>{{1, 85, 22, 22}, {2, 84, 8400}, {1, 3, 3}}) {
            std::vector<float> data(16 * 85 * 22 * 22, 0.0f);
            auto out = decodeOutput(data.data(), shape, 0.25f);
            QVERIFY(!out);
            QVERIFY2(out.message().find(shapeText(shape)) != std::string::npos, out.message().c_str());
            QVERIFY(out.message().find("[1, 4+nc, anchors]") != std::string::npos);
            QCOMPARE(out.error().code, std::string("layout"));
        }
        // 80 names but 4+85 rows: the names do not fit.
        auto mismatch = detectLayout({1, 89, 8400}, 80);
        QVERIFY(!mismatch);
        QVERIFY(mismatch.message().find("80 class names") != std::string::npos);
    }

    void darknetRows() {
        // Two rows of 5+2: cx cy w h (0-1), obj, class scores (already times obj).
        const float rows[14] = {0.5f, 0.5f, 0.5f, 0.25f, 0.9f, 0.1f, 0.8f,
                                0.1f, 0.1f, 0.1f, 0.1f,  0.2f, 0.1f, 0.1f};
        auto out = decodeDarknetRows(rows, 2, 7, 0.25f, 200, 100);
        QCOMPARE(out.size(), size_t(1));
        QCOMPARE(out[0].classIndex, 1);
        QCOMPARE(out[0].x1, 50.0f);
        QCOMPARE(out[0].x2, 150.0f);
        QCOMPARE(out[0].y1, 37.5f);
        QCOMPARE(out[0].y2, 62.5f);
    }

    void nmsIsClassAware() {
        const std::vector<Proposal> candidates{{0, 0, 10, 10, 0.9f, 0},
                                               {1, 1, 10, 10, 0.8f, 0},    // overlaps the first: gone
                                               {1, 1, 10, 10, 0.7f, 1},    // other class: kept
                                               {50, 50, 60, 60, 0.2f, 0}}; // below conf: gone
        SuggestOptions options;
        const auto kept = suppressOverlaps(candidates, options);
        QCOMPARE(kept.size(), size_t(2));
        QCOMPARE(kept[0].score, 0.9f);
        QCOMPARE(kept[1].classIndex, 1);
    }
};

QTEST_GUILESS_MAIN(TestOutputLayout)
#include "tst_output_layout.moc"
