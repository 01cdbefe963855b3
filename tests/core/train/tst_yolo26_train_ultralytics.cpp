// YOLO26's training maths against Ultralytics 8.4.190, computed in this test: a Python with ultralytics
// (OSPREY_ULTRALYTICS_PYTHON, else ~/.cache/osprey/ultralytics-venv/bin/python; docs/weights.md)
// runs reference/yolo26_train_reference.py, which applies Ultralytics' E2ELoss, its two assigners and MuSGD
// to seeded random inputs and writes inputs and results; Osprey recomputes them here. The loss (total,
// each branch's parts, the logged parts and the input gradients, at two epochs) must agree within 1e-4
// relative, the assignments exactly (scores 1e-4), and two MuSGD steps (weights and both momentum buffers)
// within 1e-5 relative. Skips with a message where no such Python exists.
#include "../../peer_python.h"
#include <torch/torch.h>

#include "model/detector_torch_impl.h"
#include "module_tree.h"
#include "train/detection_loss_impl.h"
#include "train/end_to_end_loss_impl.h"
#include "train/mu_sgd_impl.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <map>
#include <sstream>

using namespace osprey::train;
namespace fs = std::filesystem;

namespace {

// The tensors the script wrote: tensors.txt lists "NAME DTYPE DIM...", NAME.bin holds the raw bytes.
std::map<std::string, torch::Tensor> readTensors(const fs::path& folder) {
    std::map<std::string, torch::Tensor> out;
    std::ifstream manifest(folder / "tensors.txt");
    std::string line;
    while (std::getline(manifest, line)) {
        std::istringstream fields(line);
        std::string name, kind;
        fields >> name >> kind;
        std::vector<int64_t> shape;
        for (int64_t dim = 0; fields >> dim;)
            shape.push_back(dim);
        const auto type = kind == "f32" ? torch::kFloat : kind == "i64" ? torch::kLong : torch::kUInt8;
        std::ifstream in(folder / (name + ".bin"), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        auto tensor = torch::empty(shape, type);
        if (static_cast<size_t>(tensor.nbytes()) == bytes.size())
            std::memcpy(tensor.data_ptr(), bytes.data(), bytes.size());
        else
            tensor = torch::Tensor();
        out[name] = tensor;
    }
    return out;
}

/// max |a - b| / max |b|.
double relativeDiff(const torch::Tensor& a, const torch::Tensor& b) {
    const double scale = std::max(b.abs().max().item<double>(), 1e-30);
    return (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>() / scale;
}

// The MuSGD test model from modules.txt: leaves in depth-first order, so that the groups list them in the
// order Python's named_modules does.
std::shared_ptr<torch::nn::Module> buildModel(const fs::path& file) {
    auto root = std::make_shared<torch::nn::Module>();
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::string kind, path;
        fields >> kind >> path;
        if (kind == "conv") {
            int in = 0, out = 0, k = 0, bias = 0;
            fields >> in >> out >> k >> bias;
            test::placeModule(*root, path,
                              torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, k).bias(bias != 0)));
        } else if (kind == "bn") {
            int channels = 0;
            fields >> channels;
            test::placeModule(*root, path, torch::nn::BatchNorm2d(channels));
        } else if (kind == "linear") {
            int in = 0, out = 0, bias = 0;
            fields >> in >> out >> bias;
            test::placeModule(*root, path,
                              torch::nn::Linear(torch::nn::LinearOptions(in, out).bias(bias != 0)));
        } else if (kind == "param") {
            std::string name;
            int size = 0;
            fields >> name >> size;
            auto holder = std::make_shared<torch::nn::Module>();
            holder->register_parameter(name, torch::ones({size}));
            test::placeModule(*root, path, holder);
        }
    }
    return root;
}

} // namespace

class TestYolo26TrainUltralytics : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    std::map<std::string, torch::Tensor> m_ref;

    const torch::Tensor& ref(const std::string& name) {
        const auto found = m_ref.find(name);
        if (found == m_ref.end() || !found->second.defined())
            qFatal("the reference script wrote no readable %s", name.c_str());
        return found->second;
    }

private slots:
    void initTestCase() {
        const QString python = osprey::test::ultralyticsPython();
        if (python.isEmpty())
            QSKIP("no Python with ultralytics (set OSPREY_ULTRALYTICS_PYTHON or make "
                  "~/.cache/osprey/ultralytics-venv; docs/weights.md); skipping");
        QProcess probe;
        probe.start(python, {"-c", "import ultralytics"});
        if (!probe.waitForFinished(120000) || probe.exitCode() != 0)
            QSKIP(qPrintable(python + " cannot import ultralytics; skipping"));
        torch::set_num_threads(1);
        QProcess script;
        script.start(python, {QStringLiteral(OSPREY_TEST_SOURCE_DIR) + "/reference/yolo26_train_reference.py",
                              m_dir.path()});
        QVERIFY2(script.waitForFinished(300000), "the Ultralytics script timed out");
        QVERIFY2(script.exitCode() == 0, script.readAllStandardError().right(3000).constData());
        qInfo("%s", script.readAllStandardOutput().trimmed().constData());
        m_ref = readTensors(m_dir.path().toStdString());
        QVERIFY(!m_ref.empty());
    }

    void anchorsAreOspreys() {
        // The loss's grid is the one Osprey's head makes: same centres and strides as make_anchors.
        const auto boxes = ref("one2one_boxes");
        const std::vector<int> strides{8, 16, 32};
        std::vector<torch::Tensor> maps;
        for (const int s : strides)
            maps.push_back(torch::zeros({1, 1, 128 / s, 160 / s}));
        const auto [points, strideColumn] = osprey::model::makeAnchors(maps, strides, 0.5);
        QVERIFY(torch::equal(points.to(torch::kFloat), ref("anchor_points")));
        QVERIFY(torch::equal(strideColumn.to(torch::kFloat), ref("stride_tensor")));
        QCOMPARE(points.size(0), boxes.size(2));
    }

    void assignersMatchUltralytics() {
        const auto anchors = ref("anchor_points"), strides = ref("stride_tensor");
        const int nc = static_cast<int>(ref("one2one_scores").size(1));
        for (const std::string branch : {"one2many", "one2one"}) {
            const auto options =
                branch == "one2one" ? EndToEndLoss::oneToOneAssigner() : EndToEndLoss::oneToManyAssigner();
            const auto predBoxes =
                distancesToBoxes(ref(branch + "_boxes").permute({0, 2, 1}), anchors) * strides;
            const auto result = taskAlignedAssign(ref(branch + "_scores").permute({0, 2, 1}).sigmoid(),
                                                  predBoxes, anchors * strides, ref("gt_labels"),
                                                  ref("gt_bboxes"), ref("mask_gt"), nc, options);
            const auto fg = ref("assign_" + branch + "_fg").to(torch::kBool);
            const int64_t mismatched = result.foreground.ne(fg).sum().item<int64_t>();
            const int64_t count = fg.sum().item<int64_t>();
            const auto indexDiff = result.targetIndex.index({fg})
                                       .ne(ref("assign_" + branch + "_index").index({fg}))
                                       .sum()
                                       .item<int64_t>();
            const double boxes =
                (result.targetBoxes.index({fg}) - ref("assign_" + branch + "_boxes").index({fg}))
                    .abs()
                    .max()
                    .item<double>();
            const double scores = relativeDiff(result.targetScores, ref("assign_" + branch + "_scores"));
            qInfo("assigner %s: %lld foreground anchors, %lld differ; %lld GT indices differ; boxes max "
                  "|diff| %.2e "
                  "px; scores max rel diff %.2e",
                  branch.c_str(), static_cast<long long>(count), static_cast<long long>(mismatched),
                  static_cast<long long>(indexDiff), boxes, scores);
            // Without STAL (YOLOv8/YOLO11's assigner today) the tiny boxes lose or change anchors.
            auto plainOptions = options;
            plainOptions.stalMinSide = 0;
            const auto plain = taskAlignedAssign(ref(branch + "_scores").permute({0, 2, 1}).sigmoid(),
                                                 predBoxes, anchors * strides, ref("gt_labels"),
                                                 ref("gt_bboxes"), ref("mask_gt"), nc, plainOptions);
            const int64_t withoutStal = plain.foreground.ne(fg).sum().item<int64_t>();
            qInfo("assigner %s without STAL: %lld foreground anchors differ from Ultralytics", branch.c_str(),
                  static_cast<long long>(withoutStal));
            if (branch == "one2many") // on this batch STAL moves one-to-many anchors only
                QVERIFY(withoutStal > 0);
            QVERIFY(count > 0);
            QCOMPARE(mismatched, int64_t(0));
            QCOMPARE(indexDiff, int64_t(0));
            QCOMPARE(boxes, 0.0);
            QVERIFY2(scores <= 1e-4, branch.c_str());
        }
    }

    void lossMatchesUltralyticsAtTwoEpochs() {
        const int nc = static_cast<int>(ref("one2one_scores").size(1));
        const AnchorGrid grid{ref("anchor_points"), ref("stride_tensor"), 128, 160};
        const BatchTargets targets{ref("gt_labels"), ref("gt_bboxes"), ref("mask_gt")};
        EndToEndLoss loss(nc, 10);
        for (const int completed : {0, 6}) {
            loss.setCompletedEpochs(completed);
            const auto tag = "loss" + std::to_string(completed) + "_";
            HeadBranchOutput many{ref("one2many_boxes").clone().requires_grad_(),
                                  ref("one2many_scores").clone().requires_grad_()};
            HeadBranchOutput one{ref("one2one_boxes").clone().requires_grad_(),
                                 ref("one2one_scores").clone().requires_grad_()};
            const auto value = loss(many, one, grid, targets);
            value.total.backward();
            const auto weights = ref(tag + "weights");
            QVERIFY(std::abs(loss.oneToManyWeight() - weights[0].item<double>()) < 1e-7);
            QVERIFY(std::abs(loss.oneToOneWeight() - weights[1].item<double>()) < 1e-7);
            const double total = relativeDiff(value.total.detach().reshape({1}), ref(tag + "total"));
            const double manyParts = relativeDiff(value.oneToMany.parts, ref(tag + "one2many"));
            const double oneParts = relativeDiff(value.oneToOne.parts, ref(tag + "one2one"));
            const double logged = relativeDiff(value.oneToOne.parts, ref(tag + "logged"));
            double worstPart = 0;
            for (int i = 0; i < 3; ++i) {
                worstPart =
                    std::max({worstPart, relativeDiff(value.oneToMany.parts[i], ref(tag + "one2many")[i]),
                              relativeDiff(value.oneToOne.parts[i], ref(tag + "one2one")[i])});
            }
            double gradients = 0;
            for (const auto& [name, input] :
                 std::vector<std::pair<std::string, torch::Tensor>>{{"one2many_boxes", many.boxes},
                                                                    {"one2many_scores", many.scores},
                                                                    {"one2one_boxes", one.boxes},
                                                                    {"one2one_scores", one.scores}})
                gradients = std::max(gradients, relativeDiff(input.grad(), ref(tag + name + "_grad")));
            qInfo(
                "loss after %d epochs (weights %.4f / %.4f): total %.6f, rel diff total %.2e, one2many parts "
                "%.2e, one2one parts %.2e, logged %.2e, worst single part %.2e, input gradients %.2e",
                completed, loss.oneToManyWeight(), loss.oneToOneWeight(), value.total.item<double>(), total,
                manyParts, oneParts, logged, worstPart, gradients);
            QVERIFY(total <= 1e-4);
            QVERIFY(worstPart <= 1e-4);
            QVERIFY(logged <= 1e-4);
            QVERIFY(gradients <= 1e-4);
        }
    }

    void yolo11LossMatchesUltralyticsOnlyWithStal() {
        // Ultralytics 8.4.190's v8DetectionLoss (yolo11n, reg_max 16) on the same targets: Osprey's
        // DetectionLoss agrees with STAL on and differs without it (the 2-px box of image 0 has no anchor
        // centre).
        const int nc = static_cast<int>(ref("v8_scores").size(1));
        const auto raw = torch::cat({ref("v8_boxes"), ref("v8_scores")}, 1);
        std::vector<torch::Tensor> maps;
        int64_t offset = 0;
        for (const int stride : {8, 16, 32}) {
            const int64_t h = 128 / stride, w = 160 / stride;
            maps.push_back(raw.narrow(2, offset, h * w).reshape({raw.size(0), raw.size(1), h, w}));
            offset += h * w;
        }
        const BatchTargets targets{ref("gt_labels"), ref("gt_bboxes"), ref("mask_gt")};
        AssignerOptions stal;
        stal.stalMinSide = 16;
        const auto withStal = DetectionLoss(nc, {8, 16, 32}, {}, 16, stal)(maps, targets);
        const auto plain = DetectionLoss(nc, {8, 16, 32})(maps, targets);
        double matched = 0, unmatched = 0;
        for (int i = 0; i < 3; ++i) {
            matched = std::max(matched, relativeDiff(withStal.parts[i], ref("v8_loss")[i]));
            unmatched = std::max(unmatched, relativeDiff(plain.parts[i], ref("v8_loss")[i]));
        }
        qInfo(
            "yolo11n loss vs Ultralytics 8.4.190: worst part rel diff %.2e with STAL, %.2e without (Osprey's "
            "YOLOv8/YOLO11 default)",
            matched, unmatched);
        QVERIFY(matched <= 1e-4);
        QVERIFY(unmatched > 1e-3);
    }

    void muSgdMatchesUltralyticsOverTwoSteps() {
        const fs::path folder = m_dir.path().toStdString();
        auto model = buildModel(folder / "modules.txt");
        std::map<std::string, torch::Tensor> params;
        {
            torch::NoGradGuard noGrad;
            for (const auto& item : model->named_parameters()) {
                item.value().copy_(ref("param_" + item.key()));
                params[item.key()] = item.value();
            }
        }
        QCOMPARE(params.size(), size_t(std::count_if(m_ref.begin(), m_ref.end(), [](const auto& item) {
                     return item.first.rfind("param_", 0) == 0;
                 })));
        const auto groups = muSgdGroups(*model, {"model.23.cv3", "model.23.one2one_cv3"}, 0.01, 5e-4);
        // The groups are Ultralytics' group for group: the same parameters in the same order and settings.
        std::ifstream groupFile(folder / "groups.txt");
        std::string line;
        size_t index = 0;
        while (std::getline(groupFile, line)) {
            std::istringstream fields(line);
            double lr = 0, momentum = 0, decay = 0;
            int useMuon = 0, nesterov = 0;
            fields >> lr >> momentum >> decay >> useMuon >> nesterov;
            std::vector<std::string> names;
            for (std::string name; fields >> name;)
                names.push_back(name);
            QVERIFY(index < groups.size());
            const auto& group = groups[index++];
            QCOMPARE(group.names, names);
            QCOMPARE(group.lr, lr);
            QCOMPARE(group.weightDecay, decay);
            QCOMPARE(group.role == MuSgdGroup::Role::Muon, useMuon != 0);
            QCOMPARE(momentum, 0.9);
            QCOMPARE(nesterov, 1);
        }
        QCOMPARE(index, groups.size());

        MuSgd optimizer(toParamGroups(groups, 0.9));
        for (const int step : {1, 2}) {
            const auto before = [&] {
                std::map<std::string, torch::Tensor> copy;
                for (const auto& [name, p] : params)
                    copy[name] = p.detach().clone();
                return copy;
            }();
            for (auto& [name, p] : params)
                p.mutable_grad() = ref("grad" + std::to_string(step) + "_" + name).clone();
            optimizer.step();
            double weights = 0, updates = 0, buffers = 0;
            std::string worst;
            const auto tag = "step" + std::to_string(step) + "_";
            for (const auto& [name, p] : params) {
                const auto expected = ref(tag + name);
                const double weight = relativeDiff(p.detach(), expected);
                if (weight > weights)
                    worst = name;
                weights = std::max(weights, weight);
                updates =
                    std::max(updates, relativeDiff(p.detach() - before.at(name), expected - before.at(name)));
                const auto* state = optimizer.paramState(p);
                QVERIFY(state && state->momentumBuffer().defined());
                buffers =
                    std::max(buffers, relativeDiff(state->momentumBuffer(), ref(tag + "momentum_" + name)));
                const bool muon = m_ref.count(tag + "momentum_sgd_" + name) > 0;
                QCOMPARE(state->momentumBufferSgd().defined(), muon);
                if (muon)
                    buffers = std::max(
                        buffers, relativeDiff(state->momentumBufferSgd(), ref(tag + "momentum_sgd_" + name)));
            }
            qInfo("MuSGD step %d: max rel diff: weights %.2e (worst %s), the step's change %.2e, momentum "
                  "buffers "
                  "%.2e",
                  step, weights, worst.c_str(), updates, buffers);
            QVERIFY(weights <= 1e-5);
            QVERIFY(buffers <= 1e-5);
        }
    }
};

QTEST_GUILESS_MAIN(TestYolo26TrainUltralytics)
#include "tst_yolo26_train_ultralytics.moc"
