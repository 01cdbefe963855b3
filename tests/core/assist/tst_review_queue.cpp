// The review queue on a small hand-built project, box matching at the IoU threshold, and the review verb.
#include "assist/review_queue.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;
using namespace osprey::assist;

namespace {

project::BoxRecord box(std::int64_t classId, double x1, double y1, double x2, double y2,
                       std::optional<double> score = std::nullopt) {
    project::BoxRecord b;
    b.classId = classId;
    b.x1 = x1, b.y1 = y1, b.x2 = x2, b.y2 = y2;
    b.score = score;
    return b;
}

void require(bool ok, const char* what) {
    if (!ok)
        qFatal("building the test project failed at %s", what);
}

// Seven images, each a case (see the comments); the expected orders are worked out by hand.
struct HandBuilt {
    std::unique_ptr<project::Project> project;
    std::int64_t agree = 0, modelOnly = 0, mixed = 0, reviewed = 0, manualOnly = 0, wrongClass = 0,
                 verified = 0;
};

HandBuilt buildProject(const std::filesystem::path& folder) {
    HandBuilt built;
    auto created = project::Project::create(folder);
    require(bool(created), "create");
    built.project = std::move(*created);
    auto& p = *built.project;
    const auto cat = *p.classes().add("cat"), dog = *p.classes().add("dog");
    auto image = [&](const char* name) { return *p.images().add({name, 100, 100, {}, {}, {}, false}); };
    auto add = [&](std::int64_t imageId, std::int64_t classId, double x1, double y1, double x2, double y2,
                   project::BoxSource source, std::optional<double> score = std::nullopt) {
        project::NewBox b;
        b.imageId = imageId, b.classId = classId, b.x1 = x1, b.y1 = y1, b.x2 = x2, b.y2 = y2;
        b.source = source, b.score = score;
        require(bool(p.boxes().add(b)), "addBox");
    };
    using S = project::BoxSource;
    // agree: two model cats on two manual cats. Mean 0.85, no disagreement.
    built.agree = image("agree.jpg");
    add(built.agree, cat, 10, 10, 40, 40, S::Manual);
    add(built.agree, cat, 50, 50, 90, 90, S::Manual);
    add(built.agree, cat, 11, 11, 40, 41, S::Model, 0.9);
    add(built.agree, cat, 50, 52, 90, 90, S::Model, 0.8);
    // modelOnly: an auto-labeled image nobody has looked at. Mean 0.3; nothing to compare with.
    built.modelOnly = image("model_only.jpg");
    add(built.modelOnly, dog, 0, 0, 20, 20, S::Model, 0.3);
    // mixed: the model finds the cat (IoU 0.9) and a dog where there is none, and misses the labelled dog.
    // Mean 0.65; 1 false positive + 1 missed.
    built.mixed = image("mixed.jpg");
    add(built.mixed, cat, 10, 10, 50, 50, S::Manual);
    add(built.mixed, dog, 60, 60, 90, 90, S::Manual);
    add(built.mixed, cat, 10, 10, 50, 46, S::Model, 0.6);
    add(built.mixed, dog, 0, 60, 20, 90, S::Model, 0.7);
    // reviewed: has model boxes, but a person has checked it: not in the queue.
    built.reviewed = image("reviewed.jpg");
    add(built.reviewed, cat, 0, 0, 10, 10, S::Model, 0.1);
    require(bool(p.images().setStatus(built.reviewed, project::ImageStatus::Reviewed)), "setImageStatus");
    // manualOnly: labeled by hand, no model boxes: nothing to review.
    built.manualOnly = image("manual_only.jpg");
    add(built.manualOnly, cat, 0, 0, 10, 10, S::Manual);
    // wrongClass: an imported dog, the model calls it a cat at the same place. Mean 0.95; 1 + 1.
    built.wrongClass = image("wrong_class.jpg");
    add(built.wrongClass, dog, 20, 20, 60, 60, S::Import);
    add(built.wrongClass, cat, 20, 20, 60, 60, S::Model, 0.95);
    // verified: checked and empty; not in the queue.
    built.verified = image("verified.jpg");
    require(bool(p.images().setStatus(built.verified, project::ImageStatus::VerifiedEmpty)),
            "setImageStatus");
    return built;
}

std::vector<std::int64_t> ids(const ReviewQueue& queue) {
    std::vector<std::int64_t> out;
    for (const auto& item : queue.items)
        out.push_back(item.imageId);
    return out;
}

} // namespace

class TestReviewQueue : public QObject {
    Q_OBJECT
private slots:
    void matchesAtTheIoUThreshold() {
        // [0,0,10,10] against [0,0,10,20]: IoU exactly 0.5, a match; against [0,0,10,21]: 100/210, not.
        const std::vector<project::BoxRecord> model{box(1, 0, 0, 10, 10, 0.9)};
        auto agreement = compareBoxes(model, {box(1, 0, 0, 10, 20)}, 0.5);
        QCOMPARE(agreement.matched, 1);
        QCOMPARE(agreement.falsePositives, 0);
        QCOMPARE(agreement.missed, 0);
        agreement = compareBoxes(model, {box(1, 0, 0, 10, 21)}, 0.5);
        QCOMPARE(agreement.matched, 0);
        QCOMPARE(agreement.falsePositives, 1);
        QCOMPARE(agreement.missed, 1);
        // Same place, other class: no match.
        agreement = compareBoxes(model, {box(2, 0, 0, 10, 10)}, 0.5);
        QCOMPARE(agreement.falsePositives + agreement.missed, 2);
    }

    void higherScoreTakesTheLabelFirst() {
        // Two model boxes on one label: the 0.9 box (IoU 0.9) takes it even though the 0.5 box overlaps
        // it more (IoU 1.0); the 0.5 box is the false positive.
        const std::vector<project::BoxRecord> model{box(1, 0, 0, 10, 10, 0.5), box(1, 0, 0, 10, 9, 0.9)};
        const auto agreement = compareBoxes(model, {box(1, 0, 0, 10, 10)}, 0.5);
        QCOMPARE(agreement.matched, 1);
        QCOMPARE(agreement.falsePositives, 1);
        QCOMPARE(agreement.missed, 0);
        // With no labels at all every model box is a false positive.
        QCOMPARE(compareBoxes(model, {}, 0.5).falsePositives, 2);
    }

    void ordersByConfidence() {
        QTemporaryDir dir;
        auto built = buildProject(dir.path().toStdString());
        auto queue = reviewQueue(*built.project, {ReviewOrder::Confidence, 0.5, 0});
        QVERIFY2(queue, queue ? "" : queue.message().c_str());
        QCOMPARE(queue->needingReview, 4);
        QCOMPARE(ids(*queue),
                 (std::vector<std::int64_t>{built.modelOnly, built.mixed, built.agree, built.wrongClass}));
        QCOMPARE(*queue->items[0].meanScore, 0.3);
        QVERIFY(std::abs(*queue->items[1].meanScore - 0.65) < 1e-12);
        QVERIFY(std::abs(*queue->items[2].meanScore - 0.85) < 1e-12);
        QCOMPARE(queue->items[1].modelBoxes, 2);
        QCOMPARE(queue->items[1].referenceBoxes, 2);
        QCOMPARE(queue->items[0].path, std::string("model_only.jpg"));
        // The limit cuts the list, not the count.
        queue = reviewQueue(*built.project, {ReviewOrder::Confidence, 0.5, 2});
        QCOMPARE(ids(*queue), (std::vector<std::int64_t>{built.modelOnly, built.mixed}));
        QCOMPARE(queue->needingReview, 4);
    }

    void ordersByDisagreement() {
        QTemporaryDir dir;
        auto built = buildProject(dir.path().toStdString());
        auto queue = reviewQueue(*built.project, {ReviewOrder::Disagreement, 0.5, 0});
        QVERIFY(queue);
        // mixed and wrongClass both disagree twice; mixed is less confident. modelOnly has no labels.
        QCOMPARE(ids(*queue), (std::vector<std::int64_t>{built.mixed, built.wrongClass, built.agree}));
        QCOMPARE(queue->withoutLabels, 1);
        const auto& mixed = queue->items[0];
        QCOMPARE(mixed.agreement.matched, 1);
        QCOMPARE(mixed.agreement.falsePositives, 1);
        QCOMPARE(mixed.agreement.missed, 1);
        QCOMPARE(queue->items[1].disagreement(), 2);
        QCOMPARE(queue->items[2].disagreement(), 0);
        // At IoU 0.96 agree's cats (IoU 0.905 and 0.95) and mixed's cat (0.9) no longer match: agree and
        // mixed disagree four times each, and mixed is less confident.
        queue = reviewQueue(*built.project, {ReviewOrder::Disagreement, 0.96, 0});
        QCOMPARE(ids(*queue), (std::vector<std::int64_t>{built.mixed, built.agree, built.wrongClass}));
        QCOMPARE(queue->items[0].disagreement(), 4);
    }

    void reviewingTakesAnImageOut() {
        QTemporaryDir dir;
        auto built = buildProject(dir.path().toStdString());
        QVERIFY(built.project->images().setStatus(built.mixed, project::ImageStatus::Reviewed));
        auto queue = reviewQueue(*built.project);
        QCOMPARE(queue->needingReview, 3);
        QCOMPARE(ids(*queue), (std::vector<std::int64_t>{built.modelOnly, built.agree, built.wrongClass}));
    }

    void cliListsTheQueue() {
        QTemporaryDir dir;
        const QString folder = dir.path() + "/p";
        { auto built = buildProject(folder.toStdString()); }
        QProcess cli;
        cli.start(OSPREY_CLI_PATH, {"review", "project=" + folder, "order=disagreement"});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 0);
        const QStringList lines = QString(cli.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5); // summary, header, three images
        QVERIFY(lines[0].startsWith("4 images need review"));
        QVERIFY(lines[0].contains("1 of them have no manual or imported labels"));
        QVERIFY(lines[2].endsWith("mixed.jpg"));
        QCOMPARE(lines[2].simplified().split(' ').mid(0, 7).join(' '), QString("1 3 2 2 0.650 1 1"));
        QVERIFY(lines[3].endsWith("wrong_class.jpg"));
        QVERIFY(lines[4].endsWith("agree.jpg"));

        cli.start(OSPREY_CLI_PATH, {"review", "project=" + folder, "limit=1"});
        QVERIFY(cli.waitForFinished(30000));
        const QStringList limited = QString(cli.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(limited.size(), 3);
        QVERIFY(limited[2].endsWith("model_only.jpg"));

        cli.start(OSPREY_CLI_PATH, {"review", "project=" + folder, "order=score"});
        QVERIFY(cli.waitForFinished(30000));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY(cli.readAllStandardError().contains("use confidence or disagreement"));
    }
};

QTEST_GUILESS_MAIN(TestReviewQueue)
#include "tst_review_queue.moc"
