// Dataset snapshots: the hash is stable for unchanged data and follows every change the issue names (one
// box moved by 1 px included); snapshot.bin reads back exactly and refuses damage; the diff reports exactly
// the scripted edits between two runs.
#include "quality/run_snapshot.h"
#include "quality/snapshot_diff.h"
#include "run/run_folder.h"

#include "core/quality/snapshot_fixture.h"
#include "project_printers.h"
#include "run/run_files.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace osprey;
using namespace osprey::quality;

namespace {

std::filesystem::path tempPath(const QTemporaryDir& dir, const char* name) {
    return std::filesystem::path(dir.path().toStdString()) / name;
}

std::string hashOf(const project::Project& project) {
    auto snapshot = takeSnapshot(project);
    if (!snapshot)
        qFatal("snapshot: %s", snapshot.message().c_str());
    return snapshot->hash;
}

project::BoxRecord firstBoxOf(const project::Project& project, std::int64_t imageId) {
    auto boxes = project.boxes().ofImage(imageId);
    if (!boxes || boxes->empty())
        qFatal("image %lld has no boxes", static_cast<long long>(imageId));
    return boxes->front();
}

std::string readBytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void writeBytes(const std::filesystem::path& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

} // namespace

class TestDatasetSnapshot : public QObject {
    Q_OBJECT
private slots:
    void hashIsStableForUnchangedData() {
        QTemporaryDir dir;
        auto synthetic = test::makeSyntheticProject(tempPath(dir, "p"), 200, 3);
        const auto first = takeSnapshot(*synthetic.project);
        QVERIFY2(first, first ? "" : first.message().c_str());
        const auto second = takeSnapshot(*synthetic.project);
        QVERIFY(second);
        QCOMPARE(first->hash.size(), size_t(64));
        QCOMPARE(second->hash, first->hash);
        // 200 images less the 4 outside the splits (every 50th), 3 boxes each.
        QCOMPARE(first->images.size(), size_t(196));
        QCOMPARE(first->boxes.size(), size_t(196 * 3));
        QCOMPARE(first->classes.size(), size_t(4));
        QCOMPARE(computeSnapshotHash(*first), first->hash);
        auto streamed = projectSnapshotHash(*synthetic.project);
        QVERIFY(streamed);
        QCOMPARE(*streamed, first->hash);

        // The same data in another project (other ids, other insertion order of boxes) hashes the same.
        auto again = test::makeSyntheticProject(tempPath(dir, "q"), 200, 3);
        QCOMPARE(hashOf(*again.project), first->hash);
        auto other = test::makeSyntheticProject(tempPath(dir, "r"), 200, 3, /*seed=*/8);
        QVERIFY(hashOf(*other.project) != first->hash);
    }

    void hashChangesWhenOneBoxMovesOnePixel() {
        QTemporaryDir dir;
        auto synthetic = test::makeSyntheticProject(tempPath(dir, "p"), 50, 2);
        auto& project = *synthetic.project;
        const std::string before = hashOf(project);
        auto box = firstBoxOf(project, synthetic.imageIds[3]);
        const auto original = box;
        box.x1 += 1;
        box.x2 += 1;
        QVERIFY(project.boxes().update(box));
        const std::string moved = hashOf(project);
        QVERIFY(moved != before);
        QVERIFY(project.boxes().update(original));
        QCOMPARE(hashOf(project), before);
    }

    void hashFollowsSplitStatusClassAndBoxes() {
        QTemporaryDir dir;
        auto synthetic = test::makeSyntheticProject(tempPath(dir, "p"), 50, 2);
        auto& project = *synthetic.project;
        std::vector<std::string> hashes{hashOf(project)};
        QVERIFY(project.images().setSplit(synthetic.imageIds[0], project::Split::Val));
        hashes.push_back(hashOf(project));
        QVERIFY(project.images().setStatus(synthetic.imageIds[1], project::ImageStatus::Reviewed));
        hashes.push_back(hashOf(project));
        QVERIFY(project.classes().rename(synthetic.classIds[2], "pyramid"));
        hashes.push_back(hashOf(project));
        auto box = firstBoxOf(project, synthetic.imageIds[2]);
        box.classId = box.classId == synthetic.classIds[0] ? synthetic.classIds[1] : synthetic.classIds[0];
        QVERIFY(project.boxes().update(box));
        hashes.push_back(hashOf(project));
        QVERIFY(project.boxes().remove(box.id));
        hashes.push_back(hashOf(project));
        // An image outside the splits is not in the run's data: its boxes do not count.
        QVERIFY(project.boxes().add({.imageId = synthetic.imageIds[49],
                                     .classId = synthetic.classIds[0],
                                     .x1 = 1,
                                     .y1 = 1,
                                     .x2 = 9,
                                     .y2 = 9}));
        QCOMPARE(hashOf(project), hashes.back());
        for (size_t i = 1; i < hashes.size(); ++i)
            for (size_t j = 0; j < i; ++j)
                QVERIFY2(hashes[i] != hashes[j], qPrintable(QString("edit %1 vs %2").arg(i).arg(j)));
    }

    void fileRoundTripsAndRefusesDamage() {
        QTemporaryDir dir;
        auto synthetic = test::makeSyntheticProject(tempPath(dir, "p"), 300, 4);
        const auto file = tempPath(dir, "snapshot.bin");
        auto summary = writeSnapshot(*synthetic.project, file);
        QVERIFY2(summary, summary ? "" : summary.message().c_str());
        QCOMPARE(summary->images, std::int64_t(294));
        QCOMPARE(summary->boxes, std::int64_t(294 * 4));
        QCOMPARE(summary->fileBytes, std::filesystem::file_size(file));
        const auto memory = takeSnapshot(*synthetic.project);
        QVERIFY(memory);
        QCOMPARE(summary->hash, memory->hash);
        auto header = readSnapshotHash(file);
        QVERIFY(header);
        QCOMPARE(*header, memory->hash);

        const auto read = readSnapshot(file);
        QVERIFY2(read, read ? "" : read.message().c_str());
        QCOMPARE(read->hash, memory->hash);
        QCOMPARE(read->images.size(), memory->images.size());
        QCOMPARE(read->boxes.size(), memory->boxes.size());
        for (size_t i = 0; i < memory->images.size(); ++i) {
            QCOMPARE(read->images[i].id, memory->images[i].id);
            QCOMPARE(read->images[i].path, memory->images[i].path);
            QCOMPARE(read->images[i].contentHash, memory->images[i].contentHash);
            OSPREY_COMPARE_ENUM(read->images[i].split, memory->images[i].split);
            QCOMPARE(read->images[i].boxCount, memory->images[i].boxCount);
        }
        for (size_t i = 0; i < memory->boxes.size(); ++i) {
            QCOMPARE(read->boxes[i].id, memory->boxes[i].id);
            QCOMPARE(read->boxes[i].classIndex, memory->boxes[i].classIndex);
            QCOMPARE(read->boxes[i].x1, memory->boxes[i].x1); // bit-exact doubles
            QCOMPARE(read->boxes[i].y2, memory->boxes[i].y2);
        }

        const std::string bytes = readBytes(file);
        // A flipped bit in the compressed records.
        std::string damaged = bytes;
        damaged[bytes.size() / 2] = static_cast<char>(damaged[bytes.size() / 2] ^ 0x10);
        writeBytes(file, damaged);
        auto bad = readSnapshot(file);
        QVERIFY(!bad);
        QVERIFY2(bad.message().find(file.string()) == 0, bad.message().c_str());
        // Truncated.
        writeBytes(file, bytes.substr(0, bytes.size() - 100));
        bad = readSnapshot(file);
        QVERIFY(!bad);
        QVERIFY2(bad.message().find("damaged or truncated") != std::string::npos, bad.message().c_str());
        // Another hash in the header than the records give.
        damaged = bytes;
        damaged[20] = static_cast<char>(damaged[20] ^ 0x01);
        writeBytes(file, damaged);
        bad = readSnapshot(file);
        QVERIFY(!bad);
        QVERIFY2(bad.message().find("do not give the recorded hash") != std::string::npos,
                 bad.message().c_str());
        writeBytes(file, "not a snapshot");
        bad = readSnapshot(file);
        QVERIFY(!bad);
        QVERIFY2(bad.message().find("not an Osprey dataset snapshot") != std::string::npos,
                 bad.message().c_str());
    }

    void diffReportsExactlyTheScriptedEdits() {
        QTemporaryDir dir;
        auto synthetic = test::makeSyntheticProject(tempPath(dir, "p"), 40, 3);
        auto& project = *synthetic.project;
        const auto a = takeSnapshot(project);
        QVERIFY(a);
        // 2 images added (with boxes), 1 box moved, 1 relabelled, 1 class renamed.
        auto added = project.images().addAll(std::vector<project::NewImage>{{.path = "new/a.jpg",
                                                                             .width = 640,
                                                                             .height = 480,
                                                                             .hash = "aaaa",
                                                                             .split = project::Split::Train},
                                                                            {.path = "new/b.jpg",
                                                                             .width = 640,
                                                                             .height = 480,
                                                                             .hash = "bbbb",
                                                                             .split = project::Split::Val}});
        QVERIFY(added);
        QVERIFY(project.boxes().add({.imageId = (*added)[0],
                                     .classId = synthetic.classIds[0],
                                     .x1 = 5,
                                     .y1 = 5,
                                     .x2 = 50,
                                     .y2 = 60}));
        auto moved = firstBoxOf(project, synthetic.imageIds[1]);
        moved.x1 += 40;
        moved.x2 += 40;
        QVERIFY(project.boxes().update(moved));
        auto relabelled = firstBoxOf(project, synthetic.imageIds[2]);
        const std::int64_t newClass =
            relabelled.classId == synthetic.classIds[0] ? synthetic.classIds[1] : synthetic.classIds[0];
        relabelled.classId = newClass;
        QVERIFY(project.boxes().update(relabelled));
        QVERIFY(project.classes().rename(synthetic.classIds[3], "pentagram"));
        // A box deleted and drawn again in the same place is neither added nor removed.
        const auto redrawn = firstBoxOf(project, synthetic.imageIds[4]);
        QVERIFY(project.boxes().remove(redrawn.id));
        QVERIFY(project.boxes().add({.imageId = redrawn.imageId,
                                     .classId = redrawn.classId,
                                     .x1 = redrawn.x1,
                                     .y1 = redrawn.y1,
                                     .x2 = redrawn.x2,
                                     .y2 = redrawn.y2}));

        const auto b = takeSnapshot(project);
        QVERIFY(b);
        const auto diff = diffSnapshots(*a, *b);
        QVERIFY(!diff.sameData());
        QCOMPARE(diff.imagesAdded.size(), size_t(2));
        QCOMPARE(diff.imagesAdded[0].path, std::string("new/a.jpg"));
        QCOMPARE(diff.imagesAdded[0].boxes, 1);
        OSPREY_COMPARE_ENUM(diff.imagesAdded[1].split, project::Split::Val);
        QCOMPARE(diff.imagesRemoved.size(), size_t(0));
        QCOMPARE(diff.imagesMoved.size(), size_t(0));
        QCOMPARE(diff.statusChanged.size(), size_t(0));
        QCOMPARE(diff.contentChanged.size(), size_t(0));
        QCOMPARE(diff.boxesAdded.size(), size_t(0));
        QCOMPARE(diff.boxesRemoved.size(), size_t(0));
        QCOMPARE(diff.boxesAdjusted, std::int64_t(0));
        QCOMPARE(diff.boxesMoved.size(), size_t(1));
        QCOMPARE(diff.boxesMoved[0].boxId, moved.id);
        QVERIFY(diff.boxesMoved[0].iou < 0.95);
        QCOMPARE(diff.boxesMoved[0].after[0], moved.x1);
        QCOMPARE(diff.boxesRelabelled.size(), size_t(1));
        QCOMPARE(diff.boxesRelabelled[0].boxId, relabelled.id);
        QCOMPARE(diff.classesRenamed.size(), size_t(1));
        QCOMPARE(diff.classesRenamed[0].from, std::string("star"));
        QCOMPARE(diff.classesRenamed[0].to, std::string("pentagram"));
        QVERIFY(diff.classesAdded.empty() && diff.classesRemoved.empty() && !diff.classOrderChanged);

        const auto none = diffSnapshots(*b, *b);
        QVERIFY(none.sameData());
        QVERIFY(none.imagesAdded.empty() && none.boxesMoved.empty() && none.classesRenamed.empty());

        // Back the other way: the images are removed, the rename reverses.
        const auto back = diffSnapshots(*b, *a);
        QCOMPARE(back.imagesRemoved.size(), size_t(2));
        QCOMPARE(back.classesRenamed[0].to, std::string("star"));
    }

    void splitMovesAndSmallAdjustments() {
        QTemporaryDir dir;
        auto synthetic = test::makeSyntheticProject(tempPath(dir, "p"), 20, 1);
        auto& project = *synthetic.project;
        const auto a = takeSnapshot(project);
        QVERIFY(project.images().setSplit(synthetic.imageIds[0], project::Split::Test));
        QVERIFY(project.images().setSplit(synthetic.imageIds[1], project::Split::None));
        auto nudged = firstBoxOf(project, synthetic.imageIds[2]);
        nudged.x2 -= 0.5; // IoU stays above 0.95
        QVERIFY(project.boxes().update(nudged));
        const auto b = takeSnapshot(project);
        const auto diff = diffSnapshots(*a, *b);
        QCOMPARE(diff.imagesMoved.size(), size_t(1));
        OSPREY_COMPARE_ENUM(diff.imagesMoved[0].from, project::Split::Train);
        OSPREY_COMPARE_ENUM(diff.imagesMoved[0].to, project::Split::Test);
        QCOMPARE(diff.imagesRemoved.size(), size_t(1)); // split none: out of the run's data
        QCOMPARE(diff.boxesAdjusted, std::int64_t(1));
        QVERIFY(diff.boxesMoved.empty());
    }

    void runSnapshotIsRecordedOnceAndFound() {
        QTemporaryDir dir;
        auto synthetic = test::makeSyntheticProject(tempPath(dir, "p"), 30, 2);
        auto& project = *synthetic.project;
        const auto runDir = project.folder() / "runs" / "r1";
        auto recorded = recordRunSnapshot(project, runDir);
        QVERIFY2(recorded, recorded ? "" : recorded.message().c_str());
        QVERIFY(!recorded->kept);
        QVERIFY(std::filesystem::exists(run::RunFolder(runDir).snapshot()));
        QVERIFY(project.runs().add("r1", std::string("{\"model\":\"yolov8n\",\"epochs\":\"3\",\"") +
                                             run::kSnapshotConfigKey + "\":\"" + recorded->summary.hash +
                                             "\"}"));
        QVERIFY(run::writeArgsYaml(runDir / "args.yaml", {{"model", "yolov8n"}, {"epochs", "3"}}));

        // Resume on unchanged data keeps the file, silently; after an edit it still keeps it, and warns.
        auto again = recordRunSnapshot(project, runDir);
        QVERIFY(again && again->kept && again->warning.empty());
        QCOMPARE(again->summary.hash, recorded->summary.hash);
        QVERIFY(project.images().setSplit(synthetic.imageIds[0], project::Split::Val));
        again = recordRunSnapshot(project, runDir);
        QVERIFY(again && again->kept);
        QVERIFY2(again->warning.find("changed since this run started") != std::string::npos,
                 again->warning.c_str());
        QCOMPARE(again->summary.hash, recorded->summary.hash);

        auto run = findRun(project, "r1");
        QVERIFY(run);
        QCOMPARE(run->snapshotHash, recorded->summary.hash);
        QCOMPARE(run->model(), std::string("yolov8n"));
        QCOMPARE(run->args.count(osprey::run::kSnapshotConfigKey), size_t(0));
        auto loaded = loadRunSnapshot(*run);
        QVERIFY(loaded);
        QCOMPARE(loaded->hash, recorded->summary.hash);
        auto missing = findRun(project, "r2");
        QVERIFY(!missing);
        QVERIFY2(missing.message().find("runs: r1") != std::string::npos, missing.message().c_str());
    }

    void argumentChanges() {
        const auto changes = diffArgs({{"epochs", "10"}, {"imgsz", "640"}, {"lr0", "0.01"}},
                                      {{"epochs", "20"}, {"imgsz", "640"}, {"mosaic", "0.5"}});
        QCOMPARE(changes.size(), size_t(3));
        QCOMPARE(changes[0].key, std::string("epochs"));
        QCOMPARE(changes[0].before, std::string("10"));
        QCOMPARE(changes[0].after, std::string("20"));
        QCOMPARE(changes[1].key, std::string("lr0"));
        QVERIFY(changes[1].after.empty());
        QCOMPARE(changes[2].key, std::string("mosaic"));
        QVERIFY(changes[2].before.empty());
        QCOMPARE(boxIou({0, 0, 10, 10}, {5, 0, 15, 10}), 50.0 / 150.0);
    }
};

QTEST_GUILESS_MAIN(TestDatasetSnapshot)
#include "tst_dataset_snapshot.moc"
