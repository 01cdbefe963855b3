// osprey-cli import and validate on the layouts and hostile files of issue 22, as a user runs them: the
// layout line comes before the import, exit 1 when every label would be dropped, exit 3 for skips, and
// validate reports (never aborts on) a project holding a PNG that declares 60,000 x 60,000 pixels.
#include "imaging/video.h"
#include "project/project.h"

#include "core/formats/layout_fixtures.h"
#include "core/imaging/hostile_images.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <numeric>
#include <set>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

struct Run {
    int exitCode = -1;
    QProcess::ExitStatus status = QProcess::CrashExit;
    QString out, err;
};

Run cli(const QStringList& args) {
    QProcess process;
    process.start(OSPREY_CLI_PATH, args);
    Run run;
    if (!process.waitForFinished(60000))
        return run;
    run.exitCode = process.exitCode();
    run.status = process.exitStatus();
    run.out = QString::fromUtf8(process.readAllStandardOutput());
    run.err = QString::fromUtf8(process.readAllStandardError());
    return run;
}

QString q(const fs::path& path) {
    return QString::fromStdString(path.string());
}

} // namespace

class TestImportCli : public QObject {
    Q_OBJECT
private slots:
    void reportedVocLayoutImportsEveryBox() {
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        test::makeAnnotsBesideImages(base / "DATASET");
        const Run run = cli({"import", "project=" + q(base / "p"), "source=" + q(base / "DATASET")});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const qsizetype layout =
            run.out.indexOf("4 VOC annotations in annots/, 4 images in images/, all paired");
        const qsizetype imported = run.out.indexOf("Imported 4 images and 7 boxes (voc)");
        QVERIFY2(layout >= 0 && imported > layout, qPrintable(run.out));

        // format=voc on the same folder (it imported 0 images before) finds the same.
        const Run again =
            cli({"import", "project=" + q(base / "p2"), "source=" + q(base / "DATASET"), "format=voc"});
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        QVERIFY2(again.out.contains("Imported 4 images and 7 boxes (voc)"), qPrintable(again.out));
    }

    void droppingEveryLabelIsExitOne() {
        QTemporaryDir dir;
        const fs::path data = fs::path(dir.path().toStdString()) / "DATASET";
        test::writeImage(data / "images" / "a.jpg", 40, 30);
        test::writeText(data / "annots" / "a.xml",
                        test::vocXml("a.jpg", 40, 30, "  <object><name>cat</name></object>\n"));
        const fs::path project = fs::path(dir.path().toStdString()) / "p";
        const Run run = cli({"import", "project=" + q(project), "source=" + q(data)});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(
            run.err.contains("1 label files found but 0 boxes read from them (found 1 VOC XML annotations in "
                             "annots/, 1 images in images/)"),
            qPrintable(run.err));
        QVERIFY(run.err.contains("The project was not changed."));

        const Run none =
            cli({"import", "project=" + q(project), "source=" + q(data / "images"), "format=coco"});
        QCOMPARE(none.exitCode, 1);
        QVERIFY2(none.err.contains("no COCO JSON file found"), qPrintable(none.err));
    }

    void skipsAreExitThree() {
        QTemporaryDir dir;
        const fs::path data = fs::path(dir.path().toStdString()) / "DATASET";
        test::makeAnnotsBesideImages(data);
        test::writeNoiseImage(data / "images" / "e.jpg", 64, 48);
        const std::string bytes = test::readBytes(data / "images" / "e.jpg");
        test::writeBytes(data / "images" / "e.jpg", bytes.substr(0, bytes.size() / 2));
        test::writeText(data / "annots" / "e.xml",
                        test::vocXml("e.jpg", 64, 48, test::vocObject("cat", 1, 1, 9, 9)));
        const Run run =
            cli({"import", "project=" + q(fs::path(dir.path().toStdString()) / "p"), "source=" + q(data)});
        QCOMPARE(run.exitCode, 3);
        QVERIFY2(run.err.contains("truncated JPEG"), qPrintable(run.err));
        QVERIFY2(run.out.contains("Imported 4 images and 7 boxes (voc)"), qPrintable(run.out));
        QVERIFY(run.out.contains("1 item(s) skipped"));
    }

    void validateReportsAHugeDeclaredPng() {
        QTemporaryDir dir;
        const fs::path folder = fs::path(dir.path().toStdString()) / "p";
        {
            auto project = project::Project::create(folder);
            QVERIFY(project.hasValue());
            test::writeBytes(folder / "huge.png", test::pngDeclaring(60000, 60000));
            test::writeImage(folder / "fine.jpg", 32, 32);
            project::NewImage huge{
                "huge.png", 60000, 60000, {}, project::ImageStatus::New, project::Split::Train, false};
            project::NewImage fine{"fine.jpg", 32, 32, {}, project::ImageStatus::New, project::Split::Train,
                                   false};
            const std::vector<project::NewImage> images{huge, fine};
            QVERIFY((*project)->images().addAll(images).hasValue());
        }
        const Run run = cli({"validate", "project=" + q(folder)});
        QCOMPARE(run.status, QProcess::NormalExit);
        QCOMPARE(run.exitCode, 4);
        QVERIFY2((run.out + run.err).contains("above the limit of 268,435,456"),
                 qPrintable(run.out + run.err));

        // And import refuses it from its header, naming the file.
        const fs::path src = fs::path(dir.path().toStdString()) / "src";
        test::writeBytes(src / "huge.png", test::pngDeclaring(60000, 60000));
        test::writeImage(src / "ok.jpg", 16, 16);
        const Run imported =
            cli({"import", "project=" + q(fs::path(dir.path().toStdString()) / "p2"), "source=" + q(src)});
        QCOMPARE(imported.exitCode, 3);
        QVERIFY2(imported.err.contains("huge.png: cannot read the image:") &&
                     imported.err.contains("declares 60000x60000 = 3,600,000,000 pixels"),
                 qPrintable(imported.err));
        QVERIFY2(imported.out.contains("Imported 1 images"), qPrintable(imported.out));
    }

    void videosImportAsFramesOnce() {
        // Issue 36: videos= cuts a video into frames; the second import finds them all already there; a
        // truncated video imports its first half and exits 3 naming where it stopped; junk exits 1.
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        fs::create_directories(base / "cams");
        for (const char* name : {"cam1.avi", "cam2.mp4"}) {
            auto writer = imaging::VideoWriter::open(base / "cams" / name, 96, 64, 10);
            QVERIFY(writer);
            for (int i = 0; i < 30; ++i) {
                imaging::Image frame;
                frame.width = 96;
                frame.height = 64;
                frame.pixels.resize(96 * 64 * 3);
                // A bright bar sweeping across: every sampled frame differs.
                for (int y = 0; y < 64; ++y)
                    for (int x = 0; x < 96; ++x)
                        for (int c = 0; c < 3; ++c)
                            frame.row(y)[x * 3 + c] =
                                std::abs(x - 3 * i) < 8 ? 250 : (x * 2 + y + c * 40) % 200;
                QVERIFY((*writer)->write(frame));
            }
            QVERIFY((*writer)->close());
        }
        const QString project = "project=" + q(base / "p");
        const Run run = cli({"import", project, "videos=" + q(base / "cams"), "fps=2", "dedup=0"});
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        QVERIFY2(run.out.contains("cam1.avi: 30 frames decoded") && run.out.contains("6 sampled, 6 imported"),
                 qPrintable(run.out));
        QVERIFY2(run.out.contains("Imported 12 frames from 2 video(s)"), qPrintable(run.out));
        auto opened = project::Project::open(base / "p");
        QVERIFY(opened);
        QCOMPARE((*opened)->images().count().value(), std::int64_t(12));
        const auto first = (*opened)->images().list().value().front();
        QCOMPARE((*opened)->images().get(first.id).value().frame->frame, std::int64_t(0));
        QVERIFY(fs::exists((*opened)->resolve(first.path)));

        // split keeps each video's frames in one split (neighbouring frames would leak between splits).
        const Run split = cli({"split", project, "train=0.5", "val=0.5"});
        QVERIFY2(split.exitCode == 0, qPrintable(split.out + split.err));
        QVERIFY2(split.out.contains("10 video frames kept with the other frames of their video"),
                 qPrintable(split.out));
        {
            auto reread = project::Project::open(base / "p");
            std::map<std::string, std::set<int>> splitsOfVideo;
            for (const auto& image : (*reread)->images().list().value())
                splitsOfVideo[(*reread)->images().get(image.id).value().frame->video].insert(
                    static_cast<int>(image.split));
            QCOMPARE(splitsOfVideo.size(), size_t(2));
            for (const auto& [video, splits] : splitsOfVideo)
                QVERIFY2(splits.size() == 1, video.c_str());
        }

        const Run again = cli({"import", project, "videos=" + q(base / "cams" / "cam1.avi"), "fps=2"});
        QVERIFY2(again.exitCode == 0, qPrintable(again.out + again.err));
        QVERIFY2(again.out.contains("Imported 0 frames from 1 video(s)") &&
                     again.out.contains("6 already in the project"),
                 qPrintable(again.out));

        {
            std::ifstream in(base / "cams" / "cam1.avi", std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            std::ofstream(base / "cut.avi", std::ios::binary) << bytes.substr(0, bytes.size() / 2);
        }
        const Run cut = cli(
            {"import", "project=" + q(base / "p2"), "videos=" + q(base / "cut.avi"), "every=1", "dedup=0"});
        QVERIFY2(cut.exitCode == 3, qPrintable(cut.out + cut.err));
        QVERIFY2(
            cut.err.contains(QRegularExpression("error: cut.avi: stopped at frame 1\\d \\(00:01\\.\\d0\\) of "
                                                "30: cannot decode further; 1\\d frames imported")),
            qPrintable(cut.err));

        std::ofstream(base / "junk.mp4") << "not a video";
        const Run junk = cli({"import", "project=" + q(base / "p3"), "videos=" + q(base / "junk.mp4")});
        QVERIFY2(junk.exitCode == 1 && junk.err.contains("junk.mp4: cannot open as a video"),
                 qPrintable(junk.err));
        QCOMPARE(junk.status, QProcess::NormalExit);
        QVERIFY2(junk.out.contains("Imported 0 frames from 0 of 1 video(s)"), qPrintable(junk.out));

        const Run both = cli({"import", project, "videos=" + q(base / "cams"), "source=" + q(base)});
        QVERIFY2(both.exitCode == 2 && both.err.contains("not both"), qPrintable(both.err));
        const Run neither = cli({"import", project});
        QVERIFY2(neither.exitCode == 2 && neither.err.contains("'videos'"), qPrintable(neither.err));
        const Run badTime = cli({"import", project, "videos=" + q(base / "cams"), "start=1:99"});
        QVERIFY2(badTime.exitCode == 2 && badTime.err.contains("start=1:99"), qPrintable(badTime.err));
    }

    void watchedFolderSurvivesKillNine() {
        // Issue 36: a watcher killed with SIGKILL in the middle of a video, started again, takes every image
        // and every frame exactly once; a file arriving later is taken; a third start takes nothing.
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        const fs::path watched = base / "inbox";
        fs::create_directories(watched);
        constexpr int kFrames = 400, kImages = 4;
        const auto picture = [](int seed) {
            imaging::Image image;
            image.width = 160;
            image.height = 96;
            image.pixels.resize(160 * 96 * 3);
            for (std::size_t p = 0; p < image.pixels.size(); ++p)
                image.pixels[p] = static_cast<std::uint8_t>((p * 7 + seed * 13 + (p / 480) * seed) % 251);
            return image;
        };
        {
            auto writer = imaging::VideoWriter::open(watched / "cam.avi", 160, 96, 25);
            QVERIFY(writer);
            for (int i = 0; i < kFrames; ++i)
                QVERIFY((*writer)->write(picture(i)));
            QVERIFY((*writer)->close());
        }
        for (int i = 0; i < kImages; ++i)
            QVERIFY(imaging::encodeImage(picture(1000 + i),
                                         watched / QString("shot%1.jpg").arg(i).toStdString()));
        const fs::path projectFolder = base / "p";
        const QStringList args = {"import",
                                  "project=" + q(projectFolder),
                                  "source=" + q(watched),
                                  "watch=true",
                                  "interval=0.1",
                                  "every=1",
                                  "dedup=0"};
        const auto count = [&]() -> std::int64_t {
            auto project = project::Project::open(projectFolder);
            if (!project)
                return -1;
            auto images = (*project)->images().count();
            return images ? *images : -1;
        };

        // The project is read only once the watcher has made it and says it is watching (and its stop
        // handler is in place): a second connection opening a project being created would race its schema.
        const auto watching = [](QProcess& process) {
            QString out;
            const bool said = QTest::qWaitFor(
                [&] {
                    out += QString::fromUtf8(process.readAllStandardOutput());
                    return out.contains("Watching") || process.state() == QProcess::NotRunning;
                },
                30000);
            return said && out.contains("Watching");
        };
        QProcess first;
        first.start(OSPREY_CLI_PATH, args);
        QVERIFY(first.waitForStarted());
        QVERIFY2(watching(first), qPrintable(QString::fromUtf8(first.readAllStandardError())));
        QVERIFY(QTest::qWaitFor([&] { return count() > kImages + 20; }, 30000));
        first.kill();
        QVERIFY(first.waitForFinished(10000));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);
        const std::int64_t atKill = count();
        QVERIFY2(atKill < kImages + kFrames, "the kill came after the whole video: make it longer");
        qInfo("killed with %lld of %d images in", static_cast<long long>(atKill), kImages + kFrames);

        QProcess second;
        second.start(OSPREY_CLI_PATH, args);
        QVERIFY(second.waitForStarted());
        QVERIFY(watching(second));
        QVERIFY(QTest::qWaitFor([&] { return count() == kImages + kFrames; }, 60000));
        QVERIFY(imaging::encodeImage(picture(2000), watched / "late.jpg"));
        QVERIFY(QTest::qWaitFor([&] { return count() == kImages + kFrames + 1; }, 30000));
        second.terminate(); // SIGTERM: a clean stop
        QVERIFY(second.waitForFinished(10000));
        const QString out = QString::fromUtf8(second.readAllStandardOutput());
        QVERIFY2(second.exitCode() == 0 && out.contains("Stopped watching"), qPrintable(out));

        auto project = project::Project::open(projectFolder).value();
        QCOMPARE(project->images().count().value(), std::int64_t(kImages + kFrames + 1));
        std::vector<std::int64_t> all(kFrames);
        std::iota(all.begin(), all.end(), 0);
        QCOMPARE(project->frames().indices((watched / "cam.avi").generic_string()).value(), all);
        const auto taken = project->takenFiles().list().value();
        QCOMPARE(taken.size(), std::size_t(kImages + 2));
        std::set<std::string> paths;
        for (const auto& file : taken)
            paths.insert(file.path);
        QCOMPARE(paths.size(), taken.size());
        std::int64_t jpegs = 0;
        for (const auto& entry : fs::recursive_directory_iterator(projectFolder / "images"))
            jpegs += entry.path().extension() == ".jpg" ? 1 : 0;
        QCOMPARE(jpegs, std::int64_t(kFrames));
        project.reset();

        // Started again: nothing new.
        QProcess third;
        third.start(OSPREY_CLI_PATH, args);
        QVERIFY(third.waitForStarted());
        QVERIFY(watching(third));
        QTest::qWait(800);
        third.terminate();
        QVERIFY(third.waitForFinished(10000));
        const QString thirdOut = QString::fromUtf8(third.readAllStandardOutput());
        QVERIFY2(thirdOut.contains("Stopped watching: 0 file(s) taken, 0 image(s) added."),
                 qPrintable(thirdOut));
        QCOMPARE(count(), std::int64_t(kImages + kFrames + 1));
    }
};

QTEST_GUILESS_MAIN(TestImportCli)
#include "tst_import_cli.moc"
