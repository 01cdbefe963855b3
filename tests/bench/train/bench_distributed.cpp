// Data-parallel training on this machine: osprey-cli train as 2 Gloo ranks of 1 thread each
// (workers_per_node=2) against 1 process with 2 threads, the same demo data, model, imgsz and total batch,
// side by side in one run. Prints the training images/s of the last epoch (the epoch events; for the
// ranks, the sum over them), the ratio, and what the collectives cost per batch on each rank (time in
// the broadcasts and all-reduces, including the wait for the slower rank), from each rank's time split.
// On 2 cores data parallel cannot be faster: the figure is the communication overhead per step.
//
// Usage: bench_distributed [images=80] [imgsz=320] [batch=16] [epochs=2]
#include <nlohmann/json.hpp>

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>

namespace {

struct Figures {
    double imagesPerS = 0;                  ///< last epoch, all ranks together
    std::map<int, std::string> collectives; ///< rank -> "x s (y ms per batch)"
    std::map<int, double> rankImagesPerS;   ///< rank -> its own compute images/s
};

int run(const QStringList& args) {
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(OSPREY_CLI_PATH, args);
    if (!process.waitForFinished(3600000))
        return -1;
    return process.exitCode();
}

void readSplit(const std::string& message, Figures& figures) {
    static const std::regex split(
        R"(\(([0-9.]+) images/s\).*rank ([0-9]+) of [0-9]+, of which collectives ([0-9.]+ s \([0-9.]+ ms per batch\)))");
    std::smatch match;
    if (std::regex_search(message, match, split)) {
        const int rank = std::stoi(match[2]);
        figures.collectives[rank] = match[3];
        figures.rankImagesPerS[rank] = std::stod(match[1]);
    }
}

Figures readRun(const std::filesystem::path& runDir) {
    Figures figures;
    std::ifstream events(runDir / "events.jsonl");
    std::string line;
    while (std::getline(events, line)) {
        const auto event = nlohmann::json::parse(line, nullptr, false);
        if (!event.is_object())
            continue;
        if (event.value("type", "") == "epoch")
            figures.imagesPerS = event.value("images_per_s", 0.0);
        if (event.value("type", "") == "log")
            readSplit(event.value("message", ""), figures);
    }
    std::ifstream rank1(runDir / "rank1.log");
    while (std::getline(rank1, line))
        readSplit(line, figures);
    return figures;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    std::map<std::string, std::string> options{
        {"images", "80"}, {"imgsz", "320"}, {"batch", "16"}, {"epochs", "2"}};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto eq = arg.find('=');
        if (eq != std::string::npos)
            options[arg.substr(0, eq)] = arg.substr(eq + 1);
    }
    QTemporaryDir dir;
    const auto project =
        QString::fromStdString((std::filesystem::path(dir.path().toStdString()) / "demo").string());
    if (run({"demo", "path=" + project, "images=" + QString::fromStdString(options["images"]),
             "imgsz=" + QString::fromStdString(options["imgsz"])}) != 0)
        return 1;
    const QStringList common{"train",
                             "project=" + project,
                             "model=yolov8n",
                             "epochs=" + QString::fromStdString(options["epochs"]),
                             "imgsz=" + QString::fromStdString(options["imgsz"]),
                             "batch=" + QString::fromStdString(options["batch"]),
                             "workers=1",
                             "device=cpu"};
    std::printf("bench_distributed: yolov8n, imgsz %s, batch %s (all ranks together), %s demo images, %s "
                "epochs; images/s of the last epoch\n",
                options["imgsz"].c_str(), options["batch"].c_str(), options["images"].c_str(),
                options["epochs"].c_str());
    if (run(common + QStringList{"name=single", "threads=2"}) != 0)
        return 1;
    if (run(common + QStringList{"name=ranks", "threads=1", "workers_per_node=2"}) != 0)
        return 1;
    const auto runs = std::filesystem::path(project.toStdString()) / "runs";
    const auto single = readRun(runs / "single");
    const auto ranks = readRun(runs / "ranks");
    std::printf("  1 process, 2 threads:        %6.2f images/s\n", single.imagesPerS);
    std::printf("  2 Gloo ranks x 1 thread:     %6.2f images/s (sum over the ranks)  ratio %.2fx\n",
                ranks.imagesPerS, single.imagesPerS > 0 ? ranks.imagesPerS / single.imagesPerS : 0.0);
    for (const auto& [rank, text] : ranks.collectives)
        std::printf("  rank %d: collectives %s; its time split gives %.2f images/s of its own\n", rank,
                    text.c_str(), ranks.rankImagesPerS.at(rank));
    return 0;
}
