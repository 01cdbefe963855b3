// osprey-cli runs list / runs diff on two runs recorded through core/quality's API (run rows, args.yaml and
// snapshot.bin written as the trainer writes them, without training), with scripted edits in between:
// 2 images added, 1 box moved, 1 box relabelled, 1 class renamed, epochs 10 -> 20. The diff must report
// exactly those, in text and JSON.
#include "quality/run_snapshot.h"
#include "run/run_folder.h"

#include "app/cli_process.h"
#include "core/quality/run_fixture.h"
#include "core/quality/snapshot_fixture.h"
#include "run/run_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

QJsonObject jsonOf(const QString& text) {
    QJsonParseError error;
    const auto document = QJsonDocument::fromJson(text.toUtf8(), &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("not JSON: %s", qPrintable(text));
    return document.object();
}

} // namespace

class TestRunsCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_folder = fs::path(m_dir.path().toStdString()) / "p";
        auto synthetic = test::makeSyntheticProject(m_folder, 40, 3);
        auto& project = *synthetic.project;
        m_hash1 = test::recordRun(project, "r1", "10", 0.4321);

        auto added = project.images().addAll(std::vector<project::NewImage>{
            {.path = "new/a.jpg", .width = 640, .height = 480, .hash = "a1", .split = project::Split::Train},
            {.path = "new/b.jpg", .width = 640, .height = 480, .hash = "b2", .split = project::Split::Val}});
        QVERIFY(added);
        QVERIFY(project.boxes().add({.imageId = (*added)[1],
                                     .classId = synthetic.classIds[1],
                                     .x1 = 10,
                                     .y1 = 10,
                                     .x2 = 90,
                                     .y2 = 70}));
        auto moved = test::firstBoxOf(project, synthetic.imageIds[5]);
        m_movedBox = moved.id;
        moved.y1 += 60;
        moved.y2 += 60;
        QVERIFY(project.boxes().update(moved));
        auto relabelled = test::firstBoxOf(project, synthetic.imageIds[6]);
        m_relabelledBox = relabelled.id;
        relabelled.classId =
            relabelled.classId == synthetic.classIds[2] ? synthetic.classIds[0] : synthetic.classIds[2];
        QVERIFY(project.boxes().update(relabelled));
        QVERIFY(project.classes().rename(synthetic.classIds[3], "pentagram"));
        m_hash2 = test::recordRun(project, "r2", "20", 0.5678);
        QVERIFY(m_hash1 != m_hash2);
    }

    void diffJsonReportsExactlyTheEdits() {
        const auto run =
            test::runCli({"runs", "diff", test::pathArg("project", m_folder), "a=r1", "b=r2", "json=true"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const QJsonObject diff = jsonOf(run.out);
        QCOMPARE(diff["snapshot_a"].toString(), QString::fromStdString(m_hash1));
        QCOMPARE(diff["snapshot_b"].toString(), QString::fromStdString(m_hash2));
        QCOMPARE(diff["same_data"].toBool(), false);
        const QJsonObject summary = diff["summary"].toObject();
        const std::map<QString, int> expected{{"images_added", 2},
                                              {"boxes_moved", 1},
                                              {"boxes_relabelled", 1},
                                              {"classes_renamed", 1},
                                              {"args_changed", 1}};
        for (auto it = summary.begin(); it != summary.end(); ++it) {
            const auto want = expected.find(it.key());
            const int wanted = want == expected.end() ? 0 : want->second;
            QVERIFY2(it.value().toInt() == wanted &&
                         (it.key() != "class_order_changed" || !it.value().toBool()),
                     qPrintable(it.key() + " = " + QString::number(it.value().toInt())));
        }
        QCOMPARE(summary.size(), 15);
        const QJsonArray added = diff["images"]["added"].toArray();
        QCOMPARE(added.size(), 2);
        QCOMPARE(added.at(0).toObject()["path"].toString(), QString("new/a.jpg"));
        QCOMPARE(added.at(1).toObject()["split"].toString(), QString("val"));
        QCOMPARE(added.at(1).toObject()["boxes"].toInt(), 1);
        const QJsonObject moved = diff["boxes"]["moved"].toArray()[0].toObject();
        QCOMPARE(moved["box_id"].toInteger(), m_movedBox);
        QVERIFY(moved["iou"].toDouble() < 0.95);
        QCOMPARE(moved["after"].toArray()[1].toDouble() - moved["before"].toArray()[1].toDouble(), 60.0);
        QCOMPARE(diff["boxes"]["relabelled"].toArray().at(0).toObject()["box_id"].toInteger(),
                 m_relabelledBox);
        const QJsonObject renamed = diff["classes"]["renamed"].toArray()[0].toObject();
        QCOMPARE(renamed["from"].toString(), QString("star"));
        QCOMPARE(renamed["to"].toString(), QString("pentagram"));
        const QJsonObject args = diff["args"].toObject();
        QVERIFY(args["compared"].toBool());
        const QJsonObject epochs = args["changed"].toArray()[0].toObject();
        QCOMPARE(epochs["key"].toString(), QString("epochs"));
        QCOMPARE(epochs["a"].toString(), QString("10"));
        QCOMPARE(epochs["b"].toString(), QString("20"));
    }

    void diffTextSummarisesAndLists() {
        const auto run = test::runCli({"runs", "diff", test::pathArg("project", m_folder), "a=r1", "b=r2"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("data: 2 images added, 1 box moved, 1 box relabelled, 1 class renamed\n"),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains("arguments: 1 changed (epochs)\n"), qPrintable(run.out));
        QVERIFY2(run.out.contains("+ new/b.jpg  [val, 1 box]"), qPrintable(run.out));
        QVERIFY2(run.out.contains("  star -> pentagram\n"), qPrintable(run.out));
        QVERIFY2(run.out.contains("  epochs: 10 -> 20\n"), qPrintable(run.out));
        QVERIFY2(run.out.contains("box " + QString::number(m_movedBox)), qPrintable(run.out));
    }

    void diffWithTheProjectNow() {
        auto run = test::runCli(
            {"runs", "diff", test::pathArg("project", m_folder), "a=r2", "b=current", "json=true"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const QJsonObject diff = jsonOf(run.out);
        QVERIFY(diff["same_data"].toBool());
        QCOMPARE(diff["args"]["compared"].toBool(), false);
        run = test::runCli(
            {"runs", "diff", test::pathArg("project", m_folder), "a=r1"}); // b=current by default
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("data: 2 images added, 1 box moved, 1 box relabelled, 1 class renamed\n"),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains("arguments: not compared"), qPrintable(run.out));
    }

    void listShowsRunsWithTheirSnapshots() {
        auto run = test::runCli({"runs", "list", test::pathArg("project", m_folder)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 3);
        QVERIFY2(lines[0].startsWith("NAME") && lines[0].contains("SNAPSHOT"), qPrintable(run.out));
        const QString short1 = QString::fromStdString(m_hash1.substr(0, 12));
        QVERIFY2(lines[1].startsWith("r1 ") && lines[1].contains("finished") &&
                     lines[1].contains("yolov8n") && lines[1].contains("0.4321") && lines[1].contains(short1),
                 qPrintable(lines[1]));
        QVERIFY2(lines[2].contains(QString::fromStdString(m_hash2.substr(0, 12))) && lines[2].contains("20"),
                 qPrintable(lines[2]));
        run = test::runCli({"runs", "list", test::pathArg("project", m_folder), "json=true"});
        const QJsonArray list = QJsonDocument::fromJson(run.out.toUtf8()).array();
        QCOMPARE(list.size(), 2);
        QCOMPARE(list.at(1).toObject()["dataset_snapshot"].toString(), QString::fromStdString(m_hash2));
        QCOMPARE(list.at(1).toObject()["best_map50_95"].toDouble(), 0.5678);
        QCOMPARE(list.at(0).toObject()["epochs"].toString(), QString("10"));
    }

    void clearErrors() {
        auto run = test::runCli({"runs", "diff", test::pathArg("project", m_folder), "a=nope", "b=r2"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("run 'nope': not in the runs table") && run.err.contains("runs: r1, r2"),
                 qPrintable(run.err));
        // A damaged snapshot is refused, naming the file.
        const fs::path file = run::RunFolder(m_folder / "runs" / "r1").snapshot();
        const auto size = fs::file_size(file);
        fs::resize_file(file, size - 50);
        run = test::runCli({"runs", "diff", test::pathArg("project", m_folder), "a=r1", "b=r2"});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains(QString::fromStdString(file.string())), qPrintable(run.err));
    }

private:
    QTemporaryDir m_dir;
    fs::path m_folder;
    std::string m_hash1;
    std::string m_hash2;
    std::int64_t m_movedBox = 0;
    std::int64_t m_relabelledBox = 0;
};

QTEST_GUILESS_MAIN(TestRunsCli)
#include "tst_runs_cli.moc"
