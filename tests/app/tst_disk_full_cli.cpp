// A full disk as a user meets it (issue 22), on a real small tmpfs (tests/sandbox_mounts.h: the test runs
// in its own user + mount namespace, so no root is needed and nothing leaks out; it skips where the kernel
// refuses that):
// - `osprey-cli import` of 20,000 images into a project on a 1.5 MB disk fails with a message that says
//   the disk is full, and the project is as it was: integrity_check ok, the earlier image, class and box
//   still there and nothing of the import;
// - `osprey-cli train` whose disk fills up after the first epoch's checkpoint (but for 1 MiB) fails with a
//   clear error at the next checkpoint, naming last.pt and the cause, and the first epoch's last.pt is
//   intact, byte for byte, with no temporary left.
#include "project/project.h"

#include "cli_process.h"
#include "fuzz/fuzz_input.h"
#include "sandbox_mounts.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

std::string png64() {
    using fuzz::be32;
    const std::string ihdr = be32(64) + be32(64) + std::string("\x08\x02\x00\x00\x00", 5);
    const std::string idat("\x78\x9c\x63\x60\x60\x60\x00\x00\x00\x04\x00\x01", 12);
    return std::string("\x89PNG\r\n\x1a\n", 8) + fuzz::pngChunk("IHDR", ihdr) + fuzz::pngChunk("IDAT", idat) +
           fuzz::pngChunk("IEND", "");
}

void makeCocoDataset(const fs::path& root, int images) {
    fs::create_directories(root / "images");
    const std::string png = png64();
    std::ofstream json(root / "instances.json");
    json << R"({"categories": [{"id": 1, "name": "a"}], "images": [)";
    for (int i = 0; i < images; ++i) {
        const std::string name = "img" + std::to_string(i) + ".png";
        std::ofstream(root / "images" / name, std::ios::binary) << png;
        json << (i ? "," : "") << R"({"id": )" << i + 1 << R"(, "file_name": ")" << name
             << R"(", "width": 64, "height": 64})";
    }
    json << R"(], "annotations": [)";
    for (int i = 0; i < images; ++i)
        json << (i ? "," : "") << R"({"id": )" << i + 1 << R"(, "image_id": )" << i + 1
             << R"(, "category_id": 1, "bbox": [4, 4, 20, 20], "area": 400, "iscrowd": 0})";
    json << "]}";
}

std::string fileBytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

class TestDiskFullCli : public QObject {
    Q_OBJECT
private slots:
    void init() {
        if (!test::sandboxAvailable())
            QSKIP(qPrintable("no user/mount namespace for a small tmpfs: " +
                             QString::fromStdString(test::sandboxProblem())));
    }

    void importOnAFullDiskLeavesTheProjectAsItWas() {
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        makeCocoDataset(base / "coco", 20000);
        const fs::path disk = base / "disk";
        if (const auto problem = test::mountTmpfs(disk, 1536 << 10); !problem.empty())
            QSKIP(problem.c_str());
        const fs::path folder = disk / "p";
        {
            auto project = std::move(project::Project::create(folder).value());
            const auto cls = project->classes().add("earlier").value();
            const auto image = project->images().add({"earlier.jpg", 100, 100}).value();
            project->boxes().add({image, cls, 1, 2, 30, 40}).value();
        }
        const auto run = test::runCli({"import", test::pathArg("project", folder),
                                       test::pathArg("source", base / "coco" / "instances.json")});
        const QString all = run.out + run.err;
        QVERIFY2(run.exitCode == 1, qPrintable(all));
        QVERIFY2(all.contains("the disk is full"), qPrintable(all));
        QVERIFY2(all.contains("project.osprey"), qPrintable(all));
        qInfo("%s", qPrintable(run.err.trimmed().right(400)));

        auto project = std::move(project::Project::open(folder).value());
        QCOMPARE(project->integrityCheck().value(), std::string("ok"));
        QCOMPARE(project->images().count().value(), std::int64_t(1));
        QCOMPARE(project->classes().list().value().size(), size_t(1));
        const auto image = project->images().list().value().front();
        QCOMPARE(image.path, std::string("earlier.jpg"));
        QCOMPARE(project->boxes().ofImage(image.id).value().size(), size_t(1));
        // A small edit still fits, and is stored.
        QVERIFY(project->boxes().add({image.id, project->classes().list().value().front().id, 5, 5, 9, 9}));
        project.reset();
        test::unmount(disk);
    }

    void checkpointOnAFullDiskKeepsThePreviousOne() {
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        const fs::path disk = base / "disk";
        if (const auto problem = test::mountTmpfs(disk, 160u << 20); !problem.empty())
            QSKIP(problem.c_str());
        const fs::path folder = disk / "demo";
        auto made = test::runCli({"demo", test::pathArg("path", folder), "images=16", "imgsz=64", "seed=3"});
        QVERIFY2(made.exitCode == 0, qPrintable(made.out + made.err));

        QProcess train;
        train.start(OSPREY_CLI_PATH,
                    {"train", test::pathArg("project", folder), "model=yolov8n", "epochs=3", "imgsz=64",
                     "batch=8", "workers=1", "threads=2", "device=cpu", "name=full", "events=jsonl"});
        QVERIFY(train.waitForStarted());
        const fs::path last = folder / "runs" / "full" / "weights" / "last.pt";
        std::string firstEpoch;
        fs::path filler;
        QByteArray events;
        while (train.state() == QProcess::Running && filler.empty()) {
            train.waitForReadyRead(1000);
            events += train.readAllStandardOutput();
            // After epoch 1's checkpoints (last, then best), keep a copy and fill the disk but for 1 MiB: the
            // next epoch's results.csv line, events and database rows still fit, its checkpoint does not.
            if (events.contains("\"type\":\"checkpoint\"") && events.contains("\"kind\":\"best\"")) {
                firstEpoch = fileBytes(last);
                filler = test::fillDisk(disk, 1 << 20);
            }
        }
        QVERIFY2(!filler.empty(), events.right(2000).constData());
        QVERIFY(train.waitForFinished(600000));
        events += train.readAllStandardOutput();
        const QString err = QString::fromUtf8(train.readAllStandardError());
        qInfo("exit %d; stderr: %s", train.exitCode(), qPrintable(err.right(1500)));
        qInfo("events: %s", events.right(1500).constData());
        QVERIFY2(train.exitCode() != 0, "training went on although the disk was full");
        QVERIFY2(events.contains("\"type\":\"failed\""), events.right(2000).constData());
        const QString failed = QString::fromUtf8(events.mid(events.lastIndexOf("\"type\":\"failed\"") - 200));
        qInfo("%s", qPrintable(failed.right(600)));
        QVERIFY2(failed.contains("last.pt") && failed.contains("No space left on device"),
                 qPrintable(failed + err.right(1000)));

        // The previous checkpoint is intact and nothing half-written is left beside it.
        QVERIFY(!firstEpoch.empty());
        QCOMPARE(fileBytes(last) == firstEpoch, true);
        for (const auto& entry : fs::directory_iterator(last.parent_path()))
            QVERIFY2(entry.path().extension() != ".tmp", entry.path().c_str());
        fs::remove(filler);
        auto project = std::move(project::Project::open(folder).value());
        QCOMPARE(project->integrityCheck().value(), std::string("ok"));
        project.reset();
        test::unmount(disk);
    }
};

int main(int argc, char** argv) {
    test::enterMountNamespace(argc, argv); // while the process has one thread
    QCoreApplication app(argc, argv);
    TestDiskFullCli test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_disk_full_cli.moc"
