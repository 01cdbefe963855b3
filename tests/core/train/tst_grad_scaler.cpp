// Mixed precision on the CPU: the dynamic loss scaler against synthetic finite, inf and nan gradients
// (step taken or skipped, scale backed off and grown), the precision choice, and the compatibility
// header's autocast switch (a real bf16 autocast region on the CPU).
#include <torch/torch.h>

#include "model/compat_torch_impl.h"
#include "train/grad_scaler_impl.h"

#include <QtTest>

#include <cmath>
#include <limits>

using namespace osprey::train;
namespace compat = osprey::model::compat;

namespace {

// One parameter w = [1, 2, 3] with an SGD optimiser (lr 0.1, no momentum).
struct Toy {
    torch::Tensor weight = torch::tensor({1.0f, 2.0f, 3.0f}).requires_grad_(true);
    torch::optim::SGD optimizer{std::vector<torch::Tensor>{weight}, torch::optim::SGDOptions(0.1)};

    void setGrad(std::vector<float> values) { weight.mutable_grad() = torch::tensor(values); }
    std::vector<float> values() const {
        auto w = weight.detach().contiguous();
        return {w[0].item<float>(), w[1].item<float>(), w[2].item<float>()};
    }
};

} // namespace

class TestGradScaler : public QObject {
    Q_OBJECT

private slots:
    void finiteGradientsAreUnscaledAndStepped() {
        Toy toy;
        GradScaler scaler(true, {.initScale = 1024.0, .growthInterval = 2});
        const auto loss = torch::tensor(0.5f);
        QCOMPARE(scaler.scaleLoss(loss).item<float>(), 512.0f);
        // Gradients as backward() of the scaled loss leaves them: 1024 x the true gradient [1, 0, -2].
        toy.setGrad({1024.0f, 0.0f, -2048.0f});
        const auto outcome = scaler.step(toy.optimizer, {toy.weight}, 10.0);
        QVERIFY(outcome.stepped);
        QCOMPARE(outcome.scaleBefore, 1024.0);
        QCOMPARE(outcome.scaleAfter, 1024.0);
        QVERIFY(std::abs(outcome.gradNorm - std::sqrt(5.0)) < 1e-5);
        const auto w = toy.values();
        QVERIFY(std::abs(w[0] - 0.9f) < 1e-6f); // 1 - 0.1 x 1
        QVERIFY(std::abs(w[1] - 2.0f) < 1e-6f);
        QVERIFY(std::abs(w[2] - 3.2f) < 1e-6f); // 3 - 0.1 x (-2)
        // The second finite step in a row reaches the growth interval: the scale doubles.
        toy.optimizer.zero_grad();
        toy.setGrad({0.0f, 1024.0f, 0.0f});
        QCOMPARE(scaler.step(toy.optimizer, {toy.weight}, 10.0).scaleAfter, 2048.0);
        QCOMPARE(scaler.scale(), 2048.0);
    }

    void infAndNanGradientsSkipTheStepAndBackOff() {
        Toy toy;
        GradScaler scaler(true, {.initScale = 65536.0});
        const auto before = toy.values();
        toy.setGrad({1.0f, std::numeric_limits<float>::infinity(), 0.0f});
        auto outcome = scaler.step(toy.optimizer, {toy.weight}, 10.0);
        QVERIFY(!outcome.stepped);
        QVERIFY(!std::isfinite(outcome.gradNorm));
        QCOMPARE(outcome.scaleAfter, 32768.0);
        QCOMPARE(toy.values(), before); // the weights did not move
        const auto line = GradScaler::describeSkip(outcome, 12, 3);
        QVERIFY2(line.find("iteration 12 (epoch 3)") != std::string::npos, line.c_str());
        QVERIFY2(line.find("65536 -> 32768") != std::string::npos, line.c_str());

        toy.optimizer.zero_grad();
        toy.setGrad({std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f});
        outcome = scaler.step(toy.optimizer, {toy.weight}, 10.0);
        QVERIFY(!outcome.stepped);
        QCOMPARE(outcome.scaleAfter, 16384.0);
        QCOMPARE(toy.values(), before);
    }

    void disabledScalerStillSkipsNonFiniteSteps() {
        Toy toy;
        GradScaler scaler(false);
        QCOMPARE(scaler.scale(), 1.0);
        QCOMPARE(scaler.scaleLoss(torch::tensor(0.5f)).item<float>(), 0.5f);
        toy.setGrad({std::numeric_limits<float>::infinity(), 0.0f, 0.0f});
        const auto outcome = scaler.step(toy.optimizer, {toy.weight}, 10.0);
        QVERIFY(!outcome.stepped);
        QCOMPARE(outcome.scaleAfter, 1.0);
        QVERIFY(GradScaler::describeSkip(outcome, 4, 1).find("weights are unchanged") != std::string::npos);
        // Clipping applies to finite steps: a gradient of norm 50 is scaled to norm 10.
        toy.optimizer.zero_grad();
        toy.setGrad({30.0f, 40.0f, 0.0f});
        QVERIFY(scaler.step(toy.optimizer, {toy.weight}, 10.0).stepped);
        const auto w = toy.values();
        QVERIFY(std::abs(w[0] - (1.0f - 0.1f * 6.0f)) < 1e-5f);
        QVERIFY(std::abs(w[1] - (2.0f - 0.1f * 8.0f)) < 1e-5f);
    }

    void precisionChoice() {
        QCOMPARE(choosePrecision(true, true, true), Precision::BFloat16);
        QCOMPARE(choosePrecision(true, true, false), Precision::Float16);
        QCOMPARE(choosePrecision(false, true, true), Precision::Float32);
        QCOMPARE(choosePrecision(true, false, true), Precision::BFloat16); // a CPU with fast bf16
        QCOMPARE(choosePrecision(true, false, false), Precision::Float32); // a CPU without: no fp16
        QCOMPARE(choosePrecision(false, false, true), Precision::Float32);
        QCOMPARE(autocastType(Precision::Float16), at::kHalf);
        QCOMPARE(autocastType(Precision::BFloat16), at::kBFloat16);
        QCOMPARE(std::string(toString(Precision::Float16)), std::string("fp16"));
    }

    void compatAutocastOnTheCpu() {
        const auto a = torch::rand({8, 8});
        const auto b = torch::rand({8, 8});
        {
            compat::AutocastScope scope(c10::DeviceType::CPU, at::kBFloat16, true);
            QCOMPARE(torch::mm(a, b).scalar_type(), at::kBFloat16);
        }
        QCOMPARE(torch::mm(a, b).scalar_type(), at::kFloat);
        {
            compat::AutocastScope off(c10::DeviceType::CPU, at::kBFloat16, false);
            QCOMPARE(torch::mm(a, b).scalar_type(), at::kFloat);
        }
        QVERIFY(!compat::torchVersion().empty());
        // Out-of-memory errors are recognised by type and by the allocator's message.
        try {
            TORCH_CHECK_WITH(OutOfMemoryError, false, "CUDA out of memory. Tried to allocate 2.00 GiB");
        } catch (const std::exception& error) {
            QVERIFY(compat::isOutOfMemory(error));
        }
        QVERIFY(!compat::isOutOfMemory(std::runtime_error("shape mismatch")));
        QVERIFY(compat::isOutOfMemory(std::runtime_error("CUDA error: out of memory")));
    }
};

QTEST_APPLESS_MAIN(TestGradScaler)
#include "tst_grad_scaler.moc"
