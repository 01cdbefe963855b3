// Osprey's Winograd F(2x2, 3x3) convolutions (core/model/winograd_conv.cpp) against LibTorch's in float64:
// the forward, the input and the weight gradient, odd and even image sizes down to 1x1, channel counts that
// leave a half output block, more tiles than one chunk holds, a channel slice as input; the same bits on 1
// and 2 threads; the training node (conv_weight_grad.cpp) that uses them; what they must refuse.
#include "model/blocks_torch_impl.h"
#include "model/conv_weight_grad_torch_impl.h"
#include "model/cpu_kernels.h"
#include "model/winograd_conv_torch_impl.h"

#include "tensor_compare.h"

#include <QtTest>

#include <stdexcept>

using namespace osprey::model;
using osprey::test::channelsLast;
using osprey::test::maxRelative;
using osprey::test::ThreadCount;

namespace {

torch::Tensor referenceForward(const torch::Tensor& x, const torch::Tensor& weight) {
    return at::conv2d(x.to(torch::kDouble), weight.to(torch::kDouble), {}, 1, 1);
}

torch::Tensor referenceInputGrad(const torch::Tensor& grad, const torch::Tensor& weight) {
    const auto w = weight.to(torch::kDouble);
    const auto x = torch::zeros({grad.size(0), w.size(1), grad.size(2), grad.size(3)}, torch::kDouble);
    return std::get<0>(at::convolution_backward(grad.to(torch::kDouble), x, w, c10::nullopt, {1, 1}, {1, 1},
                                                {1, 1}, false, {0, 0}, 1, {true, false, false}));
}

torch::Tensor referenceWeightGrad(const torch::Tensor& x, const torch::Tensor& grad) {
    const auto w = torch::zeros({grad.size(1), x.size(1), 3, 3}, torch::kDouble);
    return std::get<1>(at::convolution_backward(grad.to(torch::kDouble), x.to(torch::kDouble), w,
                                                c10::nullopt, {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1,
                                                {false, true, false}));
}

void verifyClose(const torch::Tensor& ours, const torch::Tensor& expected, const char* what) {
    QCOMPARE(ours.sizes(), expected.sizes());
    QVERIFY(ours.is_contiguous(at::MemoryFormat::ChannelsLast));
    const double error = maxRelative(ours, expected);
    // The direct convolution in float32 lands within about 1e-6 of the largest value on these sizes.
    QVERIFY2(error < 5e-6, qPrintable(QString("%1: max relative error %2").arg(what).arg(error)));
}

} // namespace

class TestWinogradConv : public QObject {
    Q_OBJECT

private slots:
    void init() {
        if (!cpuHasAvx2AndFma())
            QSKIP("this CPU has no AVX2 and FMA: the kernels do not run here");
        torch::manual_seed(11);
    }

    void matchesLibTorch_data() {
        QTest::addColumn<int>("batch");
        QTest::addColumn<int>("ins");
        QTest::addColumn<int>("outs");
        QTest::addColumn<int>("height");
        QTest::addColumn<int>("width");
        QTest::newRow("8 to 8, 4x4") << 1 << 8 << 8 << 4 << 4;
        QTest::newRow("8 to 24 (a half block), odd 5x7") << 2 << 8 << 24 << 5 << 7;
        QTest::newRow("24 to 8, 1x1 images") << 3 << 24 << 8 << 1 << 1;
        QTest::newRow("16 to 16, 1 row, 9 columns") << 2 << 16 << 16 << 1 << 9;
        QTest::newRow("16 to 40, 3x2") << 2 << 16 << 40 << 3 << 2;
        QTest::newRow("64 to 64, 10x10 (yolov8n's)") << 2 << 64 << 64 << 10 << 10;
        QTest::newRow("8 to 8, 600 tiles: several chunks") << 2 << 8 << 8 << 40 << 30;
        QTest::newRow("128 to 80, 13x11: several chunks, odd") << 2 << 128 << 80 << 13 << 11;
    }
    void matchesLibTorch() {
        QFETCH(int, batch);
        QFETCH(int, ins);
        QFETCH(int, outs);
        QFETCH(int, height);
        QFETCH(int, width);
        const auto weight = channelsLast(torch::randn({outs, ins, 3, 3}) / std::sqrt(9.0 * ins));
        const auto x = channelsLast(torch::randn({batch, ins, height, width}));
        verifyClose(winogradConv3x3(x, weight), referenceForward(x, weight), "forward");
        const auto grad = channelsLast(torch::randn({batch, outs, height, width}));
        verifyClose(winogradConv3x3(grad, weight, true), referenceInputGrad(grad, weight), "input gradient");
        const auto dw = winogradWeightGrad3x3(x, grad);
        QCOMPARE(dw.sizes(), weight.sizes());
        QVERIFY(dw.is_contiguous(at::MemoryFormat::ChannelsLast));
        // A sum over every pixel of the batch: within 1e-5 of the largest value, as the direct kernel.
        const double error = maxRelative(dw, referenceWeightGrad(x, grad));
        QVERIFY2(error < 1e-5, qPrintable(QString("weight gradient: max relative error %1").arg(error)));
    }

    // A C2f block hands its bottleneck one half of a convolution's output channels: the pixels 2C apart.
    void readsAChannelSlice() {
        const auto whole = channelsLast(torch::randn({2, 32, 7, 9}));
        const auto x = whole.narrow(1, 16, 16);
        QCOMPARE(x.stride(1), std::int64_t{1});
        QVERIFY(!x.is_contiguous(at::MemoryFormat::ChannelsLast));
        const auto weight = torch::randn({8, 16, 3, 3});
        verifyClose(winogradConv3x3(x, weight), referenceForward(x, weight), "forward of a slice");
        const auto grad = channelsLast(torch::randn({2, 8, 7, 9}));
        const double error = maxRelative(winogradWeightGrad3x3(x, grad), referenceWeightGrad(x, grad));
        QVERIFY2(error < 1e-5, qPrintable(QString("weight gradient of a slice: %1").arg(error)));
    }

    // Each output is one thread's, summed in one order: a seeded run does not depend on the thread count.
    void sameBitsOnAnyThreadCount() {
        const auto x = channelsLast(torch::randn({3, 32, 21, 17}));
        const auto weight = torch::randn({40, 32, 3, 3});
        const auto grad = channelsLast(torch::randn({3, 40, 21, 17}));
        torch::Tensor one, two, dwOne, dwTwo;
        {
            ThreadCount threads(1);
            one = winogradConv3x3(x, weight);
            dwOne = winogradWeightGrad3x3(x, grad);
        }
        {
            ThreadCount threads(2);
            two = winogradConv3x3(x, weight);
            dwTwo = winogradWeightGrad3x3(x, grad);
        }
        QVERIFY(torch::equal(one, two));
        QVERIFY(torch::equal(dwOne, dwTwo));
    }

    // The training node: forward and input gradient by these kernels where they apply, the weight gradient
    // by conv_weight_grad.cpp's; against LibTorch's conv2d and its autograd.
    void nodeMatchesConv2d() {
        if (!convWeightGradEnabled() || !winogradConvEnabled())
            QSKIP("OSPREY_CONV_WEIGHT_GRAD, OSPREY_WINOGRAD or the CPU (AVX-512) keeps them off here");
        const auto input = channelsLast(torch::randn({2, 16, 11, 11}));
        const auto weight0 = channelsLast(torch::randn({24, 16, 3, 3}) * 0.1);
        const auto grad = channelsLast(torch::randn({2, 24, 11, 11}));
        auto x1 = input.clone().requires_grad_(true), w1 = weight0.clone().requires_grad_(true);
        QVERIFY(convWeightGradApplies(x1, w1, 1, torch::Tensor()));
        auto y1 = conv2dWeightGrad(x1, w1, 1, 1);
        y1.backward(grad);
        auto x2 = input.clone().requires_grad_(true), w2 = weight0.clone().requires_grad_(true);
        auto y2 = torch::conv2d(x2, w2, {}, 1, 1);
        y2.backward(grad);
        // Not the same bits as oneDNN's: Winograd's sums are other sums.
        QVERIFY(!torch::equal(y1, y2));
        verifyClose(y1, referenceForward(input, weight0), "the node's forward");
        verifyClose(x1.grad(), referenceInputGrad(grad, weight0), "the node's input gradient");
        QVERIFY2(maxRelative(w1.grad(), w2.grad()) < 1e-5, "weight gradient");
        const double error = maxRelative(w1.grad(), referenceWeightGrad(input, grad));
        QVERIFY2(error < 1e-5, qPrintable(QString("the node's weight gradient: %1").arg(error)));
    }

    void takesOnlyWhatItComputes() {
        const auto x = channelsLast(torch::randn({1, 16, 6, 6}));
        const auto w = torch::randn({8, 16, 3, 3});
        QVERIFY(winogradConvTakes(x, w, 1, 1));
        QVERIFY(!winogradConvTakes(x, w, 2, 1));                            // stride 2
        QVERIFY(!winogradConvTakes(x, w, 1, 0));                            // no padding
        QVERIFY(!winogradConvTakes(x, torch::randn({8, 16, 5, 5}), 1, 1));  // 5x5
        QVERIFY(!winogradConvTakes(x, torch::randn({8, 16, 1, 1}), 1, 1));  // 1x1
        QVERIFY(!winogradConvTakes(x, torch::randn({12, 16, 3, 3}), 1, 1)); // 12 outputs
        QVERIFY(!winogradConvTakes(x.contiguous(), w, 1, 1));               // NCHW
        QVERIFY(!winogradConvTakes(x.to(torch::kDouble), w, 1, 1));
        QVERIFY(!winogradConvTakes(x, w.to(torch::kBFloat16), 1, 1));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, winogradConv3x3(x.contiguous(), w));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, winogradConv3x3(x, w, true)); // 16 is not w's 8 outs
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 winogradConv3x3(channelsLast(torch::randn({1, 24, 6, 6})), w));
        const auto grad = channelsLast(torch::randn({1, 8, 6, 6}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, winogradWeightGrad3x3(x.contiguous(), grad));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 winogradWeightGrad3x3(x, channelsLast(torch::randn({1, 8, 5, 6}))));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 winogradWeightGrad3x3(x, channelsLast(torch::randn({1, 4, 6, 6}))));
    }

    void switchReadsTheVariable() {
        QCOMPARE(kernelSwitch(nullptr), KernelSwitch::Auto);
        QCOMPARE(kernelSwitch("no"), KernelSwitch::Off);
        QCOMPARE(kernelSwitch("on"), KernelSwitch::On);
        QCOMPARE(kernelSwitch("later"), KernelSwitch::Auto);
        QCOMPARE(winogradConvEnabled(), avx2KernelEnabled("OSPREY_WINOGRAD"));
    }
};

QTEST_GUILESS_MAIN(TestWinogradConv)
#include "tst_winograd_conv.moc"
