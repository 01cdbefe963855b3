// bench_image_list: scrolling the image list of a 100,000-image project, as the annotator sees it.
//
// The list is painted at 60 Hz: each frame scrolls (first 200 jumps spread over the whole list, then 200
// wheel steps back up), repaints at once, and gives the rest of the 16.7 ms to the event loop, where
// thumbnails come back from the worker threads. The images are real JPEGs (symbolic links to 100
// distinct files), so the workers really decode. Two set-ups run in turn, twice, in the same process:
//   baseline: a plain QListView as the list had before, thumbnail workers at normal priority with every
//             request kept;
//   current:  ImageListPanel's ImageListView and the ThumbnailCache defaults.
// Per frame it reports the wall time from the scroll to the repainted list, the frame period (a frame
// longer than 16.7 ms means the event loop was busy past the next frame: work done when thumbnails
// arrived, say) and the GUI thread's CPU time over the whole frame (less sensitive to other load on the
// machine than wall times).
// Usage: QT_QPA_PLATFORM=offscreen bench_image_list [images=100000] [frames=200]
#include "project/project.h"
#include "ui/project/image_list_delegate.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"
#include "ui/project/thumbnail_cache.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QListView>
#include <QPainter>
#include <QRandomGenerator>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>

using namespace osprey;

namespace {

constexpr int kDistinctImages = 100;
constexpr int kFrameMs = 16;

double threadCpuMs() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return now.tv_sec * 1e3 + now.tv_nsec / 1e6;
}

struct Stats {
    double median = 0, p99 = 0, max = 0;
    int over16 = 0;
};

Stats summarise(std::vector<double> values) {
    Stats stats;
    if (values.empty())
        return stats;
    std::sort(values.begin(), values.end());
    stats.median = values[values.size() / 2];
    stats.p99 = values[values.size() * 99 / 100];
    stats.max = values.back();
    stats.over16 =
        static_cast<int>(std::count_if(values.begin(), values.end(), [](double v) { return v > 16.7; }));
    return stats;
}

/// A project of `images` rows whose files are links to kDistinctImages real 640x480 JPEGs.
bool makeProject(const QString& folder, int images) {
    auto created = project::Project::create(folder.toStdString());
    if (!created)
        return false;
    auto project = std::move(created.value());
    (void)project->classes().add("thing");
    QDir(folder).mkpath("images");
    QDir(folder).mkpath("sources");
    for (int i = 0; i < kDistinctImages; ++i) {
        QImage image(640, 480, QImage::Format_RGB32);
        QPainter painter(&image);
        image.fill(QColor::fromHsv(i * 37 % 360, 120, 190));
        QRandomGenerator random(static_cast<quint32>(i));
        for (int k = 0; k < 40; ++k) {
            painter.setBrush(QColor::fromRgb(random.generate()));
            painter.drawEllipse(QPointF(random.bounded(640), random.bounded(480)), 10 + random.bounded(90),
                                10 + random.bounded(90));
        }
        painter.end();
        image.save(QDir(folder).filePath(QStringLiteral("sources/%1.jpg").arg(i)), "JPG", 90);
    }
    std::vector<project::NewImage> records;
    records.reserve(static_cast<size_t>(images));
    int linked = 0;
    for (int i = 0; i < images; ++i) {
        const QString name = QStringLiteral("images/img%1.jpg").arg(i);
        linked +=
            QFile::link(QDir(folder).filePath(QStringLiteral("sources/%1.jpg").arg(i % kDistinctImages)),
                        QDir(folder).filePath(name));
        records.push_back({name.toStdString(), 640, 480});
    }
    if (linked < images)
        std::printf("note: %d of %d image links made; the rest have no file (their thumbnails fail fast)\n",
                    linked, images);
    return project->images().addAll(records).hasValue();
}

/// Waits in the event loop until `ms` after `since` started.
void idleUntil(const QElapsedTimer& since, int ms) {
    const qint64 left = ms - since.elapsed();
    if (left <= 0)
        return;
    QEventLoop loop;
    QTimer::singleShot(static_cast<int>(left), Qt::PreciseTimer, &loop, &QEventLoop::quit);
    loop.exec();
}

enum class SetUp { Baseline, Current };

struct Result {
    Stats wall, cpu, period;
    int late = 0;
};

Result run(const QString& folder, SetUp setUp, int frames) {
    QDir(QDir(folder).filePath(".cache")).removeRecursively();
    QElapsedTimer open;
    open.start();
    QString error;
    auto document = ui::ProjectDocument::open(folder, &error);
    if (!document) {
        std::printf("cannot open the project: %s\n", qPrintable(error));
        return {};
    }
    ui::ThumbnailCache::Scheduling scheduling;
    if (setUp == SetUp::Baseline) {
        scheduling.priority = ui::ThumbnailCache::WorkerPriority::Normal;
        scheduling.maxWaiting = 0;
    }
    ui::ThumbnailCache thumbnails(document->cacheFolder(), 112, scheduling);
    ui::ImageListModel model(document.get(), &thumbnails);
    std::unique_ptr<QWidget> widget;
    QListView* view = nullptr;
    if (setUp == SetUp::Baseline) {
        // The list as it was configured before ImageListView.
        auto* plain = new QListView;
        plain->setModel(&model);
        plain->setItemDelegate(new ui::ImageListDelegate(plain));
        plain->setUniformItemSizes(true);
        plain->setSelectionMode(QAbstractItemView::SingleSelection);
        plain->setMouseTracking(true);
        plain->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
        widget.reset(plain);
        view = plain;
    } else {
        auto* panel = new ui::ImageListPanel(document.get(), &model);
        widget.reset(panel);
        view = panel->view();
    }
    widget->resize(360, 1000);
    widget->show();
    if (!QTest::qWaitForWindowExposed(widget.get()))
        std::printf("the list window was not exposed\n");
    view->viewport()->repaint();
    const double openMs = open.nsecsElapsed() / 1e6;

    QScrollBar* bar = view->verticalScrollBar();
    std::vector<double> latency, latencyCpu, cpu, period;
    QElapsedTimer frame, timer;
    for (int step = 0; step < 2 * frames; ++step) {
        frame.start();
        const double cpuStart = threadCpuMs();
        timer.start();
        if (step < frames)
            bar->setValue(static_cast<int>(qint64(bar->maximum()) * step / frames));
        else
            bar->setValue(bar->value() - bar->singleStep() * 3);
        view->viewport()->repaint();
        latency.push_back(timer.nsecsElapsed() / 1e6);
        latencyCpu.push_back(threadCpuMs() - cpuStart);
        idleUntil(frame, kFrameMs);
        cpu.push_back(threadCpuMs() - cpuStart);
        period.push_back(frame.nsecsElapsed() / 1e6);
    }
    const Stats wall = summarise(latency);
    const Stats wallCpu = summarise(latencyCpu);
    const Stats work = summarise(cpu);
    const Stats frames60 = summarise(period);
    const auto late =
        static_cast<int>(std::count_if(period.begin(), period.end(), [](double v) { return v > 20; }));
    std::printf("  %-8s open + first paint %.1f ms\n", setUp == SetUp::Baseline ? "baseline" : "current",
                openMs);
    std::printf("    scroll -> painted      ms: median %5.2f  p99 %6.2f  max %6.2f  (>16.7 ms: %d; its GUI "
                "CPU max %.2f)\n",
                wall.median, wall.p99, wall.max, wall.over16, wallCpu.max);
    std::printf("    60 Hz frame period     ms: median %5.2f  p99 %6.2f  max %6.2f  (late, >20 ms: %d)\n",
                frames60.median, frames60.p99, frames60.max, late);
    std::printf("    GUI CPU per frame      ms: median %5.2f  p99 %6.2f  max %6.2f\n", work.median, work.p99,
                work.max);
    std::fflush(stdout);
    thumbnails.waitForDone();
    return {wall, work, frames60, late};
}

} // namespace

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM",
            qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    int images = 100000, frames = 200;
    for (int i = 1; i < argc; ++i) {
        const QString arg(argv[i]);
        if (arg.startsWith("images="))
            images = std::max(1000, arg.mid(7).toInt());
        else if (arg.startsWith("frames="))
            frames = std::max(10, arg.mid(7).toInt());
    }
    QTemporaryDir dir;
    const QString folder = dir.filePath("list");
    QElapsedTimer timer;
    timer.start();
    if (!makeProject(folder, images)) {
        std::printf("cannot make the project\n");
        return 1;
    }
    std::printf("made a %d-image project in %.1f s; %d frames of jumps then %d wheel steps, 60 Hz pacing\n",
                images, timer.elapsed() / 1000.0, frames, frames);
    for (int round = 1; round <= 2; ++round) {
        std::printf("round %d\n", round);
        const Result baseline = run(folder, SetUp::Baseline, frames);
        const Result current = run(folder, SetUp::Current, frames);
        auto ratio = [](double a, double b) { return a / std::max(b, 1e-3); };
        std::printf("  baseline / current: frame period max %.1fx, late frames %d / %d; GUI CPU per frame "
                    "median %.1fx, "
                    "max %.1fx; scroll -> painted p99 %.1fx\n",
                    ratio(baseline.period.max, current.period.max), baseline.late, current.late,
                    ratio(baseline.cpu.median, current.cpu.median), ratio(baseline.cpu.max, current.cpu.max),
                    ratio(baseline.wall.p99, current.wall.p99));
    }
    return 0;
}
