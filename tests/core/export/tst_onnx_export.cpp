// ONNX export: the exported graph in OpenCV DNN equals Osprey's LibTorch forward (yolov8n and yolo11n at
// 320 and 640, on letterboxed inputs) and NMS gives the same detections; the file passes libonnx's
// checker and carries Ultralytics' metadata, which Osprey's ONNX predictor reads; the options do what they
// say; bad input is a clear error and writes nothing.
#include "assist/box_predictor.h"
#include "common/hash.h"
#include "export/edge_manifest.h"
#include "export/onnx_export.h"
#include "export_fixture.h"
#include "imaging/image.h"
#include "run/run_curves.h"
#include "run/run_files.h"
#include "run/run_folder.h"

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <opencv2/dnn.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>

using namespace osprey;

namespace {

std::filesystem::path tempPath(const QTemporaryDir& dir, const std::string& name) {
    return std::filesystem::path(dir.path().toStdString()) / name;
}

torch::Tensor runOpenCv(const std::filesystem::path& file, const torch::Tensor& input) {
    auto net = cv::dnn::readNetFromONNX(file.string());
    const int sizes[] = {1, 3, static_cast<int>(input.size(2)), static_cast<int>(input.size(3))};
    net.setInput(cv::Mat(4, sizes, CV_32F, input.data_ptr<float>()));
    const cv::Mat out = net.forward();
    std::vector<std::int64_t> shape;
    for (int i = 0; i < out.dims; ++i)
        shape.push_back(out.size[i]);
    return torch::from_blob(const_cast<float*>(out.ptr<float>()), shape, torch::kFloat).clone();
}

torch::Tensor readFloats(const std::filesystem::path& file, std::vector<std::int64_t> shape) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto tensor = torch::empty(shape, torch::kFloat);
    if (bytes.size() != static_cast<size_t>(tensor.numel()) * sizeof(float))
        throw std::runtime_error(file.string() + ": unexpected size");
    std::memcpy(tensor.data_ptr<float>(), bytes.data(), bytes.size());
    return tensor;
}

onnx::ModelProto readModel(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    onnx::ModelProto proto;
    if (!proto.ParseFromIstream(&in))
        throw std::runtime_error("cannot parse " + file.string());
    return proto;
}

std::map<std::string, std::string> metadataOf(const onnx::ModelProto& proto) {
    std::map<std::string, std::string> out;
    for (const auto& entry : proto.metadata_props())
        out[entry.key()] = entry.value();
    return out;
}

} // namespace

class TestOnnxExport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::set_num_threads(2); }
    void matchesLibTorchInOpenCv_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("imgsz");
        QTest::newRow("yolov8n-320") << "yolov8n" << 320;
        QTest::newRow("yolov8n-640") << "yolov8n" << 640;
        QTest::newRow("yolo11n-320") << "yolo11n" << 320;
        QTest::newRow("yolo11n-640") << "yolo11n" << 640;
    }
    void matchesLibTorchInOpenCv() {
        QFETCH(QString, name);
        QFETCH(int, imgsz);
        QTemporaryDir dir;
        const auto weights = tempPath(dir, "model.pt");
        test::saveDetector(test::livelyDetector(name.toStdString(), 5, 21), weights);

        exporter::OnnxExportOptions options;
        options.imgsz = imgsz;
        const auto report = exporter::exportOnnx(weights, options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        QCOMPARE(report->file, exporter::defaultOnnxPath(weights));
        QCOMPARE(report->output.shape, (std::vector<std::int64_t>{1, 9, imgsz * imgsz / 64 * 21 / 16}));

        // The reference is the unfused LibTorch network loaded back from the weights, as predict runs it.
        auto reference = model::loadDetector(weights).value();
        auto& network = *reference.impl().model;
        network.eval();
        torch::NoGradGuard noGrad;
        int detections = 0;
        for (const auto& [width, height] : {std::pair{480, 360}, std::pair{300, 500}}) {
            const auto input = test::letterboxedInput(width, height, imgsz, width + imgsz);
            const auto expected = network.forwardDecoded(input);
            const auto actual = runOpenCv(report->file, input);
            QCOMPARE(actual.sizes(), expected.sizes());
            const auto diff = test::differences(actual, expected);
            qInfo("%s %d (%dx%d): max |diff| boxes %.2e px, scores %.2e", qPrintable(name), imgsz, width,
                  height, diff.boxesPx, diff.scores);
            QVERIFY2(diff.scores <= 1e-3, qPrintable(QString::number(diff.scores)));
            QVERIFY2(diff.boxesPx <= 0.05, qPrintable(QString::number(diff.boxesPx)));
            const auto match = test::matchDetections(expected, actual);
            QCOMPARE(match.unexplained, size_t(0));
            QVERIFY2(match.borderline <= match.left / 100,
                     "more than 1% of the detections flipped at a threshold");
            QVERIFY2(match.minIou >= 0.999f, qPrintable(QString::number(match.minIou)));
            QVERIFY(match.maxScoreDiff <= 1e-3f);
            detections += static_cast<int>(match.left);
        }
        QVERIFY2(detections >= 2, "the test network must produce detections to compare");
    }

    void passesTheCheckerWithUltralyticsLayoutAndMetadata() {
        QTemporaryDir dir;
        const auto weights = tempPath(dir, "best.pt");
        test::saveDetector(test::livelyDetector("yolov8n", 3, 4), weights);
        exporter::OnnxExportOptions options;
        options.imgsz = 320;
        options.out = tempPath(dir, "sub/exported.onnx");
        const auto report = exporter::exportOnnx(weights, options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        QCOMPARE(report->file, options.out);
        QCOMPARE(static_cast<std::uintmax_t>(std::filesystem::file_size(options.out)), report->bytes);

        const auto proto = readModel(options.out);
        try {
            onnx::checker::check_model(proto);
        } catch (const std::exception& error) {
            QFAIL(error.what());
        }
        QCOMPARE(proto.opset_import(0).version(), 12);
        QCOMPARE(proto.graph().input_size(), 1);
        QCOMPARE(proto.graph().input(0).name(), std::string("images"));
        QCOMPARE(proto.graph().output(0).name(), std::string("output0"));
        const auto& dims = proto.graph().output(0).type().tensor_type().shape().dim();
        QCOMPARE(dims.size(), 3);
        QCOMPARE(dims[1].dim_value(), 7);
        QCOMPARE(dims[2].dim_value(), 2100);
        // BatchNorm is folded and no shape-computing subgraph is left (OpenCV 4.6 needs both).
        for (const auto& node : proto.graph().node())
            QVERIFY2(node.op_type() != "BatchNormalization" && node.op_type() != "Shape" &&
                         node.op_type() != "Gather" && node.op_type() != "ConstantOfShape",
                     node.name().c_str());
        QVERIFY(proto.graph().value_info_size() > 100); // simplify=true stores the inferred shapes

        const auto metadata = metadataOf(proto);
        for (const char* key : {"description", "author", "date", "version", "license", "stride", "task",
                                "head", "batch", "imgsz", "names", "args", "end2end"})
            QVERIFY2(metadata.count(key) == 1, key);
        QCOMPARE(metadata.at("names"), std::string("{0: 'shape0', 1: 'shape1', 2: 'shape2'}"));
        QCOMPARE(metadata.at("imgsz"), std::string("[320, 320]"));
        QCOMPARE(metadata.at("stride"), std::string("32"));
        QCOMPARE(metadata.at("task"), std::string("detect"));
        QCOMPARE(metadata.at("description"), std::string("Osprey YOLOv8n model trained on synthetic.yaml"));
        QCOMPARE(metadata.at("args"),
                 std::string("{'batch': 1, 'imgsz': 320, 'half': False, 'dynamic': False, "
                             "'simplify': True, 'opset': 12, 'nms': None}"));
        QCOMPARE(metadata.at("end2end"), std::string("False"));
        QCOMPARE(metadata.at("head"), std::string("Detect"));

        // Osprey's own ONNX predictor reads the names and the input size from it.
        auto predictor = assist::BoxPredictor::open({options.out});
        QVERIFY2(predictor, predictor ? "" : predictor.message().c_str());
        QCOMPARE((*predictor)->names(), (std::vector<std::string>{"shape0", "shape1", "shape2"}));
        QCOMPARE((*predictor)->inputSize(), 320);
    }

    void optionsChangeTheFile() {
        QTemporaryDir dir;
        const auto weights = tempPath(dir, "m.pt");
        test::saveDetector(test::livelyDetector("yolo11n", 2, 8), weights);
        const auto input = test::letterboxedInput(400, 300, 320, 3);
        auto reference = model::loadDetector(weights).value();
        reference.impl().model->eval();
        torch::NoGradGuard noGrad;
        const auto expected = reference.impl().model->forwardDecoded(input);

        exporter::OnnxExportOptions plain;
        plain.imgsz = 320;
        plain.simplify = false;
        plain.out = tempPath(dir, "plain.onnx");
        const auto base = exporter::exportOnnx(weights, plain);
        QVERIFY2(base, base ? "" : base.message().c_str());
        QCOMPARE(readModel(plain.out).graph().value_info_size(), 0);

        // half: float16 weights (one Cast each), half the file. OpenCV 4.6 cannot read float16 tensors; the
        // exporter verified a float32 twin, and tst_onnx_runtime runs the file itself in onnxruntime.
        auto half = plain;
        half.half = true;
        half.out = tempPath(dir, "half.onnx");
        const auto halfReport = exporter::exportOnnx(weights, half);
        QVERIFY2(halfReport, halfReport ? "" : halfReport.message().c_str());
        QVERIFY2(halfReport->bytes < base->bytes * 0.6, qPrintable(QString::number(halfReport->bytes)));
        int float16 = 0, casts = 0;
        const auto halfModel = readModel(half.out);
        for (const auto& initializer : halfModel.graph().initializer())
            float16 += initializer.data_type() == onnx::TensorProto::FLOAT16;
        for (const auto& node : halfModel.graph().node())
            casts += node.op_type() == "Cast";
        QVERIFY(float16 > 100);
        QCOMPARE(casts, float16);
        QCOMPARE(halfModel.graph().input(0).type().tensor_type().elem_type(), int(onnx::TensorProto::FLOAT));

        // dynamic: a symbolic batch dimension on the input and the output.
        auto dynamic = plain;
        dynamic.dynamic = true;
        dynamic.out = tempPath(dir, "dynamic.onnx");
        QVERIFY(exporter::exportOnnx(weights, dynamic));
        const auto graph = readModel(dynamic.out).graph();
        QCOMPARE(graph.input(0).type().tensor_type().shape().dim(0).dim_param(), std::string("batch"));
        QCOMPARE(graph.output(0).type().tensor_type().shape().dim(0).dim_param(), std::string("batch"));
        QVERIFY(test::differences(runOpenCv(dynamic.out, input), expected).boxesPx <= 0.05);

        // opset 13: Split takes its sizes as an input; the result is the same.
        auto opset13 = plain;
        opset13.opset = 13;
        opset13.out = tempPath(dir, "opset13.onnx");
        const auto report13 = exporter::exportOnnx(weights, opset13);
        QVERIFY2(report13, report13 ? "" : report13.message().c_str());
        QCOMPARE(readModel(opset13.out).opset_import(0).version(), 13);
        QVERIFY(test::differences(runOpenCv(opset13.out, input), expected).scores <= 1e-3);
    }

    void matchesUltralyticsOnItsTrainedCheckpoint() {
        // Ultralytics 8.4.90's own checkpoint (SPPF.cv1 without activation) and its recorded raw output.
        const std::filesystem::path folder = OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained";
        if (!std::filesystem::exists(folder / "yolov8n-shapes-best.pt"))
            QSKIP("../shared/fixtures/models/ultralytics-trained is absent");
        QTemporaryDir dir;
        exporter::OnnxExportOptions options;
        options.imgsz = 320;
        options.out = tempPath(dir, "shapes.onnx");
        const auto report = exporter::exportOnnx(folder / "yolov8n-shapes-best.pt", options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        QCOMPARE(report->metadata.at("names"),
                 std::string("{0: 'circle', 1: 'square', 2: 'triangle', 3: 'star'}"));

        const auto input = readFloats(folder / "raw-input.f32", {1, 3, 320, 320});
        const auto recorded = readFloats(folder / "raw-output.f32", {1, 8, 2100});
        const auto diff = test::differences(runOpenCv(options.out, input), recorded);
        qInfo("OpenCV DNN vs Ultralytics: max |diff| boxes %.2e px, scores %.2e", diff.boxesPx, diff.scores);
        QVERIFY2(diff.scores <= 1e-3, qPrintable(QString::number(diff.scores)));
        QVERIFY2(diff.boxesPx <= 0.05, qPrintable(QString::number(diff.boxesPx)));

        // Round trip: predicting with the .onnx gives the .pt's detections.
        auto fromPt = assist::BoxPredictor::open({folder / "yolov8n-shapes-best.pt"});
        auto fromOnnx = assist::BoxPredictor::open({options.out});
        QVERIFY2(fromPt, fromPt ? "" : fromPt.message().c_str());
        QVERIFY2(fromOnnx, fromOnnx ? "" : fromOnnx.message().c_str());
        QCOMPARE((*fromOnnx)->names(), (*fromPt)->names());
        int compared = 0;
        for (int i = 0; i < 10; ++i) {
            char name[32];
            std::snprintf(name, sizeof name, "val_%05d.jpg", i);
            const auto image = imaging::decodeImage(folder / "shapes13/images/val" / name);
            QVERIFY2(image, name);
            const auto a = (*fromPt)->predict(*image, {}), b = (*fromOnnx)->predict(*image, {});
            QVERIFY(a && b);
            QCOMPARE(b->size(), a->size());
            for (size_t k = 0; k < a->size(); ++k) {
                const auto& p = (*a)[k];
                const auto& q = (*b)[k];
                QCOMPARE(q.classIndex, p.classIndex);
                QVERIFY(std::abs(q.score - p.score) <= 0.005f);
                QVERIFY(model::boxIou({p.x1, p.y1, p.x2, p.y2}, {q.x1, q.y1, q.x2, q.y2}) >= 0.99f);
                ++compared;
            }
        }
        QVERIFY(compared >= 10);
    }

    // Export for the edge: the manifest beside the ONNX names the classes in output order, the input size and
    // output layout, the file's hash, and, for weights in a run folder, the run, the epoch best.pt holds (the
    // highest mAP50-95 of results.csv) with its metrics and the run's best-F1 confidence (curves.json).
    void writesTheEdgeManifest() {
        const std::filesystem::path folder = OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained";
        if (!std::filesystem::exists(folder / "yolov8n-shapes-best.pt"))
            QSKIP("../shared/fixtures/models/ultralytics-trained is absent");
        QTemporaryDir dir;
        const run::RunFolder runFolder(tempPath(dir, "runs/train3"));
        std::filesystem::create_directories(runFolder.weightsDir());
        std::filesystem::copy_file(folder / "yolov8n-shapes-best.pt", runFolder.bestWeights());
        run::ResultsCsv results(runFolder.results());
        for (int epoch = 1; epoch <= 3; ++epoch) {
            run::EpochMetrics metrics;
            metrics.epoch = epoch;
            metrics.map50 = std::vector<double>{0.5, 0.8, 0.79}[static_cast<size_t>(epoch - 1)];
            metrics.map50to95 = std::vector<double>{0.3, 0.6, 0.55}[static_cast<size_t>(epoch - 1)];
            QVERIFY(results.append(metrics));
        }
        run::RunCurves curves;
        curves.epoch = 2;
        curves.bestConfidence = 0.312;
        curves.classNames = {"circle", "square", "triangle", "star"};
        curves.confusionMatrix.assign(25, 0.0); // (classes + background)^2, as readRunCurves checks
        QVERIFY(run::writeRunCurves(runFolder.curves(), curves));

        exporter::OnnxExportOptions options;
        options.imgsz = 320;
        const auto report = exporter::exportOnnx(runFolder.bestWeights(), options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        QCOMPARE(report->manifest, runFolder.weightsDir() / "best.json");
        const auto manifest = exporter::readEdgeManifest(report->manifest);
        QVERIFY2(manifest, manifest ? "" : manifest.message().c_str());
        QCOMPARE(manifest->model, std::string("best.onnx"));
        QCOMPARE(manifest->modelHash, hashFileHex(runFolder.weightsDir() / "best.onnx").value());
        QCOMPARE(manifest->architecture, std::string("yolov8n"));
        QCOMPARE(manifest->classes, (std::vector<std::string>{"circle", "square", "triangle", "star"}));
        QCOMPARE(manifest->imgsz, 320);
        QVERIFY(!manifest->endToEnd);
        QCOMPARE(manifest->output.shape, (std::vector<std::int64_t>{1, 8, 2100}));
        QCOMPARE(manifest->run, std::string("train3"));
        QCOMPARE(manifest->epoch.value_or(0), 2);
        QCOMPARE(manifest->map50to95.value_or(0), 0.6);
        QCOMPARE(manifest->map50.value_or(0), 0.8);
        QCOMPARE(manifest->confidence.value_or(0), 0.312);
        QVERIFY(exporter::formatExportReport(*report).find("manifest: ") != std::string::npos);

        // Weights outside a run: no run facts, the rest the same; manifest=false writes none.
        options.out = tempPath(dir, "plain.onnx");
        const auto plain = exporter::exportOnnx(folder / "yolov8n-shapes-best.pt", options);
        QVERIFY(plain);
        const auto bare = exporter::readEdgeManifest(tempPath(dir, "plain.json"));
        QVERIFY2(bare, bare ? "" : bare.message().c_str());
        QVERIFY(bare->run.empty() && !bare->epoch && !bare->map50to95 && !bare->confidence);
        QCOMPARE(bare->classes.size(), size_t(4));
        options.out = tempPath(dir, "none.onnx");
        options.manifest = false;
        QVERIFY(exporter::exportOnnx(folder / "yolov8n-shapes-best.pt", options));
        QVERIFY(!std::filesystem::exists(tempPath(dir, "none.json")));
        // A damaged manifest is an error naming the file and the field.
        std::ofstream(tempPath(dir, "plain.json")) << R"({"format": "osprey-edge-manifest", "model": 3})";
        const auto damaged = exporter::readEdgeManifest(tempPath(dir, "plain.json"));
        QVERIFY(!damaged);
        QVERIFY(damaged.message().find("plain.json") != std::string::npos);
    }

    void yolo26BothLayoutsOnTheTrainedCheckpoint() {
        // Ultralytics 8.4.190's YOLO26n and its recorded raw outputs of both heads (README there).
        const std::filesystem::path folder = OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained/yolo26n";
        if (!std::filesystem::exists(folder / "yolo26n-shapes-best.pt"))
            QSKIP("../shared/fixtures/models/ultralytics-trained/yolo26n is absent");
        QTemporaryDir dir;
        const auto weights = folder / "yolo26n-shapes-best.pt";
        const auto input = readFloats(folder / "raw-input.f32", {1, 3, 320, 320});

        // Default (nms=true): the one-to-many layout, as Ultralytics 8.4.190's default export.
        exporter::OnnxExportOptions options;
        options.imgsz = 320;
        options.out = tempPath(dir, "o2m.onnx");
        const auto report = exporter::exportOnnx(weights, options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        QVERIFY(!report->endToEnd);
        QCOMPARE(report->output.shape, (std::vector<std::int64_t>{1, 8, 2100}));
        const auto metadata = metadataOf(readModel(options.out));
        QCOMPARE(metadata.at("end2end"), std::string("False"));
        QCOMPARE(metadata.at("head"), std::string("Detect"));
        QVERIFY2(metadata.at("args").find("'nms': None") != std::string::npos, metadata.at("args").c_str());
        const auto fromOpenCv = runOpenCv(options.out, input);
        const auto recorded = readFloats(folder / "raw-output-o2m.f32", {1, 8, 2100});
        auto reference = model::loadDetector(weights).value();
        reference.impl().model->eval();
        torch::NoGradGuard noGrad;
        const auto fromLibTorch = reference.impl().model->forwardDecoded(input);
        const auto toUltralytics = test::differences(fromOpenCv, recorded);
        const auto toLibTorch = test::differences(fromOpenCv, fromLibTorch);
        qInfo("yolo26n one-to-many in OpenCV DNN: vs Ultralytics boxes %.2e px, scores %.2e; vs LibTorch "
              "boxes %.2e px, scores %.2e",
              toUltralytics.boxesPx, toUltralytics.scores, toLibTorch.boxesPx, toLibTorch.scores);
        QVERIFY2(toUltralytics.boxesPx <= 1e-3, qPrintable(QString::number(toUltralytics.boxesPx)));
        QVERIFY2(toUltralytics.scores <= 1e-4, qPrintable(QString::number(toUltralytics.scores)));
        QVERIFY2(toLibTorch.boxesPx <= 1e-3, qPrintable(QString::number(toLibTorch.boxesPx)));
        QVERIFY2(toLibTorch.scores <= 1e-4, qPrintable(QString::number(toLibTorch.scores)));

        // nms=false: the end-to-end layout from the one-to-one branch, with its top-k in the graph. OpenCV
        // 4.6 has no TopK layer: the exporter checked the graph up to the top-k in OpenCV DNN, and
        // tst_onnx_runtime runs the file itself in onnxruntime.
        options.nms = false;
        options.out = tempPath(dir, "e2e.onnx");
        const auto endToEnd = exporter::exportOnnx(weights, options);
        QVERIFY2(endToEnd, endToEnd ? "" : endToEnd.message().c_str());
        QVERIFY(endToEnd->endToEnd);
        QCOMPARE(endToEnd->output.shape, (std::vector<std::int64_t>{1, 300, 6}));
        const auto proto = readModel(options.out);
        try {
            onnx::checker::check_model(proto);
        } catch (const std::exception& error) {
            QFAIL(error.what());
        }
        const auto e2eMetadata = metadataOf(proto);
        QCOMPARE(e2eMetadata.at("end2end"), std::string("True"));
        QVERIFY(e2eMetadata.at("args").find("'nms': False") != std::string::npos);
        std::map<std::string, int> ops;
        bool oneToManyWeights = false;
        for (const auto& node : proto.graph().node())
            ++ops[node.op_type()];
        for (const auto& initializer : proto.graph().initializer())
            oneToManyWeights |= initializer.name().rfind("model.23.cv", 0) == 0;
        QCOMPARE(ops["TopK"], 2);
        QCOMPARE(ops["Mod"], 1);
        QVERIFY(!oneToManyWeights); // only the one-to-one branch is in the file
        QVERIFY(exporter::formatExportReport(*endToEnd).find("end-to-end") != std::string::npos);
        bool openCvRunsIt = true;
        try {
            runOpenCv(options.out, input);
        } catch (const cv::Exception& error) {
            openCvRunsIt = false;
            qInfo("OpenCV %s on the end-to-end graph: %s", CV_VERSION,
                  std::string(error.what()).substr(0, 160).c_str());
        }
        // What docs/onnx.md and the predictor's refusal say; revisit both when this fails.
        QVERIFY2(!openCvRunsIt, "OpenCV DNN now runs the end-to-end graph");
    }

    void parsesOptionsFromText() {
        const auto options = exporter::parseExportOptions({{"imgsz", "320"},
                                                           {"opset", "13"},
                                                           {"half", "true"},
                                                           {"dynamic", "yes"},
                                                           {"simplify", "false"},
                                                           {"nms", "false"}});
        QVERIFY(options);
        QCOMPARE(options->imgsz, 320);
        QCOMPARE(options->opset, 13);
        QVERIFY(options->half && options->dynamic && !options->simplify && !options->nms);
        QVERIFY(exporter::parseExportOptions({})->nms);
        const auto odd = exporter::parseExportOptions({{"imgsz", "300"}});
        QVERIFY(!odd);
        QVERIFY(odd.message().find("multiple of 32") != std::string::npos);
        QVERIFY(!exporter::parseExportOptions({{"format", "engine"}}));
        QVERIFY(!exporter::parseExportOptions({{"opset", "9"}}));
        QVERIFY(!exporter::parseExportOptions({{"simplfy", "true"}}));
    }

    void badInputIsAClearErrorAndWritesNothing() {
        QTemporaryDir dir;
        exporter::OnnxExportOptions options;
        options.out = tempPath(dir, "out.onnx");
        const auto missing = exporter::exportOnnx(tempPath(dir, "nope.pt"), options);
        QVERIFY(!missing);
        QVERIFY(missing.message().find("nope.pt") != std::string::npos);
        QVERIFY(missing.message().find("no such weights file") != std::string::npos);

        const auto text = tempPath(dir, "notes.pt");
        std::ofstream(text) << "these are not weights\n";
        const auto garbage = exporter::exportOnnx(text, options);
        QVERIFY(!garbage);
        QVERIFY2(garbage.message().find("notes.pt") != std::string::npos, garbage.message().c_str());
        QVERIFY(!std::filesystem::exists(options.out));
        QCOMPARE(std::distance(std::filesystem::directory_iterator(dir.path().toStdString()),
                               std::filesystem::directory_iterator()),
                 1);

        options.out = text;
        const auto overwrite = exporter::exportOnnx(text, options);
        QVERIFY(!overwrite);
        QVERIFY(overwrite.message().find("overwrite") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestOnnxExport)
#include "tst_onnx_export.moc"
