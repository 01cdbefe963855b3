// Issue 20 benchmark: the dataset snapshot of a 100,000-image synthetic project (3 boxes per image by
// default; no image files, the snapshot reads the database only). Each measurement runs in a fresh child
// process, so its peak RSS (VmHWM) is the whole cost of that step, start-up included:
//   write    writeSnapshot (what every training run does at its start): time, peak RSS, file size
//   read     readSnapshot (runs diff): inflate, parse, verify the hash
//   memory   takeSnapshot (runs diff b=current): every record in memory
//   baseline what the trainer's own project read does (images().list() of everything, then boxes per image),
//            side by side: the snapshot must not cost more than reading the data once.
// Targets: write <= 5 s and <= 20 MB at 100,000 images.
//
// Usage: bench_snapshot [images=100000] [boxes-per-image=3] [folder]
#include "quality/dataset_snapshot.h"

#include "core/quality/snapshot_fixture.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

using namespace osprey;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

namespace {

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

long statusKb(const char* field) {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind(field, 0) == 0)
            return std::stol(line.substr(std::string(field).size()));
    return -1;
}

/// User + system CPU seconds of this process: on a shared machine, the figure that load does not inflate.
double cpuSeconds() {
    rusage usage{};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

int child(const std::string& mode, const fs::path& folder) {
    const long startKb = statusKb("VmRSS:");
    auto opened = project::Project::open(folder);
    if (!opened) {
        std::fprintf(stderr, "%s\n", opened.message().c_str());
        return 1;
    }
    const auto& project = *opened.value();
    const fs::path file = folder / "snapshot.bin";
    const auto start = Clock::now();
    const double cpuStart = cpuSeconds();
    std::string hash;
    long long images = 0, boxes = 0, bytes = 0;
    if (mode == "write") {
        auto summary = quality::writeSnapshot(project, file);
        if (!summary) {
            std::fprintf(stderr, "%s\n", summary.message().c_str());
            return 1;
        }
        hash = summary->hash;
        images = summary->images;
        boxes = summary->boxes;
        bytes = static_cast<long long>(summary->fileBytes);
    } else if (mode == "read" || mode == "memory") {
        auto snapshot = mode == "read" ? quality::readSnapshot(file) : quality::takeSnapshot(project);
        if (!snapshot) {
            std::fprintf(stderr, "%s\n", snapshot.message().c_str());
            return 1;
        }
        hash = snapshot->hash;
        images = static_cast<long long>(snapshot->images.size());
        boxes = static_cast<long long>(snapshot->boxes.size());
    } else {
        // The trainer's read (core/train readProjectData without the file checks), split by split.
        for (const auto split : {project::Split::Train, project::Split::Val, project::Split::Test}) {
            auto list = project.images().list({.split = split, .limit = 0});
            if (!list)
                return 1;
            for (const auto& image : list.value()) {
                auto found = project.boxes().ofImage(image.id);
                if (!found)
                    return 1;
                ++images;
                boxes += static_cast<long long>(found->size());
            }
        }
    }
    std::printf("%s seconds=%.3f cpu_seconds=%.3f peak_rss_kb=%ld start_rss_kb=%ld images=%lld boxes=%lld "
                "bytes=%lld hash=%s\n",
                mode.c_str(), secondsSince(start), cpuSeconds() - cpuStart, statusKb("VmHWM:"), startKb,
                images, boxes, bytes, hash.c_str());
    return 0;
}

std::map<std::string, std::string> measure(const std::string& mode, const fs::path& folder) {
    // Resolved here: in the shell popen starts, /proc/self/exe would be the shell.
    const std::string command =
        fs::read_symlink("/proc/self/exe").string() + " --child " + mode + " '" + folder.string() + "'";
    std::map<std::string, std::string> values;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return values;
    char line[512];
    std::string text;
    while (std::fgets(line, sizeof line, pipe))
        text += line;
    ::pclose(pipe);
    std::istringstream words(text);
    std::string word;
    while (words >> word)
        if (const auto eq = word.find('='); eq != std::string::npos)
            values[word.substr(0, eq)] = word.substr(eq + 1);
    return values;
}

double number(const std::map<std::string, std::string>& values, const std::string& key) {
    const auto found = values.find(key);
    return found == values.end() ? -1 : std::atof(found->second.c_str());
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--child")
        return child(argv[2], argv[3]);
    const int images = argc > 1 ? std::atoi(argv[1]) : 100000;
    const int boxesPerImage = argc > 2 ? std::atoi(argv[2]) : 3;
    const fs::path folder =
        argc > 3 ? fs::path(argv[3])
                 : fs::temp_directory_path() / ("osprey-bench-snapshot-" + std::to_string(::getpid()));
    const bool temporary = argc <= 3;
    const auto buildStart = Clock::now();
    { auto synthetic = test::makeSyntheticProject(folder, images, boxesPerImage); }
    std::printf("project: %d images x %d boxes (2%% outside the splits), built in %.1f s at %s\n", images,
                boxesPerImage, secondsSince(buildStart), folder.c_str());

    const auto write = measure("write", folder);
    const auto writeAgain = measure("write", folder);
    const auto read = measure("read", folder);
    const auto memory = measure("memory", folder);
    const auto baseline = measure("baseline", folder);
    const auto row = [](const char* name, const std::map<std::string, std::string>& values) {
        std::printf("%-28s %8.3f s (CPU %6.3f s)  peak RSS %7.1f MB  (%s images, %s boxes)\n", name,
                    number(values, "seconds"), number(values, "cpu_seconds"),
                    number(values, "peak_rss_kb") / 1024.0,
                    values.count("images") ? values.at("images").c_str() : "?",
                    values.count("boxes") ? values.at("boxes").c_str() : "?");
    };
    row("writeSnapshot (run start)", write);
    row("writeSnapshot, again", writeAgain);
    row("readSnapshot + verify", read);
    row("takeSnapshot (in memory)", memory);
    row("baseline: trainer's read", baseline);
    std::printf("snapshot.bin: %.2f MB (%.1f bytes per box)\n", number(write, "bytes") / 1e6,
                number(write, "bytes") / std::max(1.0, number(write, "boxes")));
    std::printf("hash stable across runs: %s (%s)\n",
                write.count("hash") && writeAgain.count("hash") &&
                        write.at("hash") == writeAgain.at("hash") && read.count("hash") &&
                        read.at("hash") == write.at("hash") && memory.count("hash") &&
                        memory.at("hash") == write.at("hash")
                    ? "yes"
                    : "NO",
                write.count("hash") ? write.at("hash").substr(0, 12).c_str() : "?");
    std::printf("ratio write / baseline: time %.2f, peak RSS %.2f\n",
                number(write, "seconds") / number(baseline, "seconds"),
                number(write, "peak_rss_kb") / number(baseline, "peak_rss_kb"));
    const bool ok = number(write, "seconds") >= 0 && number(write, "seconds") <= 5.0 &&
                    number(write, "peak_rss_kb") > 0 && number(write, "peak_rss_kb") <= 20 * 1024;
    std::printf("target (<= 5 s, <= 20 MB): %s\n", ok ? "met" : "NOT met");
    if (temporary) {
        std::error_code ignored;
        fs::remove_all(folder, ignored);
    }
    return ok ? 0 : 1;
}
