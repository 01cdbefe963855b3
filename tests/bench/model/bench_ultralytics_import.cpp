// Reading an Ultralytics checkpoint: the pickle alone, the whole checkpoint with its tensors (what `predict`
// and `train weights=` do), and `model import` (read, build, load, write an Osprey file). The goal:
// a 6.5 MB .pt in <= 200 ms. With OSPREY_ULTRALYTICS_PYTHON set to a Python that has torch and ultralytics,
// its `torch.load` of the same file is timed in the same run for the ratio. Run it with
// OMP_WAIT_POLICY=PASSIVE, as the applications run (app/openmp_wait.h): spinning OpenMP workers dominate on a
// busy machine. Usage: bench_ultralytics_import [FILE.pt] [repeats=7]
#include "model/ultralytics_impl.h"
#include "model/weights_torch_impl.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace osprey;
using namespace osprey::model;
using Clock = std::chrono::steady_clock;

namespace {

template <typename F> double medianMs(int repeats, F&& work) {
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        work();
        times.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    const std::filesystem::path file = argc > 1
                                           ? std::filesystem::path(argv[1])
                                           : std::filesystem::path(OSPREY_SHARED_DIR) /
                                                 "fixtures/models/ultralytics-trained/yolov8n-shapes-best.pt";
    const int repeats = argc > 2 ? std::atoi(argv[2]) : 7;
    torch::set_num_threads(2);
    const auto bytes = std::filesystem::file_size(file);
    std::printf("file: %s (%.2f MB), median of %d\n", file.c_str(), static_cast<double>(bytes) / 1e6,
                repeats);
    const char* policy = std::getenv("OMP_WAIT_POLICY");
    std::printf(
        "OMP_WAIT_POLICY=%s (osprey and osprey-cli run with PASSIVE; set it to measure what they do)\n",
        policy != nullptr ? policy : "unset");
    const auto archive = ZipArchive::open(file);
    if (!archive) {
        std::fprintf(stderr, "%s\n", archive.message().c_str());
        return 1;
    }
    const double zipMs = medianMs(repeats, [&] { (void)ZipArchive::open(file); });
    const double pickleMs = medianMs(repeats, [&] { (void)readUltralytics(*archive); });
    const double loadMs = medianMs(repeats, [&] {
        if (!loadCheckpoint(file))
            std::exit(1);
    });
    const auto out = std::filesystem::temp_directory_path() / "bench-ultralytics-import.pt";
    const double importMs = medianMs(repeats, [&] {
        if (!importWeights(file, out))
            std::exit(1);
    });
    std::filesystem::remove(out);
    std::printf("read the zip (whole file into memory, directory)  %8.1f ms\n", zipMs);
    std::printf("parse and describe the pickle (CRC-32 checked)    %8.1f ms\n", pickleMs);
    std::printf("load the checkpoint with its tensors (float32)    %8.1f ms\n", loadMs);
    std::printf("model import (read, build, load, write .pt)       %8.1f ms   goal <= 200 ms\n", importMs);
    if (const char* python = std::getenv("OSPREY_ULTRALYTICS_PYTHON")) {
        const std::string command =
            std::string(python) + " -c \"import time,torch,statistics as s;f='" + file.string() +
            "';t=[];exec('for _ in range(" + std::to_string(repeats) +
            "):\\n a=time.perf_counter();torch.load(f,weights_only=False);t.append(time.perf_counter()-a)');"
            "print(s.median(t)*1000)\"";
        FILE* pipe = popen(command.c_str(), "r");
        double peer = 0;
        if (pipe != nullptr && std::fscanf(pipe, "%lf", &peer) == 1)
            std::printf("peer: torch.load in Python (ultralytics)          %8.1f ms   Osprey load / "
                        "torch.load = %.2f "
                        "(torch.load keeps float16, checks no CRC)\n",
                        peer, loadMs / peer);
        if (pipe != nullptr)
            pclose(pipe);
    } else {
        std::printf(
            "peer: set OSPREY_ULTRALYTICS_PYTHON to a Python with torch and ultralytics for torch.load\n");
    }
    return 0;
}
