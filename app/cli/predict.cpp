// osprey-cli predict model=W source=IMAGE|DIR|VIDEO [conf=C] [iou=T] [imgsz=N] [save=true|false]
//                    [save_txt=true|false] [device=cpu|0] [out=DIR]; the keys and their defaults are declared
//                    in core/assist (assist_options.h).
// A folder may hold images and videos. Videos are read frame by frame; the annotated video is written
// as <out>/<stem>.mp4 and the labels of frame k (from 1) as <out>/labels/<stem>_<k>.txt, as Ultralytics
// does.
#include "assist/assist_options.h"
#include "assist/box_predictor.h"
#include "cli/verb.h"
#include "common/strings.h"
#include "imaging/image.h"
#include "imaging/video.h"
#include "model/predictor.h"
#include "run/run_curves.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>

namespace osprey::cli {
namespace {

namespace fs = std::filesystem;

bool isImageFile(const fs::path& path) {
    const std::string ext = toLower(path.extension().string());
    for (const char* known : {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})
        if (ext == known)
            return true;
    return false;
}

Expected<std::vector<fs::path>> collectSources(const fs::path& source) {
    std::error_code error;
    if (fs::is_directory(source, error)) {
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(source, error))
            if (entry.is_regular_file() && (isImageFile(entry.path()) || imaging::isVideoPath(entry.path())))
                files.push_back(entry.path());
        std::sort(files.begin(), files.end());
        if (files.empty())
            return fail(source.string() +
                            ": no images (.jpg, .png, .bmp, .tif, .webp) or videos (.mp4, .avi, ...) in this "
                            "folder",
                        "missing");
        return files;
    }
    if (!fs::exists(source, error))
        return fail(source.string() + ": source not found", "missing");
    return std::vector<fs::path>{source};
}

std::uint32_t classColour(int classId) {
    static const std::uint32_t kPalette[] = {
        0xFF3838, 0xFF9D97, 0xFF701F, 0xFFB21D, 0xCFD231, 0x48F90A, 0x92CC17, 0x3DDB86, 0x1A9334, 0x00D4BB,
        0x2C99A8, 0x00C2FF, 0x344593, 0x6473FF, 0x0018EC, 0x8438FF, 0x520085, 0xCB38FF, 0xFF95C8, 0xFF37C7};
    return kPalette[static_cast<size_t>(classId) % (sizeof kPalette / sizeof kPalette[0])];
}

std::string summary(const std::vector<model::Detection>& detections, const std::vector<std::string>& names) {
    std::map<int, int> counts;
    for (const auto& detection : detections)
        ++counts[detection.classId];
    if (counts.empty())
        return "(no detections)";
    std::string text;
    for (const auto& [classId, count] : counts)
        text +=
            (text.empty() ? "" : ", ") + std::to_string(count) + " " + names[static_cast<size_t>(classId)];
    return text;
}

Status writeYoloTxt(const fs::path& path, const std::vector<model::Detection>& detections, int width,
                    int height) {
    std::ostringstream out;
    char line[128];
    for (const auto& d : detections) {
        std::snprintf(line, sizeof line, "%d %.6f %.6f %.6f %.6f %.5f\n", d.classId,
                      (d.x1 + d.x2) / 2.0 / width, (d.y1 + d.y2) / 2.0 / height, (d.x2 - d.x1) / 1.0 / width,
                      (d.y2 - d.y1) / 1.0 / height, d.score);
        out << line;
    }
    std::ofstream file(path);
    file << out.str();
    if (!file)
        return fail(path.string() + ": could not write labels", "io");
    return {};
}

/// Detects on one image (a file or a video frame) and writes what was asked; `what` names it.
using DetectFunction = std::function<Expected<void>(imaging::Image&, const std::string&, const fs::path&)>;

enum class VideoOutcome { Done, Skipped, Failed };

/// Runs `detect` on every frame of the video `path` (the `index`-th of `count`), writing the annotated
/// video to `out` when `save`. Skipped: the video could not be read (said on stderr); Failed: an error
/// that ends the run (said on stderr).
VideoOutcome predictVideo(const fs::path& path, size_t index, size_t count, const fs::path& out, bool save,
                          const DetectFunction& detect) {
    auto reader = imaging::VideoReader::open(path);
    if (!reader) {
        std::cerr << "warning: skipped " << reader.message() << "\n";
        return VideoOutcome::Skipped;
    }
    const auto& info = (*reader)->info();
    std::unique_ptr<imaging::VideoWriter> writer;
    if (save) {
        auto opened = imaging::VideoWriter::open(out / (path.stem().string() + ".mp4"), info.width,
                                                 info.height, info.fps);
        if (!opened) {
            std::cerr << "error: " << opened.message() << "\n";
            return VideoOutcome::Failed;
        }
        writer = std::move(*opened);
    }
    imaging::Image frame;
    while ((*reader)->read(frame)) {
        const auto k = (*reader)->position();
        char what[64];
        std::snprintf(what, sizeof what, "video %zu/%zu (frame %lld/%lld) ", index, count,
                      static_cast<long long>(k), static_cast<long long>(std::max(info.frames, k)));
        if (auto detected =
                detect(frame, what + path.string(),
                       out / "labels" / (path.stem().string() + "_" + std::to_string(k) + ".txt"));
            !detected) {
            std::cerr << "error: " << detected.message() << "\n";
            return VideoOutcome::Failed;
        }
        if (writer)
            if (auto written = writer->write(frame); !written) {
                std::cerr << "error: " << written.message() << "\n";
                return VideoOutcome::Failed;
            }
    }
    if ((*reader)->position() == 0) {
        std::cerr << "warning: skipped " << path.string() << ": no frames could be decoded\n";
        return VideoOutcome::Skipped;
    }
    if (writer)
        if (auto closed = writer->close(); !closed) {
            std::cerr << "error: " << closed.message() << "\n";
            return VideoOutcome::Failed;
        }
    return VideoOutcome::Done;
}

int runPredict(const Args& args) {
    const auto threads = args.integer("threads");
    model::setComputeThreads(threads > 0
                                 ? static_cast<int>(threads)
                                 : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
    // An exported .onnx runs in OpenCV DNN through core/assist's ONNX predictor (class names from its
    // metadata); everything else is a weights file for LibTorch.
    const bool isOnnx = toLower(fs::path(args.str("model")).extension().string()) == ".onnx";
    std::unique_ptr<assist::BoxPredictor> onnx;
    Expected<model::Predictor> predictor = fail("unset");
    if (isOnnx) {
        auto opened = assist::BoxPredictor::open({args.str("model")});
        if (!opened) {
            std::cerr << "error: " << opened.message() << "\n";
            return 1;
        }
        onnx = std::move(*opened);
    } else {
        predictor =
            model::Predictor::load(args.str("model"), model::PredictorOptions{args.str("device"), true});
        if (!predictor) {
            std::cerr << "error: " << predictor.message() << "\n";
            return 1;
        }
    }
    const std::vector<std::string>& names = onnx ? onnx->names() : predictor->names();
    const auto sources = collectSources(args.str("source"));
    if (!sources) {
        std::cerr << "error: " << sources.message() << "\n";
        return 1;
    }
    const int modelImgsz = onnx ? onnx->inputSize() : predictor->imgsz();
    const int imgsz = args.integer("imgsz") > 0 && (!onnx || args.given("imgsz"))
                          ? static_cast<int>(args.integer("imgsz"))
                          : modelImgsz;
    if (imgsz % 32 != 0) {
        std::cerr << "error: imgsz=" << imgsz << " must be a multiple of 32\n";
        return 2;
    }
    model::NmsOptions nms;
    nms.confThreshold = static_cast<float>(args.number("conf"));
    if (const auto best = args.given("conf") ? std::nullopt : run::runBestConfidence(args.str("model"))) {
        nms.confThreshold = static_cast<float>(*best);
        std::cerr << "note: conf=" << *best
                  << ", the best-F1 confidence of the model's run (its curves.json)\n";
    }
    nms.iouThreshold = static_cast<float>(args.number("iou"));
    nms.maxDetections = static_cast<int>(args.integer("max_det"));
    nms.branch = args.flag("nms") ? model::HeadBranch::OneToMany : model::HeadBranch::OneToOne;
    if (onnx && nms.branch == model::HeadBranch::OneToOne) {
        std::cerr
            << "error: nms=false reads a YOLO26 checkpoint's one-to-one head; give the .pt, or leave nms "
               "unset for an ONNX file\n";
        return 2;
    }
    const fs::path out = args.str("out");
    const bool save = args.flag("save"), saveTxt = args.flag("save_txt");
    std::error_code error;
    if (save)
        fs::create_directories(out, error);
    if (saveTxt)
        fs::create_directories(out / "labels", error);

    model::PredictTiming total;
    int done = 0, failed = 0;
    /// Detects on one image (a file or a video frame); draws the boxes into it when saving.
    const DetectFunction detect = [&](imaging::Image& image, const std::string& what,
                                      const fs::path& txtPath) -> Expected<void> {
        model::PredictTiming timing;
        std::vector<model::Detection> detections;
        int inputWidth = imgsz, inputHeight = imgsz;
        if (onnx) {
            const auto started = std::chrono::steady_clock::now();
            const auto proposals =
                onnx->predict(image, {nms.confThreshold, nms.iouThreshold, nms.maxDetections, imgsz});
            if (!proposals)
                return fail(what + ": " + proposals.message());
            timing.inferenceMs =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
            for (const auto& p : *proposals)
                detections.push_back({p.x1, p.y1, p.x2, p.y2, p.score, p.classIndex});
        } else {
            imaging::Letterbox box;
            const auto input = imaging::letterbox(image, imgsz, predictor->stride(), /*autoRect=*/true, &box);
            const auto results = predictor->predictLetterboxed(
                {model::ImageView{input.pixels.data(), input.width, input.height}},
                {model::LetterboxInfo{box.scale, box.padX, box.padY}}, {{image.width, image.height}}, nms,
                &timing);
            if (!results)
                return fail(what + ": " + results.message());
            detections = (*results)[0];
            inputWidth = input.width;
            inputHeight = input.height;
        }
        std::printf("%s: %dx%d %s, %.1fms\n", what.c_str(), inputWidth, inputHeight,
                    summary(detections, names).c_str(), timing.inferenceMs);
        total.preprocessMs += timing.preprocessMs;
        total.inferenceMs += timing.inferenceMs;
        total.postprocessMs += timing.postprocessMs;
        ++done;
        if (saveTxt)
            if (auto written = writeYoloTxt(txtPath, detections, image.width, image.height); !written)
                std::cerr << "warning: " << written.message() << "\n";
        if (save)
            for (const auto& d : detections) {
                char label[160];
                std::snprintf(label, sizeof label, "%s %.2f", names[static_cast<size_t>(d.classId)].c_str(),
                              d.score);
                imaging::drawBox(image, d.x1, d.y1, d.x2, d.y2, classColour(d.classId), label);
            }
        return {};
    };
    const size_t videos = static_cast<size_t>(std::count_if(
        sources->begin(), sources->end(), [](const fs::path& p) { return imaging::isVideoPath(p); }));
    const size_t images = sources->size() - videos;
    size_t imageIndex = 0, videoIndex = 0;
    for (const fs::path& path : *sources) {
        if (imaging::isVideoPath(path)) {
            const VideoOutcome outcome = predictVideo(path, ++videoIndex, videos, out, save, detect);
            if (outcome == VideoOutcome::Failed)
                return 1;
            if (outcome == VideoOutcome::Skipped)
                ++failed;
            continue;
        }
        ++imageIndex;
        auto image = imaging::decodeImage(path);
        if (!image) {
            std::cerr << "warning: skipped " << image.message() << "\n";
            ++failed;
            continue;
        }
        const std::string what =
            "image " + std::to_string(imageIndex) + "/" + std::to_string(images) + " " + path.string();
        if (auto detected = detect(*image, what, out / "labels" / (path.stem().string() + ".txt"));
            !detected) {
            std::cerr << "error: " << detected.message() << "\n";
            return 1;
        }
        if (save)
            if (auto written = imaging::encodeImage(*image, out / path.filename()); !written)
                std::cerr << "warning: " << written.message() << "\n";
    }
    if (done > 0)
        std::printf(
            "Speed: %.1fms preprocess, %.1fms inference, %.1fms postprocess per image (imgsz %d, %s)\n",
            total.preprocessMs / done, total.inferenceMs / done, total.postprocessMs / done, imgsz,
            args.str("device").c_str());
    if (save || saveTxt)
        std::printf("Results saved to %s\n", out.string().c_str());
    return failed > 0 && done == 0 ? 1 : 0;
}

OSPREY_REGISTER_VERB(Verb{"predict", "Run a trained detector on an image, a video, or a folder of them",
                          [] { return assist::predictOptions(); }, runPredict});

} // namespace
} // namespace osprey::cli
