// The loss building blocks against hand-computed values: CIoU, DFL and its targets, the Task-Aligned
// Assigner's choices, target padding, and the schedule arithmetic.
#include <torch/torch.h>

#include "train/assigner_impl.h"
#include "train/detection_loss_impl.h"
#include "train/optimizer_impl.h"
#include "train/schedule.h"

#include <QtTest>

#include <cmath>

using namespace osprey::train;
using namespace osprey::run;

namespace {

torch::Tensor box(float x1, float y1, float x2, float y2) {
    return torch::tensor({x1, y1, x2, y2});
}

// A 4x4 grid of anchors at stride 8 (centres 4, 12, 20, 28), row-major as makeAnchors lays them out.
torch::Tensor gridAnchors() {
    std::vector<float> points;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            points.push_back(4.0f + 8.0f * x);
            points.push_back(4.0f + 8.0f * y);
        }
    return torch::tensor(points).view({16, 2});
}

int anchorAt(float x, float y) {
    return static_cast<int>((y - 4) / 8) * 4 + static_cast<int>((x - 4) / 8);
}

} // namespace

class TestTrainLoss : public QObject {
    Q_OBJECT
private slots:
    void ciouOfSquaresWithSameAspect() {
        // IoU 1/7, enclosing diagonal^2 18, centre distance^2 2, no aspect term: 1/7 - 2/18.
        const double value = ciou(box(0, 0, 2, 2), box(1, 1, 3, 3)).item<double>();
        QVERIFY(std::abs(value - (1.0 / 7.0 - 2.0 / 18.0)) < 1e-5);
    }
    void ciouWithAspectTerm() {
        // IoU 1/3, rho2/c2 = 2/32, v = 4/pi^2 (atan(1/2) - atan(2))^2, alpha = v / (v - iou + 1).
        const double v = 4 / (M_PI * M_PI) * std::pow(std::atan(0.5) - std::atan(2.0), 2);
        const double expected = 1.0 / 3 - 2.0 / 32 - v * v / (v - 1.0 / 3 + 1);
        const double value = ciou(box(0, 0, 4, 2), box(0, 0, 2, 4)).item<double>();
        QVERIFY2(std::abs(value - expected) < 1e-5, qPrintable(QString::number(value)));
        QVERIFY(std::abs(expected - 0.2370817) < 1e-6);
    }
    void ciouOfIdenticalBoxesIsOne() {
        QVERIFY(std::abs(ciou(box(3, 4, 10, 20), box(3, 4, 10, 20)).item<double>() - 1.0) < 1e-5);
        QVERIFY(ciou(box(0, 0, 1, 1), box(10, 10, 11, 11)).item<double>() < 0);
    }
    void dflTargetsAreClampedLtrb() {
        const auto anchors = torch::tensor({5.0f, 5.0f}).view({1, 2});
        const auto distances = boxesToDistances(anchors, box(0, 0, 30, 8).view({1, 4}), 15);
        const auto d = distances.view({4});
        QCOMPARE(d[0].item<float>(), 5.0f);
        QCOMPARE(d[1].item<float>(), 5.0f);
        QVERIFY(std::abs(d[2].item<float>() - 14.99f) < 1e-5); // 25 clamped to reg_max - 1 - 0.01
        QCOMPARE(d[3].item<float>(), 3.0f);
        // Inside-out: a box behind the anchor clamps to 0.
        const auto behind = boxesToDistances(anchors, box(6, 6, 9, 9).view({1, 4}), 15).view({4});
        QCOMPARE(behind[0].item<float>(), 0.0f);
    }
    void dflTwoBinCrossEntropy() {
        // Target 3.3: 0.7 x CE(bin 3) + 0.3 x CE(bin 4); logits 2 at bin 3, 1 at bin 4, 0 elsewhere.
        auto logits = torch::zeros({1, 16});
        logits[0][3] = 2.0;
        logits[0][4] = 1.0;
        const double lse = std::log(14 + std::exp(2.0) + std::exp(1.0));
        const double expected = 0.7 * (lse - 2) + 0.3 * (lse - 1);
        const double value = distributionFocalLoss(logits, torch::tensor({3.3f})).item<double>();
        QVERIFY2(std::abs(value - expected) < 1e-5, qPrintable(QString::number(value)));
        QVERIFY(std::abs(expected - 1.4825163) < 1e-6);
    }
    void assignerPicksAnchorsInsideTheBox() {
        const auto anchors = gridAnchors();
        auto predBoxes = torch::zeros({1, 16, 4});
        for (int a = 0; a < 16; ++a)
            predBoxes[0][a] = torch::cat({anchors[a] - 4, anchors[a] + 4});
        predBoxes[0][anchorAt(4, 4)] = box(0, 0, 16, 16); // a perfect prediction
        const auto scores = torch::full({1, 16, 3}, 0.5f);
        const auto gtLabels = torch::tensor({1.0f}).view({1, 1, 1});
        const auto gtBoxes = box(0, 0, 16, 16).view({1, 1, 4});
        const auto mask = torch::ones({1, 1, 1});
        const auto result = taskAlignedAssign(scores, predBoxes, anchors, gtLabels, gtBoxes, mask, 3);
        const auto fg = result.foreground[0];
        QCOMPARE(fg.sum().item<int>(), 4);
        for (const auto& [x, y] : std::vector<std::pair<float, float>>{{4, 4}, {12, 4}, {4, 12}, {12, 12}})
            QVERIFY(fg[anchorAt(x, y)].item<bool>());
        QVERIFY(!fg[anchorAt(20, 4)].item<bool>());
        // The best-aligned anchor's class target equals the GT's best IoU (1); other classes get 0.
        QVERIFY(std::abs(result.targetScores[0][anchorAt(4, 4)][1].item<float>() - 1.0f) < 1e-4);
        QCOMPARE(result.targetScores[0][anchorAt(4, 4)][0].item<float>(), 0.0f);
        // Another anchor: its alignment relative to the best, times the best IoU.
        const double iou = ciou(predBoxes[0][anchorAt(12, 12)], box(0, 0, 16, 16)).item<double>();
        const double expected = std::pow(std::max(iou, 0.0), 6.0);
        QVERIFY(std::abs(result.targetScores[0][anchorAt(12, 12)][1].item<double>() - expected) < 1e-4);
        QCOMPARE(result.targetBoxes[0][anchorAt(12, 4)][2].item<float>(), 16.0f);
        QCOMPARE(result.targetScores[0][anchorAt(20, 20)].sum().item<float>(), 0.0f);
    }
    void assignerTopkLimitsCandidates() {
        const auto anchors = gridAnchors();
        auto predBoxes = torch::zeros({1, 16, 4});
        for (int a = 0; a < 16; ++a)
            predBoxes[0][a] = torch::cat({anchors[a] - 4, anchors[a] + 4});
        predBoxes[0][anchorAt(4, 4)] = box(0, 0, 16, 16);
        predBoxes[0][anchorAt(12, 12)] = box(1, 1, 16, 16);
        const auto scores = torch::full({1, 16, 1}, 0.5f);
        AssignerOptions options;
        options.topk = 2;
        const auto result =
            taskAlignedAssign(scores, predBoxes, anchors, torch::zeros({1, 1, 1}),
                              box(0, 0, 16, 16).view({1, 1, 4}), torch::ones({1, 1, 1}), 1, options);
        QCOMPARE(result.foreground.sum().item<int>(), 2);
        QVERIFY(result.foreground[0][anchorAt(4, 4)].item<bool>());
        QVERIFY(result.foreground[0][anchorAt(12, 12)].item<bool>());
    }
    void assignerGivesSharedAnchorToHighestIou() {
        const auto anchors = gridAnchors();
        auto predBoxes = torch::zeros({1, 16, 4});
        for (int a = 0; a < 16; ++a)
            predBoxes[0][a] = torch::cat({anchors[a] - 4, anchors[a] + 4});
        // Anchor (12, 4) lies inside both GTs and predicts GT B exactly.
        predBoxes[0][anchorAt(12, 4)] = box(8, 0, 24, 16);
        const auto scores = torch::full({1, 16, 3}, 0.5f);
        const auto gtLabels = torch::tensor({0.0f, 2.0f}).view({1, 2, 1});
        const auto gtBoxes = torch::stack({box(0, 0, 16, 16), box(8, 0, 24, 16)}).view({1, 2, 4});
        const auto result =
            taskAlignedAssign(scores, predBoxes, anchors, gtLabels, gtBoxes, torch::ones({1, 2, 1}), 3);
        QVERIFY(result.foreground[0][anchorAt(12, 4)].item<bool>());
        QCOMPARE(result.targetIndex[0][anchorAt(12, 4)].item<long>(), 1L);
        QVERIFY(result.targetScores[0][anchorAt(12, 4)][2].item<float>() > 0.99f);
        QCOMPARE(result.targetScores[0][anchorAt(12, 4)][0].item<float>(), 0.0f);
        QCOMPARE(result.targetIndex[0][anchorAt(4, 4)].item<long>(), 0L);
    }
    void assignerIgnoresPaddingRows() {
        const auto anchors = gridAnchors();
        auto predBoxes = torch::zeros({1, 16, 4});
        for (int a = 0; a < 16; ++a)
            predBoxes[0][a] = torch::cat({anchors[a] - 4, anchors[a] + 4});
        const auto result =
            taskAlignedAssign(torch::full({1, 16, 2}, 0.5f), predBoxes, anchors, torch::zeros({1, 2, 1}),
                              torch::zeros({1, 2, 4}), torch::zeros({1, 2, 1}), 2);
        QCOMPARE(result.foreground.sum().item<int>(), 0);
        QCOMPARE(result.targetScores.sum().item<float>(), 0.0f);
    }
    void padTargetsGroupsByImage() {
        const auto rows = torch::tensor({1.0f, 2.0f, 10.0f, 10.0f, 20.0f, 20.0f, 0.0f, 1.0f, 0.0f, 0.0f, 5.0f,
                                         5.0f, 1.0f, 3.0f, 1.0f, 1.0f, 2.0f, 2.0f})
                              .view({3, 6});
        const auto t = padTargets(rows, 3);
        QCOMPARE(t.boxes.size(1), 2L);
        QCOMPARE(t.mask.sum().item<float>(), 3.0f);
        QCOMPARE(t.labels[1][0][0].item<float>(), 2.0f);
        QCOMPARE(t.labels[1][1][0].item<float>(), 3.0f);
        QCOMPARE(t.boxes[0][0][2].item<float>(), 5.0f);
        QCOMPARE(t.mask[2].sum().item<float>(), 0.0f);
    }
    void lossFallsWhenPredictionsMatch() {
        // A loss on a real head output: finite, positive, and gradients reach the maps.
        const int nc = 2;
        std::vector<torch::Tensor> raw{torch::zeros({1, 64 + nc, 4, 4}, torch::requires_grad()),
                                       torch::zeros({1, 64 + nc, 2, 2}, torch::requires_grad()),
                                       torch::zeros({1, 64 + nc, 1, 1}, torch::requires_grad())};
        DetectionLoss loss(nc, {8, 16, 32});
        const auto targets =
            padTargets(torch::tensor({0.0f, 1.0f, 2.0f, 2.0f, 20.0f, 14.0f}).view({1, 6}), 1);
        auto value = loss(raw, targets);
        QVERIFY(std::isfinite(value.total.item<double>()));
        QVERIFY(value.parts[0].item<double>() > 0);
        QVERIFY(value.parts[2].item<double>() > 0);
        value.total.backward();
        QVERIFY(raw[0].grad().abs().sum().item<double>() > 0);
    }
    void scheduleArithmetic() {
        QCOMPARE(lrFactor(LrSchedule::Linear, 0, 100, 0.01), 1.0);
        QVERIFY(std::abs(lrFactor(LrSchedule::Linear, 50, 100, 0.01) - 0.505) < 1e-12);
        QVERIFY(std::abs(lrFactor(LrSchedule::Cosine, 50, 100, 0.01) - 0.505) < 1e-12);
        QVERIFY(std::abs(lrFactor(LrSchedule::Cosine, 100, 100, 0.01) - 0.01) < 1e-12);
        QCOMPARE(warmupIterations(3, 25), 100);
        QCOMPARE(warmupIterations(3, 100), 300);
        QCOMPARE(warmupIterations(0, 100), 0);
        QCOMPARE(accumulateSteps(16, 64), 4);
        QCOMPARE(accumulateSteps(48, 64), 1);
        QCOMPARE(scaledWeightDecay(5e-4, 16, 4, 64), 5e-4);
        QVERIFY(std::abs(emaDecay(2000) - 0.6320573) < 1e-6);
        const auto bias = warmupValues(50, 100, true, 0.01, 0.1, 0.8, 0.937);
        QVERIFY(std::abs(bias.lr - 0.055) < 1e-12);
        QVERIFY(std::abs(bias.momentum - 0.8685) < 1e-12);
        QVERIFY(std::abs(warmupValues(50, 100, false, 0.01, 0.1, 0.8, 0.937).lr - 0.005) < 1e-12);
    }
    void autoOptimizerRule() {
        TrainConfig config;
        config.epochs = 30;
        config.batch = 16;
        const auto small = chooseOptimizer(config, 400, 4);
        QVERIFY(small.kind == OptimizerKind::AdamW);
        QCOMPARE(small.lr, 0.00125);
        QCOMPARE(small.momentum, 0.9);
        // From scratch the biases warm up from warmup_bias_lr (issue 37: 0 cost the demo run 0.1 mAP50-95);
        // from pretrained weights from 0, as Ultralytics' auto does (0.1 under AdamW wrecks the start).
        QCOMPARE(small.warmupBiasLr, 0.1);
        QCOMPARE(small.warmupBiasLr, config.warmupBiasLr);
        config.weights = "yolov8n.pt";
        QCOMPARE(chooseOptimizer(config, 400, 4).warmupBiasLr, 0.0);
        config.weights.clear();
        config.epochs = 100;
        const auto large = chooseOptimizer(config, 7000, 80); // 110 x 100 = 11,000 iterations
        QVERIFY(large.kind == OptimizerKind::Sgd);
        QCOMPARE(large.lr, 0.01);
        QCOMPARE(large.warmupBiasLr, 0.1);
        config.weights = "yolov8n.pt";
        QCOMPARE(chooseOptimizer(config, 7000, 80).warmupBiasLr, 0.0);
        config.weights.clear();
        config.optimizer = OptimizerKind::Sgd;
        config.lr0 = 0.02;
        QCOMPARE(chooseOptimizer(config, 10, 1).lr, 0.02);
        QCOMPARE(chooseOptimizer(config, 10, 1).warmupBiasLr, config.warmupBiasLr);
    }
    void parameterGroupsFollowTheRecipe() {
        auto net = torch::nn::Sequential(torch::nn::Conv2d(torch::nn::Conv2dOptions(3, 4, 3).bias(false)),
                                         torch::nn::BatchNorm2d(4), torch::nn::Conv2d(4, 2, 1));
        const auto groups = splitParameters(*net);
        QCOMPARE(groups.weights.size(), size_t(2)); // both conv weights
        QCOMPARE(groups.norms.size(), size_t(1));   // the BatchNorm weight
        QCOMPARE(groups.biases.size(), size_t(2));  // BatchNorm bias and conv bias
        RecipeOptimizer sgd(*net, {OptimizerKind::Sgd, 0.01, 0.937}, 5e-4);
        QCOMPARE(sgd.get().param_groups().size(), size_t(3));
        sgd.setLr(kBiasGroup, 0.1);
        QCOMPARE(sgd.lr(kBiasGroup), 0.1);
        QCOMPARE(sgd.lr(kWeightsGroup), 0.01);
        const auto& options = static_cast<torch::optim::SGDOptions&>(sgd.get().param_groups()[0].options());
        QCOMPARE(options.weight_decay(), 5e-4);
        QVERIFY(options.nesterov());
        QCOMPARE(static_cast<torch::optim::SGDOptions&>(sgd.get().param_groups()[2].options()).weight_decay(),
                 0.0);
    }
};

QTEST_APPLESS_MAIN(TestTrainLoss)
#include "tst_train_loss.moc"
