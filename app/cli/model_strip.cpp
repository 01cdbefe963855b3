// osprey-cli model strip weights=FILE.pt [out=FILE.pt] [half=true]
#include "cli/verb.h"
#include "model/model_options.h"
#include "model/weights.h"

#include <cstdio>
#include <iostream>

namespace osprey::cli {
namespace {

std::string megabytes(std::uintmax_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f MB", static_cast<double>(bytes) / 1e6);
    return text;
}

int runModelStrip(const Args& args) {
    const std::string source = args.str("weights");
    const std::string destination = args.given("out") ? args.str("out") : source;
    const auto report = model::stripWeights(source, destination, args.flag("half"));
    if (!report) {
        std::cerr << "error: " << report.message() << "\n";
        return 1;
    }
    std::cout << "Stripped " << source << " (" << megabytes(report->bytesBefore) << ") to " << destination
              << " (" << megabytes(report->bytesAfter) << "): " << report->tensors << " tensors, "
              << (report->usedEma ? "EMA weights" : "model weights")
              << (args.flag("half") ? " in float16" : " in float32")
              << "; optimizer and training state removed\n";
    return 0;
}

OSPREY_REGISTER_VERB(Verb{
    "model strip",
    "Shrink a training checkpoint to an inference weights file (EMA weights, no optimizer, float16)",
    [] { return model::modelStripOptions(); }, runModelStrip});

} // namespace
} // namespace osprey::cli
