#include "export/onnx_export.h"

#include "common/atomic_file.h"
#include "common/strings.h"
#include "common/version.h"
#include "export/edge_manifest.h"
#include "export/onnx_graph_impl.h"
#include "model/fused_network.h"
#include "model/weights.h"

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>
#include <opencv2/dnn.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <sstream>

namespace osprey::exporter {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string pythonBool(bool value) {
    return value ? "True" : "False";
}

// Python's repr of a str: single quotes unless the text holds one and no double quote.
std::string pythonString(const std::string& text) {
    const bool doubleQuotes = text.find('\'') != std::string::npos && text.find('"') == std::string::npos;
    const char quote = doubleQuotes ? '"' : '\'';
    std::string out(1, quote);
    for (const char c : text) {
        if (c == '\\' || c == quote)
            out += '\\';
        out += c;
    }
    return out + quote;
}

std::string prettyName(const std::string& name) {
    // "yolov8n" -> "YOLOv8n", "yolo11s" -> "YOLO11s" (Ultralytics' pretty_name).
    return name.rfind("yolo", 0) == 0 ? "YOLO" + name.substr(4) : name;
}

// The class names in output order; a class the checkpoint does not name is "class<i>".
std::vector<std::string> classNamesOf(const model::CheckpointMeta& meta, const model::ModelSpec& spec) {
    std::vector<std::string> names;
    for (int i = 0; i < spec.numClasses; ++i)
        names.push_back(i < static_cast<int>(meta.names.size()) ? meta.names[static_cast<size_t>(i)]
                                                                : "class" + std::to_string(i));
    return names;
}

std::map<std::string, std::string> ultralyticsMetadata(const model::CheckpointMeta& meta,
                                                       const model::ModelSpec& spec,
                                                       const OnnxExportOptions& options, int maxStride,
                                                       bool endToEnd) {
    std::map<std::string, std::string> metadata;
    std::string data;
    for (const char* key : {"data", "project"})
        if (auto it = meta.trainArgs.find(key); it != meta.trainArgs.end() && !it->second.empty()) {
            data = it->second;
            break;
        }
    metadata["description"] =
        "Osprey " + prettyName(spec.name()) + " model" + (data.empty() ? "" : " trained on " + data);
    metadata["author"] = "Osprey";
    // Python's datetime.isoformat() of an aware UTC time, as Ultralytics writes it: "+00:00", not "Z".
    const std::string now = utcNowIso8601();
    metadata["date"] = now.substr(0, now.size() - 1) + "+00:00";
    metadata["version"] = kVersion;
    metadata["license"] = "GPL-3.0-or-later";
    metadata["docs"] = "https://docs.ultralytics.com/modes/export/ (layout)";
    metadata["stride"] = std::to_string(maxStride);
    metadata["task"] = "detect";
    metadata["head"] = "Detect";
    // Runtimes that read Ultralytics files (its AutoBackend, Osprey's predictor) apply only a confidence
    // filter to an end2end output, and NMS otherwise.
    metadata["end2end"] = pythonBool(endToEnd);
    metadata["batch"] = "1";
    metadata["imgsz"] = "[" + std::to_string(options.imgsz) + ", " + std::to_string(options.imgsz) + "]";
    metadata["channels"] = "3";
    std::string names = "{";
    const std::vector<std::string> classNames = classNamesOf(meta, spec);
    for (size_t i = 0; i < classNames.size(); ++i)
        names += (i ? ", " : "") + std::to_string(i) + ": " + pythonString(classNames[i]);
    metadata["names"] = names + "}";
    metadata["args"] =
        "{'batch': 1, 'imgsz': " + std::to_string(options.imgsz) + ", 'half': " + pythonBool(options.half) +
        ", 'dynamic': " + pythonBool(options.dynamic) + ", 'simplify': " + pythonBool(options.simplify) +
        ", 'opset': " + std::to_string(options.opset) + ", 'nms': " + (endToEnd ? "False" : "None") + "}";
    return metadata;
}

void declareTensor(onnx::ValueInfoProto& info, const TensorSignature& signature) {
    info.set_name(signature.name);
    auto* tensor = info.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(onnx::TensorProto::FLOAT);
    for (const auto size : signature.shape) {
        auto* dim = tensor->mutable_shape()->add_dim();
        if (size < 0)
            dim->set_dim_param(signature.dimensionNames);
        else
            dim->set_dim_value(size);
    }
}

// A fixed, image-like input: smooth colour gradients and low-frequency waves (no hard edges, which make a
// randomly initialised network's outputs needlessly sensitive to rounding).
// Planar RGB [3, imgsz, imgsz]: x ramp, y ramp, waves.
std::vector<float> probeImage(int imgsz) {
    const auto plane = static_cast<size_t>(imgsz) * static_cast<size_t>(imgsz);
    std::vector<float> image(3 * plane);
    const double step = imgsz > 1 ? 1.0 / (imgsz - 1) : 0.0;
    for (int y = 0; y < imgsz; ++y)
        for (int x = 0; x < imgsz; ++x) {
            const double u = x * step, v = y * step;
            const size_t at = static_cast<size_t>(y) * static_cast<size_t>(imgsz) + static_cast<size_t>(x);
            image[at] = static_cast<float>(u);
            image[plane + at] = static_cast<float>(v);
            image[2 * plane + at] = static_cast<float>(0.5 + 0.25 * std::sin(u * 9.0) * std::cos(v * 7.0));
        }
    return image;
}

// Loads the serialised graph in OpenCV DNN and runs `probe`; returns the output, row-major.
Expected<std::vector<float>> runInOpenCv(const std::string& bytes, std::vector<float> probe, int imgsz,
                                         const fs::path& out) {
    try {
        cv::dnn::Net net = cv::dnn::readNetFromONNX(bytes.data(), bytes.size());
        if (net.empty())
            return fail(out.string() +
                            ": OpenCV DNN read an empty network from the exported graph; nothing was "
                            "written",
                        "unsupported");
        const int sizes[] = {1, 3, imgsz, imgsz};
        cv::Mat blob(4, sizes, CV_32F, probe.data());
        net.setInput(blob, "images");
        net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        cv::Mat result = net.forward("output0");
        if (!result.isContinuous() || result.type() != CV_32F)
            result = result.clone();
        const float* data = result.ptr<float>();
        return std::vector<float>(data, data + result.total());
    } catch (const cv::Exception& error) {
        return fail(out.string() + ": OpenCV DNN cannot run the exported graph (" + error.what() +
                        "); nothing was written",
                    "unsupported");
    }
}

// `output` and `layout` are the report's, or the twin's that OpenCV checks.
Status buildModel(onnx::ModelProto& proto, const model::FusedNetwork& network,
                  const OnnxExportOptions& options, bool halfWeights, const OnnxExportReport& report,
                  const TensorSignature& output, GraphOutput layout) {
    proto.set_ir_version(onnx::IR_VERSION);
    proto.set_producer_name("osprey");
    proto.set_producer_version(kVersion);
    auto* opset = proto.add_opset_import();
    opset->set_domain("");
    opset->set_version(options.opset);
    auto* graph = proto.mutable_graph();
    graph->set_name("main_graph");
    declareTensor(*graph->add_input(), report.input);
    GraphWriter writer(*graph, options.opset, halfWeights);
    if (auto emitted =
            emitNetwork(writer, network, options.imgsz, "images", "output0", layout, options.maxDetections);
        !emitted)
        return emitted;
    declareTensor(*graph->add_output(), output);
    for (const auto& [key, value] : report.metadata) {
        auto* entry = proto.add_metadata_props();
        entry->set_key(key);
        entry->set_value(value);
    }
    return {};
}

} // namespace

Expected<OnnxExportReport> exportOnnx(const fs::path& weights, const OnnxExportOptions& options,
                                      const ExportProgress& progress) {
    const auto started = Clock::now();
    const auto step = [&](double fraction, const char* stage) {
        if (progress)
            progress(fraction, stage);
    };
    const fs::path out = options.out.empty() ? defaultOnnxPath(weights) : options.out;
    if (options.imgsz < 32 || options.imgsz % 32 != 0)
        return fail("export: imgsz=" + std::to_string(options.imgsz) + " is not a positive multiple of 32",
                    "invalid");
    if (options.opset < 11 || options.opset > 17)
        return fail("export: opset=" + std::to_string(options.opset) + " is not supported (11..17)",
                    "invalid");
    std::error_code error;
    if (!fs::is_regular_file(weights, error))
        return fail(weights.string() + ": no such weights file", "missing");
    if (fs::equivalent(weights, out, error))
        return fail(out.string() + ": the ONNX output would overwrite the weights file; give out=FILE.onnx",
                    "invalid");

    step(0.05, "loading");
    model::CheckpointMeta meta;
    auto loaded = model::loadDetector(weights, &meta);
    if (!loaded)
        return fail(loaded.error());
    model::Detector detector = std::move(*loaded);
    // nms=false selects a YOLO26 head's one-to-one branch, as Ultralytics 8.4.190 does; a head without one
    // (YOLOv8, YOLO11) has the one-to-many layout only, as there.
    const bool endToEnd = !options.nms && detector.spec().family == model::Family::Yolo26;
    const auto branch = endToEnd ? model::HeadBranch::OneToOne : model::HeadBranch::OneToMany;
    detector.fuse(branch);
    // The file stores float16 weights: round the reference network the same way, so that the check
    // below compares the graph with the network it encodes.
    if (options.half)
        model::roundParametersToHalf(detector);
    auto described = model::describeFused(detector);
    if (!described)
        return fail(weights.string() + ": cannot export to ONNX: " + described.message(), "unsupported");
    const model::FusedNetwork& network = *described;

    step(0.15, "building");
    OnnxExportReport report;
    report.opset = options.opset;
    report.imgsz = options.imgsz;
    report.modelName = detector.spec().name();
    report.numClasses = detector.spec().numClasses;
    int anchors = 0, maxStride = 0;
    for (const int stride : network.head.strides) {
        anchors += (options.imgsz / stride) * (options.imgsz / stride);
        maxStride = std::max(maxStride, stride);
    }
    if (endToEnd && options.maxDetections < 1)
        return fail("export: max_det=" + std::to_string(options.maxDetections) + " keeps no detection",
                    "invalid");
    const std::int64_t batch = options.dynamic ? -1 : 1;
    const std::string batchName = options.dynamic ? "batch" : "";
    report.endToEnd = endToEnd;
    report.input = {"images", "float32", {batch, 3, options.imgsz, options.imgsz}, batchName};
    // The one-to-many layout, and what OpenCV checks of an end-to-end graph (its top-k does not import).
    const TensorSignature decodedOutput{
        "output0", "float32", {batch, 4 + report.numClasses, anchors}, batchName};
    const auto layout = endToEnd ? GraphOutput::EndToEnd : GraphOutput::Decoded;
    report.output = decodedOutput;
    if (endToEnd)
        report.output.shape = {batch, std::min(options.maxDetections, anchors), 6};
    report.metadata = ultralyticsMetadata(meta, detector.spec(), options, maxStride, endToEnd);
    report.classNames = classNamesOf(meta, detector.spec());
    onnx::ModelProto proto;
    if (auto built = buildModel(proto, network, options, options.half, report, report.output, layout); !built)
        return fail(weights.string() + ": cannot export to ONNX: " + built.message(), "unsupported");
    const auto* graph = &proto.graph();
    report.nodes = graph->node_size();
    report.initializers = graph->initializer_size();
    report.buildMs = msSince(started);

    step(0.35, "checking");
    const auto checkStarted = Clock::now();
    try {
        onnx::checker::check_model(proto);
        onnx::ModelProto inferred = proto;
        onnx::shape_inference::InferShapes(inferred, onnx::OpSchemaRegistry::Instance(),
                                           onnx::ShapeInferenceOptions(true, 1, false));
        if (options.simplify)
            proto = std::move(inferred);
    } catch (const std::exception& failure) {
        return fail(out.string() + ": the exported graph fails the ONNX checker (" + failure.what() +
                        "); nothing was written",
                    "internal");
    }
    std::string bytes;
    if (!proto.SerializeToString(&bytes))
        return fail(out.string() + ": cannot serialise the ONNX graph; nothing was written", "internal");
    report.checkMs = msSince(checkStarted);

    step(0.5, "verifying");
    const auto verifyStarted = Clock::now();
    auto probe = probeImage(options.imgsz);
    std::string verified = bytes;
    if (options.half || endToEnd) {
        // OpenCV 4.6 cannot read float16 tensors, nor import TopK: verify the same graph with the same
        // (float16-rounded) weights stored as float32, without the Casts, and up to the end-to-end top-k
        // (the one-to-one branch decoded as the one-to-many layout is).
        onnx::ModelProto twin;
        if (auto built =
                buildModel(twin, network, options, false, report, decodedOutput, GraphOutput::Decoded);
            !built)
            return fail(weights.string() + ": cannot export to ONNX: " + built.message(), "unsupported");
        verified = twin.SerializeAsString();
    }
    auto fromOpenCv = runInOpenCv(verified, probe, options.imgsz, out);
    if (!fromOpenCv)
        return fail(fromOpenCv.error());
    std::int64_t expectedAnchors = 0;
    auto expected = model::forwardDecoded(detector, probe, options.imgsz, &expectedAnchors, branch);
    if (!expected)
        return fail(weights.string() + ": cannot run the network for the check: " + expected.message(),
                    "internal");
    if (fromOpenCv->size() != expected->size() || expectedAnchors != anchors)
        return fail(out.string() + ": OpenCV DNN's output has the wrong shape; nothing was written",
                    "internal");
    // Rows 0-3 are the box (cx, cy, w, h), the rest the class scores; each row holds `anchors` values.
    double boxError = 0, scoreError = 0;
    const size_t boxValues = static_cast<size_t>(4) * static_cast<size_t>(anchors);
    for (size_t i = 0; i < expected->size(); ++i) {
        const double diff = std::abs(static_cast<double>((*fromOpenCv)[i]) - (*expected)[i]);
        double& worst = i < boxValues ? boxError : scoreError;
        worst = std::isnan(diff) ? INFINITY : std::max(worst, diff);
    }
    // The runtimes' float32 rounding differs by ~1e-5 relative (up to ~0.1 px through a random network);
    // a wrong graph is off by pixels to hundreds of pixels.
    if (boxError > 1.0 || scoreError > 1e-2) {
        char text[160];
        std::snprintf(text, sizeof text, "max |diff| %.4g px on boxes, %.4g on scores", boxError, scoreError);
        return fail(out.string() + ": the exported graph disagrees with the network in OpenCV DNN (" + text +
                        "); nothing was written",
                    "internal");
    }
    report.verifyMs = msSince(verifyStarted);

    step(0.9, "writing");
    if (auto written = writeFileAtomic(out, bytes); !written)
        return fail(written.error());
    report.file = out;
    report.bytes = bytes.size();
    if (options.manifest) {
        auto manifest = edgeManifest(weights, report);
        if (!manifest)
            return fail(manifest.error());
        const fs::path file = manifestPath(out);
        if (auto written = writeEdgeManifest(file, *manifest); !written)
            return fail(file.string() +
                            ": the ONNX file is written, the manifest beside it is not: " + written.message(),
                        written.error().code);
        report.manifest = file;
    }
    report.totalMs = msSince(started);
    step(1.0, "done");
    return report;
}

std::string formatExportReport(const OnnxExportReport& report) {
    const auto shapeText = [](const TensorSignature& signature) {
        std::string text = signature.name + " " + signature.type + " [";
        for (size_t i = 0; i < signature.shape.size(); ++i)
            text += (i ? ", " : "") +
                    (signature.shape[i] < 0 ? signature.dimensionNames : std::to_string(signature.shape[i]));
        return text + "]";
    };
    std::ostringstream out;
    char size[32];
    std::snprintf(size, sizeof size, "%.1f MB", static_cast<double>(report.bytes) / 1e6);
    out << "Exported " << report.modelName << " (" << report.numClasses << " classes) to "
        << report.file.string() << " (" << size << ", ONNX opset " << report.opset << ", " << report.nodes
        << " nodes)\n";
    out << "  input:  " << shapeText(report.input) << "  RGB 0-1\n";
    out << "  output: " << shapeText(report.output)
        << (report.endToEnd ? "  x1, y1, x2, y2 (px), score, class (end-to-end: no NMS)\n"
                            : "  cx, cy, w, h (px), class scores\n");
    char timing[160];
    std::snprintf(timing, sizeof timing,
                  "  time:   %.2f s (build %.0f ms, check %.0f ms, OpenCV DNN verification%s %.0f ms)\n",
                  report.totalMs / 1000.0, report.buildMs, report.checkMs,
                  report.endToEnd ? " up to the top-k" : "", report.verifyMs);
    out << timing;
    if (!report.manifest.empty())
        out << "  manifest: " << report.manifest.string()
            << " (classes, input size, output layout, the run's mAP and confidence)\n";
    return out.str();
}

} // namespace osprey::exporter
