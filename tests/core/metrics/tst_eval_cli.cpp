// `osprey-cli eval` end to end: published values through the command line, JSON output, and the error
// message for each kind of bad input (file and line named, exit code 1, no crash).
#include "fixtures.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

namespace {

struct CliResult {
    int exitCode = -1;
    QString out;
    QString err;
};

CliResult runCli(const QStringList& arguments) {
    QProcess process;
    process.start(OSPREY_CLI_PATH, QStringList{"eval"} + arguments);
    process.waitForFinished(30000);
    CliResult result;
    result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

QString fixture(const std::string& relative) {
    return QString::fromStdString(osprey::test::fixture(relative).string());
}

void writeFile(const QString& path, const std::string& text) {
    std::ofstream(path.toStdString()) << text;
}

} // namespace

class TestEvalCli : public QObject {
    Q_OBJECT
private slots:
    void vocJsonMatchesPublishedValue() {
        OSPREY_REQUIRE_FIXTURE("metrics/voc_case_1");
        const auto r =
            runCli({"gt=" + fixture("metrics/voc_case_1/gts"), "pred=" + fixture("metrics/voc_case_1/dets"),
                    "box=xywh", "style=voc", "iou=0.3", "plus1=true", "json=true"});
        QCOMPARE(r.exitCode, 0);
        const auto json = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(qAbs(json["mAP"].toDouble() - 0.2456866804) < 1e-9);
        QVERIFY(qAbs(json["per_class"].toObject()["object"].toDouble() - 0.2456866804) < 1e-9);
        // 11-point, text output.
        const auto text =
            runCli({"gt=" + fixture("metrics/voc_case_1/gts"), "pred=" + fixture("metrics/voc_case_1/dets"),
                    "box=xywh", "style=voc", "iou=0.3", "plus1=true", "interp=11"});
        QVERIFY2(text.out.contains("mAP 0.2684"), qPrintable(text.out));
    }

    void cocoSummaryAndJson() {
        OSPREY_REQUIRE_FIXTURE("metrics/toyexample");
        const QStringList inputs{"gt=" + fixture("metrics/toyexample/gts_coco_format/toy_example_coco.JSON"),
                                 "pred=" + fixture("metrics/toyexample/dets_coco_format/coco_dets.json")};
        const auto text = runCli(inputs);
        QCOMPARE(text.exitCode, 0);
        QCOMPARE(text.out.split('\n', Qt::SkipEmptyParts).size(), 12);
        const auto json =
            QJsonDocument::fromJson(runCli(inputs + QStringList{"json=true"}).out.toUtf8()).object();
        const QStringList keys{"AP",  "AP50", "AP75",  "APs", "APm", "APl",
                               "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"};
        QCOMPARE(json.keys().size(), keys.size());
        for (const auto& key : keys)
            QVERIFY2(json.contains(key), qPrintable(key));
        // Every cat is larger than 96² px: small and medium are undefined.
        QCOMPARE(json["APs"].toDouble(), -1.0);
        QCOMPARE(json["APl"].toDouble(), json["AP"].toDouble());
    }

    void ultralyticsTableAndJson() {
        OSPREY_REQUIRE_FIXTURE("metrics/toyexample");
        const QStringList inputs{"gt=" + fixture("metrics/toyexample/gts_vocpascal_format"),
                                 "pred=" + fixture("metrics/toyexample/dets_classid_abs_xywh"), "box=xywh",
                                 "names=" + fixture("metrics/toyexample/voc.names"), "style=ultralytics"};
        const auto json =
            QJsonDocument::fromJson(runCli(inputs + QStringList{"json=true"}).out.toUtf8()).object();
        for (const char* key : {"mAP50", "mAP50-95", "precision", "recall", "per_class"})
            QVERIFY2(json.contains(key), key);
        QCOMPARE(json["per_class"].toObject()["cat"].toObject()["instances"].toInt(), 12);
        QVERIFY(json["mAP50"].toDouble() > json["mAP50-95"].toDouble());
    }

    void badInputExitsWithFileAndLine() {
        // One bad file through the whole command line; every other kind of bad input is covered in-process
        // by tst_eval_reader (osprey-cli takes about a second to start).
        QTemporaryDir dir;
        const QString gt = dir.filePath("gt"), pred = dir.filePath("pred");
        QDir().mkpath(gt);
        QDir().mkpath(pred);
        writeFile(gt + "/a.txt", "cat 0 0 10 10\n");
        writeFile(pred + "/a.txt", "cat 0.9 0 0 10 10\ncat 0.8 0 0 10\n");
        const auto r = runCli({"gt=" + gt, "pred=" + pred});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.startsWith("error: ") && r.err.contains("a.txt: line 2:") &&
                     r.err.contains("got 5 fields"),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestEvalCli)
#include "tst_eval_cli.moc"
