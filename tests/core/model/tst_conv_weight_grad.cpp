// Osprey's convolution weight gradient (core/model/conv_weight_grad.cpp) against LibTorch's
// convolution_backward in float64: kernel sizes 1, 3 and 5, strides 1 and 2, output and input channel counts
// that leave partial blocks, images narrower than the kernel's reach, a channel slice as input; the same
// bits on 1 and 2 threads; the autograd node against LibTorch's conv2d; what it must leave to LibTorch.
#include "model/blocks_torch_impl.h"
#include "model/compat_torch_impl.h"
#include "model/conv_weight_grad_torch_impl.h"
#include "model/cpu_kernels.h"

#include "tensor_compare.h"

#include <QtTest>

#include <stdexcept>

using namespace osprey::model;
using osprey::test::channelsLast;
using osprey::test::maxRelative;
using osprey::test::ThreadCount;

namespace {

torch::Tensor referenceWeightGrad(const torch::Tensor& x, const torch::Tensor& grad, std::int64_t outs,
                                  std::int64_t kernel, std::int64_t stride, std::int64_t padding) {
    const auto xd = x.to(torch::kDouble).contiguous(), gd = grad.to(torch::kDouble).contiguous();
    const auto weight = torch::zeros({outs, x.size(1), kernel, kernel}, torch::kDouble);
    return std::get<1>(at::convolution_backward(gd, xd, weight, c10::nullopt, {stride, stride},
                                                {padding, padding}, {1, 1}, false, {0, 0}, 1,
                                                {false, true, false}));
}

} // namespace

class TestConvWeightGrad : public QObject {
    Q_OBJECT

private slots:
    void init() {
        if (!convWeightGradSupported())
            QSKIP("this CPU has no AVX2 and FMA: the kernel does not run here");
        torch::manual_seed(7);
    }

    void matchesLibTorch_data() {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("channels");
        QTest::addColumn<int>("outs");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::addColumn<int>("kernel");
        QTest::addColumn<int>("stride");
        QTest::newRow("8 to 1, 3x3") << 2 << 8 << 1 << 5 << 7 << 3 << 1;
        QTest::newRow("16 to 6, 3x3 stride 2") << 2 << 16 << 6 << 9 << 9 << 3 << 2;
        QTest::newRow("24 to 13, 3x3") << 3 << 24 << 13 << 6 << 11 << 3 << 1;
        QTest::newRow("40 to 7, 1x1") << 1 << 40 << 7 << 4 << 4 << 1 << 1;
        QTest::newRow("8 to 5, 5x5") << 2 << 8 << 5 << 3 << 6 << 5 << 1;
        QTest::newRow("16 to 12, 3x3 stride 2, even") << 2 << 16 << 12 << 8 << 8 << 3 << 2;
        QTest::newRow("64 to 64, 3x3 (yolov8n's)") << 2 << 64 << 64 << 10 << 10 << 3 << 1;
        QTest::newRow("32 to 17, 3x3 on 1x1 images") << 3 << 32 << 17 << 1 << 1 << 3 << 1;
        QTest::newRow("48 to 8, 3x3 stride 2, odd") << 4 << 48 << 8 << 13 << 5 << 3 << 2;
        QTest::newRow("16 to 32, 3x3 stride 2, wide rows") << 1 << 16 << 32 << 6 << 300 << 3 << 2;
    }
    void matchesLibTorch() {
        QFETCH(int, batch);
        QFETCH(int, channels);
        QFETCH(int, outs);
        QFETCH(int, height);
        QFETCH(int, width);
        QFETCH(int, kernel);
        QFETCH(int, stride);
        const int padding = kernel / 2;
        const int outHeight = (height + 2 * padding - kernel) / stride + 1;
        const int outWidth = (width + 2 * padding - kernel) / stride + 1;
        const auto x = channelsLast(torch::randn({batch, channels, height, width}));
        const auto grad = channelsLast(torch::randn({batch, outs, outHeight, outWidth}));
        const auto ours = convWeightGrad(x, grad, kernel, stride, padding);
        const auto expected = referenceWeightGrad(x, grad, outs, kernel, stride, padding);
        QCOMPARE(ours.sizes(), expected.sizes());
        QVERIFY(ours.is_contiguous(at::MemoryFormat::ChannelsLast));
        const double error = maxRelative(ours, expected);
        QVERIFY2(error < 1e-5, qPrintable(QString("max relative error %1").arg(error)));
    }

    // A C2f block hands its bottleneck one half of a convolution's output channels: the pixels 2C apart.
    void readsAChannelSlice() {
        const auto whole = channelsLast(torch::randn({2, 32, 7, 9}));
        const auto x = whole.narrow(1, 16, 16);
        QCOMPARE(x.stride(1), std::int64_t{1});
        QVERIFY(!x.is_contiguous(at::MemoryFormat::ChannelsLast));
        const auto grad = channelsLast(torch::randn({2, 10, 7, 9}));
        const double error =
            maxRelative(convWeightGrad(x, grad, 3, 1, 1), referenceWeightGrad(x, grad, 10, 3, 1, 1));
        QVERIFY2(error < 1e-5, qPrintable(QString("max relative error %1").arg(error)));
    }

    // Every weight is summed in one order whatever the thread count: a seeded run does not depend on it.
    void sameBitsOnAnyThreadCount() {
        const auto x = channelsLast(torch::randn({3, 32, 12, 12}));
        const auto grad = channelsLast(torch::randn({3, 40, 12, 12}));
        torch::Tensor one, two;
        {
            ThreadCount threads(1);
            one = convWeightGrad(x, grad, 3, 1, 1);
        }
        {
            ThreadCount threads(2);
            two = convWeightGrad(x, grad, 3, 1, 1);
        }
        QVERIFY(torch::equal(one, two));
    }

    // The node: LibTorch's forward and input gradient, the weight gradient Osprey's.
    void nodeMatchesConv2d() {
        const auto input = channelsLast(torch::randn({2, 16, 11, 11}));
        const auto weight0 = channelsLast(torch::randn({24, 16, 3, 3}) * 0.1);
        const auto grad = channelsLast(torch::randn({2, 24, 6, 6}));
        auto x1 = input.clone().requires_grad_(true), w1 = weight0.clone().requires_grad_(true);
        QVERIFY(convWeightGradApplies(x1, w1, 1, torch::Tensor()) == convWeightGradEnabled());
        auto y1 = conv2dWeightGrad(x1, w1, 2, 1);
        y1.backward(grad);
        auto x2 = input.clone().requires_grad_(true), w2 = weight0.clone().requires_grad_(true);
        auto y2 = torch::conv2d(x2, w2, {}, 2, 1);
        y2.backward(grad);
        QVERIFY(torch::equal(y1, y2));
        QVERIFY2(maxRelative(x1.grad(), x2.grad()) < 1e-6, "input gradient");
        QVERIFY2(maxRelative(w1.grad(), w2.grad()) < 1e-5, "weight gradient");
        const double error = maxRelative(w1.grad(), referenceWeightGrad(input, grad, 24, 3, 2, 1));
        QVERIFY2(error < 1e-5, qPrintable(QString("weight gradient against float64: %1").arg(error)));
    }

    // The block: with the kernel switched on by the variable or not, the same gradients to float rounding.
    void convBlockUsesItWhereItApplies() {
        PlainConv conv(16, 8, 3, 1);
        conv.weight.set_data(channelsLast(conv.weight.detach()));
        auto x = channelsLast(torch::randn({2, 16, 5, 5})).requires_grad_(true);
        QCOMPARE(convWeightGradApplies(x, conv.weight, conv.groups, conv.bias), convWeightGradEnabled());
        auto y = conv.forward(x);
        const auto grad = torch::randn_like(y);
        y.backward(grad);
        const double error =
            maxRelative(conv.weight.grad(), referenceWeightGrad(x.detach(), grad, 8, 3, 1, 1));
        QVERIFY2(error < 1e-5, qPrintable(QString("weight gradient against float64: %1").arg(error)));
    }

    void leavesTheRestToLibTorch() {
        if (!convWeightGradEnabled())
            QSKIP("OSPREY_CONV_WEIGHT_GRAD or the CPU (AVX-512) keeps it off in this process");
        const auto x = channelsLast(torch::randn({1, 16, 6, 6}));
        const auto w = channelsLast(torch::randn({8, 16, 3, 3})).requires_grad_(true);
        QVERIFY(convWeightGradApplies(x, w, 1, torch::Tensor()));
        QVERIFY(!convWeightGradApplies(x, w, 2, torch::Tensor()));                        // groups
        QVERIFY(!convWeightGradApplies(x, w, 1, torch::zeros({8}).requires_grad_(true))); // bias
        QVERIFY(!convWeightGradApplies(x.contiguous(), w, 1, torch::Tensor()));           // NCHW
        QVERIFY(!convWeightGradApplies(x.to(torch::kBFloat16), w, 1, torch::Tensor()));
        QVERIFY(!convWeightGradApplies(x, w.detach(), 1, torch::Tensor())); // no gradient wanted
        const auto x12 = channelsLast(torch::randn({1, 12, 6, 6}));
        QVERIFY(!convWeightGradApplies(x12, channelsLast(torch::randn({8, 12, 3, 3})).requires_grad_(true), 1,
                                       torch::Tensor())); // 12 channels
        QVERIFY(!convWeightGradApplies(x, channelsLast(torch::randn({8, 16, 1, 1})).requires_grad_(true), 1,
                                       torch::Tensor())); // 1x1: oneDNN's is faster
        {
            torch::NoGradGuard noGrad;
            QVERIFY(!convWeightGradApplies(x, w, 1, torch::Tensor()));
        }
        {
            compat::AutocastScope autocast(c10::DeviceType::CPU, torch::kBFloat16, true);
            QVERIFY(!convWeightGradApplies(x, w, 1, torch::Tensor()));
        }
    }

    void refusesWhatItCannotTake() {
        const auto x = channelsLast(torch::randn({1, 16, 6, 6}));
        const auto grad = channelsLast(torch::randn({1, 8, 6, 6}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 convWeightGrad(x, grad, 3, 2, 1)); // wrong output size
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 convWeightGrad(channelsLast(torch::randn({1, 12, 6, 6})), grad, 3, 1, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, convWeightGrad(x.contiguous(), grad, 3, 1, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, convWeightGrad(x.to(torch::kDouble), grad, 3, 1, 1));
    }

    void switchReadsTheVariable() {
        QCOMPARE(kernelSwitch(nullptr), KernelSwitch::Auto);
        QCOMPARE(kernelSwitch("0"), KernelSwitch::Off);
        QCOMPARE(kernelSwitch("off"), KernelSwitch::Off);
        QCOMPARE(kernelSwitch("1"), KernelSwitch::On);
        QCOMPARE(kernelSwitch("yes"), KernelSwitch::On);
        QCOMPARE(kernelSwitch("auto"), KernelSwitch::Auto);
    }
};

QTEST_GUILESS_MAIN(TestConvWeightGrad)
#include "tst_conv_weight_grad.moc"
