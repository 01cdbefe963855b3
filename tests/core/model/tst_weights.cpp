// The weights format: exact round trip (inference and training checkpoints with EMA, tensor groups and
// blobs), clear errors for broken files, pretrained start across nc, and the Predictor end to end.
#include "imaging/video.h"
#include "model/pickle_impl.h"
#include "model/predictor.h"
#include "model/ultralytics_impl.h"
#include "model/weights_torch_impl.h"

#include <caffe2/serialize/inline_container.h>

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <sstream>

using namespace osprey::model;

namespace {

std::filesystem::path tempPath(const QTemporaryDir& dir, const std::string& name) {
    return std::filesystem::path(dir.path().toStdString()) / name;
}

void writeBytes(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string readBytes(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

} // namespace

class TestWeights : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::set_num_threads(2); }

    void roundTripsExactly() {
        QTemporaryDir dir;
        torch::manual_seed(3);
        auto model = std::make_shared<DetectionModel>(parseModelName("yolo11n", 4).value());
        {
            torch::NoGradGuard noGrad;
            for (const auto& [name, tensor] : model->stateDict())
                if (tensor.is_floating_point())
                    tensor.add_(torch::randn_like(tensor) * 0.01);
        }
        CheckpointMeta meta;
        meta.names = {"cat", "dog", "bird", "fish"};
        meta.imgsz = 320;
        meta.trainArgs = {{"epochs", "30"}, {"optimizer", "auto"}};
        meta.epoch = 12;
        meta.metrics = {{"metrics/mAP50(B)", 0.8125}, {"fitness", 0.61}};
        auto checkpoint = makeCheckpoint(*model, meta);
        for (const auto& [name, tensor] : checkpoint.model)
            checkpoint.ema.emplace_back(name, tensor * 0.5);
        checkpoint.groups["rng"] = {{"cpu", torch::randint(0, 255, {816}, torch::kUInt8)}};
        // An optimizer's state, serialised the way the trainer will store it.
        auto parameter = torch::randn({3}, torch::requires_grad());
        torch::optim::SGD optimizer({parameter}, torch::optim::SGDOptions(0.01).momentum(0.9));
        parameter.sum().backward();
        optimizer.step();
        torch::serialize::OutputArchive optimizerArchive;
        optimizer.save(optimizerArchive);
        checkpoint.blobs["optimizer"] = archiveToBytes(optimizerArchive).value();
        checkpoint.blobs["empty"] = "";

        const auto path = tempPath(dir, "weights/last.pt");
        QVERIFY(saveCheckpoint(checkpoint, path));
        QVERIFY(!std::filesystem::exists(path.string() + ".tmp"));
        const auto loaded = loadCheckpoint(path);
        QVERIFY2(loaded, qPrintable(QString::fromStdString(loaded ? "" : loaded.message())));
        QCOMPARE(loaded->meta.spec.name(), std::string("yolo11n"));
        QCOMPARE(loaded->meta.spec.numClasses, 4);
        QCOMPARE(loaded->meta.names, meta.names);
        QCOMPARE(loaded->meta.imgsz, 320);
        QCOMPARE(loaded->meta.epoch, 12);
        QCOMPARE(loaded->meta.trainArgs, meta.trainArgs);
        QCOMPARE(loaded->meta.metrics, meta.metrics);
        QCOMPARE(loaded->meta.strides, (std::vector<int>{8, 16, 32}));
        QVERIFY(!loaded->meta.appVersion.empty());
        QVERIFY(loaded->meta.hasEma);
        QCOMPARE(loaded->model.size(), checkpoint.model.size());
        QCOMPARE(loaded->ema.size(), checkpoint.ema.size());
        for (size_t i = 0; i < checkpoint.model.size(); ++i) {
            QCOMPARE(loaded->model[i].first, checkpoint.model[i].first);
            QCOMPARE(loaded->model[i].second.scalar_type(), checkpoint.model[i].second.scalar_type());
            QVERIFY(torch::equal(loaded->model[i].second, checkpoint.model[i].second));
            QVERIFY(torch::equal(loaded->ema[i].second, checkpoint.ema[i].second));
        }
        QVERIFY(torch::equal(loaded->groups.at("rng")[0].second, checkpoint.groups["rng"][0].second));
        QCOMPARE(loaded->blobs.at("optimizer"), checkpoint.blobs["optimizer"]);
        QCOMPARE(loaded->blobs.at("empty"), std::string());
        torch::serialize::InputArchive optimizerIn;
        QVERIFY(archiveFromBytes(loaded->blobs.at("optimizer"), optimizerIn));
        torch::optim::SGD restored({parameter.detach().clone().requires_grad_()},
                                   torch::optim::SGDOptions(0.01));
        restored.load(optimizerIn);

        // The model rebuilt from the file (EMA preferred) reproduces the EMA tensors.
        const auto rebuilt = modelFromCheckpoint(*loaded, true);
        QVERIFY(rebuilt);
        const auto state = (*rebuilt)->stateDict();
        for (size_t i = 0; i < state.size(); ++i)
            QVERIFY(torch::equal(state[i].second, checkpoint.ema[i].second));
        const auto metaOnly = readCheckpointMeta(path);
        QVERIFY(metaOnly);
        QCOMPARE(metaOnly->names, meta.names);
        // Saving again replaces the file in place.
        QVERIFY(saveCheckpoint(checkpoint, path));
        QCOMPARE(readBytes(path).size(), std::filesystem::file_size(path));
    }

    void stripKeepsTheEmaWeightsInHalf() {
        QTemporaryDir dir;
        torch::manual_seed(5);
        auto model = std::make_shared<DetectionModel>(parseModelName("yolov8n", 3).value());
        CheckpointMeta meta;
        meta.names = {"a", "b", "c"};
        meta.epoch = 41;
        meta.metrics = {{"metrics/mAP50(B)", 0.9}};
        auto checkpoint = makeCheckpoint(*model, meta);
        for (const auto& [name, tensor] : checkpoint.model)
            checkpoint.ema.emplace_back(name, tensor.is_floating_point() ? tensor * 0.9 : tensor);
        checkpoint.groups["rng"] = {{"cpu", torch::randint(0, 255, {816}, torch::kUInt8)}};
        checkpoint.blobs["optimizer"] = std::string(1 << 20, 'x');
        const auto last = tempPath(dir, "last.pt");
        QVERIFY(saveCheckpoint(checkpoint, last));

        const auto stripped = tempPath(dir, "best.pt");
        const auto report = stripWeights(last, stripped, true);
        QVERIFY2(report, qPrintable(QString::fromStdString(report ? "" : report.message())));
        QVERIFY(report->usedEma);
        QCOMPARE(report->tensors, static_cast<int>(checkpoint.ema.size()));
        QCOMPARE(report->bytesBefore, std::filesystem::file_size(last));
        QCOMPARE(report->bytesAfter, std::filesystem::file_size(stripped));
        // Two float32 copies and a 1 MB blob before; one float16 copy after.
        QVERIFY2(report->bytesAfter * 4 < report->bytesBefore,
                 qPrintable(QString("%1 -> %2 bytes").arg(report->bytesBefore).arg(report->bytesAfter)));

        const auto loaded = loadCheckpoint(stripped);
        QVERIFY(loaded);
        QVERIFY(loaded->ema.empty());
        QVERIFY(loaded->groups.empty());
        QVERIFY(loaded->blobs.empty());
        QVERIFY(!loaded->meta.hasEma);
        QCOMPARE(loaded->meta.names, meta.names);
        QCOMPARE(loaded->meta.epoch, 41);
        QCOMPARE(loaded->meta.metrics, meta.metrics);
        QCOMPARE(loaded->model.size(), checkpoint.ema.size());
        for (size_t i = 0; i < loaded->model.size(); ++i) {
            const auto& [name, tensor] = loaded->model[i];
            const auto& ema = checkpoint.ema[i].second;
            QCOMPARE(name, checkpoint.ema[i].first);
            if (!ema.is_floating_point()) {
                QVERIFY(torch::equal(tensor, ema)); // BatchNorm counters stay integers
                continue;
            }
            QCOMPARE(tensor.scalar_type(), torch::kHalf);
            // float16 keeps 11 significant bits.
            QVERIFY(torch::allclose(tensor.to(torch::kFloat), ema, 1e-3, 1e-4));
        }
        // It loads into a float32 network whose outputs match the EMA network's.
        const auto half = modelFromCheckpoint(*loaded, true);
        const auto full = modelFromCheckpoint(checkpoint, true);
        QVERIFY(half && full);
        (*half)->eval();
        (*full)->eval();
        torch::NoGradGuard noGrad;
        const auto input = torch::rand({1, 3, 64, 64});
        const auto a = (*half)->forwardDecoded(input);
        const auto b = (*full)->forwardDecoded(input);
        QCOMPARE(a.scalar_type(), torch::kFloat);
        const double worst = (a - b).abs().max().item<double>();
        QVERIFY2(worst < 0.05, qPrintable(QString("largest output difference %1").arg(worst)));
        QVERIFY(!torch::equal(a, b)); // really the float16 copy

        // In place, without half: float32 model weights (from a file without EMA: the model's own).
        QVERIFY(stripWeights(stripped, stripped, false));
        QCOMPARE(loadCheckpoint(stripped)->model.front().second.scalar_type(), torch::kFloat);
        QVERIFY(!std::filesystem::exists(stripped.string() + ".tmp"));
        // The CLI verb, in place by default.
        QProcess cli;
        cli.start(OSPREY_CLI_PATH, {"model", "strip", QString("weights=%1").arg(last.c_str())});
        QVERIFY(cli.waitForFinished(120000));
        const QString output = cli.readAllStandardOutput() + cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, qPrintable(output));
        QVERIFY2(output.contains("EMA weights in float16"), qPrintable(output));
        QCOMPARE(std::filesystem::file_size(last), report->bytesAfter);
        // A broken source names the file and writes nothing.
        writeBytes(tempPath(dir, "broken.pt"), "not a zip");
        const auto broken = stripWeights(tempPath(dir, "broken.pt"), tempPath(dir, "out.pt"));
        QVERIFY(!broken);
        QVERIFY(QString::fromStdString(broken.message()).contains("broken.pt"));
        QVERIFY(!std::filesystem::exists(tempPath(dir, "out.pt")));
    }

    void brokenFilesGiveClearErrors() {
        QTemporaryDir dir;
        auto detector = Detector::create(parseModelName("yolov8n", 2).value());
        const auto good = tempPath(dir, "good.pt");
        QVERIFY(saveWeights(*detector, CheckpointMeta{}, good));
        const std::string bytes = readBytes(good);

        const auto missing = loadCheckpoint(tempPath(dir, "nope.pt"));
        QVERIFY(!missing);
        QVERIFY(missing.message().find("not found") != std::string::npos);

        for (const size_t keep : {bytes.size() / 2, bytes.size() - 100, size_t(10)}) {
            const auto truncated = tempPath(dir, "truncated.pt");
            writeBytes(truncated, bytes.substr(0, keep));
            const auto result = loadCheckpoint(truncated);
            QVERIFY(!result);
            QVERIFY2(result.message().find("truncated.pt") != std::string::npos, result.message().c_str());
            QVERIFY(!readCheckpointMeta(truncated));
        }

        std::mt19937 rng(9);
        std::string noise(5000, '\0');
        for (auto& c : noise)
            c = static_cast<char>(rng());
        const auto random = tempPath(dir, "random.pt");
        writeBytes(random, noise);
        const auto result = loadCheckpoint(random);
        QVERIFY(!result);
        QVERIFY(result.message().find("not a weights file") != std::string::npos);
        // Random bytes behind a zip signature still fail cleanly inside torch's reader.
        writeBytes(random, "PK\x03\x04" + noise);
        QVERIFY(!loadCheckpoint(random));

        // A valid LibTorch archive that is not ours.
        torch::serialize::OutputArchive foreign;
        foreign.write("weight", torch::ones({2}));
        const auto foreignPath = tempPath(dir, "foreign.pt");
        foreign.save_to(foreignPath.string());
        const auto notOurs = loadCheckpoint(foreignPath);
        QVERIFY(!notOurs);
        QVERIFY(notOurs.message().find("no 'meta' entry") != std::string::npos);
    }

    void writesAnUltralyticsCheckpoint() {
        // Format 2 is a torch.save zip whose pickle names only what an Ultralytics checkpoint names.
        QTemporaryDir dir;
        torch::manual_seed(7);
        auto model = std::make_shared<DetectionModel>(parseModelName("yolo11n", 3).value());
        CheckpointMeta meta;
        meta.names = {"bolt", "nut", "washer"};
        meta.trainArgs = {{"epochs", "3"}, {"imgsz", "320"}, {"threads", "2"}, {"cos_lr", "false"}};
        meta.ospreyArgs = {"threads"};
        auto checkpoint = makeCheckpoint(*model, meta);
        const auto path = tempPath(dir, "best.pt");
        QVERIFY(saveCheckpoint(checkpoint, path));
        auto zip = ZipArchive::open(path);
        QVERIFY(zip);
        QVERIFY(isTorchSaveArchive(*zip));
        for (const char* record :
             {"archive/data.pkl", "archive/byteorder", "archive/version", "archive/data/0"})
            QVERIFY2(zip->find(record) != nullptr, record);
        const ZipRecord* pkl = zip->find("archive/data.pkl");
        QVERIFY(zip->verify(*pkl));
        auto tree = pickle::read(zip->bytes(*pkl), "best.pt");
        QVERIFY2(tree, tree ? "" : tree.message().c_str());
        std::set<std::string> classes;
        std::function<void(const pickle::Value&)> visit = [&](const pickle::Value& v) {
            if (v.is(pickle::Kind::Object) || v.is(pickle::Kind::Global) || v.is(pickle::Kind::Call))
                classes.insert(v.qualifiedName());
            for (const auto& item : v.items)
                if (item)
                    visit(*item);
            for (const auto& [key, value] : v.entries)
                if (value)
                    visit(*value);
            if (v.state)
                visit(*v.state);
        };
        visit(**tree);
        const std::set<std::string> expected = {"ultralytics.nn.tasks.DetectionModel",
                                                "torch.nn.modules.container.Sequential",
                                                "torch.nn.modules.container.ModuleList",
                                                "ultralytics.nn.modules.conv.Conv",
                                                "ultralytics.nn.modules.conv.DWConv",
                                                "ultralytics.nn.modules.conv.Concat",
                                                "torch.nn.modules.conv.Conv2d",
                                                "torch.nn.modules.batchnorm.BatchNorm2d",
                                                "torch.nn.modules.activation.SiLU",
                                                "torch.nn.modules.linear.Identity",
                                                "torch.nn.modules.pooling.MaxPool2d",
                                                "torch.nn.modules.upsampling.Upsample",
                                                "ultralytics.nn.modules.block.C3k2",
                                                "ultralytics.nn.modules.block.C3k",
                                                "ultralytics.nn.modules.block.Bottleneck",
                                                "ultralytics.nn.modules.block.SPPF",
                                                "ultralytics.nn.modules.block.C2PSA",
                                                "ultralytics.nn.modules.block.PSABlock",
                                                "ultralytics.nn.modules.block.Attention",
                                                "ultralytics.nn.modules.block.DFL",
                                                "ultralytics.nn.modules.head.Detect"};
        std::string listed;
        for (const auto& name : classes)
            listed += name + (expected.count(name) ? " " : " (unexpected) ");
        QVERIFY2(classes == expected, listed.c_str());
        // Ultralytics' view: its train_args hold Ultralytics' keys with Python types, not Osprey's own.
        const pickle::Value* args = pickle::get(tree->get(), "train_args");
        QVERIFY(args != nullptr);
        QCOMPARE(pickle::get(args, "epochs")->kind, pickle::Kind::Int);
        QCOMPARE(pickle::get(args, "cos_lr")->kind, pickle::Kind::Bool);
        QVERIFY(pickle::get(args, "threads") == nullptr);
        QCOMPARE(pickle::get(tree->get(), "epoch")->integer, std::int64_t{-1});
        // The network as core/model reads any Ultralytics file: family, scale, classes, every tensor.
        auto described = readUltralytics(*zip);
        QVERIFY2(described, described ? "" : described.message().c_str());
        QVERIFY(described->osprey);
        QCOMPARE(described->meta.spec.name(), std::string("yolo11n"));
        QCOMPARE(described->meta.names, meta.names);
        QCOMPARE(described->model.size(), checkpoint.model.size());
        // A fused network has no Ultralytics form: it is written as format 1, and export refuses it.
        auto fused = Detector::create(parseModelName("yolov8n", 2).value());
        fused->fuse();
        const auto fusedPath = tempPath(dir, "fused.pt");
        QVERIFY(saveWeights(*fused, CheckpointMeta{}, fusedPath));
        QVERIFY(!isTorchSaveArchive(*ZipArchive::open(fusedPath)));
        QCOMPARE(loadCheckpoint(fusedPath)->meta.formatVersion, 1);
        const auto refused = exportUltralytics(fusedPath, tempPath(dir, "fused-ultralytics.pt"));
        QVERIFY(!refused);
        QVERIFY2(refused.message().find("fused") != std::string::npos, refused.message().c_str());
        QVERIFY(!std::filesystem::exists(tempPath(dir, "fused-ultralytics.pt")));
    }

    void refusesAForbiddenGlobalInAFileOspreyWrote() {
        // A file exactly as Osprey writes it, but its pickle calls posix.system where it builds a set().
        QTemporaryDir dir;
        auto detector = Detector::create(parseModelName("yolov8n", 2).value());
        const auto good = tempPath(dir, "good.pt");
        QVERIFY(saveWeights(*detector, CheckpointMeta{}, good));
        auto zip = ZipArchive::open(good);
        QVERIFY(zip);
        const auto hostile = tempPath(dir, "hostile.pt");
        {
            std::ofstream out(hostile, std::ios::binary);
            caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, size_t size) {
                out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
                return size;
            });
            for (const ZipRecord& record : zip->records()) {
                const std::string name = record.name.substr(record.name.find('/') + 1);
                if (name == "version" || name.rfind(".data/", 0) == 0)
                    continue; // the writer adds its own
                std::string bytes(zip->bytes(record));
                if (name == "data.pkl") {
                    const std::string from("builtins\nset\n"), to("posix\nsystem\n");
                    QCOMPARE(from.size(), to.size());
                    const size_t at = bytes.rfind(from);
                    QVERIFY(at != std::string::npos);
                    bytes.replace(at, from.size(), to);
                }
                writer.writeRecord(name, bytes.data(), bytes.size());
            }
            writer.writeEndOfFile();
        }
        for (const auto& result : {loadCheckpoint(hostile).error(), readCheckpointMeta(hostile).error()}) {
            QCOMPARE(result.code, std::string("unsafe"));
            QVERIFY2(result.message.find("posix.system") != std::string::npos, result.message.c_str());
            QVERIFY2(result.message.find("hostile.pt") != std::string::npos, result.message.c_str());
        }
        QVERIFY(loadCheckpoint(good)); // the untouched file still loads
    }

    void pretrainedStartAcrossClassCounts() {
        QTemporaryDir dir;
        torch::manual_seed(5);
        auto source = Detector::create(parseModelName("yolov8n", 80).value());
        const auto path = tempPath(dir, "coco.pt");
        QVERIFY(saveWeights(*source, CheckpointMeta{}, path));

        auto target = Detector::create(parseModelName("yolov8n", 3).value());
        const auto report = loadPretrained(*target, path);
        QVERIFY2(report, report ? "" : report.message().c_str());
        // nc 3 narrows the class branch (c3 = max(64, 3) = 64 vs 80): its convs and BNs are skipped.
        QVERIFY(!report->skipped.empty());
        for (const auto& name : report->skipped)
            QVERIFY2(name.rfind("model.22.cv3.", 0) == 0, name.c_str());
        QCOMPARE(report->loaded + static_cast<int>(report->skipped.size()),
                 static_cast<int>(target->stateDictEntries().size()));
        QVERIFY(report->message.find("skipped") != std::string::npos);
        const auto& sourceState = source->impl().model->stateDict();
        const auto& targetState = target->impl().model->stateDict();
        QVERIFY(torch::equal(sourceState[0].second, targetState[0].second)); // model.0.conv.weight

        auto other = Detector::create(parseModelName("yolo11n", 3).value());
        const auto wrongFamily = loadPretrained(*other, path);
        QVERIFY(!wrongFamily);
        QVERIFY(wrongFamily.message().find("yolov8n") != std::string::npos);

        // Same nc: everything transfers.
        auto same = Detector::create(parseModelName("yolov8n", 80).value());
        const auto full = loadPretrained(*same, path);
        QVERIFY(full);
        QVERIFY(full->skipped.empty());
    }

    void fusedWeightsAndPredictor() {
        QTemporaryDir dir;
        torch::manual_seed(11);
        auto detector = Detector::create(parseModelName("yolov8n", 2).value());
        // Reference outputs from the unfused network on a known input.
        std::vector<std::uint8_t> pixels(64 * 96 * 3);
        for (size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = static_cast<std::uint8_t>((i * 37) % 251);
        auto& model = *detector->impl().model;
        model.eval();
        torch::Tensor reference;
        {
            torch::NoGradGuard noGrad;
            auto input = torch::from_blob(pixels.data(), {1, 64, 96, 3}, torch::kUInt8)
                             .permute({0, 3, 1, 2})
                             .to(torch::kFloat) /
                         255;
            reference = model.forwardDecoded(input);
        }
        const auto path = tempPath(dir, "fused.pt");
        detector->fuse();
        CheckpointMeta meta;
        meta.names = {"a", "b"};
        QVERIFY(saveWeights(*detector, meta, path));
        QVERIFY(readCheckpointMeta(path)->fused);

        auto predictor = Predictor::load(path, PredictorOptions{"cpu", true});
        QVERIFY2(predictor, predictor ? "" : predictor.message().c_str());
        QCOMPARE(predictor->names(), meta.names);
        std::vector<long> shape;
        const auto raw = predictor->rawOutput({ImageView{pixels.data(), 96, 64}}, &shape);
        QVERIFY(raw);
        QCOMPARE(shape, (std::vector<long>{1, 6, 96 + 24 + 6}));
        const auto output = torch::from_blob(const_cast<float*>(raw->data()), {1, 6, 126});
        QVERIFY((output - reference).abs().max().item<double>() < 1e-3);

        // Batched prediction: the same image twice gives the same boxes for both.
        NmsOptions nms;
        nms.confThreshold = 0.0f;
        nms.maxDetections = 10;
        PredictTiming timing;
        const std::vector<ImageView> batch{ImageView{pixels.data(), 96, 64},
                                           ImageView{pixels.data(), 96, 64}};
        const auto results = predictor->predict(batch, 64, nms, &timing);
        QVERIFY2(results, results ? "" : results.message().c_str());
        QCOMPARE(results->size(), size_t(2));
        QCOMPARE((*results)[0].size(), size_t(10));
        QCOMPARE((*results)[1].size(), (*results)[0].size());
        for (size_t i = 0; i < (*results)[0].size(); ++i) {
            QCOMPARE((*results)[0][i].x1, (*results)[1][i].x1);
            QVERIFY((*results)[0][i].x2 <= 96.0f && (*results)[0][i].y2 <= 64.0f);
        }
        QVERIFY(timing.inferenceMs > 0);
        QVERIFY(!Predictor::load(path, PredictorOptions{"cuda:9", true}));
    }

    void predictVerbEndToEnd() {
        QTemporaryDir dir;
        auto detector = Detector::create(parseModelName("yolov8n", 2).value());
        const auto weights = tempPath(dir, "w.pt");
        CheckpointMeta meta;
        meta.names = {"cat", "dog"};
        QVERIFY(saveWeights(*detector, meta, weights));
        // A 64x48 24-bit BMP written by hand (rows bottom-up, BGR, 4-byte aligned: 192 bytes per row).
        const int width = 64, height = 48;
        std::string bmp = "BM";
        const auto put32 = [&](std::uint32_t v) {
            for (int i = 0; i < 4; ++i)
                bmp.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
        };
        const auto put16 = [&](std::uint16_t v) {
            bmp.push_back(static_cast<char>(v & 0xFF));
            bmp.push_back(static_cast<char>(v >> 8));
        };
        put32(54 + width * height * 3);
        put32(0);
        put32(54);
        put32(40);
        put32(width);
        put32(height);
        put16(1);
        put16(24);
        for (int i = 0; i < 6; ++i)
            put32(i == 1 ? width * height * 3 : 0);
        for (int i = 0; i < width * height * 3; ++i)
            bmp.push_back(static_cast<char>((i * 31) % 256));
        const auto image = tempPath(dir, "frame.bmp");
        writeBytes(image, bmp);
        const auto out = tempPath(dir, "out");
        QProcess cli;
        cli.start(OSPREY_CLI_PATH, {"predict", QString("model=%1").arg(weights.c_str()),
                                    QString("source=%1").arg(image.c_str()), "conf=0", "max_det=5",
                                    "imgsz=64", QString("out=%1").arg(out.c_str())});
        QVERIFY(cli.waitForFinished(120000));
        const QString output = cli.readAllStandardOutput() + cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, qPrintable(output));
        QVERIFY2(output.contains("image 1/1") && output.contains("Speed:"), qPrintable(output));
        QVERIFY(std::filesystem::exists(out / "frame.bmp"));
        std::ifstream labels(out / "labels" / "frame.txt");
        int lines = 0;
        std::string line;
        while (std::getline(labels, line)) {
            std::istringstream fields(line);
            int cls = -1;
            double cx = -1, cy = -1, w = -1, h = -1, conf = -1;
            fields >> cls >> cx >> cy >> w >> h >> conf;
            QVERIFY(cls == 0 || cls == 1);
            QVERIFY(cx >= 0 && cx <= 1 && cy >= 0 && cy <= 1 && w >= 0 && w <= 1 && h >= 0 && h <= 1);
            ++lines;
        }
        QCOMPARE(lines, 5);
    }

    // A run's best.pt without conf= predicts at the run's best-F1 confidence (its curves.json), and says
    // so; conf= given, or a model outside a run, keeps the threshold asked for.
    void predictTakesTheRunsBestConfidence() {
        QTemporaryDir dir;
        auto detector = Detector::create(parseModelName("yolov8n", 2).value());
        const auto runDir = tempPath(dir, "runs") / "r1";
        std::filesystem::create_directories(runDir / "weights");
        CheckpointMeta meta;
        meta.names = {"cat", "dog"};
        QVERIFY(saveWeights(*detector, meta, runDir / "weights" / "best.pt"));
        writeBytes(
            runDir / "curves.json",
            R"({"version":1,"epoch":1,"classNames":["cat","dog"],"classes":[],"x":[],"precisionAtRecall":[],)"
            R"("f1":[],"precision":[],"recall":[],"ap":[],"bestConfidence":0.001,"bestF1":0.5,)"
            R"("classBestConfidence":[],"confusionMatrix":[0,0,0,0,0,0,0,0,0],"matrixConfidence":0.25,)"
            R"("matrixIou":0.45,"images":[]})");
        osprey::imaging::Image frame;
        frame.width = 64;
        frame.height = 64;
        frame.pixels.resize(64 * 64 * 3);
        for (size_t i = 0; i < frame.pixels.size(); ++i)
            frame.pixels[i] = static_cast<std::uint8_t>((i * 37) % 256);
        const auto image = tempPath(dir, "frame.png");
        QVERIFY(osprey::imaging::encodeImage(frame, image));
        const auto predict = [&](const QStringList& extra, const std::filesystem::path& out) {
            QProcess cli;
            cli.start(OSPREY_CLI_PATH,
                      QStringList{"predict",
                                  QString("model=%1").arg((runDir / "weights" / "best.pt").c_str()),
                                  QString("source=%1").arg(image.c_str()), "max_det=300", "imgsz=64",
                                  QString("out=%1").arg(out.c_str())} +
                          extra);
            cli.waitForFinished(120000);
            return QString(cli.readAllStandardOutput() + cli.readAllStandardError());
        };
        const auto countAbove = [](const std::filesystem::path& labels, double threshold) {
            std::ifstream in(labels);
            int lines = 0, below = 0;
            for (std::string line; std::getline(in, line); ++lines) {
                std::istringstream fields(line);
                double cls, cx, cy, w, h, conf = -1;
                fields >> cls >> cx >> cy >> w >> h >> conf;
                below += conf < threshold ? 1 : 0;
            }
            return std::make_pair(lines, below);
        };
        QString output = predict({}, tempPath(dir, "run-conf"));
        QVERIFY2(output.contains("note: conf=0.001, the best-F1 confidence of the model's run"),
                 qPrintable(output));
        const auto [atRun, belowRun] = countAbove(tempPath(dir, "run-conf") / "labels" / "frame.txt", 0.001);
        QCOMPARE(belowRun, 0);
        output = predict({"conf=0.25"}, tempPath(dir, "asked"));
        QVERIFY2(!output.contains("note: conf="), qPrintable(output));
        const auto [atAsked, belowAsked] = countAbove(tempPath(dir, "asked") / "labels" / "frame.txt", 0.25);
        QCOMPARE(belowAsked, 0);
        // The untrained detector's scores sit low: the run's threshold keeps far more boxes than 0.25.
        QVERIFY2(atRun > atAsked, qPrintable(QString("%1 vs %2").arg(atRun).arg(atAsked)));
    }

    // A video source: every frame is detected, labels are written per frame (<stem>_<k>.txt) and the
    // annotated video has the source's frame count and size.
    void predictVerbOnVideo() {
        QTemporaryDir dir;
        auto detector = Detector::create(parseModelName("yolov8n", 2).value());
        const auto weights = tempPath(dir, "w.pt");
        CheckpointMeta meta;
        meta.names = {"cat", "dog"};
        QVERIFY(saveWeights(*detector, meta, weights));
        const auto clip = tempPath(dir, "clip.avi");
        constexpr int kFrames = 5;
        {
            auto writer = osprey::imaging::VideoWriter::open(clip, 96, 64, 12.5);
            QVERIFY2(writer, writer ? "" : writer.message().c_str());
            for (int k = 0; k < kFrames; ++k) {
                osprey::imaging::Image frame;
                frame.width = 96;
                frame.height = 64;
                frame.pixels.assign(96 * 64 * 3, static_cast<std::uint8_t>(30 * k));
                QVERIFY((*writer)->write(frame));
            }
            QVERIFY((*writer)->close());
        }
        const auto out = tempPath(dir, "out");
        QProcess cli;
        cli.start(OSPREY_CLI_PATH, {"predict", QString("model=%1").arg(weights.c_str()),
                                    QString("source=%1").arg(clip.c_str()), "conf=0", "max_det=3", "imgsz=64",
                                    QString("out=%1").arg(out.c_str())});
        QVERIFY(cli.waitForFinished(120000));
        const QString output = cli.readAllStandardOutput() + cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, qPrintable(output));
        QVERIFY2(output.contains("video 1/1 (frame 5/5)") && output.contains("Speed:"), qPrintable(output));
        for (int k = 1; k <= kFrames; ++k) {
            std::ifstream labels(out / "labels" / ("clip_" + std::to_string(k) + ".txt"));
            QVERIFY2(labels.good(), qPrintable(QString("labels of frame %1").arg(k)));
            int lines = 0;
            for (std::string line; std::getline(labels, line);)
                ++lines;
            QCOMPARE(lines, 3);
        }
        auto annotated = osprey::imaging::VideoReader::open(out / "clip.mp4");
        QVERIFY2(annotated, annotated ? "" : annotated.message().c_str());
        QCOMPARE((*annotated)->info().width, 96);
        QCOMPARE((*annotated)->info().height, 64);
        osprey::imaging::Image frame;
        int frames = 0;
        while ((*annotated)->read(frame))
            ++frames;
        QCOMPARE(frames, kFrames);
        QVERIFY(!std::filesystem::exists(out / "clip.partial.mp4"));
    }
};

QTEST_GUILESS_MAIN(TestWeights)
#include "tst_weights.moc"
