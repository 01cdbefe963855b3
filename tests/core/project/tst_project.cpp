#include "project/project.h"
#include "project_printers.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using namespace osprey::project;

namespace {
std::filesystem::path tempPath(const QTemporaryDir& dir, const char* name = "p") {
    return std::filesystem::path(dir.path().toStdString()) / name;
}
} // namespace

class TestProject : public QObject {
    Q_OBJECT
private slots:
    void createsAndReopens() {
        QTemporaryDir dir;
        {
            auto created = Project::create(tempPath(dir));
            QVERIFY2(created.hasValue(), created.hasValue() ? "" : created.message().c_str());
            QCOMPARE((*created)->schemaVersion(), kSchemaVersion);
            QVERIFY((*created)->classes().add("cat").hasValue());
        }
        QVERIFY(std::filesystem::exists(tempPath(dir) / "project.osprey"));
        auto again = Project::create(tempPath(dir));
        QVERIFY(!again.hasValue());
        QCOMPARE(QString::fromStdString(again.error().code), QString("exists"));
        auto opened = Project::open(tempPath(dir));
        QVERIFY(opened.hasValue());
        QCOMPARE((*opened)->classes().list()->size(), size_t(1));
    }

    void classesAddRenameRecolourReorderDelete() {
        QTemporaryDir dir;
        auto project = std::move(Project::create(tempPath(dir)).value());
        const auto cat = project->classes().add("cat").value();
        const auto dog = project->classes().add("dog", "#00ff00").value();
        const auto bird = project->classes().add("bird").value();
        QVERIFY(!project->classes().add("cat").hasValue()); // unique names
        QVERIFY(!project->classes().add("").hasValue());
        auto list = project->classes().list().value();
        QCOMPARE(list[1].color, std::string("#00ff00"));
        QCOMPARE(list[0].color, paletteColor(0));
        QVERIFY(project->classes().rename(cat, "kitten").hasValue());
        QVERIFY(!project->classes().rename(cat, "dog").hasValue());
        QVERIFY(project->classes().recolor(cat, "#123456").hasValue());
        QVERIFY(!project->classes().recolor(cat, "red").hasValue());
        QVERIFY(project->classes().move(bird, 0).hasValue());
        list = project->classes().list().value();
        QCOMPARE(list[0].name, std::string("bird"));
        QCOMPARE(list[1].name, std::string("kitten"));
        QCOMPARE(list[1].color, std::string("#123456"));
        QCOMPARE(list[2].name, std::string("dog"));
        QCOMPARE(list[2].position, 2);

        const auto image = project->images().add({"a.jpg", 100, 50}).value();
        project->boxes().add({image, dog, 1, 2, 3, 4}).value();
        project->boxes().add({image, cat, 5, 6, 7, 8}).value();
        // Refuse keeps everything; Reassign moves boxes; DeleteBoxes removes them.
        QVERIFY(!project->classes().remove(dog, ClassDeletePolicy::Refuse).hasValue());
        QCOMPARE(project->classes().list()->size(), size_t(3));
        QVERIFY(project->classes().remove(dog, ClassDeletePolicy::Reassign, cat).hasValue());
        auto boxes = project->boxes().ofImage(image).value();
        QCOMPARE(boxes.size(), size_t(2));
        QCOMPARE(boxes[0].classId, cat);
        QVERIFY(project->classes().remove(cat, ClassDeletePolicy::DeleteBoxes).hasValue());
        QCOMPARE(project->boxes().ofImage(image)->size(), size_t(0));
        OSPREY_COMPARE_ENUM(project->images().get(image)->status, ImageStatus::New); // lost its last box
        list = project->classes().list().value();
        QCOMPARE(list.size(), size_t(1));
        QCOMPARE(list[0].position, 0);
    }

    void imagesListFilterAndPage() {
        QTemporaryDir dir;
        auto project = std::move(Project::create(tempPath(dir)).value());
        const auto a = project->classes().add("a").value();
        const auto b = project->classes().add("b").value();
        std::vector<NewImage> images;
        for (int i = 0; i < 25; ++i)
            images.push_back({"img" + std::to_string(i) + ".jpg", 640, 480, "", ImageStatus::New,
                              i % 5 == 0 ? Split::Val : Split::Train});
        const auto ids = project->images().addAll(images).value();
        QCOMPARE(ids.size(), size_t(25));
        QVERIFY(!project->images().add({"img3.jpg", 1, 1}).hasValue()); // duplicate path
        project->boxes()
            .addAll(std::vector<NewBox>{
                {ids[0], a, 0, 0, 10, 10}, {ids[0], b, 0, 0, 5, 5}, {ids[7], b, 1, 1, 2, 2}})
            .value();
        QCOMPARE(project->images().count().value(), 25LL);
        QCOMPARE(project->images().count({.split = Split::Val}).value(), 5LL);
        QCOMPARE(project->images().count({.status = ImageStatus::Labeled}).value(), 2LL);
        QCOMPARE(project->images().count({.classId = b}).value(), 2LL);
        QCOMPARE(project->images().count({.status = ImageStatus::Labeled, .split = Split::Val}).value(), 1LL);
        const auto page = project->images().list({.offset = 10, .limit = 10}).value();
        QCOMPARE(page.size(), size_t(10));
        QCOMPARE(page.front().path, std::string("img10.jpg"));
        const auto first = project->images().list({.limit = 1}).value();
        QCOMPARE(first[0].boxCount, 2);
        OSPREY_COMPARE_ENUM(first[0].status, ImageStatus::Labeled);
        OSPREY_COMPARE_ENUM(first[0].split, Split::Val);
        QCOMPARE(project->images().row(ids[7]).value(), 7LL);
        QCOMPARE(project->images().row(ids[7], {.classId = b}).value(), 1LL);
        QVERIFY(!project->images().row(ids[3], {.classId = b}).hasValue());
        const auto withB = project->images().list({.classId = b}).value();
        QCOMPARE(withB.size(), size_t(2));
        QCOMPARE(withB[1].id, ids[7]);
    }

    void boxesCrudAndStatusFollowsBoxes() {
        QTemporaryDir dir;
        auto project = std::move(Project::create(tempPath(dir)).value());
        const auto cls = project->classes().add("x").value();
        const auto image = project->images().add({"a.jpg", 100, 100}).value();
        QVERIFY(project->images().setStatus(image, ImageStatus::VerifiedEmpty).hasValue());
        NewBox box{image, cls, 30, 40, 10, 20, BoxSource::Model, 0.75, {.crowd = true}};
        const auto id = project->boxes().add(box).value();
        auto stored = project->boxes().get(id).value();
        // Corners are normalised to x1 < x2, y1 < y2.
        QCOMPARE(stored.x1, 10.0);
        QCOMPARE(stored.y2, 40.0);
        OSPREY_COMPARE_ENUM(stored.source, BoxSource::Model);
        QCOMPARE(stored.score.value(), 0.75);
        QVERIFY(stored.flags.crowd);
        OSPREY_COMPARE_ENUM(project->images().get(image)->status, ImageStatus::Labeled);
        stored.x2 = 99.5;
        stored.score.reset();
        stored.source = BoxSource::Manual;
        QVERIFY(project->boxes().update(stored).hasValue());
        QCOMPARE(project->boxes().get(id)->x2, 99.5);
        QVERIFY(!project->boxes().get(id)->score.has_value());
        QVERIFY(project->images().setStatus(image, ImageStatus::Reviewed).hasValue());
        QVERIFY(project->boxes().remove(id).hasValue());
        OSPREY_COMPARE_ENUM(project->images().get(image)->status,
                            ImageStatus::Reviewed); // review survives edits
        QVERIFY(!project->boxes().remove(id).hasValue());
        QVERIFY(!project->boxes().add({image, cls + 100, 0, 0, 1, 1}).hasValue()); // unknown class
        QVERIFY(!project->boxes().add({image, cls, 0, 0, std::nan(""), 1}).hasValue());
    }

    // Large inserts use multi-row statements with the parent check done up front; the ids, the values
    // and the error for a bad row must be exactly those of the one-row path.
    void batchedInsertsReturnIdsInOrderAndNameTheBadRow() {
        QTemporaryDir dir;
        auto project = std::move(Project::create(tempPath(dir)).value());
        const auto cls = project->classes().add("x").value();
        const auto other = project->classes().add("y").value();
        std::vector<NewImage> images;
        for (int i = 0; i < 75; ++i)
            images.push_back({"img" + std::to_string(i) + ".jpg", 100 + i, 50});
        const auto imageIds = project->images().addAll(images).value();
        QCOMPARE(imageIds.size(), size_t(75));
        for (int i = 0; i < 75; ++i) {
            const auto record = project->images().get(imageIds[static_cast<size_t>(i)]).value();
            QCOMPARE(QString::fromStdString(record.path),
                     QString::fromStdString(images[static_cast<size_t>(i)].path));
            QCOMPARE(record.width, 100 + i);
        }
        std::vector<NewBox> boxes;
        for (int i = 0; i < 70; ++i)
            boxes.push_back(
                {imageIds[static_cast<size_t>(i / 2)], i % 3 ? cls : other, double(i), 1, double(i) + 5, 9});
        const auto boxIds = project->boxes().addAll(boxes).value();
        QCOMPARE(boxIds.size(), size_t(70));
        for (int i = 0; i < 70; ++i) {
            const auto stored = project->boxes().get(boxIds[static_cast<size_t>(i)]).value();
            QCOMPARE(stored.imageId, boxes[static_cast<size_t>(i)].imageId);
            QCOMPARE(stored.classId, boxes[static_cast<size_t>(i)].classId);
            QCOMPARE(stored.x1, double(i));
        }
        OSPREY_COMPARE_ENUM(project->images().get(imageIds[0])->status, ImageStatus::Labeled);
        OSPREY_COMPARE_ENUM(project->images().get(imageIds[40])->status, ImageStatus::New);

        // A bad parent in the middle of a large batch: nothing from the batch is kept.
        auto bad = boxes;
        bad[45].imageId = imageIds.back() + 1000;
        auto failed = project->boxes().addAll(bad);
        QVERIFY(!failed.hasValue());
        QVERIFY2(failed.message().find("image id " + std::to_string(bad[45].imageId)) != std::string::npos,
                 failed.message().c_str());
        QVERIFY(failed.message().find("unknown image or class id") != std::string::npos);
        bad = boxes;
        bad[33].classId = other + 50;
        QVERIFY(!project->boxes().addAll(bad).hasValue());
        std::int64_t total = 0;
        for (const auto id : imageIds)
            total += static_cast<std::int64_t>(project->boxes().ofImage(id)->size());
        QCOMPARE(total, 70LL);

        // A duplicate path in a large batch names the path and keeps nothing.
        std::vector<NewImage> more;
        for (int i = 0; i < 40; ++i)
            more.push_back({"more" + std::to_string(i) + ".jpg", 10, 10});
        more[37].path = "img3.jpg";
        auto duplicate = project->images().addAll(more);
        QVERIFY(!duplicate.hasValue());
        QVERIFY2(duplicate.message().find("'img3.jpg': already in the project") != std::string::npos,
                 duplicate.message().c_str());
        QCOMPARE(project->images().count().value(), 75LL);
    }

    void transactionRollsBackEverything() {
        QTemporaryDir dir;
        auto project = std::move(Project::create(tempPath(dir)).value());
        const auto cls = project->classes().add("x").value();
        const auto result = project->transaction([&]() -> Status {
            const auto image = project->images().add({"a.jpg", 10, 10}).value();
            project->boxes().add({image, cls, 0, 0, 1, 1}).value();
            return fail("cancelled by the user");
        });
        QVERIFY(!result.hasValue());
        QCOMPARE(project->images().count().value(), 0LL);
        // A failing nested call rolls back only its own part when the outer body handles it.
        QVERIFY(project
                    ->transaction([&]() -> Status {
                        project->images().add({"b.jpg", 10, 10}).value();
                        if (project->images().add({"b.jpg", 10, 10}).hasValue())
                            return fail("duplicate accepted");
                        return {};
                    })
                    .hasValue());
        QCOMPARE(project->images().count().value(), 1LL);
    }

    void runsAndSettings() {
        QTemporaryDir dir;
        auto project = std::move(Project::create(tempPath(dir)).value());
        const auto run = project->runs().add("exp1", R"({"epochs": 3})").value();
        QVERIFY(run > 0);
        auto runs = project->runs().list().value();
        QCOMPARE(runs.size(), size_t(1));
        OSPREY_COMPARE_ENUM(runs[0].status, RunStatus::Running);
        runs[0].status = RunStatus::Finished;
        runs[0].bestEpoch = 2;
        runs[0].bestFitness = 0.42;
        runs[0].finishedAt = 1234;
        runs[0].weightsPath = "runs/exp1/weights/best.pt";
        QVERIFY(project->runs().update(runs[0]).hasValue());
        const auto reread = project->runs().list().value()[0];
        OSPREY_COMPARE_ENUM(reread.status, RunStatus::Finished);
        QCOMPARE(reread.bestEpoch.value(), 2);
        QCOMPARE(reread.bestFitness.value(), 0.42);
        QCOMPARE(reread.finishedAt.value(), 1234LL);
        QCOMPARE(project->settings().get("remote", "none").value(), std::string("none"));
        QVERIFY(project->settings().set("remote", "user/proj").hasValue());
        QCOMPARE(project->settings().get("remote").value(), std::string("user/proj"));
    }

    void statisticsCountPerClassAndSplit() {
        QTemporaryDir dir;
        auto project = std::move(Project::create(tempPath(dir)).value());
        const auto a = project->classes().add("a").value();
        const auto train =
            project->images().add({"t.jpg", 10, 10, "", ImageStatus::New, Split::Train}).value();
        const auto val = project->images().add({"v.jpg", 10, 10, "", ImageStatus::New, Split::Val}).value();
        project->images().add({"n.jpg", 10, 10}).value();
        project->boxes()
            .addAll(std::vector<NewBox>{{train, a, 0, 0, 1, 1}, {train, a, 0, 0, 2, 2}, {val, a, 0, 0, 1, 1}})
            .value();
        const auto counts = project->boxes().classSplitCounts().value();
        QCOMPARE(counts.size(), size_t(2));
        for (const auto& row : counts) {
            QCOMPARE(row.classId, a);
            QCOMPARE(row.images, 1LL);
            QCOMPARE(row.boxes, row.split == Split::Train ? 2LL : 1LL);
        }
        const auto splits = project->images().splitCounts().value();
        std::int64_t total = 0;
        for (const auto& [split, count] : splits)
            total += count;
        QCOMPARE(total, 3LL);
    }
};

QTEST_GUILESS_MAIN(TestProject)
#include "tst_project.moc"
