// Reading ground truth and detections from files: every kind of bad input gets an error that names the
// file and the line or field, and never crashes; missing detection files mean no detections.
#include "formats/eval_reader.h"
#include "metrics/voc_evaluator.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <memory>

using namespace osprey::formats;
using namespace osprey::metrics;

namespace {

void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

// The error message of a read that must fail ("" when it unexpectedly succeeds).
std::string errorOf(const std::filesystem::path& truth, const std::filesystem::path& detections,
                    const EvalReadOptions& options = {}) {
    const auto set = readEvalSet(truth, detections, options);
    return set ? std::string() : set.message();
}

#define EXPECT_ERROR(message, ...)                                                                           \
    do {                                                                                                     \
        const std::string text = (message);                                                                  \
        for (const char* part : {__VA_ARGS__})                                                               \
            QVERIFY2(text.find(part) != std::string::npos, (text + " (wanted: " + part + ")").c_str());      \
    } while (false)

} // namespace

class TestEvalReader : public QObject {
    Q_OBJECT
private slots:
    void init() {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_root = m_dir->path().toStdString();
        m_gt = m_root / "gt";
        m_pred = m_root / "pred";
        std::filesystem::create_directories(m_gt);
        std::filesystem::create_directories(m_pred);
        writeFile(m_gt / "a.txt", "cat 0 0 10 10\ndog 5 5 20 20 difficult\n");
        writeFile(m_gt / "b.txt", "");
    }

    void readsTextFoldersWithNamesAndDifficult() {
        writeFile(m_pred / "a.txt", "# a comment\n\ncat 0.9 0 0 10 10\n");
        const auto set = readEvalSet(m_gt, m_pred);
        QVERIFY2(set.hasValue(), set ? "" : set.message().c_str());
        QCOMPARE(set->classNames, (std::vector<std::string>{"cat", "dog"}));
        QCOMPARE(set->images.size(), size_t(2)); // b.txt: an image without objects
        QCOMPARE(set->images[0].truths.size(), size_t(2));
        QVERIFY(set->images[0].truths[1].ignore);
        QCOMPARE(set->images[0].detections[0].score, 0.9);
        QCOMPARE(set->images[1].detections.size(), size_t(0)); // no detection file
        // Integer classes index a names list.
        writeFile(m_pred / "a.txt", "1 0.9 5 5 20 20\n");
        EvalReadOptions options;
        options.classNames = {"cat", "dog"};
        const auto named = readEvalSet(m_gt, m_pred, options);
        QVERIFY(named.hasValue());
        QCOMPARE(named->images[0].detections[0].classId, 1);
        writeFile(m_pred / "a.txt", "5 0.9 5 5 20 20\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred, options), "a.txt: line 1: class id 5 is not in the class names");
    }

    void textErrors() {
        writeFile(m_pred / "a.txt", "cat 0.9 0 0 10 10\ncat 0.8 0 0 10\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred), "pred/a.txt: line 2:", "got 5 fields");
        writeFile(m_pred / "a.txt", "cat 0.9 0 0 1O 10\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred), "a.txt: line 1:", "'1O' is not a number");
        writeFile(m_pred / "a.txt", "cat high 0 0 10 10\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred), "a.txt: line 1: confidence 'high' is not a number");
        EvalReadOptions xywh;
        xywh.notation = BoxNotation::Xywh;
        writeFile(m_pred / "a.txt", "cat 0.9 0 0 -4 10\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred, xywh), "a.txt: line 1: negative box size");
        writeFile(m_pred / "a.txt", "cat 0.9 10 0 4 10\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred), "a.txt: line 1: negative box size");
        writeFile(m_gt / "b.txt", "cat 0 0 10\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred), "gt/b.txt: line 1:", "[difficult]");
        writeFile(m_gt / "b.txt", "cat 0 0 10 10 maybe\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred), "b.txt: line 1: the sixth field");
    }

    void detectionForUnknownImage() {
        writeFile(m_pred / "zzz.txt", "cat 0.9 0 0 4 10\n");
        EXPECT_ERROR(errorOf(m_gt, m_pred), "zzz.txt", "not in the ground truth");
        EXPECT_ERROR(errorOf(m_root / "nope", m_pred), "nope", "does not exist");
    }

    void normalisedBoxesNeedSizes() {
        writeFile(m_pred / "a.txt", "cat 0.9 0.5 0.5 0.2 0.2\n");
        EvalReadOptions yolo;
        yolo.notation = BoxNotation::YoloNormalized;
        yolo.truthNotationSet = true;
        yolo.truthNotation = BoxNotation::Xyxy;
        EXPECT_ERROR(errorOf(m_gt, m_pred, yolo), "a.txt: line 1:", "imgsize=");
        yolo.imageWidthPx = 200;
        yolo.imageHeightPx = 100;
        const auto set = readEvalSet(m_gt, m_pred, yolo);
        QVERIFY(set.hasValue());
        // Centre (100, 50), size 40 x 20.
        const auto box = set->images[0].detections[0].boxPx;
        QCOMPARE(box.x1, 80.0);
        QCOMPARE(box.y1, 40.0);
        QCOMPARE(box.x2, 120.0);
        QCOMPARE(box.y2, 60.0);
    }

    void cocoErrors() {
        const auto gt = m_root / "gt.json", pred = m_root / "pred.json";
        writeFile(
            gt,
            R"({"images": [{"id": 2, "file_name": "b.jpg"}, {"id": 1, "file_name": "a.jpg", "width": 50, "height": 50}],
"categories": [{"id": 3, "name": "cat"}],
"annotations": [{"id": 1, "image_id": 1, "category_id": 3, "bbox": [0, 0, 10, 10], "area": 100, "iscrowd": 1}]})");
        writeFile(pred, R"([{"image_id": 1, "category_id": 3, "bbox": [0, 0, 10, 10], "score": 0.9}])");
        const auto set = readEvalSet(gt, pred);
        QVERIFY2(set.hasValue(), set ? "" : set.message().c_str());
        QCOMPARE(set->images[0].name, std::string("a")); // sorted by id, as pycocotools does
        QVERIFY(set->images[0].truths[0].crowd);
        QCOMPARE(set->images[0].truths[0].areaPx2, 100.0);

        writeFile(
            pred,
            "[\n{\"image_id\": 1, \"category_id\": 3, \"bbox\": [0, 0, 10, 10], \"score\": 0.9},\n{oops}\n]");
        EXPECT_ERROR(errorOf(gt, pred), "pred.json: line 3: malformed JSON");
        writeFile(pred, R"([{"image_id": 7, "category_id": 3, "bbox": [0, 0, 10, 10], "score": 0.9}])");
        EXPECT_ERROR(errorOf(gt, pred), "pred.json: [0].image_id: 7 is not an image of the ground truth");
        writeFile(pred, R"([{"image_id": 1, "category_id": 4, "bbox": [0, 0, 10, 10], "score": 0.9}])");
        EXPECT_ERROR(errorOf(gt, pred), "[0].category_id: 4 is not a category");
        writeFile(
            pred,
            R"({"annotations": [{"image_id": 1, "category_id": 3, "bbox": [0, 0, 10, -1], "score": 0.9}]})");
        EXPECT_ERROR(errorOf(gt, pred), "pred.json: annotations[0].bbox: negative size");
        writeFile(pred, R"([{"image_id": 1, "category_id": 3, "bbox": [0, 0, 10, 10]}])");
        EXPECT_ERROR(errorOf(gt, pred), "[0].score: missing");
        writeFile(pred, R"([{"image_id": 1, "category_id": 3, "bbox": [0, 0, 10], "score": 0.5}])");
        EXPECT_ERROR(errorOf(gt, pred), "[0].bbox: expected [x, y, width, height]");
        writeFile(pred, R"({"results": []})");
        EXPECT_ERROR(errorOf(gt, pred), "pred.json: expected a COCO results list");
        writeFile(pred, "[]");
        writeFile(gt, R"({"images": [{"id": 1, "width": -5, "height": 50}], "categories": []})");
        EXPECT_ERROR(errorOf(gt, pred), "gt.json: images[0].width: negative");
        writeFile(gt, R"({"images": [{"id": 1}], "categories": [{"id": 1, "name": "c"}],
"annotations": [{"image_id": 9, "category_id": 1, "bbox": [0, 0, 1, 1]}]})");
        EXPECT_ERROR(errorOf(gt, pred), "gt.json: annotations[0].image_id: 9 is not in \"images\"");
        writeFile(gt, R"({"categories": []})");
        EXPECT_ERROR(errorOf(gt, pred), "gt.json: \"images\": missing");
    }

    void vocXmlErrors() {
        const auto xml = m_root / "xml";
        std::filesystem::create_directories(xml);
        writeFile(xml / "a.xml",
                  "<annotation>\n<object><name>cat</name>\n<bndbox><xmin>1</xmin></bndbox>\n</object>\n");
        EXPECT_ERROR(errorOf(xml, m_pred), "a.xml: line", "malformed XML");
        writeFile(xml / "a.xml",
                  "<annotation>\n<object><name>cat</name>\n<bndbox><xmin>1</xmin><ymin>1</ymin>"
                  "<xmax>x</xmax><ymax>5</ymax></bndbox>\n</object></annotation>\n");
        EXPECT_ERROR(errorOf(xml, m_pred), "a.xml: line 3: <bndbox> <xmax> is missing or not a number");
        writeFile(xml / "a.xml",
                  "<annotation>\n<object><name>cat</name>\n<bndbox><xmin>9</xmin><ymin>1</ymin>"
                  "<xmax>2</xmax><ymax>5</ymax></bndbox>\n</object></annotation>\n");
        EXPECT_ERROR(errorOf(xml, m_pred), "a.xml: line 3: negative box size");
        writeFile(xml / "a.xml", "<annotation>\n<object>\n<bndbox/></object></annotation>\n");
        EXPECT_ERROR(errorOf(xml, m_pred), "a.xml: line 2: <object> without a <name>");
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::filesystem::path m_root, m_gt, m_pred;
};

QTEST_GUILESS_MAIN(TestEvalReader)
#include "tst_eval_reader.moc"
