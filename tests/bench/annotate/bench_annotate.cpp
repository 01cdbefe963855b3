// bench_annotate: next-image switch for 12-megapixel JPEGs, key press (D) to the frame painted, with the
// neighbours prefetched off the GUI thread versus decoding on demand, side by side in one run
// (offscreen). The 100,000-image list's open and scroll figures are in bench_image_list.
// Usage: QT_QPA_PLATFORM=offscreen bench_annotate [images=8]
#include "project/project.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/annotate/image_prefetcher.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPainter>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cstdio>

using namespace osprey;

namespace {

constexpr int kWidth = 4000, kHeight = 3000; // 12 MP

QImage makePhoto(int seed) {
    QImage image(kWidth, kHeight, QImage::Format_RGB32);
    QPainter painter(&image);
    QLinearGradient gradient(0, 0, kWidth, kHeight);
    gradient.setColorAt(0, QColor::fromHsv(seed * 40 % 360, 120, 200));
    gradient.setColorAt(1, QColor::fromHsv((seed * 40 + 180) % 360, 160, 60));
    painter.fillRect(image.rect(), gradient);
    QRandomGenerator random(seed);
    for (int i = 0; i < 400; ++i) {
        painter.setBrush(QColor::fromRgb(random.generate()));
        painter.setPen(Qt::NoPen);
        painter.drawEllipse(QPointF(random.bounded(kWidth), random.bounded(kHeight)),
                            20 + random.bounded(200), 20 + random.bounded(200));
    }
    return image;
}

// A bench must not hang or lie: a wait that times out is reported.
void expect(bool ok, const char* what) {
    if (!ok)
        std::fprintf(stderr, "timed out waiting for %s\n", what);
}

struct Stats {
    double mean = 0, median = 0, max = 0;
};

Stats summarise(std::vector<double> values) {
    Stats stats;
    if (values.empty())
        return stats;
    std::sort(values.begin(), values.end());
    for (double v : values)
        stats.mean += v / values.size();
    stats.median = values[values.size() / 2];
    stats.max = values.back();
    return stats;
}

// Presses D `steps` times and returns key-press-to-painted times in ms.
std::vector<double> walk(ui::MainWindow& window, int steps, bool prefetch) {
    ui::AnnotationEditor* editor = window.editor();
    editor->setPrefetchRadius(prefetch ? 2 : 0);
    window.imageList()->selectRow(0);
    expect(QTest::qWaitFor([&] { return editor->session()->imageId() == window.imageModel()->imageIdAt(0); },
                           10000),
           "the first image");
    qint64 shown = 0;
    auto connection =
        QObject::connect(editor, &ui::AnnotationEditor::imageShown, [&](qint64 id) { shown = id; });
    std::vector<double> times;
    for (int step = 1; step <= steps; ++step) {
        const qint64 target = window.imageModel()->imageIdAt(step);
        if (prefetch) // the annotator works on the image for a while; the neighbour decodes meanwhile
            expect(QTest::qWaitFor([&] { return editor->prefetcher()->cached(target) != nullptr; }, 10000),
                   "the prefetch");
        else
            editor->prefetcher()->clear();
        QElapsedTimer timer;
        timer.start();
        QTest::keyClick(editor->canvas(), Qt::Key_D);
        expect(QTest::qWaitFor([&] { return shown == target; }, 10000), "the next image");
        times.push_back(timer.nsecsElapsed() / 1e6);
    }
    QObject::disconnect(connection);
    return times;
}

void benchSwitch(int images) {
    QTemporaryDir dir;
    const QString folder = dir.filePath("big");
    auto project = std::move(project::Project::create(folder.toStdString()).value());
    project->classes().add("thing").value();
    QDir().mkpath(folder + "/images");
    std::vector<project::NewImage> records;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < images; ++i) {
        const QString name = QStringLiteral("images/photo%1.jpg").arg(i);
        makePhoto(i).save(QDir(folder).filePath(name), "JPG", 90);
        records.push_back({name.toStdString(), kWidth, kHeight});
    }
    project->images().addAll(records).value();
    project.reset();
    std::printf("made %d JPEGs of %dx%d in %.1f s\n", images, kWidth, kHeight, timer.elapsed() / 1000.0);

    ui::MainWindow window;
    window.resize(1600, 1000);
    window.show();
    window.activateWindow();
    expect(QTest::qWaitForWindowActive(&window), "the window");
    window.openProject(folder, true);
    window.editor()->canvas()->setFocus();
    const Stats without = summarise(walk(window, images - 1, false));
    const Stats with = summarise(walk(window, images - 1, true));
    std::printf("next image, 12 MP JPEG, key press to painted (ms):\n");
    std::printf("  without prefetch: mean %7.1f  median %7.1f  max %7.1f\n", without.mean, without.median,
                without.max);
    std::printf("  with prefetch   : mean %7.1f  median %7.1f  max %7.1f\n", with.mean, with.median,
                with.max);
    std::printf("  speed-up (median): %.1fx   target <= 50 ms: %s\n",
                without.median / std::max(with.median, 1e-3), with.max <= 50 ? "met" : "MISSED");
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int images = 8;
    for (int i = 1; i < argc; ++i)
        if (QString(argv[i]).startsWith("images="))
            images = std::max(3, QString(argv[i]).mid(7).toInt());
    benchSwitch(images);
    return 0;
}
