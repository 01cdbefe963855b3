// The detector networks: Ultralytics state_dict names and shapes, parameter counts and GFLOPs from the
// recipe, forward layouts in both modes, and Conv+BN fusion.
#include "common/half_float.h"
#include "model/detector_torch_impl.h"
#include "model/fused_network.h"

#include "fixtures.h"
#include "model_figures.h"

#include <QtTest>

#include <fstream>
#include <sstream>

using namespace osprey::model;

namespace {

ModelSpec spec(const std::string& name, int nc = 80) {
    return parseModelName(name, nc).value();
}

std::string shapeText(const std::vector<std::int64_t>& shape) {
    if (shape.empty())
        return "scalar";
    std::string text;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i)
            text += 'x';
        text += std::to_string(shape[i]);
    }
    return text;
}

} // namespace

class TestDetector : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { torch::set_num_threads(2); }

    void parsesModelNames() {
        QCOMPARE(spec("yolov8n").name(), std::string("yolov8n"));
        QCOMPARE(spec("YOLO11x.pt").name(), std::string("yolo11x"));
        QVERIFY(spec("yolo11m").family == Family::Yolo11);
        QVERIFY(!parseModelName("yolov5s"));
        QVERIFY(!parseModelName("yolov8q"));
        QVERIFY(!parseModelName("yolov8n", 0));
    }

    void matchesUltralyticsStateDict_data() {
        QTest::addColumn<QString>("model");
        for (const char* name : {"yolov8n", "yolov8s", "yolo11n", "yolo11s", "yolo26n", "yolo26s"})
            QTest::newRow(name) << QString(name);
    }
    void matchesUltralyticsStateDict() {
        QFETCH(QString, model);
        const std::string file = "models/ultralytics-names/" + model.toStdString() + "-nc80.tsv";
        OSPREY_REQUIRE_FIXTURE(file);
        std::ifstream in(osprey::test::fixture(file));
        std::string line;
        std::getline(in, line);
        QCOMPARE(line, std::string("name\tshape"));
        std::vector<std::pair<std::string, std::string>> expected;
        while (std::getline(in, line)) {
            const auto tab = line.find('\t');
            expected.emplace_back(line.substr(0, tab), line.substr(tab + 1));
        }
        auto detector = Detector::create(spec(model.toStdString()));
        QVERIFY(detector);
        const auto entries = detector->stateDictEntries();
        QCOMPARE(entries.size(), expected.size());
        for (size_t i = 0; i < entries.size(); ++i) {
            QCOMPARE(entries[i].name, expected[i].first);
            QCOMPARE(shapeText(entries[i].shape), expected[i].second);
        }
    }

    void parameterCountsAndGflops_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qlonglong>("params");
        QTest::addColumn<double>("gflops");
        for (const auto& figures : osprey::test::kModelFigures)
            if (figures.small)
                QTest::newRow(figures.name)
                    << QString(figures.name) << static_cast<qlonglong>(figures.params) << figures.gflops;
    }
    void parameterCountsAndGflops() {
        QFETCH(QString, model);
        QFETCH(qlonglong, params);
        QFETCH(double, gflops);
        QElapsedTimer timer;
        timer.start();
        auto detector = Detector::create(spec(model.toStdString()));
        QVERIFY(detector);
        QCOMPARE(static_cast<qlonglong>(detector->parameterCount()), params);
        // The DFL's fixed 16 weights count as parameters, not gradients; YOLO26 (reg_max 1) has no DFL.
        const bool dfl = detector->spec().family != Family::Yolo26;
        QCOMPARE(static_cast<qlonglong>(detector->gradientCount()), params - (dfl ? 16 : 0));
        const auto measured = detector->gflops(640);
        QVERIFY(measured);
        qInfo("%s: %lld params, %.3f GFLOPs, %lld ms", qPrintable(model),
              static_cast<long long>(detector->parameterCount()), *measured,
              static_cast<long long>(timer.elapsed()));
        QCOMPARE(std::round(*measured * 10) / 10, gflops);
    }

    void trainingAndInferenceOutputs() {
        torch::manual_seed(1);
        auto model = std::make_shared<DetectionModel>(spec("yolov8n", 3));
        const auto images = torch::rand({2, 3, 64, 96});
        model->train();
        const auto raw = model->forward(images);
        QVERIFY(!raw.decoded.defined());
        QCOMPARE(raw.raw.size(), size_t(3));
        QCOMPARE(raw.raw[0].sizes().vec(), (std::vector<int64_t>{2, 67, 8, 12}));
        QCOMPARE(raw.raw[1].sizes().vec(), (std::vector<int64_t>{2, 67, 4, 6}));
        QCOMPARE(raw.raw[2].sizes().vec(), (std::vector<int64_t>{2, 67, 2, 3}));

        model->eval();
        torch::NoGradGuard noGrad;
        const auto out = model->forward(images);
        const auto& decoded = out.decoded;
        QCOMPARE(decoded.sizes().vec(), (std::vector<int64_t>{2, 7, 96 + 24 + 6}));
        // Decode anchor 13 of level 1 (row 1, column 1 of the 4x6 grid, stride 16) by hand.
        const auto cell = out.raw[1][1].select(1, 1).select(1, 1); // [67]
        const int anchor = 96 + 6 + 1;
        std::vector<double> distances;
        for (int side = 0; side < 4; ++side) {
            const auto p = cell.slice(0, side * 16, side * 16 + 16).softmax(0);
            distances.push_back((p * torch::arange(16, torch::kFloat)).sum().item<double>());
        }
        const double ax = 1.5, ay = 1.5, stride = 16;
        const double x1 = (ax - distances[0]) * stride, y1 = (ay - distances[1]) * stride;
        const double x2 = (ax + distances[2]) * stride, y2 = (ay + distances[3]) * stride;
        QVERIFY(std::abs(decoded[1][0][anchor].item<double>() - (x1 + x2) / 2) < 1e-3);
        QVERIFY(std::abs(decoded[1][1][anchor].item<double>() - (y1 + y2) / 2) < 1e-3);
        QVERIFY(std::abs(decoded[1][2][anchor].item<double>() - (x2 - x1)) < 1e-3);
        QVERIFY(std::abs(decoded[1][3][anchor].item<double>() - (y2 - y1)) < 1e-3);
        for (int c = 0; c < 3; ++c)
            QVERIFY(std::abs(decoded[1][4 + c][anchor].item<double>() -
                             torch::sigmoid(cell[64 + c]).item<double>()) < 1e-6);
    }

    /// YOLO26's end-to-end head: reg_max 1 (the box outputs are the distances), two identical branches that
    /// start equal, and the one-to-one branch read by top-k without NMS.
    void endToEndHead() {
        torch::manual_seed(3);
        auto model = std::make_shared<DetectionModel>(spec("yolo26n", 3));
        std::map<std::string, torch::Tensor> state;
        for (const auto& [name, tensor] : model->stateDict())
            state[name] = tensor;
        QVERIFY(state.count("model.23.dfl.conv.weight") == 0);
        QVERIFY(torch::equal(state["model.23.cv2.1.0.conv.weight"],
                             state["model.23.one2one_cv2.1.0.conv.weight"]));
        QVERIFY(torch::equal(state["model.23.cv3.2.1.1.conv.weight"],
                             state["model.23.one2one_cv3.2.1.1.conv.weight"]));
        QCOMPARE(state["model.23.one2one_cv2.0.2.bias"][3].item<float>(), 2.0f);
        const float expected = static_cast<float>(std::log(5.0 / 3 / std::pow(640.0 / 8, 2)));
        QCOMPARE(state["model.23.one2one_cv3.0.2.bias"][1].item<float>(), expected);

        const auto images = torch::rand({2, 3, 64, 96});
        model->train();
        const auto heads = model->forwardHeads(images);
        QCOMPARE(heads.oneToMany[0].sizes().vec(), (std::vector<int64_t>{2, 7, 8, 12}));
        QCOMPARE(heads.oneToOne[2].sizes().vec(), (std::vector<int64_t>{2, 7, 2, 3}));
        // The one-to-one branch's gradient stops at the head: the backbone learns from one-to-many only.
        heads.oneToOne[0].sum().backward();
        QVERIFY(!state["model.0.conv.weight"].grad().defined() ||
                state["model.0.conv.weight"].grad().abs().sum().item<double>() == 0);
        QVERIFY(state["model.23.one2one_cv2.0.0.conv.weight"].grad().abs().sum().item<double>() > 0);

        model->eval();
        torch::NoGradGuard noGrad;
        // Fresh heads give every anchor nearly the same box and score (the biases dominate): spread the last
        // convs' weights so that the ranking is clear, and so that reading the wrong branch would show.
        for (int level = 0; level < 3; ++level)
            for (const char* conv : {"one2one_cv2", "one2one_cv3"})
                state["model.23." + std::string(conv) + "." + std::to_string(level) + ".2.weight"].normal_(
                    0, 0.5);
        const auto raw = model->forwardHeads(images).oneToOne;
        const auto out = model->forwardEndToEnd(images, 10);
        QCOMPARE(out.sizes().vec(), (std::vector<int64_t>{2, 10, 6}));
        // By hand: every (anchor, class) score of image 1, the best first.
        struct Candidate {
            double score, x1, y1, x2, y2;
            int cls;
        };
        std::vector<Candidate> all;
        const int strides[] = {8, 16, 32};
        for (int level = 0; level < 3; ++level) {
            const auto map = raw[static_cast<size_t>(level)][1];
            for (int y = 0; y < map.size(1); ++y)
                for (int x = 0; x < map.size(2); ++x) {
                    const auto cell = map.select(1, y).select(1, x);
                    const double s = strides[level], ax = x + 0.5, ay = y + 0.5;
                    for (int c = 0; c < 3; ++c)
                        all.push_back({torch::sigmoid(cell[4 + c]).item<double>(),
                                       (ax - cell[0].item<double>()) * s, (ay - cell[1].item<double>()) * s,
                                       (ax + cell[2].item<double>()) * s, (ay + cell[3].item<double>()) * s,
                                       c});
                }
        }
        std::sort(all.begin(), all.end(),
                  [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
        // With 3 classes the top 10 pairs all lie among the top 10 anchors by best score.
        for (int row = 0; row < 10; ++row) {
            const auto got = out[1][row];
            QVERIFY2(std::abs(got[4].item<double>() - all[static_cast<size_t>(row)].score) < 1e-6,
                     qPrintable(QString::number(row)));
            QCOMPARE(got[5].item<double>(), double(all[static_cast<size_t>(row)].cls));
            QVERIFY(std::abs(got[0].item<double>() - all[static_cast<size_t>(row)].x1) < 1e-3);
            QVERIFY(std::abs(got[3].item<double>() - all[static_cast<size_t>(row)].y2) < 1e-3);
        }
        // One-to-many decode: centre xywh from the distances directly (no DFL).
        const auto decoded = model->forwardDecoded(images);
        const auto cell =
            model->forwardHeads(images).oneToMany[1][0].select(1, 2).select(1, 3); // row 2, col 3
        const int anchor = 96 + 2 * 6 + 3;
        const double l = cell[0].item<double>(), t = cell[1].item<double>(), r = cell[2].item<double>(),
                     b = cell[3].item<double>();
        QVERIFY(std::abs(decoded[0][0][anchor].item<double>() - (3.5 + (r - l) / 2) * 16) < 1e-3);
        QVERIFY(std::abs(decoded[0][3][anchor].item<double>() - (t + b) * 16) < 1e-3);
    }

    /// Fused for inference, YOLO26 keeps one branch: Ultralytics' fused figures (spec yolo26 §3).
    void yolo26FusedFigures_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<qlonglong>("params");
        QTest::addColumn<double>("gflops");
        QTest::newRow("yolo26n") << "yolo26n" << qlonglong(2408932) << 5.4;
        QTest::newRow("yolo26s") << "yolo26s" << qlonglong(9496140) << 20.7;
    }
    void yolo26FusedFigures() {
        QFETCH(QString, model);
        QFETCH(qlonglong, params);
        QFETCH(double, gflops);
        for (const bool oneToOne : {false, true}) {
            auto network = std::make_shared<DetectionModel>(spec(model.toStdString()));
            network->eval();
            network->fuse(oneToOne ? HeadBranch::OneToOne : HeadBranch::OneToMany);
            std::int64_t count = 0;
            for (const auto& parameter : network->parameters())
                count += parameter.numel();
            QCOMPARE(static_cast<qlonglong>(count), params);
            QCOMPARE(network->head().endToEnd(), oneToOne);
            QCOMPARE(network->head().hasOneToMany(), !oneToOne);
        }
        auto detector = Detector::create(spec(model.toStdString()));
        QVERIFY(detector);
        detector->fuse();
        QCOMPARE(static_cast<qlonglong>(detector->parameterCount()), params);
        QCOMPARE(std::round(*detector->gflops(640) * 10) / 10, gflops);
    }

    void headInitialisation() {
        auto model = std::make_shared<DetectionModel>(spec("yolo11n", 3));
        std::map<std::string, torch::Tensor> state;
        for (const auto& [name, tensor] : model->stateDict())
            state[name] = tensor;
        QCOMPARE(state["model.23.dfl.conv.weight"].flatten().sum().item<double>(), 120.0);
        QCOMPARE(state["model.23.dfl.conv.weight"][0][15][0][0].item<double>(), 15.0);
        QVERIFY(!state["model.23.dfl.conv.weight"].requires_grad());
        QCOMPARE(state["model.23.cv2.1.2.bias"][5].item<float>(), 2.0f);
        const float expected = static_cast<float>(std::log(5.0 / 3 / std::pow(640.0 / 32, 2)));
        QCOMPARE(state["model.23.cv3.2.2.bias"][2].item<float>(), expected);
        const auto bn = model->named_modules()["model.0.bn"]->as<torch::nn::BatchNorm2d>();
        QCOMPARE(bn->options.eps(), 1e-3);
        QCOMPARE(bn->options.momentum().value(), 0.03);
        const auto anchors = makeAnchors({torch::zeros({1, 1, 2, 3}), torch::zeros({1, 1, 1, 1})}, {8, 16});
        QCOMPARE(anchors.first.sizes().vec(), (std::vector<int64_t>{7, 2}));
        QCOMPARE(anchors.first[4][0].item<float>(), 1.5f); // second row, second column: x
        QCOMPARE(anchors.first[4][1].item<float>(), 1.5f);
        QCOMPARE(anchors.second[6][0].item<float>(), 16.0f);
    }

    void fusedMatchesUnfused_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("yolov8n") << "yolov8n";
        QTest::newRow("yolo11n") << "yolo11n";
    }
    void fusedMatchesUnfused() {
        QFETCH(QString, model);
        torch::manual_seed(7);
        auto network = std::make_shared<DetectionModel>(spec(model.toStdString(), 5));
        {
            // Non-trivial BatchNorm statistics, so the fold has something to fold.
            torch::NoGradGuard noGrad;
            for (const auto& [name, tensor] : network->stateDict()) {
                if (name.find(".bn.running_var") != std::string::npos)
                    tensor.uniform_(0.5, 2.0);
                else if (name.find(".bn.running_mean") != std::string::npos)
                    tensor.uniform_(-0.2, 0.2);
                else if (name.find(".bn.weight") != std::string::npos)
                    tensor.uniform_(0.5, 1.5);
                else if (name.find(".bn.bias") != std::string::npos)
                    tensor.uniform_(-0.2, 0.2);
            }
        }
        network->eval();
        torch::NoGradGuard noGrad;
        const auto images = torch::rand({1, 3, 128, 96});
        const auto before = network->forward(images);
        const auto entriesBefore = network->stateDict().size();
        network->fuse();
        QVERIFY(network->fused());
        QVERIFY(network->stateDict().size() < entriesBefore);
        const auto after = network->forward(images);
        for (size_t i = 0; i < 3; ++i) {
            const double diff = (before.raw[i] - after.raw[i]).abs().max().item<double>();
            QVERIFY2(diff < 1e-4, qPrintable(QString("level %1 differs by %2").arg(i).arg(diff)));
        }
        const auto scoreDiff =
            (before.decoded.slice(1, 4) - after.decoded.slice(1, 4)).abs().max().item<double>();
        QVERIFY(scoreDiff < 1e-4);
        // Boxes are in pixels (up to ~128 here): the same tolerance relative to the input size.
        const auto boxDiff =
            (before.decoded.slice(1, 0, 4) - after.decoded.slice(1, 0, 4)).abs().max().item<double>();
        QVERIFY2(boxDiff < 1e-4 * 128, qPrintable(QString::number(boxDiff)));
        // Fused GFLOPs drop the BatchNorm operations.
        auto detector = Detector::create(spec(model.toStdString()));
        const double unfused = detector->gflops(640).value();
        detector->fuse();
        QVERIFY(detector->gflops(640).value() < unfused);
    }

    // The torch-free description (what core/export reads) holds every fused parameter exactly once, and
    // its plain-float forward is the network's.
    void describesTheFusedNetwork_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<bool>("oneToOne");
        for (const char* name : {"yolov8n", "yolo11n"})
            QTest::newRow(name) << QString(name) << false;
        // YOLO26: reg_max 1 (no DFL), the SPPF residual, attention in layer 22, and the branch fuse kept.
        QTest::newRow("yolo26n-one-to-many") << QString("yolo26n") << false;
        QTest::newRow("yolo26n-one-to-one") << QString("yolo26n") << true;
    }
    void describesTheFusedNetwork() {
        QFETCH(QString, model);
        QFETCH(bool, oneToOne);
        const bool yolo26 = model.startsWith("yolo26");
        const auto branch = oneToOne ? HeadBranch::OneToOne : HeadBranch::OneToMany;
        auto detector = Detector::create(spec(model.toStdString(), 7));
        QVERIFY(detector);
        QVERIFY(!osprey::model::describeFused(*detector)); // not fused yet
        detector->fuse(branch);
        auto described = osprey::model::describeFused(*detector);
        QVERIFY2(described, described ? "" : described.message().c_str());
        std::int64_t values = 0;
        int attention = 0;
        std::function<void(const FusedBlock&)> count = [&](const FusedBlock& block) {
            values += static_cast<std::int64_t>(block.weight.values.size() + block.bias.values.size());
            attention += block.kind == FusedBlock::Kind::Attention;
            for (const auto& [name, child] : block.children)
                count(child);
        };
        for (const auto& layer : described->layers)
            count(layer.block);
        for (const auto* branches : {&described->head.boxBranches, &described->head.classBranches})
            for (const auto& branch : *branches)
                count(branch);
        values += static_cast<std::int64_t>(described->head.dflWeight.values.size());
        std::int64_t parameters = 0;
        for (const auto& parameter : detector->impl().model->parameters())
            parameters += parameter.numel();
        QCOMPARE(values, parameters);
        QCOMPARE(attention, model.startsWith("yolo11") ? 1 : yolo26 ? 2 : 0);
        QCOMPARE(described->head.numClasses, 7);
        QCOMPARE(described->head.strides, (std::vector<int>{8, 16, 32}));
        QCOMPARE(described->layers.size(), detector->layers().size());
        QCOMPARE(described->head.oneToOne, oneToOne);
        QCOMPARE(described->head.regMax, yolo26 ? 1 : 16);
        QCOMPARE(described->layers[9].block.residual, yolo26); // SPPF(..., shortcut=True)
        if (yolo26)
            QVERIFY(described->head.dflWeight.empty());
        else
            QCOMPARE(described->head.dflWeight.values[15], 15.0f);

        torch::manual_seed(3);
        const auto image = torch::rand({1, 3, 64, 64});
        std::vector<float> planar(image.data_ptr<float>(), image.data_ptr<float>() + image.numel());
        std::int64_t anchors = 0;
        auto plain = osprey::model::forwardDecoded(*detector, planar, 64, &anchors, branch);
        QVERIFY2(plain, plain ? "" : plain.message().c_str());
        QCOMPARE(anchors, std::int64_t(8 * 8 + 4 * 4 + 2 * 2));
        torch::NoGradGuard noGrad;
        auto& network = *detector->impl().model;
        const auto reference = (oneToOne ? network.head().decode(network.forwardHeads(image).oneToOne)
                                         : network.forwardDecoded(image))
                                   .contiguous();
        QCOMPARE(plain->size(), static_cast<size_t>(reference.numel()));
        for (size_t i = 0; i < plain->size(); ++i)
            QCOMPARE((*plain)[i], reference.data_ptr<float>()[i]);
        // The branch fuse dropped (and a one-to-one branch a YOLOv8 never had) is an error, not a crash.
        const auto other = oneToOne ? HeadBranch::OneToMany : HeadBranch::OneToOne;
        QVERIFY(!osprey::model::forwardDecoded(*detector, planar, 64, nullptr, other));
        QVERIFY(!osprey::model::forwardDecoded(*detector, planar, 48));

        // Rounding to half: every parameter is then a float16 value, as torch rounds it.
        const auto before = detector->impl().model->parameters().front().clone();
        osprey::model::roundParametersToHalf(*detector);
        const auto after = detector->impl().model->parameters().front();
        QVERIFY(torch::equal(after, before.to(torch::kHalf).to(torch::kFloat)));
        const auto flat = before.flatten();
        for (std::int64_t i = 0; i < flat.numel(); ++i) {
            const float value = flat[i].item<float>();
            QCOMPARE(osprey::halfToFloat(osprey::floatToHalf(value)), after.flatten()[i].item<float>());
        }
    }

    // Channels-last weights and inputs (the CPU trainer's layout) compute the same network.
    void channelsLastMatchesContiguous_data() {
        QTest::addColumn<QString>("model");
        for (const char* name : {"yolov8n", "yolo11n"})
            QTest::newRow(name) << QString(name);
    }
    void channelsLastMatchesContiguous() {
        QFETCH(QString, model);
        torch::manual_seed(5);
        auto plain = std::make_shared<DetectionModel>(spec(model.toStdString(), 3));
        auto nhwc = std::make_shared<DetectionModel>(spec(model.toStdString(), 3));
        {
            torch::NoGradGuard noGrad;
            const auto from = plain->parameters();
            auto to = nhwc->parameters();
            for (size_t i = 0; i < from.size(); ++i)
                to[i].copy_(from[i]);
        }
        nhwc->setChannelsLast(true);
        QVERIFY(nhwc->channelsLast());
        QVERIFY(nhwc->parameters().front().is_contiguous(torch::MemoryFormat::ChannelsLast));
        const auto images = torch::rand({2, 3, 64, 96});
        // The reference: a float64 run of the same network.
        auto exact = std::make_shared<DetectionModel>(spec(model.toStdString(), 3));
        {
            torch::NoGradGuard noGrad;
            const auto from = plain->parameters();
            auto to = exact->parameters();
            for (size_t i = 0; i < from.size(); ++i)
                to[i].copy_(from[i]);
        }
        exact->to(torch::kDouble);
        const auto rawExact = exact->forwardRaw(images.to(torch::kDouble));
        // Training: raw maps and the gradients of a loss on them. Each raw map is as close to the float64
        // one as the contiguous network's is: float32 convolutions sum in an order that depends on the
        // layout and on the CPU's kernels. Measured on an AMD EPYC without AVX-512, LibTorch 2.15: the
        // layouts' yolo11n maps (magnitude 6 to 10) differ by up to 1.3e-4, each within 8e-5 of float64.
        const auto rawPlain = plain->forwardRaw(images), rawNhwc = nhwc->forwardRaw(images);
        QCOMPARE(rawPlain.size(), rawNhwc.size());
        QCOMPARE(rawPlain.size(), rawExact.size());
        torch::Tensor lossPlain = torch::zeros({}), lossNhwc = torch::zeros({});
        torch::Tensor lossExact = torch::zeros({}, torch::kDouble);
        for (size_t i = 0; i < rawPlain.size(); ++i) {
            const double scale = rawExact[i].abs().max().item<double>() + 1e-9;
            const double plainError =
                (rawPlain[i].to(torch::kDouble) - rawExact[i]).abs().max().item<double>();
            const double nhwcError = (rawNhwc[i].to(torch::kDouble) - rawExact[i]).abs().max().item<double>();
            QVERIFY2(
                nhwcError <= std::max(4 * plainError, 1e-5 * scale),
                qPrintable(
                    QString("raw map %1: %2 vs %3 of %4").arg(i).arg(nhwcError).arg(plainError).arg(scale)));
            lossPlain = lossPlain + rawPlain[i].square().mean();
            lossNhwc = lossNhwc + rawNhwc[i].square().mean();
            lossExact = lossExact + rawExact[i].square().mean();
        }
        lossPlain.backward();
        lossNhwc.backward();
        lossExact.backward();
        // Each gradient is as close to the float64 one as the contiguous network's is (float32 sums in
        // another order differ by up to ~2e-3 of the largest gradient here, in both layouts).
        const auto gradsPlain = plain->parameters(), gradsNhwc = nhwc->parameters(),
                   gradsExact = exact->parameters();
        for (size_t i = 0; i < gradsPlain.size(); ++i) {
            if (!gradsPlain[i].grad().defined())
                continue;
            const auto reference = gradsExact[i].grad();
            const double scale = reference.abs().max().item<double>() + 1e-9;
            const double plainError =
                (gradsPlain[i].grad().to(torch::kDouble) - reference).abs().max().item<double>();
            const double nhwcError =
                (gradsNhwc[i].grad().to(torch::kDouble) - reference).abs().max().item<double>();
            QVERIFY2(nhwcError <= std::max(4 * plainError, 1e-3 * scale),
                     qPrintable(QString("parameter %1: %2 vs %3 of %4")
                                    .arg(i)
                                    .arg(nhwcError)
                                    .arg(plainError)
                                    .arg(scale)));
        }
        // Inference, fused: the decoded output.
        plain->eval();
        nhwc->eval();
        plain->fuse();
        nhwc->fuse();
        torch::NoGradGuard noGrad;
        const auto decodedPlain = plain->forwardDecoded(images), decodedNhwc = nhwc->forwardDecoded(images);
        QVERIFY((decodedPlain.narrow(1, 0, 4) - decodedNhwc.narrow(1, 0, 4)).abs().max().item<double>() <
                1e-3);
        QVERIFY((decodedPlain.narrow(1, 4, 3) - decodedNhwc.narrow(1, 4, 3)).abs().max().item<double>() <
                1e-5);
    }

    void layerTable() {
        auto detector = Detector::create(spec("yolov8n"));
        const auto layers = detector->layers();
        QCOMPARE(layers.size(), size_t(23));
        QCOMPARE(layers[2].type, std::string("C2f"));
        QCOMPARE(layers[2].arguments, std::string("[32, 32, 1, True]"));
        QCOMPARE(layers[22].type, std::string("Detect"));
        QCOMPARE(layers[22].from, (std::vector<int>{15, 18, 21}));
        QCOMPARE(layers[22].arguments, std::string("[80, [64, 128, 256]]"));
        std::int64_t sum = 0;
        for (const auto& layer : layers)
            sum += layer.params;
        QCOMPARE(sum, detector->parameterCount());
        const auto table = formatLayerTable(*detector, 640);
        QVERIFY(table.find("3157200 parameters") != std::string::npos);
        QVERIFY(table.find("8.9 GFLOPs") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestDetector)
#include "tst_detector.moc"
