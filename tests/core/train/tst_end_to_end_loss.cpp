// YOLO26's training loss against hand-computed values: the branch weights over the epochs, the one-to-one
// assigner's topk2, STAL's widened candidate boxes, and both branch losses (BCE, CIoU, L1 on normalised
// ltrb) on a 4x4 grid where every term can be worked out on paper.
#include <torch/torch.h>

#include "train/assigner_impl.h"
#include "train/end_to_end_loss_impl.h"

#include <QtTest>

#include <cmath>

using namespace osprey::train;

namespace {

torch::Tensor box(float x1, float y1, float x2, float y2) {
    return torch::tensor({x1, y1, x2, y2});
}

// A 4x4 grid of anchors at stride 8 in pixels (centres 4, 12, 20, 28), row-major as makeAnchors lays
// them out; in grid units they sit at 0.5, 1.5, 2.5, 3.5.
torch::Tensor gridAnchorsPx() {
    std::vector<float> points;
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            points.push_back(4.0f + 8.0f * x);
            points.push_back(4.0f + 8.0f * y);
        }
    return torch::tensor(points).view({16, 2});
}

int anchorAt(float xPx, float yPx) {
    return static_cast<int>((yPx - 4) / 8) * 4 + static_cast<int>((xPx - 4) / 8);
}

// Predicted boxes 8 px square around every anchor.
torch::Tensor cellBoxes(const torch::Tensor& anchors) {
    auto boxes = torch::zeros({1, 16, 4});
    for (int a = 0; a < 16; ++a)
        boxes[0][a] = torch::cat({anchors[a] - 4, anchors[a] + 4});
    return boxes;
}

// Scores that differ per anchor, so that top-k never meets a tie among candidates.
torch::Tensor distinctScores(int numClasses) {
    return (torch::arange(1, 17, torch::kFloat) / 20)
        .view({1, 16, 1})
        .expand({1, 16, numClasses})
        .contiguous();
}

// The 4x4 grid as the loss sees it: grid units, stride 8, a 32x32 image.
AnchorGrid lossGrid() {
    return {gridAnchorsPx() / 8, torch::full({16, 1}, 8.0f), 32, 32};
}

} // namespace

class TestEndToEndLoss : public QObject {
    Q_OBJECT
private slots:
    void branchWeightsMoveFromOneToManyToOneToOne() {
        // E = 11: first epoch 0.8 / 0.2, the middle (u = 5) 0.45 / 0.55, the last (u = 10) 0.1 / 0.9.
        QVERIFY(std::abs(EndToEndLoss::oneToManyWeight(0, 11) - 0.8) < 1e-12);
        QVERIFY(std::abs(EndToEndLoss::oneToOneWeight(0, 11) - 0.2) < 1e-12);
        QVERIFY(std::abs(EndToEndLoss::oneToManyWeight(5, 11) - 0.45) < 1e-12);
        QVERIFY(std::abs(EndToEndLoss::oneToOneWeight(5, 11) - 0.55) < 1e-12);
        QVERIFY(std::abs(EndToEndLoss::oneToManyWeight(10, 11) - 0.1) < 1e-12);
        QVERIFY(std::abs(EndToEndLoss::oneToOneWeight(10, 11) - 0.9) < 1e-12);
        // Past the last epoch it stays at 0.1; a 1-epoch run divides by 1, not 0.
        QVERIFY(std::abs(EndToEndLoss::oneToManyWeight(20, 11) - 0.1) < 1e-12);
        QVERIFY(std::abs(EndToEndLoss::oneToManyWeight(0, 1) - 0.8) < 1e-12);
        QVERIFY(std::abs(EndToEndLoss::oneToManyWeight(1, 1) - 0.1) < 1e-12);
    }
    void updateCountsEpochsAndResumeSetsThem() {
        EndToEndLoss loss(2, 11);
        QCOMPARE(loss.completedEpochs(), 0);
        loss.update();
        loss.update();
        QCOMPARE(loss.completedEpochs(), 2);
        QVERIFY(std::abs(loss.oneToManyWeight() - 0.66) < 1e-12);
        loss.setCompletedEpochs(5);
        QVERIFY(std::abs(loss.oneToOneWeight() - 0.55) < 1e-12);
    }
    void branchAssignersAreUltralytics() {
        const auto many = EndToEndLoss::oneToManyAssigner();
        QCOMPARE(many.topk, 10);
        QCOMPARE(many.topk2, 0);
        QCOMPARE(many.stalMinSide, 16.0);
        const auto one = EndToEndLoss::oneToOneAssigner();
        QCOMPARE(one.topk, 7);
        QCOMPARE(one.topk2, 1);
        QCOMPARE(one.stalMinSide, 16.0);
        // YOLOv8/YOLO11's defaults are unchanged: plain TAL.
        const AssignerOptions plain;
        QCOMPARE(plain.topk, 10);
        QCOMPARE(plain.topk2, 0);
        QCOMPARE(plain.stalMinSide, 0.0);
    }
    void topk2KeepsOneAnchorPerGt() {
        const auto anchors = gridAnchorsPx();
        auto predBoxes = cellBoxes(anchors);
        predBoxes[0][anchorAt(12, 12)] = box(1, 1, 16, 16);   // the best prediction of GT 0
        predBoxes[0][anchorAt(20, 20)] = box(16, 16, 32, 31); // the best prediction of GT 1
        const auto gtBoxes = torch::stack({box(0, 0, 16, 16), box(16, 16, 32, 32)}).view({1, 2, 4});
        const auto labels = torch::tensor({0.0f, 1.0f}).view({1, 2, 1});
        const auto mask = torch::ones({1, 2, 1});
        AssignerOptions options;
        options.topk = 7;
        const auto many =
            taskAlignedAssign(distinctScores(2), predBoxes, anchors, labels, gtBoxes, mask, 2, options);
        QCOMPARE(many.foreground.sum().item<int>(), 8); // four anchor centres inside each GT
        options.topk2 = 1;
        const auto one =
            taskAlignedAssign(distinctScores(2), predBoxes, anchors, labels, gtBoxes, mask, 2, options);
        QCOMPARE(one.foreground.sum().item<int>(), 2);
        QVERIFY(one.foreground[0][anchorAt(12, 12)].item<bool>());
        QVERIFY(one.foreground[0][anchorAt(20, 20)].item<bool>());
        QCOMPARE(one.targetIndex[0][anchorAt(20, 20)].item<long>(), 1L);
        // The single anchor's class target is its own CIoU (its GT's best IoU over its best alignment).
        const double iou = ciou(box(1, 1, 16, 16), box(0, 0, 16, 16)).item<double>();
        QVERIFY(std::abs(one.targetScores[0][anchorAt(12, 12)][0].item<double>() - iou) < 1e-6);
        QCOMPARE(one.targetScores.sum(-1).gt(0).sum().item<int>(), 2);
    }
    void stalWidensOnlyTheCandidateTestOfATinyBox() {
        const auto anchors = gridAnchorsPx();
        // A 4-px box between anchor centres (14..18): no centre lies inside it.
        const auto tiny = box(14, 14, 18, 18);
        auto predBoxes = cellBoxes(anchors);
        for (const int a : {anchorAt(12, 12), anchorAt(20, 12), anchorAt(12, 20), anchorAt(20, 20)})
            predBoxes[0][a] = box(13, 13, 19, 19);
        const auto labels = torch::zeros({1, 1, 1});
        const auto mask = torch::ones({1, 1, 1});
        const auto plain =
            taskAlignedAssign(distinctScores(1), predBoxes, anchors, labels, tiny.view({1, 1, 4}), mask, 1);
        QCOMPARE(plain.foreground.sum().item<int>(), 0);
        AssignerOptions stal;
        stal.stalMinSide = 16;
        const auto widened = taskAlignedAssign(distinctScores(1), predBoxes, anchors, labels,
                                               tiny.view({1, 1, 4}), mask, 1, stal);
        // Widened to 8..24 about its centre: the four centres at 12 and 20 are candidates.
        QCOMPARE(widened.foreground.sum().item<int>(), 4);
        QVERIFY(widened.foreground[0][anchorAt(20, 20)].item<bool>());
        // The targets are the real 4-px box, and the score targets use the IoU with it.
        QCOMPARE(widened.targetBoxes[0][anchorAt(12, 12)][0].item<float>(), 14.0f);
        QCOMPARE(widened.targetBoxes[0][anchorAt(12, 12)][2].item<float>(), 18.0f);
        const double iou = ciou(box(13, 13, 19, 19), tiny).item<double>();
        QVERIFY(std::abs(widened.targetScores.max().item<double>() - iou) < 1e-6);
        // Only sides below 16 are widened: a 4x20 box keeps its height; a 20x20 box gains nothing.
        const auto tallBox = box(14, 1, 18, 21);
        const auto tall = taskAlignedAssign(distinctScores(1), tallBox.expand({1, 16, 4}), anchors, labels,
                                            tallBox.view({1, 1, 4}), mask, 1, stal);
        QCOMPARE(tall.foreground.sum().item<int>(), 6); // x 12 and 20 (8..24), y 4, 12 and 20 (1..21)
        QVERIFY(!tall.foreground[0][anchorAt(12, 28)].item<bool>());
        const auto large = box(2, 2, 22, 22).view({1, 1, 4});
        const auto withStal =
            taskAlignedAssign(distinctScores(1), predBoxes, anchors, labels, large, mask, 1, stal);
        const auto without = taskAlignedAssign(distinctScores(1), predBoxes, anchors, labels, large, mask, 1);
        QVERIFY(torch::equal(withStal.foreground, without.foreground));
        QVERIFY(torch::equal(withStal.targetScores, without.targetScores));
    }
    void branchLossesByHand() {
        // One image, one GT (0, 0, 16, 16) px of class 1 of 2. Every anchor predicts its own 8-px cell
        // (raw ltrb 0.5 grid units) except anchor (4, 4), which predicts the GT exactly; all logits 0.
        const int nc = 2;
        const auto grid = lossGrid();
        auto raw = torch::full({1, 4, 16}, 0.5f);
        raw[0].select(1, anchorAt(4, 4)) = torch::tensor({0.5f, 0.5f, 1.5f, 1.5f});
        const HeadBranchOutput branch{raw, torch::zeros({1, nc, 16})};
        const auto targets =
            padTargets(torch::tensor({0.0f, 1.0f, 0.0f, 0.0f, 16.0f, 16.0f}).view({1, 6}), 1);
        EndToEndLoss loss(nc, 11);

        // One-to-one: the perfect anchor alone, target score 1: no box or L1 loss; BCE of logit 0 is ln 2
        // for every anchor and class.
        const auto one = loss.branchLoss(branch, grid, targets, EndToEndLoss::oneToOneAssigner());
        QVERIFY(std::abs(one.parts[0].item<double>()) < 1e-6);
        QVERIFY(std::abs(one.parts[1].item<double>() - 16 * nc * std::log(2.0) * 0.5) < 1e-4);
        QVERIFY(std::abs(one.parts[2].item<double>()) < 1e-6);

        // One-to-many: the three other anchors inside the GT join with target score CIoU^6 (their CIoU is
        // IoU 1/4 - centre term 32/512 = 0.1875); each one's |ltrb error| is 1 grid unit on two sides,
        // 8 px of 32: mean 0.125.
        const auto many = loss.branchLoss(branch, grid, targets, EndToEndLoss::oneToManyAssigner());
        const double t = std::pow(0.1875, 6.0);
        const double sum = 1 + 3 * t;
        QVERIFY(std::abs(many.parts[0].item<double>() - 7.5 * 3 * (1 - 0.1875) * t / sum) < 1e-7);
        QVERIFY(std::abs(many.parts[1].item<double>() - 16 * nc * std::log(2.0) * 0.5 / sum) < 1e-4);
        QVERIFY(std::abs(many.parts[2].item<double>() - 1.5 * 3 * 0.125 * t / sum) < 1e-8);
        QVERIFY(many.parts[0].item<double>() > 0);

        // The total mixes the branches with the epoch's weights, x batch size.
        const auto value = loss(branch, branch, grid, targets);
        const double expected = 0.8 * many.parts.sum().item<double>() + 0.2 * one.parts.sum().item<double>();
        QVERIFY(std::abs(value.total.item<double>() - expected) < 1e-5);
        QVERIFY(torch::allclose(value.oneToOne.parts, one.parts));
        loss.setCompletedEpochs(10);
        const double last = 0.1 * many.parts.sum().item<double>() + 0.9 * one.parts.sum().item<double>();
        QVERIFY(std::abs(loss(branch, branch, grid, targets).total.item<double>() - last) < 1e-5);
    }
    void gradientsReachBothBranches() {
        const int nc = 3;
        const auto grid = lossGrid();
        auto manyBoxes = torch::full({2, 4, 16}, 0.7f).requires_grad_();
        auto manyScores = torch::zeros({2, nc, 16}).requires_grad_();
        auto oneBoxes = torch::full({2, 4, 16}, 0.6f).requires_grad_();
        auto oneScores = torch::zeros({2, nc, 16}).requires_grad_();
        // Image 0 has a box, image 1 none.
        const auto targets =
            padTargets(torch::tensor({0.0f, 2.0f, 3.0f, 5.0f, 20.0f, 14.0f}).view({1, 6}), 2);
        EndToEndLoss loss(nc, 5);
        auto value = loss({manyBoxes, manyScores}, {oneBoxes, oneScores}, grid, targets);
        QVERIFY(std::isfinite(value.total.item<double>()));
        value.total.backward();
        QVERIFY(manyBoxes.grad().abs().sum().item<double>() > 0);
        QVERIFY(oneBoxes.grad().abs().sum().item<double>() > 0);
        QVERIFY(oneScores.grad()[1].abs().sum().item<double>() > 0); // the empty image's background
        QCOMPARE(manyBoxes.grad()[1].abs().sum().item<double>(), 0.0);
    }
    void batchWithoutBoxesHasOnlyClassLoss() {
        const int nc = 2;
        const auto targets = padTargets(torch::zeros({0, 6}), 2);
        EndToEndLoss loss(nc, 5);
        const HeadBranchOutput branch{torch::full({2, 4, 16}, 0.5f), torch::zeros({2, nc, 16})};
        const auto value = loss(branch, branch, lossGrid(), targets);
        QCOMPARE(value.oneToOne.parts[0].item<double>(), 0.0);
        QCOMPARE(value.oneToOne.parts[2].item<double>(), 0.0);
        QVERIFY(std::abs(value.oneToOne.parts[1].item<double>() - 2 * 16 * nc * std::log(2.0) * 0.5) < 1e-4);
        QVERIFY(std::abs(value.total.item<double>() - 2 * value.oneToOne.parts[1].item<double>()) < 1e-4);
    }
};

QTEST_APPLESS_MAIN(TestEndToEndLoss)
#include "tst_end_to_end_loss.moc"
