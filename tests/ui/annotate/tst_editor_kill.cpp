// Kill test: a child process drives the editor, drawing boxes with the mouse, and prints each box once
// it has been painted on screen. The parent SIGKILLs it part-way; after reopening, every box the child
// reported is in the database.
#include "editor_test_util.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/main/main_window.h"

#include <QApplication>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <csignal>
#include <cstdio>

using namespace osprey;

namespace {

constexpr int kBoxes = 400;
constexpr int kKillAfter = 25;

QRectF boxRect(int i) {
    const double x = 8 + (i % 12) * 24, y = 8 + (i / 12 % 12) * 24;
    return {x, y, 14, 14};
}

int runChild(const QString& folder) {
    ui::MainWindow window;
    window.resize(1000, 700);
    window.show();
    window.activateWindow();
    if (!QTest::qWaitForWindowActive(&window) || !window.openProject(folder, true))
        return 3;
    ui::AnnotationEditor* editor = window.editor();
    ui::BoxCanvas* canvas = editor->canvas();
    if (!QTest::qWaitFor([&] { return canvas->hasImage(); }, 5000))
        return 4;
    canvas->setFocus();
    int frames = 0;
    QObject::connect(canvas, &ui::BoxCanvas::framePainted, [&frames] { ++frames; });
    for (int i = 0; i < kBoxes; ++i) {
        const QRectF r = boxRect(i);
        QTest::keyClick(canvas, Qt::Key_W);
        const size_t before = editor->session()->boxes().size();
        editor_test::drag(canvas, r.topLeft(), r.bottomRight());
        if (editor->session()->boxes().size() != before + 1)
            return 5;
        // Reported only once a frame with the box in it has been painted.
        const int seen = frames;
        if (!QTest::qWaitFor([&] { return frames > seen; }, 2000))
            return 6;
        const auto& box = editor->session()->boxes().back();
        std::printf("%d %g %g %g %g\n", i, box.x1, box.y1, box.x2, box.y2);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace

class TestEditorKill : public QObject {
    Q_OBJECT
private slots:
    void boxesShownBeforeSigkillAreStored() {
        QTemporaryDir dir;
        const QString folder = editor_test::makeDemo(dir, 2, 320);
        QVERIFY(!folder.isEmpty());
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert("QT_QPA_PLATFORM", "offscreen");
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::SeparateChannels);
        child.start(QCoreApplication::applicationFilePath(), {"--editor-child", folder});
        QVERIFY(child.waitForStarted());
        QList<QByteArray> lines;
        QByteArray pending;
        auto readLines = [&] {
            pending += child.readAllStandardOutput();
            int newline;
            while ((newline = pending.indexOf('\n')) >= 0) {
                lines.append(pending.left(newline));
                pending.remove(0, newline + 1);
            }
        };
        QElapsedTimer timer;
        timer.start();
        while (lines.size() < kKillAfter && child.state() == QProcess::Running && timer.elapsed() < 60000) {
            child.waitForReadyRead(500);
            readLines();
        }
        QVERIFY2(child.state() == QProcess::Running,
                 qPrintable("the child stopped early: " + child.readAllStandardError()));
        ::kill(static_cast<pid_t>(child.processId()), SIGKILL);
        child.waitForFinished();
        readLines();
        QVERIFY(lines.size() >= kKillAfter);
        QVERIFY(lines.size() < kBoxes);

        auto project = std::move(project::Project::open(folder.toStdString()).value());
        QCOMPARE(QString::fromStdString(project->integrityCheck().value()), QString("ok"));
        const auto image = project->images().list().value().front().id;
        const auto boxes = project->boxes().ofImage(image).value();
        for (const QByteArray& line : lines) {
            const QList<QByteArray> fields = line.split(' ');
            QCOMPARE(fields.size(), 5);
            const double x1 = fields[1].toDouble(), y1 = fields[2].toDouble(), x2 = fields[3].toDouble(),
                         y2 = fields[4].toDouble();
            const bool stored = std::any_of(boxes.begin(), boxes.end(), [&](const auto& b) {
                return b.x1 == x1 && b.y1 == y1 && b.x2 == x2 && b.y2 == y2 &&
                       b.source == project::BoxSource::Manual;
            });
            QVERIFY2(stored, line.constData());
        }
        qInfo("child showed %lld boxes before SIGKILL; all %lld are stored", qlonglong(lines.size()),
              qlonglong(lines.size()));
    }
};

int main(int argc, char** argv) {
    if (argc == 3 && std::string(argv[1]) == "--editor-child") {
        qputenv("QT_QPA_PLATFORM", "offscreen");
        QApplication app(argc, argv);
        QStandardPaths::setTestModeEnabled(true);
        return runChild(QString::fromLocal8Bit(argv[2]));
    }
    QCoreApplication app(argc, argv);
    TestEditorKill test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_editor_kill.moc"
