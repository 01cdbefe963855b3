// Import into a project (one transaction, strict leaves it untouched, cancel) and project -> format ->
// project round trips for YOLO, COCO and VOC.
#include "formats/project_export.h"
#include "formats/project_import.h"

#include "fixtures.h"

#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <cmath>
#include <fstream>
#include <map>

using namespace osprey;
using namespace osprey::formats;

namespace {

std::filesystem::path tempPath(const QTemporaryDir& dir, const std::string& name) {
    return std::filesystem::path(dir.path().toStdString()) / name;
}

std::unique_ptr<project::Project> newProject(const std::filesystem::path& folder) {
    auto project = project::Project::create(folder);
    if (!project)
        qFatal("%s", project.message().c_str());
    return std::move(*project);
}

ImportOptions importOf(const std::string& relative, const std::string& images = {}) {
    ImportOptions options;
    options.read.source = test::fixture(relative);
    if (!images.empty())
        options.read.imagesDir = test::fixture(images);
    return options;
}

/// name -> (status, split, sorted boxes as class name + xyxy + flags)
struct ImageView {
    project::ImageStatus status;
    project::Split split;
    std::vector<std::tuple<std::string, double, double, double, double, bool, bool, bool>> boxes;
};
std::map<std::string, ImageView> view(const project::Project& project) {
    auto dataset = readProject(project);
    if (!dataset)
        qFatal("%s", dataset.message().c_str());
    std::map<std::string, ImageView> out;
    for (const auto& image : dataset->images) {
        ImageView v{image.status, image.split, {}};
        for (const auto& b : image.boxes)
            v.boxes.emplace_back(dataset->classes[static_cast<std::size_t>(b.classIndex)].name, b.x1, b.y1,
                                 b.x2, b.y2, b.flags.crowd, b.flags.difficult, b.flags.truncated);
        std::sort(v.boxes.begin(), v.boxes.end());
        out[image.name] = std::move(v);
    }
    return out;
}

} // namespace

class TestProjectImport : public QObject {
    Q_OBJECT
private slots:
    void importsInOneGo() {
        OSPREY_REQUIRE_FIXTURE("formats/multiformat");
        QTemporaryDir dir;
        auto project = newProject(tempPath(dir, "p"));
        auto summary = importDataset(
            *project, importOf("formats/multiformat/gts/pascalvoc_format", "formats/multiformat/images"));
        QVERIFY2(summary.hasValue(), summary ? "" : summary.message().c_str());
        QCOMPARE(summary->format, std::string("voc"));
        QCOMPARE(summary->images, std::int64_t(100));
        QCOMPARE(summary->boxes, std::int64_t(273));
        QCOMPARE(summary->classesAdded, std::int64_t(20));
        QCOMPARE(project->images().count().value(), std::int64_t(100));
        // Importing the same images again leaves them as they were.
        auto again = importDataset(
            *project, importOf("formats/multiformat/gts/coco_format_v1", "formats/multiformat/images"));
        QVERIFY(again.hasValue());
        QCOMPARE(again->alreadyPresent, std::int64_t(100));
        QCOMPARE(again->images, std::int64_t(0));
        QCOMPARE(again->classesAdded, std::int64_t(0));
        QCOMPARE(project->images().count().value(), std::int64_t(100));
    }

    void strictLeavesTheProjectUntouched() {
        OSPREY_REQUIRE_FIXTURE("formats/datumaro");
        QTemporaryDir dir;
        auto project = newProject(tempPath(dir, "p"));
        QVERIFY(project->classes().add("existing").hasValue());
        // voc_dataset1 has an image without XML: a warning, so strict refuses.
        auto options = importOf("formats/datumaro/voc_dataset/voc_dataset1");
        options.mode = ImportMode::Strict;
        auto strict = importDataset(*project, options);
        QVERIFY(!strict);
        QVERIFY2(strict.message().find("strict=true") != std::string::npos &&
                     strict.message().find("2007_000002") != std::string::npos,
                 strict.message().c_str());
        QCOMPARE(project->images().count().value(), std::int64_t(0));
        QCOMPARE(project->classes().list().value().size(), std::size_t(1));
        // Lenient: both images, one unlabeled.
        options.mode = ImportMode::Lenient;
        auto lenient = importDataset(*project, options);
        QVERIFY(lenient.hasValue());
        QCOMPARE(lenient->images, std::int64_t(2));
        QCOMPARE(lenient->unlabeled, std::int64_t(1));
        const auto images = view(*project);
        QVERIFY(images.at("2007_000002.jpg").status == project::ImageStatus::New);
        QVERIFY(images.at("2007_000002.jpg").split == project::Split::Test);
        QVERIFY(images.at("2007_000001.jpg").split == project::Split::Train);
        const auto& boxes = images.at("2007_000001.jpg").boxes;
        QCOMPARE(boxes.size(), std::size_t(2));
        QCOMPARE(std::get<0>(boxes[0]), std::string("cat"));
        QCOMPARE(std::get<7>(boxes[0]), true); // truncated kept
    }

    void cancelRollsBack() {
        OSPREY_REQUIRE_FIXTURE("formats/multiformat");
        QTemporaryDir dir;
        auto project = newProject(tempPath(dir, "p"));
        std::atomic<bool> cancel{false};
        auto options = importOf("formats/multiformat/gts/coco_format_v2", "formats/multiformat/images");
        options.read.progress.cancel = &cancel;
        int calls = 0;
        options.read.progress.callback = [&](std::int64_t, std::int64_t, std::string_view stage) {
            ++calls;
            if (stage == "writing images")
                cancel = true; // cancel once the transaction has started
        };
        auto result = importDataset(*project, options);
        QVERIFY(!result);
        QCOMPARE(result.error().code, std::string("cancelled"));
        QVERIFY(calls > 0);
        QCOMPARE(project->images().count().value(), std::int64_t(0));
        QCOMPARE(project->classes().list().value().size(), std::size_t(0));
    }

    void roundTrips_data() {
        QTest::addColumn<QString>("format");
        QTest::addColumn<double>("tolerance");
        QTest::newRow("yolo") << "yolo" << 1e-4;
        QTest::newRow("coco") << "coco" << 0.0;
        QTest::newRow("voc") << "voc" << 0.0;
    }
    void roundTrips() {
        OSPREY_REQUIRE_FIXTURE("formats/multiformat");
        QFETCH(QString, format);
        QFETCH(double, tolerance);
        QTemporaryDir dir;
        auto source = newProject(tempPath(dir, "a"));
        QVERIFY(importDataset(*source, importOf("formats/multiformat/gts/pascalvoc_format",
                                                "formats/multiformat/images"))
                    .hasValue());
        // Fractional coordinates, flags, a negative and an unlabeled image.
        auto images = source->images().list({}).value();
        auto firstBoxes = source->boxes().ofImage(images[0].id).value();
        firstBoxes[0].x1 += 0.25;
        firstBoxes[0].y2 -= 0.125;
        firstBoxes[0].flags.difficult = true;
        QVERIFY(source->boxes().update(firstBoxes[0]).hasValue());
        for (const auto& b : source->boxes().ofImage(images[1].id).value())
            QVERIFY(source->boxes().remove(b.id).hasValue());
        QVERIFY(source->images().setStatus(images[1].id, project::ImageStatus::VerifiedEmpty).hasValue());
        for (const auto& b : source->boxes().ofImage(images[2].id).value())
            QVERIFY(source->boxes().remove(b.id).hasValue());
        QVERIFY(source->images().setStatus(images[2].id, project::ImageStatus::New).hasValue());
        QVERIFY(source->images().setSplit(images[3].id, project::Split::Val).hasValue());
        QVERIFY(source->images().setSplit(images[4].id, project::Split::Test).hasValue());
        for (std::size_t i = 5; i < images.size(); ++i)
            QVERIFY(source->images().setSplit(images[i].id, project::Split::Train).hasValue());
        QVERIFY(source->images().setSplit(images[0].id, project::Split::Train).hasValue());
        QVERIFY(source->images().setSplit(images[1].id, project::Split::Train).hasValue());

        WriteOptions write;
        write.dest = tempPath(dir, "export");
        auto report = exportProject(*source, format.toStdString(), write);
        QVERIFY2(report.hasValue(), report ? "" : report.message().c_str());
        QCOMPARE(report->images, std::int64_t(99)); // the unlabeled one is left out
        QCOMPARE(report->skippedUnlabeled, std::int64_t(1));
        if (format == "yolo") {
            // The verified-empty image is an empty label file.
            const auto name = std::filesystem::path(images[1].path).stem().string() + ".txt";
            const auto label = write.dest / "labels" / "train" / name;
            QVERIFY(std::filesystem::exists(label));
            QCOMPARE(std::filesystem::file_size(label), std::uintmax_t(0));
            QVERIFY(std::filesystem::is_symlink(write.dest / "images" / "val" /
                                                std::filesystem::path(images[3].path).filename()));
        }

        auto copy = newProject(tempPath(dir, "b"));
        ImportOptions back;
        back.read.source = write.dest;
        back.format = format.toStdString();
        auto imported = importDataset(*copy, back);
        QVERIFY2(imported.hasValue(), imported ? "" : imported.message().c_str());
        QCOMPARE(imported->images, std::int64_t(99));
        const auto before = view(*source);
        const auto after = view(*copy);
        QCOMPARE(after.size(), std::size_t(99));
        for (const auto& [name, image] : after) {
            const auto& original = before.at(name);
            QVERIFY2(image.status == original.status, name.c_str());
            QVERIFY2(image.split == original.split, name.c_str());
            QCOMPARE(image.boxes.size(), original.boxes.size());
            for (std::size_t i = 0; i < image.boxes.size(); ++i) {
                const auto& a = image.boxes[i];
                const auto& b = original.boxes[i];
                QCOMPARE(std::get<0>(a), std::get<0>(b));
                QVERIFY(std::fabs(std::get<1>(a) - std::get<1>(b)) <= tolerance);
                QVERIFY(std::fabs(std::get<2>(a) - std::get<2>(b)) <= tolerance);
                QVERIFY(std::fabs(std::get<3>(a) - std::get<3>(b)) <= tolerance);
                QVERIFY(std::fabs(std::get<4>(a) - std::get<4>(b)) <= tolerance);
                if (format == "voc") {
                    QCOMPARE(std::get<6>(a), std::get<6>(b)); // difficult
                    QCOMPARE(std::get<7>(a), std::get<7>(b)); // truncated
                }
            }
        }
        const auto& edited = after.at(std::filesystem::path(images[0].path).filename().string());
        QVERIFY(std::any_of(edited.boxes.begin(), edited.boxes.end(), [](const auto& b) {
            return std::fabs(std::get<1>(b) - std::floor(std::get<1>(b)) - 0.25) < 1e-4;
        }));
    }
};

QTEST_GUILESS_MAIN(TestProjectImport)
#include "tst_project_import.moc"
