// A child process makes 10,000 edits and reports each commit on stdout; the parent SIGKILLs it part-way.
// After reopening, every edit the child reported as committed must be present, and the database intact.
#include "project/project.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <csignal>
#include <cstdio>
#include <iostream>

using namespace osprey;
using namespace osprey::project;

namespace {

constexpr int kEdits = 10000;

// Edit i: even i adds a box with x1 = i; odd i moves the previous box so that y2 = 1000 + i.
int runChild(const std::filesystem::path& folder) {
    auto project = Project::open(folder);
    if (!project)
        return 3;
    const auto cls = (*project)->classes().list().value().front().id;
    const auto image = (*project)->images().list().value().front().id;
    std::int64_t lastBox = 0;
    for (int i = 0; i < kEdits; ++i) {
        if (i % 2 == 0) {
            auto id = (*project)->boxes().add({image, cls, double(i), 0, double(i) + 5, 10});
            if (!id)
                return 4;
            lastBox = *id;
        } else {
            auto box = (*project)->boxes().get(lastBox).value();
            box.y2 = 1000 + i;
            if (!(*project)->boxes().update(box))
                return 5;
        }
        std::printf("%d\n", i);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

class TestProjectDurability : public QObject {
    Q_OBJECT
private slots:
    void killedWriterLosesNoCommittedEdit() {
        QTemporaryDir dir;
        const auto folder = std::filesystem::path(dir.path().toStdString());
        {
            auto project = std::move(Project::create(folder).value());
            project->classes().add("c").value();
            project->images().add({"a.jpg", 100, 100}).value();
        }
        QProcess child;
        child.start(QCoreApplication::applicationFilePath(), {"--durability-child", dir.path()});
        QVERIFY(child.waitForStarted());
        int lastReported = -1;
        QByteArray pending;
        // Kill somewhere in the middle: after 2,000 reported edits.
        while (lastReported < 2000 && child.state() == QProcess::Running) {
            child.waitForReadyRead(1000);
            pending += child.readAllStandardOutput();
            int newline;
            while ((newline = pending.indexOf('\n')) >= 0) {
                lastReported = pending.left(newline).toInt();
                pending.remove(0, newline + 1);
            }
        }
        QVERIFY2(child.state() == QProcess::Running, "the child finished before it could be killed");
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        child.waitForFinished();
        // Lines written after our last read are committed too; read them so the check is complete.
        pending += child.readAllStandardOutput();
        for (const auto& line : pending.split('\n'))
            if (!line.isEmpty())
                lastReported = line.toInt();
        QVERIFY(lastReported >= 2000);
        QVERIFY(lastReported < kEdits - 1);

        auto project = std::move(Project::open(folder).value());
        QCOMPARE(QString::fromStdString(project->integrityCheck().value()), QString("ok"));
        const auto image = project->images().list().value().front().id;
        const auto boxes = project->boxes().ofImage(image).value();
        // Every reported add is there, in order, and every reported move.
        const int reportedAdds = lastReported / 2 + 1;
        QVERIFY(static_cast<int>(boxes.size()) >= reportedAdds);
        for (int k = 0; k < reportedAdds; ++k) {
            QCOMPARE(boxes[static_cast<size_t>(k)].x1, double(2 * k));
            const int move = 2 * k + 1;
            if (move <= lastReported)
                QCOMPARE(boxes[static_cast<size_t>(k)].y2, double(1000 + move));
        }
        qInfo("child reported %d edits before SIGKILL; %zu boxes present", lastReported + 1, boxes.size());
    }
};

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--durability-child")
        return runChild(argv[2]);
    QCoreApplication app(argc, argv);
    TestProjectDurability test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_project_durability.moc"
