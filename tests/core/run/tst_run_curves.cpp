// <run>/curves.json: what is written reads back exactly (NaN as null and back), the file is replaced
// atomically, and every malformed field is refused with the file and the field named.
#include "run/run_curves.h"
#include "run/run_folder.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

run::RunCurves sample() {
    run::RunCurves c;
    c.epoch = 7;
    c.classNames = {"cat", "狗", "bird"};
    c.classes = {0, 1};
    c.x = {0.0, 0.5, 1.0};
    c.precisionAtRecall = {{1.0, 0.75, 0.0}, {0.5, 0.25, 0.0}};
    c.f1 = {{0.0, 0.6, 0.1}, {0.0, 0.4, std::nan("")}};
    c.precision = {{0.2, 0.9, 1.0}, {0.1, 0.8, 1.0}};
    c.recall = {{1.0, 0.5, 0.0}, {1.0, 0.3, 0.0}};
    c.ap = {{0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.05},
            {0.5, 0.5, 0.4, 0.4, 0.3, 0.3, 0.2, 0.2, 0.1, 0.0}};
    c.bestConfidence = 0.512;
    c.bestF1 = 0.5;
    c.classBestConfidence = {0.5, 0.49};
    c.confusionMatrix = {5, 1, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0};
    c.images = {{"a_1.jpg", 2, 1, 0}, {"b.png", 0, 0, 0}, {"c.jpg", 0, 3, 2}};
    return c;
}

std::string readText(const fs::path& path) {
    std::ifstream in(path);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeText(const fs::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

} // namespace

class TestRunCurves : public QObject {
    Q_OBJECT
private slots:
    void roundTrip() {
        QTemporaryDir dir;
        const fs::path file = run::RunFolder(dir.path().toStdString()).curves();
        const auto written = sample();
        QVERIFY(run::writeRunCurves(file, written).hasValue());
        auto read = run::readRunCurves(file);
        QVERIFY2(read, read ? "" : read.message().c_str());
        QCOMPARE(read->epoch, 7);
        QCOMPARE(read->classNames, written.classNames);
        QCOMPARE(read->classes, written.classes);
        QCOMPARE(read->x, written.x);
        QCOMPARE(read->precisionAtRecall, written.precisionAtRecall);
        QCOMPARE(read->precision, written.precision);
        QCOMPARE(read->recall, written.recall);
        QCOMPARE(read->ap, written.ap);
        QCOMPARE(read->f1[0], written.f1[0]);
        QVERIFY(std::isnan(read->f1[1][2])); // NaN travels as null
        QCOMPARE(read->bestConfidence, 0.512);
        QCOMPARE(read->classBestConfidence, written.classBestConfidence);
        QCOMPARE(read->confusionMatrix, written.confusionMatrix);
        QCOMPARE(read->images.size(), size_t(3));
        QCOMPARE(read->images[2].name, std::string("c.jpg"));
        QCOMPARE(read->images[2].falsePositives, 3);
        QCOMPARE(read->images[2].missed, 2);
        // Ultralytics' per-image F1: 2PR/(P+R); 1 for an empty image with no detections.
        QCOMPARE(read->images[0].f1(), 2 * (2.0 / 3) * 1.0 / (2.0 / 3 + 1.0));
        QCOMPARE(read->images[1].f1(), 1.0);
        QCOMPARE(read->images[2].f1(), 0.0);
        // Rewriting replaces the file whole; no temporary file is left beside it.
        auto second = written;
        second.epoch = 9;
        QVERIFY(run::writeRunCurves(file, second).hasValue());
        QCOMPARE(run::readRunCurves(file)->epoch, 9);
        QCOMPARE(std::distance(fs::directory_iterator(file.parent_path()), fs::directory_iterator()), 1L);
    }

    void malformedFieldsAreNamed_data() {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << "{\"ap\""
                                  << "["
                                  << ": not a JSON object";
        QTest::newRow("version") << "\"version\":1"
                                 << "\"version\":2"
                                 << ": version: this Osprey reads version 1";
        QTest::newRow("missing epoch") << "\"epoch\":7,"
                                       << ""
                                       << ": epoch: missing";
        QTest::newRow("class index") << "\"classes\":[0,1]"
                                     << "\"classes\":[0,3]"
                                     << ": classes: 3 is not a class index";
        QTest::newRow("rows") << "\"f1\":[[0.0,0.6,0.1],[0.0,0.4,null]]"
                              << "\"f1\":[[0.0,0.6,0.1]]"
                              << ": f1: 1 rows for 2 classes";
        QTest::newRow("points") << "\"recall\":[[1.0,0.5,0.0],"
                                << "\"recall\":[[1.0,0.5],"
                                << ": recall[0]: expected 3 numbers";
        QTest::newRow("matrix") << "\"confusionMatrix\":[5.0,"
                                << "\"confusionMatrix\":["
                                << ": confusionMatrix: 15 cells for 4 x 4";
        QTest::newRow("image row") << "[\"b.png\",0,0,0]"
                                   << "[\"b.png\",0,0]"
                                   << ": images[1]: expected [name, true positives, false positives, missed]";
        QTest::newRow("type") << "\"bestF1\":0.5"
                              << "\"bestF1\":\"high\""
                              << ": bestF1: wrong type";
    }
    void malformedFieldsAreNamed() {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const fs::path file = run::RunFolder(dir.path().toStdString()).curves();
        QVERIFY(run::writeRunCurves(file, sample()).hasValue());
        std::string text = readText(file);
        const auto at = text.find(from.toStdString());
        QVERIFY2(at != std::string::npos, qPrintable("no '" + from + "' in " + QString::fromStdString(text)));
        text.replace(at, static_cast<size_t>(from.toStdString().size()), to.toStdString());
        writeText(file, text);
        const auto read = run::readRunCurves(file);
        QVERIFY(!read);
        QCOMPARE(QString::fromStdString(read.message()), QString::fromStdString(file.string()) + message);
    }

    void missingFileNamesIt() {
        const auto read = run::readRunCurves("/nonexistent/run/curves.json");
        QVERIFY(!read);
        QVERIFY2(read.message().find("/nonexistent/run/curves.json") != std::string::npos,
                 read.message().c_str());
    }
};

QTEST_GUILESS_MAIN(TestRunCurves)
#include "tst_run_curves.moc"
