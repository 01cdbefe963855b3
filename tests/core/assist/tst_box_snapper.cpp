// Snap (box refinement) on demo shapes and on real photos.
//
// Demo protocol: the images of a fixed demo seed, JPEG-encoded at the demo project's quality, each object
// given a rough box loosened on every side by 2 px to 15% of the object's extent (as a user draws around an
// object). The snapped box must lie within 2 px of the true box for at least 90% of the objects whose
// extremes are visible. The algorithm was tuned on demo seeds 1-4 (and checked on 5-8); the asserted set
// uses seed 11, which was not looked at while tuning. OSPREY_SNAP_SEED=N runs another seed.
#include "assist/box_snapper.h"
#include "demo/demo_dataset.h"
#include "fixtures.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>

using namespace osprey;
using namespace osprey::assist;

namespace {

constexpr std::uint64_t kAssertedSeed = 11;

// Loosens `truth` on each side by 2 px to 15% of the object's extent, clipped to the image.
SnapBox roughBox(const SnapBox& truth, int width, int height, std::mt19937& random) {
    auto loose = [&](double extent) {
        return std::uniform_real_distribution<double>(2.0, std::max(3.0, 0.15 * extent))(random);
    };
    const double w = truth.x2 - truth.x1, h = truth.y2 - truth.y1;
    return {std::max(0.0, truth.x1 - loose(w)), std::max(0.0, truth.y1 - loose(h)),
            std::min<double>(width, truth.x2 + loose(w)), std::min<double>(height, truth.y2 + loose(h))};
}

double maxSideError(const SnapBox& a, const SnapBox& b) {
    return std::max(
        {std::abs(a.x1 - b.x1), std::abs(a.y1 - b.y1), std::abs(a.x2 - b.x2), std::abs(a.y2 - b.y2)});
}

double iou(const SnapBox& a, const SnapBox& b) {
    const double w = std::min(a.x2, b.x2) - std::max(a.x1, b.x1),
                 h = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
    if (w <= 0 || h <= 0)
        return 0;
    const double inter = w * h;
    return inter / ((a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter);
}

// Whether every extreme of demo object `k` can be seen. Shapes are painted in one flat colour over a
// noisy background, so in the raw render the object's interior is the box's most frequent exact colour
// (counted away from the other objects' boxes). When that colour stops more than 3 px short of a side
// of the box, a later shape covers that extreme (the demo labels the whole shape), and no refinement from
// pixels can find it. Unoccluded tips stop at most ~2.7 px short (anti-aliasing).
bool extremesVisible(const demo::DemoImage& rendered, size_t k) {
    const auto& o = rendered.objects[k];
    const int bx1 = std::max(0, static_cast<int>(std::floor(o.x1)));
    const int by1 = std::max(0, static_cast<int>(std::floor(o.y1)));
    const int bx2 = std::min(rendered.width - 1, static_cast<int>(std::ceil(o.x2)));
    const int by2 = std::min(rendered.height - 1, static_cast<int>(std::ceil(o.y2)));
    auto colourAt = [&](int x, int y) {
        const std::uint8_t* p = &rendered.rgb[(static_cast<size_t>(y) * rendered.width + x) * 3];
        return (p[0] << 16) | (p[1] << 8) | p[2];
    };
    auto insideOther = [&](int x, int y) {
        for (size_t j = 0; j < rendered.objects.size(); ++j) {
            const auto& p = rendered.objects[j];
            if (j != k && x >= p.x1 - 1 && x <= p.x2 + 1 && y >= p.y1 - 1 && y <= p.y2 + 1)
                return true;
        }
        return false;
    };
    std::map<int, int> counts, countsAll;
    for (int y = by1; y <= by2; ++y)
        for (int x = bx1; x <= bx2; ++x) {
            ++countsAll[colourAt(x, y)];
            if (!insideOther(x, y))
                ++counts[colourAt(x, y)];
        }
    const auto& pool = counts.size() >= 20 ? counts : countsAll;
    const int colour = std::max_element(pool.begin(), pool.end(), [](auto& a, auto& b) {
                           return a.second < b.second;
                       })->first;
    double x1 = 1e9, y1 = 1e9, x2 = -1e9, y2 = -1e9;
    for (int y = by1; y <= by2; ++y)
        for (int x = bx1; x <= bx2; ++x)
            if (colourAt(x, y) == colour) {
                x1 = std::min<double>(x1, x), y1 = std::min<double>(y1, y);
                x2 = std::max<double>(x2, x), y2 = std::max<double>(y2, y);
            }
    return std::max({x1 - o.x1, y1 - o.y1, o.x2 - x2, o.y2 - y2}) <= 3.0;
}

} // namespace

class TestBoxSnapper : public QObject {
    Q_OBJECT
private slots:
    void snapsLooseBoxesOnDemoShapes() {
        demo::DemoOptions options;
        options.seed = qEnvironmentVariableIsSet("OSPREY_SNAP_SEED")
                           ? qEnvironmentVariable("OSPREY_SNAP_SEED").toULongLong()
                           : kAssertedSeed;
        QTemporaryDir dir;
        std::mt19937 random(static_cast<unsigned>(options.seed) * 31 + 5);
        int total = 0, within = 0, visible = 0, visibleWithin = 0, refused = 0;
        for (int index = 0; index < 80; ++index) {
            const auto rendered = demo::renderDemoImage(options, index);
            // Snap sees what the demo project stores: a JPEG at the demo's quality.
            const std::filesystem::path file = dir.path().toStdString() + "/shape.jpg";
            QVERIFY(imaging::encodeImage({rendered.width, rendered.height, 3, rendered.rgb}, file,
                                         options.jpegQuality));
            auto image = imaging::decodeImage(file);
            QVERIFY(image);
            for (size_t k = 0; k < rendered.objects.size(); ++k) {
                const auto& object = rendered.objects[k];
                // Demo boxes are in OpenCV's drawing frame, where pixel i's centre is at i; the painted
                // pixels span [x1 + 0.5, x2 + 0.5] in the frame snap reports (pixel i covers [i, i+1)).
                const SnapBox truth{object.x1 + 0.5, object.y1 + 0.5, object.x2 + 0.5, object.y2 + 0.5};
                const SnapBox rough = roughBox(truth, image->width, image->height, random);
                auto snapped = snapBox(*image, rough);
                refused += snapped ? 0 : 1;
                const bool hit = snapped && maxSideError(*snapped, truth) <= 2.0;
                const bool seen = extremesVisible(rendered, k);
                ++total;
                within += hit ? 1 : 0;
                visible += seen ? 1 : 0;
                visibleWithin += seen && hit ? 1 : 0;
                if (!hit && seen && qEnvironmentVariableIsSet("OSPREY_SNAP_DEBUG"))
                    std::printf(
                        "miss: image %d object %zu class %d truth [%.1f %.1f %.1f %.1f] rough [%.1f %.1f "
                        "%.1f %.1f] got %s\n",
                        index, k, object.classIndex, truth.x1, truth.y1, truth.x2, truth.y2, rough.x1,
                        rough.y1, rough.x2, rough.y2,
                        snapped ? qPrintable(QString("[%1 %2 %3 %4]")
                                                 .arg(snapped->x1)
                                                 .arg(snapped->y1)
                                                 .arg(snapped->x2)
                                                 .arg(snapped->y2))
                                : snapped.message().c_str());
            }
        }
        const double rate = static_cast<double>(visibleWithin) / visible;
        std::printf(
            "snap (seed %llu): %d of %d objects with visible extremes within 2 px (%.1f%%); all objects "
            "%d of %d (%.1f%%); %d refused\n",
            static_cast<unsigned long long>(options.seed), visibleWithin, visible, 100 * rate, within, total,
            100.0 * within / total, refused);
        QVERIFY(total >= 250);
        // The visibility rule must not quietly drop a large share of the set.
        QVERIFY2(visible >= 0.9 * total,
                 qPrintable(QString("only %1 of %2 visible").arg(visible).arg(total)));
        QVERIFY2(rate >= 0.9, qPrintable(QString("only %1% within 2 px").arg(100 * rate)));
    }

    void doesNotWorsenBoxesOnPhotos() {
        // PASCAL VOC photos with hand-drawn boxes (people, animals, vehicles): snap must not make loose
        // boxes worse on average. Boxes up to 160 px keep the test fast.
        OSPREY_REQUIRE_FIXTURE("formats/multiformat/gts/pascalvoc_format");
        const QDir annotations(
            QString::fromStdString(test::fixture("formats/multiformat/gts/pascalvoc_format").string()));
        std::mt19937 random(99);
        int count = 0, better = 0, worse = 0;
        double roughIoU = 0, snappedIoU = 0;
        for (const QString& name : annotations.entryList({"*.xml"}, QDir::Files, QDir::Name)) {
            QFile file(annotations.filePath(name));
            QVERIFY(file.open(QIODevice::ReadOnly));
            QXmlStreamReader xml(&file);
            std::vector<SnapBox> boxes;
            std::map<QString, double> field;
            while (!xml.atEnd()) {
                xml.readNext();
                if (xml.isStartElement() && QStringList{"xmin", "ymin", "xmax", "ymax"}.contains(xml.name()))
                    field[xml.name().toString()] = xml.readElementText().toDouble();
                if (xml.isEndElement() && xml.name() == QLatin1String("bndbox"))
                    // VOC counts pixels from 1, inclusive at both ends.
                    boxes.push_back({field["xmin"] - 1, field["ymin"] - 1, field["xmax"], field["ymax"]});
            }
            const auto photo = test::fixture("formats/multiformat/images/" +
                                             QFileInfo(name).completeBaseName().toStdString() + ".jpg");
            auto image = imaging::decodeImage(photo);
            QVERIFY2(image, image ? "" : image.message().c_str());
            for (const auto& truth : boxes) {
                const double w = truth.x2 - truth.x1, h = truth.y2 - truth.y1;
                if (w < 8 || h < 8 || std::max(w, h) > 160)
                    continue;
                const SnapBox rough = roughBox(truth, image->width, image->height, random);
                auto snapped = snapBox(*image, rough);
                const double before = iou(rough, truth), after = snapped ? iou(*snapped, truth) : before;
                ++count;
                roughIoU += before;
                snappedIoU += after;
                better += after > before + 0.01 ? 1 : 0;
                worse += after < before - 0.01 ? 1 : 0;
            }
        }
        std::printf(
            "snap on VOC photos: %d boxes, mean IoU with the truth %.3f rough -> %.3f snapped (%d better, "
            "%d worse)\n",
            count, roughIoU / count, snappedIoU / count, better, worse);
        QVERIFY(count >= 50);
        QVERIFY2(snappedIoU > roughIoU, "snap made the boxes worse on average");
    }

    void isDeterministic() {
        const auto rendered = demo::renderDemoImage({}, 3);
        const imaging::Image image{rendered.width, rendered.height, 3, rendered.rgb};
        const auto& o = rendered.objects[0];
        const SnapBox rough{o.x1 - 6, o.y1 - 5, o.x2 + 7, o.y2 + 4};
        auto first = snapBox(image, rough), second = snapBox(image, rough);
        QVERIFY(first && second);
        QCOMPARE(first->x1, second->x1);
        QCOMPARE(first->y2, second->y2);
        QVERIFY(first->x1 >= rough.x1 && first->x2 <= rough.x2);
    }

    void rejectsTinyAndWholeImageBoxes() {
        imaging::Image image{20, 20, 3, std::vector<std::uint8_t>(20 * 20 * 3, 0)};
        QVERIFY(!snapBox(image, {5, 5, 6, 6}));
        auto whole = snapBox(image, {0, 0, 20, 20}, {0, 8, 3, 0.4});
        QVERIFY(!whole);
        QCOMPARE(whole.error().code, std::string("invalid"));
    }
};

QTEST_GUILESS_MAIN(TestBoxSnapper)
#include "tst_box_snapper.moc"
