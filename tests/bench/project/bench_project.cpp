// Issue 2 benchmark: a 100,000-image, 1,000,000-box project. Reports insert time, open time, the time
// until the first page of the image list is on screen, and peak memory after opening (measured in a
// fresh child process so the insert phase does not count). Baseline, side by side: loading every image
// record at once, which is what a non-virtualised list would do.
//
// Usage: bench_project [images=100000] [boxes-per-image=10] [folder]
#include "project/project.h"
#include "ui/project/image_list_model.h"
#include "ui/project/project_document.h"
#include "ui/project/thumbnail_cache.h"

#include <QApplication>
#include <QListView>
#include <QProcess>
#include <QTemporaryDir>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

using namespace osprey;
using Clock = std::chrono::steady_clock;

namespace {

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

long statusKb(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(field, 0) == 0)
            return std::stol(line.substr(std::string(field).size()));
    return -1;
}

// Child: open the project, show the first page in a real list view, report times and memory.
int openAndShow(int argc, char** argv, const QString& folder) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const auto start = Clock::now();
    QString error;
    auto document = ui::ProjectDocument::open(folder, &error);
    if (!document) {
        std::fprintf(stderr, "open failed: %s\n", qPrintable(error));
        return 1;
    }
    const double openMs = msSince(start);
    ui::ThumbnailCache thumbnails(document->cacheFolder());
    ui::ImageListModel model(document.get(), &thumbnails);
    QListView view;
    view.setUniformItemSizes(true);
    view.resize(400, 800);
    view.setModel(&model);
    view.show();
    QApplication::processEvents();
    const QString firstName = model.data(model.index(0), Qt::DisplayRole).toString();
    view.repaint();
    const double firstPageMs = msSince(start);
    // Scroll to the end: the list fetches only the pages it shows.
    const auto scrollStart = Clock::now();
    view.scrollToBottom();
    view.repaint();
    const QString lastName = model.data(model.index(model.rowCount() - 1), Qt::DisplayRole).toString();
    const double scrollMs = msSince(scrollStart);
    std::printf("open_ms %.1f\nfirst_page_ms %.1f\nscroll_to_end_ms %.1f\nrows %d\nfirst %s\nlast %s\n"
                "peak_rss_kb %ld\nrss_kb %ld\n",
                openMs, firstPageMs, scrollMs, model.rowCount(), qPrintable(firstName), qPrintable(lastName),
                statusKb("VmHWM:"), statusKb("VmRSS:"));
    return 0;
}

// Child: the baseline, reading every record at once.
int openAndLoadAll(const QString& folder) {
    const auto start = Clock::now();
    auto project = project::Project::open(folder.toStdString());
    if (!project)
        return 1;
    auto all = (*project)->images().list({.limit = 0});
    std::printf("load_all_ms %.1f\nrows %zu\npeak_rss_kb %ld\n", msSince(start), all ? all->size() : 0,
                statusKb("VmHWM:"));
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 3 && std::string(argv[1]) == "--open")
        return openAndShow(argc, argv, argv[2]);
    if (argc >= 3 && std::string(argv[1]) == "--load-all")
        return openAndLoadAll(argv[2]);

    const int imageCount = argc > 1 ? std::stoi(argv[1]) : 100000;
    const int boxesPerImage = argc > 2 ? std::stoi(argv[2]) : 10;
    QTemporaryDir temporary;
    const QString folder = argc > 3 ? QString(argv[3]) : temporary.filePath("bench");

    auto insertStart = Clock::now();
    {
        auto project = std::move(project::Project::create(folder.toStdString()).value());
        std::vector<std::int64_t> classes;
        for (int c = 0; c < 80; ++c)
            classes.push_back(project->classes().add("class" + std::to_string(c)).value());
        auto status = project->transaction([&]() -> Status {
            std::vector<project::NewImage> images(static_cast<size_t>(imageCount));
            for (int i = 0; i < imageCount; ++i) {
                images[static_cast<size_t>(i)].path = "images/" + std::to_string(i) + ".jpg";
                images[static_cast<size_t>(i)].width = 640;
                images[static_cast<size_t>(i)].height = 480;
                images[static_cast<size_t>(i)].split =
                    i % 5 == 0 ? project::Split::Val : project::Split::Train;
            }
            auto ids = project->images().addAll(images);
            if (!ids)
                return fail(ids.error());
            std::vector<project::NewBox> boxes;
            boxes.reserve(static_cast<size_t>(imageCount) * boxesPerImage);
            for (int i = 0; i < imageCount; ++i)
                for (int b = 0; b < boxesPerImage; ++b)
                    boxes.push_back({(*ids)[static_cast<size_t>(i)],
                                     classes[static_cast<size_t>((i + b) % 80)], double(b), double(b),
                                     double(b + 20), double(b + 30), project::BoxSource::Import});
            auto added = project->boxes().addAll(boxes);
            if (!added)
                return fail(added.error());
            return {};
        });
        if (!status) {
            std::fprintf(stderr, "insert failed: %s\n", status.message().c_str());
            return 1;
        }
    }
    const double insertMs = msSince(insertStart);
    std::printf("Project: %d images, %d boxes\n", imageCount, imageCount * boxesPerImage);
    std::printf("insert:                         %9.1f ms (%.0f boxes/s)\n", insertMs,
                imageCount * boxesPerImage / (insertMs / 1000));

    auto runChild = [&](const QStringList& arguments) {
        QProcess child;
        child.start(QString(argv[0]), arguments);
        child.waitForFinished(-1);
        std::map<std::string, std::string> values;
        for (const QByteArray& line : child.readAllStandardOutput().split('\n')) {
            const int space = line.indexOf(' ');
            if (space > 0)
                values[line.left(space).toStdString()] = line.mid(space + 1).toStdString();
        }
        return values;
    };
    // Run each side twice and keep the second (warm file cache), as a user reopening a project would see.
    runChild({"--open", folder});
    auto shown = runChild({"--open", folder});
    runChild({"--load-all", folder});
    auto all = runChild({"--load-all", folder});
    const double firstPage = std::stod(shown["first_page_ms"]);
    const double loadAll = std::stod(all["load_all_ms"]);
    std::printf("open project:                   %9s ms\n", shown["open_ms"].c_str());
    std::printf("open + first page on screen:    %9s ms   (target <= 1000 ms)\n",
                shown["first_page_ms"].c_str());
    std::printf("scroll to the last row:         %9s ms\n", shown["scroll_to_end_ms"].c_str());
    std::printf("peak RSS after open (GUI list): %9.1f MiB\n", std::stol(shown["peak_rss_kb"]) / 1024.0);
    std::printf("baseline, load every record:    %9s ms, peak RSS %.1f MiB\n", all["load_all_ms"].c_str(),
                std::stol(all["peak_rss_kb"]) / 1024.0);
    std::printf("ratio baseline / paged list:    %9.1fx\n", loadAll / firstPage);
    return 0;
}
