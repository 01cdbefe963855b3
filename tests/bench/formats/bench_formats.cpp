// COCO import at train2017 scale (118,000 images, 860,000 boxes, 80 categories): the full import (parse,
// validate, insert; no image decode) against Python's bare json.load on the same file, in the same run.
// Usage: bench_formats [work-dir]   (default: a folder under /tmp, removed afterwards)
#include "formats/project_import.h"
#include "project/project.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <unistd.h>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kImages = 118000;
constexpr int kBoxes = 860000;
constexpr int kCategories = 80;

double seconds(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Writes a file shaped like instances_train2017.json (without segmentation polygons).
void generate(const fs::path& path) {
    std::mt19937_64 rng(0);
    std::uniform_real_distribution<double> unit(0, 1);
    std::ofstream out(path);
    out << "{\"info\": {\"description\": \"synthetic train2017-scale\", \"year\": 2017}, \"licenses\": [], ";
    out << "\"categories\": [";
    for (int c = 0; c < kCategories; ++c)
        out << (c ? ", " : "") << "{\"supercategory\": \"thing\", \"id\": " << (c + 1 + c / 10)
            << ", \"name\": \"class_" << c << "\"}";
    out << "], \"images\": [";
    std::vector<int> widths(kImages), heights(kImages);
    for (int i = 0; i < kImages; ++i) {
        widths[static_cast<std::size_t>(i)] = 320 + static_cast<int>(unit(rng) * 320);
        heights[static_cast<std::size_t>(i)] = 240 + static_cast<int>(unit(rng) * 400);
        char line[256];
        std::snprintf(
            line, sizeof line,
            "%s{\"license\": 3, \"file_name\": \"%012d.jpg\", \"coco_url\": \"http://images.cocodataset.org/"
            "train2017/%012d.jpg\", \"height\": %d, \"width\": %d, \"date_captured\": \"2013-11-14 "
            "11:18:45\", \"id\": %d}",
            i ? ", " : "", i + 1, i + 1, heights[static_cast<std::size_t>(i)],
            widths[static_cast<std::size_t>(i)], i + 1);
        out << line;
    }
    out << "], \"annotations\": [";
    for (int a = 0; a < kBoxes; ++a) {
        const int image = static_cast<int>(unit(rng) * kImages);
        const double w = widths[static_cast<std::size_t>(image)],
                     h = heights[static_cast<std::size_t>(image)];
        const double bw = 4 + unit(rng) * (w - 8) * 0.5, bh = 4 + unit(rng) * (h - 8) * 0.5;
        const double x = unit(rng) * (w - bw), y = unit(rng) * (h - bh);
        const int c = static_cast<int>(unit(rng) * kCategories);
        char line[320];
        std::snprintf(
            line, sizeof line,
            "%s{\"segmentation\": [], \"area\": %.4f, \"iscrowd\": %d, \"image_id\": %d, \"bbox\": [%.2f, "
            "%.2f, %.2f, %.2f], \"category_id\": %d, \"id\": %d}",
            a ? ", " : "", bw * bh, a % 100 == 0 ? 1 : 0, image + 1, x, y, bw, bh, c + 1 + c / 10, a + 1);
        out << line;
    }
    out << "]}\n";
}

} // namespace

int main(int argc, char** argv) {
    const bool ownDir = argc < 2;
    const fs::path work =
        ownDir ? fs::temp_directory_path() / ("osprey-bench-formats-" + std::to_string(::getpid()))
               : fs::path(argv[1]);
    fs::create_directories(work);
    const fs::path json = work / "instances_train2017.json";
    auto start = Clock::now();
    generate(json);
    std::printf("generated %s: %.1f MB in %.2f s\n", json.c_str(), fs::file_size(json) / 1e6, seconds(start));

    // Python first, so both read a warm page cache.
    const std::string python =
        "/usr/bin/python3 -c 'import json; json.load(open(\"" + json.string() + "\"))'";
    double pythonSeconds = 1e300;
    for (int run = 0; run < 2; ++run) {
        start = Clock::now();
        if (std::system(python.c_str()) != 0) {
            std::fprintf(stderr, "python3 json.load failed\n");
            return 1;
        }
        pythonSeconds = std::min(pythonSeconds, seconds(start));
    }

    double importSeconds = 1e300, readMs = 0, writeMs = 0;
    for (int run = 0; run < 2; ++run) {
        const fs::path folder = work / ("project" + std::to_string(run));
        fs::remove_all(folder);
        start = Clock::now();
        auto project = osprey::project::Project::create(folder);
        if (!project) {
            std::fprintf(stderr, "%s\n", project.message().c_str());
            return 1;
        }
        osprey::formats::ImportOptions options;
        options.read.source = json;
        options.read.probe = osprey::formats::ImageProbe::None;
        options.format = "coco";
        auto summary = osprey::formats::importDataset(**project, options);
        if (!summary) {
            std::fprintf(stderr, "import failed: %s\n", summary.message().c_str());
            return 1;
        }
        const double total = seconds(start);
        if (total < importSeconds) {
            importSeconds = total;
            readMs = summary->readMs;
            writeMs = summary->writeMs;
        }
        if (summary->images != kImages || summary->boxes != kBoxes) {
            std::fprintf(stderr, "wrong counts: %lld images, %lld boxes\n",
                         static_cast<long long>(summary->images), static_cast<long long>(summary->boxes));
            return 1;
        }
    }
    std::printf("python3 json.load:       %.2f s (best of 2)\n", pythonSeconds);
    std::printf("osprey COCO import:      %.2f s (best of 2: parse+validate %.2f s, insert %.2f s)\n",
                importSeconds, readMs / 1000, writeMs / 1000);
    std::printf("ratio import/json.load:  %.2f (target <= 2.00)\n", importSeconds / pythonSeconds);
    if (ownDir)
        fs::remove_all(work);
    return 0;
}
