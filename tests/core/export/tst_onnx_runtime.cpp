// The exported ONNX file in onnxruntime and python's onnx.checker (PyPI, in a venv under the build folder,
// made on first use; skipped with a message where pip cannot install them): outputs equal Osprey's
// LibTorch forward as in OpenCV DNN (yolov8n and yolo11n at 320 and 640), NMS gives the same detections
// (but for a flip at a threshold that the two outputs straddle, test::matchDetections);
// the half-precision file and a dynamic batch of two run too.
#include "export/onnx_export.h"
#include "export_fixture.h"
#include "model/fused_network.h"
#include "peer_python.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <fstream>

using namespace osprey;

namespace {

const QString kVenv = QStringLiteral(OSPREY_ONNX_VENV);
const QString kScript = QStringLiteral(OSPREY_SOURCE_DIR "/tests/core/export/run_onnxruntime.py");

// The build's own venv, or else the Ultralytics peer's, which has onnx and onnxruntime too (offline hosts).
QString g_python = kVenv + "/bin/python";

QString python() {
    return g_python;
}

// Runs a program; returns its exit code (-1 when it could not start or timed out) and its output.
int runProgram(const QString& program, const QStringList& arguments, int timeoutMs, QString* output) {
    QProcess process;
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(program, arguments);
    if (!process.waitForStarted(10000) || !process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished(2000);
        *output = "timed out or did not start: " + program;
        return -1;
    }
    *output = QString::fromUtf8(process.readAll());
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

// Makes (or reuses) the venv with onnxruntime, onnx and numpy; returns "" or why it is unavailable.
QString ensureVenv() {
    QString output;
    if (QFile::exists(python()) &&
        runProgram(python(), {"-c", "import onnxruntime, onnx, numpy"}, 60000, &output) == 0)
        return {};
    if (!QFile::exists(python()) &&
        runProgram("/usr/bin/python3", {"-m", "venv", kVenv}, 120000, &output) != 0)
        return "cannot create the venv " + kVenv + ": " + output.right(300);
    if (runProgram(python(), {"-m", "pip", "install", "-q", "onnxruntime", "onnx", "numpy"}, 480000,
                   &output) != 0) {
        const QString peer = test::ultralyticsPython();
        QString peerOutput;
        if (!peer.isEmpty() &&
            runProgram(peer, {"-c", "import onnxruntime, onnx, numpy"}, 60000, &peerOutput) == 0) {
            g_python = peer;
            return {};
        }
        return "pip cannot install onnxruntime/onnx into " + kVenv + " (offline?): " + output.right(300);
    }
    return {};
}

void writeFloats(const std::filesystem::path& file, const torch::Tensor& tensor) {
    const auto data = tensor.contiguous();
    std::ofstream(file, std::ios::binary)
        .write(reinterpret_cast<const char*>(data.data_ptr<float>()),
               static_cast<std::streamsize>(data.numel() * sizeof(float)));
}

torch::Tensor readFloats(const std::filesystem::path& file, c10::IntArrayRef shape) {
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto tensor = torch::empty(shape, torch::kFloat);
    if (bytes.size() != static_cast<size_t>(tensor.numel()) * sizeof(float))
        throw std::runtime_error(file.string() + ": unexpected size " + std::to_string(bytes.size()));
    std::memcpy(tensor.data_ptr<float>(), bytes.data(), bytes.size());
    return tensor;
}

} // namespace

class TestOnnxRuntime : public QObject {
    Q_OBJECT

    QString m_unavailable;

    /// Runs `model` in onnxruntime on `input` (after python's onnx.checker); the output as a tensor.
    torch::Tensor runtimeOutput(const std::filesystem::path& model, const torch::Tensor& input,
                                c10::IntArrayRef outputShape) {
        const auto inputFile = model.parent_path() / "input.f32";
        const auto outputFile = model.parent_path() / "output.f32";
        writeFloats(inputFile, input);
        QStringList shape;
        for (const auto size : input.sizes())
            shape << QString::number(size);
        QString output;
        const int code = runProgram(python(),
                                    {kScript, QString::fromStdString(model.string()),
                                     QString::fromStdString(inputFile.string()), shape.join(','),
                                     QString::fromStdString(outputFile.string())},
                                    120000, &output);
        if (code != 0)
            throw std::runtime_error("onnxruntime / onnx.checker failed: " + output.toStdString());
        if (!output.contains("\"checker\": \"ok\""))
            throw std::runtime_error("unexpected peer output: " + output.toStdString());
        return readFloats(outputFile, outputShape);
    }

private slots:
    void initTestCase() {
        torch::set_num_threads(2);
        m_unavailable = ensureVenv();
    }

    void matchesLibTorchInOnnxRuntime_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("imgsz");
        QTest::newRow("yolov8n-320") << "yolov8n" << 320;
        QTest::newRow("yolov8n-640") << "yolov8n" << 640;
        QTest::newRow("yolo11n-320") << "yolo11n" << 320;
        QTest::newRow("yolo11n-640") << "yolo11n" << 640;
    }
    void matchesLibTorchInOnnxRuntime() {
        if (!m_unavailable.isEmpty())
            QSKIP(qPrintable(m_unavailable));
        QFETCH(QString, name);
        QFETCH(int, imgsz);
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        test::saveDetector(test::livelyDetector(name.toStdString(), 5, 21), folder / "model.pt");
        exporter::OnnxExportOptions options;
        options.imgsz = imgsz;
        const auto report = exporter::exportOnnx(folder / "model.pt", options);
        QVERIFY2(report, report ? "" : report.message().c_str());

        auto reference = model::loadDetector(folder / "model.pt").value();
        reference.impl().model->eval();
        torch::NoGradGuard noGrad;
        const auto input = test::letterboxedInput(480, 360, imgsz, imgsz + 1);
        const auto expected = reference.impl().model->forwardDecoded(input);
        const auto actual = runtimeOutput(report->file, input, expected.sizes());
        const auto diff = test::differences(actual, expected);
        qInfo("%s %d: onnxruntime max |diff| boxes %.2e px, scores %.2e", qPrintable(name), imgsz,
              diff.boxesPx, diff.scores);
        QVERIFY2(diff.scores <= 1e-3, qPrintable(QString::number(diff.scores)));
        QVERIFY2(diff.boxesPx <= 0.05, qPrintable(QString::number(diff.boxesPx)));
        const auto match = test::matchDetections(expected, actual);
        qInfo("%s %d: %zu and %zu detections, %zu paired; unpaired: %zu at a threshold, %zu following them",
              qPrintable(name), imgsz, match.left, match.right, match.paired, match.borderline,
              match.cascaded);
        QVERIFY(match.left >= 1);
        QCOMPARE(match.unexplained, size_t(0));
        QVERIFY2(match.borderline <= match.left / 100,
                 "more than 1% of the detections flipped at a threshold");
        QVERIFY(match.minIou >= 0.999f);
        QVERIFY(match.maxScoreDiff <= 1e-3f);
    }

    void halfAndDynamicBatchRun() {
        if (!m_unavailable.isEmpty())
            QSKIP(qPrintable(m_unavailable));
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        test::saveDetector(test::livelyDetector("yolo11n", 3, 9), folder / "model.pt");
        auto reference = model::loadDetector(folder / "model.pt").value();
        reference.impl().model->eval();
        torch::NoGradGuard noGrad;
        const auto input =
            torch::cat({test::letterboxedInput(480, 360, 320, 1), test::letterboxedInput(300, 400, 320, 2)});
        const auto expected = reference.impl().model->forwardDecoded(input);

        exporter::OnnxExportOptions dynamic;
        dynamic.imgsz = 320;
        dynamic.dynamic = true;
        dynamic.out = folder / "dynamic.onnx";
        QVERIFY(exporter::exportOnnx(folder / "model.pt", dynamic));
        const auto batched = runtimeOutput(dynamic.out, input, expected.sizes());
        const auto diff = test::differences(batched, expected);
        QVERIFY2(diff.boxesPx <= 0.05 && diff.scores <= 1e-3, qPrintable(QString::number(diff.boxesPx)));

        // float16 weights: the file equals the fused network with its weights rounded to float16 (a random
        // network amplifies that rounding to pixels; the trained checkpoint below shows the real effect).
        exporter::OnnxExportOptions half;
        half.imgsz = 320;
        half.half = true;
        half.out = folder / "half.onnx";
        QVERIFY(exporter::exportOnnx(folder / "model.pt", half));
        reference.fuse(); // the file holds the fused weights, rounded
        for (auto& parameter : reference.impl().model->parameters())
            parameter.copy_(parameter.to(torch::kHalf).to(torch::kFloat));
        const auto first = input.narrow(0, 0, 1).contiguous();
        const auto rounded = reference.impl().model->forwardDecoded(first);
        const auto halfDiff = test::differences(runtimeOutput(half.out, first, {1, 7, 2100}), rounded);
        qInfo("half: onnxruntime vs float16-rounded LibTorch: boxes %.2e px, scores %.2e", halfDiff.boxesPx,
              halfDiff.scores);
        QVERIFY(halfDiff.boxesPx <= 0.05);
        QVERIFY(halfDiff.scores <= 1e-3);
    }

    void yolo26BothLayoutsMatchLibTorchAndUltralytics() {
        if (!m_unavailable.isEmpty())
            QSKIP(qPrintable(m_unavailable));
        const std::filesystem::path fixtures =
            OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained/yolo26n";
        if (!std::filesystem::exists(fixtures / "yolo26n-shapes-best.pt"))
            QSKIP("../shared/fixtures/models/ultralytics-trained/yolo26n is absent");
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        const auto weights = fixtures / "yolo26n-shapes-best.pt";
        const auto input = readFloats(fixtures / "raw-input.f32", {1, 3, 320, 320});
        auto reference = model::loadDetector(weights).value();
        auto& network = *reference.impl().model;
        network.eval();
        torch::NoGradGuard noGrad;

        exporter::OnnxExportOptions options;
        options.imgsz = 320;
        options.out = folder / "o2m.onnx";
        QVERIFY(exporter::exportOnnx(weights, options));
        const auto oneToMany = runtimeOutput(options.out, input, {1, 8, 2100});
        const auto o2mUltralytics =
            test::differences(oneToMany, readFloats(fixtures / "raw-output-o2m.f32", {1, 8, 2100}));
        const auto o2mLibTorch = test::differences(oneToMany, network.forwardDecoded(input));
        qInfo("yolo26n one-to-many in onnxruntime: vs Ultralytics boxes %.2e px, scores %.2e; vs LibTorch "
              "boxes %.2e px, scores %.2e",
              o2mUltralytics.boxesPx, o2mUltralytics.scores, o2mLibTorch.boxesPx, o2mLibTorch.scores);
        QVERIFY(o2mUltralytics.boxesPx <= 1e-3 && o2mUltralytics.scores <= 1e-4);
        QVERIFY(o2mLibTorch.boxesPx <= 1e-3 && o2mLibTorch.scores <= 1e-4);

        // nms=false: [1, 300, 6] rows x1, y1, x2, y2, score, class by descending score.
        options.nms = false;
        options.out = folder / "e2e.onnx";
        QVERIFY(exporter::exportOnnx(weights, options));
        const auto endToEnd = runtimeOutput(options.out, input, {1, 300, 6});
        const auto compare = [&](const torch::Tensor& expected, const char* what) {
            const auto boxes =
                (endToEnd.narrow(2, 0, 4) - expected.narrow(2, 0, 4)).abs().max().item<double>();
            const auto scores =
                (endToEnd.narrow(2, 4, 1) - expected.narrow(2, 4, 1)).abs().max().item<double>();
            const auto classes = (endToEnd.narrow(2, 5, 1) != expected.narrow(2, 5, 1)).sum().item<int>();
            qInfo("yolo26n end-to-end in onnxruntime vs %s: boxes %.2e px, scores %.2e, %d of 300 classes "
                  "differ",
                  what, boxes, scores, classes);
            QVERIFY2(boxes <= 1e-3, qPrintable(QString::number(boxes)));
            QVERIFY2(scores <= 1e-4, qPrintable(QString::number(scores)));
            QCOMPARE(classes, 0);
        };
        compare(readFloats(fixtures / "raw-output-e2e.f32", {1, 300, 6}), "Ultralytics");
        if (QTest::currentTestFailed())
            return;
        compare(network.forwardEndToEnd(input, 300), "LibTorch");
        if (QTest::currentTestFailed())
            return;
        QVERIFY(endToEnd[0][0][4].item<float>() > 0.25f); // real detections lead the rows

        // A dynamic batch of two images runs the same top-k per image.
        options.dynamic = true;
        options.out = folder / "e2e-dynamic.onnx";
        QVERIFY(exporter::exportOnnx(weights, options));
        const auto pair = torch::cat({input, input.flip(3)});
        const auto batched = runtimeOutput(options.out, pair, {2, 300, 6});
        const auto expected = network.forwardEndToEnd(pair, 300);
        QVERIFY((batched - expected).narrow(2, 0, 4).abs().max().item<double>() <= 1e-3);
        QVERIFY((batched - expected).narrow(2, 4, 2).abs().max().item<double>() <= 1e-4);
    }

    void yolo26EndToEndAt640WithOptions() {
        // 8400 anchors (k = 300 of them), opset 17, and float16 weights, against LibTorch's one-to-one head.
        if (!m_unavailable.isEmpty())
            QSKIP(qPrintable(m_unavailable));
        const std::filesystem::path fixtures =
            OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained/yolo26n";
        if (!std::filesystem::exists(fixtures / "yolo26n-shapes-best.pt"))
            QSKIP("../shared/fixtures/models/ultralytics-trained/yolo26n is absent");
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        const auto weights = fixtures / "yolo26n-shapes-best.pt";
        auto reference = model::loadDetector(weights).value();
        auto& network = *reference.impl().model;
        network.eval();
        torch::NoGradGuard noGrad;
        // The recorded val image, twice the size: real shapes, so that real detections lead the rows.
        // (F::interpolate's nearest mode is this op; its options' temporary made GCC 12 warn
        // -Wmaybe-uninitialized inside torch 2.15's headers.)
        const auto input =
            torch::upsample_nearest2d(readFloats(fixtures / "raw-input.f32", {1, 3, 320, 320}), {640, 640})
                .contiguous();
        const auto expected = network.forwardEndToEnd(input, 300);

        exporter::OnnxExportOptions options;
        options.imgsz = 640;
        options.opset = 17;
        options.nms = false;
        options.out = folder / "e2e-640.onnx";
        const auto report = exporter::exportOnnx(weights, options);
        QVERIFY2(report, report ? "" : report.message().c_str());
        QCOMPARE(report->output.shape, (std::vector<std::int64_t>{1, 300, 6}));
        const auto actual = runtimeOutput(options.out, input, {1, 300, 6});
        const auto boxes = (actual.narrow(2, 0, 4) - expected.narrow(2, 0, 4)).abs().max().item<double>();
        const auto scores = (actual.narrow(2, 4, 1) - expected.narrow(2, 4, 1)).abs().max().item<double>();
        qInfo("yolo26n end-to-end at 640, opset 17, in onnxruntime vs LibTorch: boxes %.2e px, scores %.2e",
              boxes, scores);
        QVERIFY(boxes <= 1e-3 && scores <= 1e-4);
        QVERIFY(torch::equal(actual.narrow(2, 5, 1), expected.narrow(2, 5, 1)));

        // float16 weights: the rows above 0.1 of the network with its weights rounded alike (the tail of
        // near-equal low scores may swap order).
        options.half = true;
        options.out = folder / "e2e-640-half.onnx";
        QVERIFY(exporter::exportOnnx(weights, options));
        reference.fuse(model::HeadBranch::OneToOne);
        model::roundParametersToHalf(reference);
        const auto rounded = network.forwardEndToEnd(input, 300);
        const auto half = runtimeOutput(options.out, input, {1, 300, 6});
        const auto confident = (rounded.select(2, 4) > 0.1f).sum().item<std::int64_t>();
        QVERIFY(confident >= 1);
        const auto diff = (half.narrow(1, 0, confident) - rounded.narrow(1, 0, confident)).abs();
        qInfo("half: %lld rows above 0.1, boxes %.2e px, scores %.2e, classes %.0f", (long long)confident,
              diff.narrow(2, 0, 4).max().item<double>(), diff.select(2, 4).max().item<double>(),
              diff.select(2, 5).max().item<double>());
        QVERIFY(diff.narrow(2, 0, 4).max().item<double>() <= 1e-2);
        QVERIFY(diff.select(2, 4).max().item<double>() <= 1e-3);
        QCOMPARE(diff.select(2, 5).max().item<double>(), 0.0);
    }

    void halfOfTheTrainedCheckpointStaysCloseToUltralytics() {
        if (!m_unavailable.isEmpty())
            QSKIP(qPrintable(m_unavailable));
        const std::filesystem::path fixtures = OSPREY_SHARED_DIR "/fixtures/models/ultralytics-trained";
        if (!std::filesystem::exists(fixtures / "yolov8n-shapes-best.pt"))
            QSKIP("../shared/fixtures/models/ultralytics-trained is absent");
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        const auto input = readFloats(fixtures / "raw-input.f32", {1, 3, 320, 320});
        const auto recorded = readFloats(fixtures / "raw-output.f32", {1, 8, 2100});
        for (const bool halfWeights : {false, true}) {
            exporter::OnnxExportOptions options;
            options.imgsz = 320;
            options.half = halfWeights;
            options.out = folder / (halfWeights ? "half.onnx" : "full.onnx");
            const auto report = exporter::exportOnnx(fixtures / "yolov8n-shapes-best.pt", options);
            QVERIFY2(report, report ? "" : report.message().c_str());
            const auto diff = test::differences(runtimeOutput(options.out, input, {1, 8, 2100}), recorded);
            qInfo("trained yolov8n, %s weights (%.1f MB): onnxruntime vs Ultralytics boxes %.2e px, scores "
                  "%.2e",
                  halfWeights ? "float16" : "float32", report->bytes / 1e6, diff.boxesPx, diff.scores);
            QVERIFY(diff.scores <= (halfWeights ? 5e-3 : 1e-3));
            QVERIFY(diff.boxesPx <= (halfWeights ? 0.5 : 0.05));
        }
    }
};

QTEST_GUILESS_MAIN(TestOnnxRuntime)
#include "tst_onnx_runtime.moc"
