// Two writers on one project, as a user meets them (issue 22): `osprey-cli import` of a 20,000-image COCO
// dataset runs in its own process while this process keeps editing the same project, as the GUI would.
// No write may fail ("database is locked" used to reach the user), none may be lost, and the edits must
// span the import's write (they see the project both before and after its commit).
#include "project/project.h"

#include "fuzz/fuzz_input.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

constexpr int kImages = 20000;
constexpr int kBoxesPerImage = 4;

/// A PNG whose header says 64 x 64 (import reads the size from the header; the pixels are never decoded).
std::string png64() {
    using fuzz::be32;
    const std::string ihdr = be32(64) + be32(64) + std::string("\x08\x02\x00\x00\x00", 5);
    const std::string idat("\x78\x9c\x63\x60\x60\x60\x00\x00\x00\x04\x00\x01", 12);
    return std::string("\x89PNG\r\n\x1a\n", 8) + fuzz::pngChunk("IHDR", ihdr) + fuzz::pngChunk("IDAT", idat) +
           fuzz::pngChunk("IEND", "");
}

void makeCocoDataset(const fs::path& root) {
    fs::create_directories(root / "images");
    const std::string png = png64();
    std::ofstream json(root / "instances.json");
    json << R"({"categories": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], "images": [)";
    for (int i = 0; i < kImages; ++i) {
        const std::string name = "img" + std::to_string(i) + ".png";
        std::ofstream(root / "images" / name, std::ios::binary) << png;
        json << (i ? "," : "") << R"({"id": )" << i + 1 << R"(, "file_name": ")" << name
             << R"(", "width": 64, "height": 64})";
    }
    json << R"(], "annotations": [)";
    int id = 1;
    for (int i = 0; i < kImages; ++i)
        for (int k = 0; k < kBoxesPerImage; ++k, ++id)
            json << (id > 1 ? "," : "") << R"({"id": )" << id << R"(, "image_id": )" << i + 1
                 << R"(, "category_id": )" << 1 + k % 2 << R"(, "bbox": [)" << 2 + k * 10
                 << R"(, 4, 8, 8], "area": 64, "iscrowd": 0})";
    json << "]}";
}

} // namespace

class TestTwoWritersCli : public QObject {
    Q_OBJECT
private slots:
    void importAndEditsAtOnce() {
        QTemporaryDir dir;
        const fs::path base(dir.path().toStdString());
        makeCocoDataset(base / "coco");
        std::int64_t image = 0, cls = 0;
        {
            auto project = std::move(project::Project::create(base / "p").value());
            cls = project->classes().add("edited").value();
            image = project->images().add({"own.jpg", 100, 100}).value();
        }
        auto project = std::move(project::Project::open(base / "p").value());

        QProcess import;
        import.start(OSPREY_CLI_PATH,
                     {"import", "project=" + QString::fromStdString((base / "p").string()),
                      "source=" + QString::fromStdString((base / "coco" / "instances.json").string())});
        QVERIFY(import.waitForStarted());
        int edits = 0, failures = 0;
        bool sawBefore = false, sawAfter = false;
        qint64 slowestMs = 0;
        QString firstFailure;
        while (import.state() == QProcess::Running || edits == 0) {
            QElapsedTimer clock;
            clock.start();
            auto box = project->boxes().add({image, cls, double(edits % 90), 0, double(edits % 90) + 5, 10});
            slowestMs = std::max(slowestMs, clock.elapsed());
            if (box) {
                ++edits;
            } else {
                ++failures;
                if (firstFailure.isEmpty())
                    firstFailure = QString::fromStdString(box.message());
            }
            const auto count = project->images().count().value();
            sawBefore = sawBefore || count == 1;
            sawAfter = sawAfter || count == 1 + kImages;
            import.waitForFinished(5);
        }
        import.waitForFinished(120000);
        const QString out = QString::fromUtf8(import.readAllStandardOutput() + import.readAllStandardError());
        QVERIFY2(import.exitCode() == 0, qPrintable(out));
        QVERIFY2(failures == 0, qPrintable(firstFailure));
        qInfo("%d edits while the import ran, none failed; the slowest waited %lld ms", edits, slowestMs);
        QVERIFY2(sawBefore && sawAfter, "the edits did not span the import's write");

        // Nothing lost: every import row and every edit is there.
        QCOMPARE(project->images().count().value(), std::int64_t(1 + kImages));
        QCOMPARE(project->boxes().ofImage(image).value().size(), size_t(edits));
        std::int64_t boxes = 0;
        QVERIFY(project->boxes().forEach([&](const project::BoxRecord&) -> Status {
            ++boxes;
            return {};
        }));
        QCOMPARE(boxes, std::int64_t(edits) + kImages * kBoxesPerImage);
        QCOMPARE(project->integrityCheck().value(), std::string("ok"));
    }
};

QTEST_GUILESS_MAIN(TestTwoWritersCli)
#include "tst_two_writers_cli.moc"
