// The fused BatchNorm + SiLU node against LibTorch's own batch_norm and silu: outputs, running statistics
// and all three gradients, in float32 and in bf16, on shapes whose channel counts are not multiples of a
// vector width, inputs far from zero mean (a border row far from the rest included), a dense and a depthwise
// block trained many steps, and a Conv block wired to it; and the inputs it must leave to LibTorch.
#include "model/batch_norm_silu_torch_impl.h"
#include "model/blocks_torch_impl.h"
#include "model/compat_torch_impl.h"

#include "tensor_compare.h"

#include <QtTest>

using namespace osprey::model;
using osprey::test::maxRelative;

namespace {

torch::nn::BatchNorm2d makeBatchNorm(int channels) {
    torch::nn::BatchNorm2d bn(torch::nn::BatchNorm2dOptions(channels).eps(1e-3).momentum(0.03));
    torch::NoGradGuard noGrad;
    bn->weight.uniform_(0.5, 1.5);
    bn->bias.uniform_(-0.5, 0.5);
    bn->running_mean.uniform_(-1, 1);
    bn->running_var.uniform_(0.5, 2);
    bn->train();
    return bn;
}

torch::nn::BatchNorm2d copyOf(const torch::nn::BatchNorm2d& bn) {
    auto copy = makeBatchNorm(static_cast<int>(bn->options.num_features()));
    torch::NoGradGuard noGrad;
    copy->weight.copy_(bn->weight);
    copy->bias.copy_(bn->bias);
    copy->running_mean.copy_(bn->running_mean);
    copy->running_var.copy_(bn->running_var);
    copy->num_batches_tracked.copy_(bn->num_batches_tracked);
    return copy;
}

struct Result {
    torch::Tensor out, dx, dWeight, dBias, runningMean, runningVar, batches;
};

// One forward and backward with gradient `grad`, through the fused node or LibTorch's ops. LibTorch's ops
// take a float32 input in NCHW: its channels-last float32 BatchNorm takes the variance in a way that loses
// digits when a few values lie far from the rest (2e-4 relative against float64 on the border case below,
// where its NCHW kernel is within 1e-7), and the reference is meant to be exact to float rounding.
Result run(torch::nn::BatchNorm2d bn, const torch::Tensor& input, const torch::Tensor& grad, bool fused) {
    const bool nchw = !fused && input.scalar_type() == torch::kFloat;
    auto x = input.detach()
                 .clone(nchw ? at::MemoryFormat::Contiguous : at::MemoryFormat::ChannelsLast)
                 .requires_grad_(true);
    bn->weight.mutable_grad() = torch::Tensor();
    bn->bias.mutable_grad() = torch::Tensor();
    auto out = fused ? batchNormSilu(*bn, x) : torch::silu(bn->forward(x));
    out.backward(grad);
    return {out.detach(),
            x.grad(),
            bn->weight.grad().clone(),
            bn->bias.grad().clone(),
            bn->running_mean.clone(),
            bn->running_var.clone(),
            bn->num_batches_tracked.clone()};
}

} // namespace

class TestBatchNormSilu : public QObject {
    Q_OBJECT

private slots:
    void matchesLibTorch_data() {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::addColumn<bool>("bf16");
        QTest::addColumn<double>("tolerance");
        QTest::addColumn<bool>("border");
        // float32: LibTorch's reductions and exp differ from ours only in rounding.
        QTest::newRow("float32 2x16x9x7") << 2 << 16 << 9 << 7 << false << 2e-5 << false;
        QTest::newRow("float32 4x19x13x11") << 4 << 19 << 13 << 11 << false << 2e-5 << false;
        QTest::newRow("float32 3x37x20x20") << 3 << 37 << 20 << 20 << false << 2e-5 << false;
        QTest::newRow("float32 2x5x1x1 (two rows)") << 2 << 5 << 1 << 1 << false << 2e-5 << false;
        QTest::newRow("float32 8x64x40x40") << 8 << 64 << 40 << 40 << false << 2e-5 << false;
        // As a first layer sees a mosaic: each image's top row a grey border far from the channel's mean
        // (120 standard deviations), the rest close together.
        QTest::newRow("float32 16x16x160x160, border") << 16 << 16 << 160 << 160 << false << 2e-5 << true;
        // bf16 in and out: a value one bf16 step (2^-8 relative) apart in either is within tolerance.
        QTest::newRow("bf16 4x19x13x11") << 4 << 19 << 13 << 11 << true << 2e-2 << false;
        QTest::newRow("bf16 8x64x40x40") << 8 << 64 << 40 << 40 << true << 2e-2 << false;
    }

    void matchesLibTorch() {
        QFETCH(int, batch);
        QFETCH(int, channels);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(bool, bf16);
        QFETCH(double, tolerance);
        QFETCH(bool, border);
        torch::manual_seed(7);
        const auto bn = makeBatchNorm(channels);
        const auto reference = copyOf(bn);
        // Far from zero mean, per channel: a variance taken as E[x^2] - E[x]^2 in float would lose it.
        const auto centres = torch::linspace(-40, 60, channels).view({1, channels, 1, 1});
        auto x = border ? torch::randn({batch, channels, height, width}) * 0.05 + 3
                        : torch::randn({batch, channels, height, width}) * 3 + centres;
        if (border)
            x.narrow(2, 0, 1).fill_(-3);
        auto grad = torch::randn({batch, channels, height, width});
        if (bf16) {
            x = x.to(torch::kBFloat16);
            grad = grad.to(torch::kBFloat16);
        }
        x = x.contiguous(at::MemoryFormat::ChannelsLast);
        QVERIFY(batchNormSiluApplies(*bn, x));
        // Two steps, so that the second starts from running statistics the first updated.
        for (int step = 0; step < 2; ++step) {
            const auto fused = run(bn, x, grad, true);
            const auto expected = run(reference, x, grad, false);
            QCOMPARE(fused.out.scalar_type(), x.scalar_type());
            QVERIFY(fused.out.is_contiguous(at::MemoryFormat::ChannelsLast));
            QCOMPARE(fused.dx.scalar_type(), x.scalar_type());
            const std::pair<const char*, std::pair<torch::Tensor, torch::Tensor>> checks[] = {
                {"output", {fused.out, expected.out}},
                {"input gradient", {fused.dx, expected.dx}},
                {"weight gradient", {fused.dWeight, expected.dWeight}},
                {"bias gradient", {fused.dBias, expected.dBias}},
                {"running mean", {fused.runningMean, expected.runningMean}},
                {"running variance", {fused.runningVar, expected.runningVar}},
            };
            for (const auto& [name, pair] : checks) {
                const double error = maxRelative(pair.first, pair.second);
                if (!(error <= tolerance))
                    QFAIL(qPrintable(QStringLiteral("step %1, %2: relative error %3 > %4")
                                         .arg(step)
                                         .arg(QLatin1String(name))
                                         .arg(error)
                                         .arg(tolerance)));
            }
            QCOMPARE(fused.batches.item<std::int64_t>(), expected.batches.item<std::int64_t>());
            QCOMPARE(fused.batches.item<std::int64_t>(), std::int64_t{step + 1});
        }
    }

    // Many steps, not one: a convolution (dense or depthwise, as YOLO26's head has), BatchNorm + SiLU and a
    // 1x1 output trained 150 SGD steps on a fixed batch, once through the node and once through LibTorch's
    // ops from the same start. Equal to float rounding at every step in float32; in bf16 their rounding
    // differs, so the two drift apart slowly (their losses within 0.1 %).
    void trainsAsLibTorchDoes_data() {
        QTest::addColumn<bool>("depthwise");
        QTest::addColumn<bool>("bf16");
        QTest::newRow("dense, float32") << false << false;
        QTest::newRow("depthwise, float32") << true << false;
        QTest::newRow("dense, bf16") << false << true;
        QTest::newRow("depthwise, bf16") << true << true;
    }

    void trainsAsLibTorchDoes() {
        QFETCH(bool, depthwise);
        QFETCH(bool, bf16);
        const int channels = 32;
        struct Block {
            torch::nn::Conv2d conv{nullptr}, head{nullptr};
            torch::nn::BatchNorm2d bn{nullptr};
            std::vector<torch::Tensor> parameters;
        };
        const auto makeBlock = [&] {
            torch::manual_seed(21);
            Block block;
            block.conv = torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, channels, 3)
                                               .padding(1)
                                               .bias(false)
                                               .groups(depthwise ? channels : 1));
            block.bn = makeBatchNorm(channels);
            block.head = torch::nn::Conv2d(torch::nn::Conv2dOptions(channels, 4, 1));
            for (const auto& module :
                 {block.conv->parameters(), block.bn->parameters(), block.head->parameters()})
                block.parameters.insert(block.parameters.end(), module.begin(), module.end());
            return block;
        };
        Block viaLibTorch = makeBlock(), viaNode = makeBlock();
        torch::manual_seed(5);
        const auto x = torch::randn({8, channels, 24, 24}).contiguous(at::MemoryFormat::ChannelsLast);
        const auto target = torch::randn({8, 4, 24, 24});
        const auto options = torch::optim::SGDOptions(0.05).momentum(0.9).nesterov(true);
        torch::optim::SGD libTorchOptimizer(viaLibTorch.parameters, options);
        torch::optim::SGD nodeOptimizer(viaNode.parameters, options);
        const auto step = [&](Block& block, torch::optim::SGD& optimizer, bool fused) {
            optimizer.zero_grad();
            torch::Tensor out;
            {
                compat::AutocastScope autocast(torch::kCPU, torch::kBFloat16, bf16);
                const auto z = block.conv->forward(x);
                out = block.head->forward(fused ? batchNormSilu(*block.bn, z)
                                                : torch::silu(block.bn->forward(z)));
            }
            const auto loss = (out.to(torch::kFloat) - target).pow(2).mean();
            loss.backward();
            optimizer.step();
            return loss.item<double>();
        };
        const double lossTolerance = bf16 ? 1e-3 : 1e-6;
        double firstLoss = 0, lastLoss = 0;
        for (int i = 0; i < 150; ++i) {
            const double expected = step(viaLibTorch, libTorchOptimizer, false);
            const double loss = step(viaNode, nodeOptimizer, true);
            QVERIFY2(
                std::abs(loss - expected) <= lossTolerance * expected,
                qPrintable(QStringLiteral("step %1: loss %2, LibTorch's %3").arg(i).arg(loss).arg(expected)));
            (i == 0 ? firstLoss : lastLoss) = expected;
        }
        QVERIFY(lastLoss < 0.99 * firstLoss); // it learned something
        double difference = 0, norm = 0;
        for (size_t i = 0; i < viaNode.parameters.size(); ++i) {
            difference += (viaNode.parameters[i] - viaLibTorch.parameters[i]).pow(2).sum().item<double>();
            norm += viaLibTorch.parameters[i].pow(2).sum().item<double>();
        }
        const double relative = std::sqrt(difference / norm);
        QVERIFY2(relative <= (bf16 ? 5e-3 : 1e-6), qPrintable(QString::number(relative)));
        for (const auto& [node, libTorch] :
             {std::pair{viaNode.bn->running_mean, viaLibTorch.bn->running_mean},
              {viaNode.bn->running_var, viaLibTorch.bn->running_var}}) {
            const double statistic = maxRelative(node, libTorch);
            QVERIFY2(statistic <= (bf16 ? 2e-2 : 1e-5), qPrintable(QString::number(statistic)));
        }
    }

    void repeatsAtTheSameThreadCount() {
        torch::manual_seed(3);
        const auto x = (torch::randn({4, 24, 16, 16}) + 2).contiguous(at::MemoryFormat::ChannelsLast);
        const auto grad = torch::randn({4, 24, 16, 16});
        const auto bn = makeBatchNorm(24);
        const auto again = copyOf(bn);
        const auto first = run(bn, x, grad, true);
        const auto second = run(again, x, grad, true);
        QVERIFY(torch::equal(first.out, second.out));
        QVERIFY(torch::equal(first.dx, second.dx));
        QVERIFY(torch::equal(first.dWeight, second.dWeight));
        QVERIFY(torch::equal(first.runningVar, second.runningVar));
    }

    // The gradient reaches the node in other layouts when its output feeds a cat (a channel slice of the
    // cat's channels-last gradient), a split, or an op that makes it NCHW: the same values each way.
    void gradientsInOtherLayouts_data() {
        QTest::addColumn<int>("use");
        QTest::addColumn<bool>("bf16");
        QTest::newRow("cat, float32") << 0 << false;
        QTest::newRow("cat, bf16") << 0 << true;
        QTest::newRow("split, float32") << 1 << false;
        QTest::newRow("NCHW, float32") << 2 << false;
        QTest::newRow("NCHW, bf16") << 2 << true;
    }

    void gradientsInOtherLayouts() {
        QFETCH(int, use);
        QFETCH(bool, bf16);
        torch::manual_seed(5);
        const auto bn = makeBatchNorm(12);
        const auto reference = copyOf(bn);
        const auto type = bf16 ? torch::kBFloat16 : torch::kFloat;
        const auto x =
            (torch::randn({3, 12, 7, 9}) * 2 + 1).to(type).contiguous(at::MemoryFormat::ChannelsLast);
        const auto other = torch::randn({3, 5, 7, 9}).to(type).contiguous(at::MemoryFormat::ChannelsLast);
        const auto weights = torch::randn({3, 17, 7, 9}).to(type).contiguous(at::MemoryFormat::ChannelsLast);
        const auto consume = [&](const torch::Tensor& out) {
            if (use == 0)
                return (torch::cat({other, out}, 1) * weights).sum();
            if (use == 1) {
                const auto halves = out.chunk(2, 1);
                return (halves[0] * weights.narrow(1, 0, 6)).sum() + (halves[1].pow(2)).sum();
            }
            return (out.contiguous() * weights.narrow(1, 0, 12).contiguous()).sum(); // an NCHW gradient
        };
        const auto gradients = [&](torch::nn::BatchNorm2d module, bool fused) {
            auto input = x.detach().clone(at::MemoryFormat::ChannelsLast).requires_grad_(true);
            module->weight.mutable_grad() = torch::Tensor();
            const auto out = fused ? batchNormSilu(*module, input) : torch::silu(module->forward(input));
            consume(out).backward();
            return std::make_pair(input.grad(), module->weight.grad().clone());
        };
        const auto [dx, dWeight] = gradients(bn, true);
        const auto [expectedDx, expectedDWeight] = gradients(reference, false);
        const double tolerance = bf16 ? 2e-2 : 2e-5;
        QVERIFY2(maxRelative(dx, expectedDx) <= tolerance,
                 qPrintable(QString::number(maxRelative(dx, expectedDx))));
        QVERIFY2(maxRelative(dWeight, expectedDWeight) <= tolerance,
                 qPrintable(QString::number(maxRelative(dWeight, expectedDWeight))));
    }

    void leavesOtherInputsToLibTorch() {
        auto bn = makeBatchNorm(8);
        const auto channelsLast = torch::randn({2, 8, 4, 4}).contiguous(at::MemoryFormat::ChannelsLast);
        QVERIFY(batchNormSiluApplies(*bn, channelsLast));
        QVERIFY(!batchNormSiluApplies(*bn, torch::randn({2, 8, 4, 4})));      // NCHW
        QVERIFY(!batchNormSiluApplies(*bn, channelsLast.to(torch::kDouble))); // float64
        QVERIFY(!batchNormSiluApplies(*bn, channelsLast.to(torch::kHalf)));   // float16
        QVERIFY(!batchNormSiluApplies(*bn, torch::randn({1, 8, 1, 1})));      // one value a channel
        QVERIFY(!batchNormSiluApplies(*bn, torch::randn({2, 8, 4, 4, 1})));   // not 4-D
        QVERIFY(!batchNormSiluApplies(*makeBatchNorm(9), channelsLast));      // channel count
        bn->eval();
        QVERIFY(!batchNormSiluApplies(*bn, channelsLast));
    }

    // A Conv block in training mode gives the same output and gradients whether its activations are
    // channels-last (the fused node) or NCHW (LibTorch's BatchNorm and SiLU).
    void convBlockUsesIt() {
        // On unless OSPREY_FUSED_BATCH_NORM_SILU says off (read once, at the first Conv forward).
        QVERIFY(batchNormSiluSwitch(nullptr));
        QVERIFY(batchNormSiluSwitch("1"));
        for (const char* off : {"0", "off", "false", "no"})
            QVERIFY(!batchNormSiluSwitch(off));
        qunsetenv("OSPREY_FUSED_BATCH_NORM_SILU");
        QVERIFY(batchNormSiluEnabled());
        torch::manual_seed(11);
        auto fusedConv = std::make_shared<Conv>(6, 10, 3, 1);
        auto plainConv = std::make_shared<Conv>(6, 10, 3, 1);
        {
            torch::NoGradGuard noGrad;
            for (const auto& item : fusedConv->named_parameters())
                plainConv->named_parameters()[item.key()].copy_(item.value());
        }
        fusedConv->train();
        plainConv->train();
        const auto x = torch::randn({3, 6, 12, 12});
        const auto fusedOut = fusedConv->forward(x.contiguous(at::MemoryFormat::ChannelsLast));
        const auto plainOut = plainConv->forward(x);
        QVERIFY(fusedOut.grad_fn() != nullptr);
        QVERIFY(fusedOut.grad_fn()->name().find("BatchNormSilu") != std::string::npos);
        QVERIFY(plainOut.grad_fn()->name().find("BatchNormSilu") == std::string::npos);
        QVERIFY(maxRelative(fusedOut, plainOut) < 2e-5);
        fusedOut.sum().backward();
        plainOut.sum().backward();
        QVERIFY(maxRelative(fusedConv->conv->weight.grad(), plainConv->conv->weight.grad()) < 1e-4);
        QVERIFY(maxRelative(fusedConv->bn->bias.grad(), plainConv->bn->bias.grad()) < 1e-4);
        QVERIFY(maxRelative(fusedConv->bn->running_var, plainConv->bn->running_var) < 1e-5);

        // A depthwise convolution's BatchNorm and SiLU stay LibTorch's (groups > 1; see blocks.cpp).
        auto depthwise = std::make_shared<Conv>(6, 6, 3, 1, 6);
        depthwise->train();
        const auto depthwiseOut = depthwise->forward(x.contiguous(at::MemoryFormat::ChannelsLast));
        QVERIFY(depthwiseOut.grad_fn()->name().find("BatchNormSilu") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestBatchNormSilu)
#include "tst_batch_norm_silu.moc"
