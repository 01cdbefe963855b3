// MuSGD against hand-computed values: Newton-Schulz's output is near-orthogonal and follows the quintic on a
// rank-1 matrix; one step of a Muon group and of an SGD group; the parameter groups YOLO26 gets; save and
// load of both momentum buffers; and the YOLO26 optimiser and warmup rules.
#include <torch/torch.h>

#include "module_tree.h"
#include "train/mu_sgd_impl.h"
#include "train/schedule.h"

#include <QtTest>

#include <cmath>
#include <sstream>

using namespace osprey::train;
using osprey::run::OptimizerKind;
using osprey::run::TrainConfig;

namespace {

// The quintic's effect on a singular value of 1 after `steps` steps, in double precision.
double quinticOfOne(int steps) {
    double s = 1.0;
    for (int i = 0; i < steps; ++i)
        s = 3.4445 * s - 4.7750 * s * s * s + 2.0315 * s * s * s * s * s;
    return s;
}

// A YOLO26-like tree: a backbone Conv (conv + BN), a 1x1 conv with bias, the head's box and class
// branches, and two odd parameters (1-D and 3-D) that belong to no conv.
std::shared_ptr<torch::nn::Module> headLikeModel() {
    auto root = std::make_shared<torch::nn::Module>();
    using torch::nn::BatchNorm2d;
    using torch::nn::Conv2d;
    using torch::nn::Conv2dOptions;
    test::placeModule(*root, "model.0.conv", Conv2d(Conv2dOptions(3, 4, 3).bias(false)));
    test::placeModule(*root, "model.0.bn", BatchNorm2d(4));
    test::placeModule(*root, "model.1", Conv2d(Conv2dOptions(4, 6, 1)));
    test::placeModule(*root, "model.23.cv2.0", Conv2d(Conv2dOptions(6, 4, 1)));
    test::placeModule(*root, "model.23.cv3.0", Conv2d(Conv2dOptions(6, 3, 1)));
    test::placeModule(*root, "model.23.one2one_cv3.0", Conv2d(Conv2dOptions(6, 3, 1)));
    auto odd = std::make_shared<torch::nn::Module>();
    odd->register_parameter("scale", torch::ones({4}));
    odd->register_parameter("table", torch::ones({2, 2, 2}));
    test::placeModule(*root, "model.22.attn", odd);
    return root;
}

const std::vector<std::string> kBoosted{"model.23.cv3", "model.23.one2one_cv3"};

std::vector<torch::Tensor> snapshot(const std::vector<torch::Tensor>& params) {
    std::vector<torch::Tensor> out;
    for (const auto& p : params)
        out.push_back(p.detach().clone());
    return out;
}

void setGradients(const std::vector<torch::Tensor>& params, int seed) {
    torch::manual_seed(seed);
    for (const auto& p : params)
        p.mutable_grad() = torch::randn_like(p);
}

} // namespace

class TestMuSgd : public QObject {
    Q_OBJECT
private slots:
    void newtonSchulzIsNearOrthogonal() {
        torch::manual_seed(1);
        const auto g = torch::randn({24, 40});
        const auto x = newtonSchulz5(g);
        QCOMPARE(x.scalar_type(), torch::kBFloat16);
        QCOMPARE(x.sizes().vec(), g.sizes().vec());
        // The quintic leaves every singular value within [0.5, 1.5] (Ultralytics' docstring); the input's
        // spread far wider.
        const auto s = at::linalg_svdvals(x.to(torch::kFloat));
        QVERIFY2(
            s.min().item<double>() > 0.5 && s.max().item<double>() < 1.5,
            qPrintable(
                QString("singular values %1..%2").arg(s.min().item<double>()).arg(s.max().item<double>())));
        const auto input = at::linalg_svdvals(g);
        QVERIFY(input.max().item<double>() / input.min().item<double>() > 4);
        // Tall matrices go through the transpose: the same numbers, transposed (up to bf16 rounding).
        QVERIFY(torch::allclose(newtonSchulz5(g.t().contiguous()).to(torch::kFloat), x.t().to(torch::kFloat),
                                0, 1e-2));
    }
    void newtonSchulzFollowsTheQuinticOnRankOne() {
        // u v^T with unit u, v has one singular value, 1 after normalising: it becomes quinticOfOne(5).
        const auto u = torch::tensor({0.6f, 0.8f});
        const auto v = torch::tensor({2.0f, -1.0f, 2.0f}) / 3;
        const auto x = newtonSchulz5(torch::outer(u, v) * 7).to(torch::kFloat);
        const double s = quinticOfOne(5);
        QVERIFY(std::abs(s - 0.696) < 0.01); // 1 -> 0.701 -> 1.114 -> 0.721 -> 1.090 -> 0.696
        // Five bf16 steps (8-bit mantissa) with a slope up to 1.3: a few percent (Ultralytics: 0.698, 0.685).
        QVERIFY2(torch::allclose(x, torch::outer(u, v) * s, 0.03, 0), qPrintable(QString::number(s)));
    }
    void stepOfMuonAndSgdGroupsByHand() {
        // Muon group: a 2x3 weight with a rank-1 gradient; SGD group: a bias with weight decay 0 (its own
        // group) and a 1-D weight with decay.
        auto weight = torch::full({2, 3}, 0.5f).requires_grad_();
        auto bias = torch::tensor({1.0f, -1.0f}).requires_grad_();
        auto scale = torch::tensor({2.0f}).requires_grad_();
        const auto gradient =
            torch::outer(torch::tensor({0.6f, 0.8f}), torch::tensor({2.0f, -1.0f, 2.0f}) / 3);
        weight.mutable_grad() = gradient.clone();
        bias.mutable_grad() = torch::tensor({0.5f, 0.25f});
        scale.mutable_grad() = torch::tensor({1.0f});
        std::vector<torch::optim::OptimizerParamGroup> groups;
        groups.emplace_back(std::vector<torch::Tensor>{weight},
                            std::make_unique<MuSgdOptions>(MuSgdOptions(0.01).momentum(0.9).useMuon(true)));
        groups.emplace_back(std::vector<torch::Tensor>{bias},
                            std::make_unique<MuSgdOptions>(MuSgdOptions(0.1).momentum(0.9)));
        groups.emplace_back(std::vector<torch::Tensor>{scale},
                            std::make_unique<MuSgdOptions>(MuSgdOptions(0.1).momentum(0.5).weightDecay(0.1)));
        MuSgd optimizer(std::move(groups));
        optimizer.step();
        // Muon: m = 0.1 g, u = 0.19 g, orthogonalised to quinticOfOne(5) x the unit gradient; then SGD on the
        // moved weight with buffer g: 0.01 x (g + 0.9 g).
        const double s = quinticOfOne(5);
        const auto expected = 0.5 - 0.01 * 0.2 * s * gradient - 0.01 * 1.9 * gradient;
        QVERIFY2(torch::allclose(weight.detach(), expected, 0, 0.002 * 0.03 * 0.4),
                 qPrintable(QString::number((weight.detach() - expected).abs().max().item<double>())));
        // SGD: buffer = g, update = g + 0.9 g: 1 - 0.1 x 0.95 = 0.905; -1 - 0.1 x 0.475 = -1.0475.
        QVERIFY(torch::allclose(bias.detach(), torch::tensor({0.905f, -1.0475f})));
        // Decay: g' = 1 + 0.1 x 2 = 1.2, update 1.2 + 0.5 x 1.2 = 1.8: 2 - 0.18.
        QVERIFY(std::abs(scale.item<double>() - 1.82) < 1e-6);
        // The buffers: the Muon group holds both (Muon's m = 0.1 g, SGD's = g), the SGD groups one.
        const auto* muonState = optimizer.paramState(weight);
        QVERIFY(muonState && muonState->momentumBufferSgd().defined());
        QVERIFY(torch::allclose(muonState->momentumBuffer(), 0.1 * gradient));
        QVERIFY(torch::allclose(muonState->momentumBufferSgd(), gradient));
        const auto* sgdState = optimizer.paramState(bias);
        QVERIFY(sgdState && !sgdState->momentumBufferSgd().defined());
        QVERIFY(torch::allclose(sgdState->momentumBuffer(), torch::tensor({0.5f, 0.25f})));
    }
    void parametersWithoutGradientsAreLeftAlone() {
        auto a = torch::ones({2, 2}).requires_grad_();
        auto b = torch::ones({2, 2}).requires_grad_();
        a.mutable_grad() = torch::ones({2, 2});
        std::vector<torch::optim::OptimizerParamGroup> groups;
        groups.emplace_back(std::vector<torch::Tensor>{a, b},
                            std::make_unique<MuSgdOptions>(MuSgdOptions(0.01).momentum(0.9).useMuon(true)));
        MuSgd optimizer(std::move(groups));
        optimizer.step();
        QVERIFY(!torch::equal(a.detach(), torch::ones({2, 2})));
        QVERIFY(torch::equal(b.detach(), torch::ones({2, 2})));
        QCOMPARE(optimizer.state().size(), size_t(1));
        QVERIFY(!optimizer.paramState(b));
    }
    void yolo26ParameterGroups() {
        auto model = headLikeModel();
        const auto groups = muSgdGroups(*model, kBoosted, 0.01, 5e-4);
        QCOMPARE(groups.size(), size_t(8));
        using Role = MuSgdGroup::Role;
        const std::vector<std::pair<Role, bool>> layout{
            {Role::Weight, true}, {Role::Weight, false}, {Role::Norm, true}, {Role::Norm, false},
            {Role::Bias, true},   {Role::Bias, false},   {Role::Muon, true}, {Role::Muon, false}};
        for (size_t i = 0; i < groups.size(); ++i) {
            QVERIFY(groups[i].role == layout[i].first);
            QCOMPARE(groups[i].boosted, layout[i].second);
            QCOMPARE(groups[i].lr, layout[i].second ? 0.03 : 0.01);
            const bool decays = groups[i].role == Role::Weight || groups[i].role == Role::Muon;
            QCOMPARE(groups[i].weightDecay, decays ? 5e-4 : 0.0);
            QCOMPARE(groups[i].names.size(), groups[i].params.size());
        }
        using Names = std::vector<std::string>;
        QCOMPARE(groups[0].names, Names{});
        QCOMPARE(groups[1].names, (Names{"model.22.attn.scale", "model.22.attn.table"})); // 1-D and 3-D
        QCOMPARE(groups[2].names, Names{});
        QCOMPARE(groups[3].names, Names{"model.0.bn.weight"});
        QCOMPARE(groups[4].names, (Names{"model.23.cv3.0.bias", "model.23.one2one_cv3.0.bias"}));
        QCOMPARE(groups[5].names, (Names{"model.0.bn.bias", "model.1.bias", "model.23.cv2.0.bias"}));
        QCOMPARE(groups[6].names, (Names{"model.23.cv3.0.weight", "model.23.one2one_cv3.0.weight"}));
        QCOMPARE(groups[7].names, (Names{"model.0.conv.weight", "model.1.weight", "model.23.cv2.0.weight"}));
        // Empty groups are kept, so that the group indices are Ultralytics' (lr/pg0..pg7).
        MuSgd optimizer(toParamGroups(groups, 0.9));
        QCOMPARE(optimizer.param_groups().size(), size_t(8));
        const auto& muon = static_cast<const MuSgdOptions&>(optimizer.param_groups()[6].options());
        QVERIFY(muon.useMuon());
        QVERIFY(muon.nesterov());
        QCOMPARE(muon.lr(), 0.03);
        QCOMPARE(muon.momentum(), 0.9);
        QVERIFY(!static_cast<const MuSgdOptions&>(optimizer.param_groups()[5].options()).useMuon());
        setGradients(model->parameters(), 3);
        optimizer.step();
        QCOMPARE(optimizer.state().size(), model->parameters().size());
    }
    void saveAndLoadKeepBothBuffers() {
        // Run A steps twice. Run B steps once, is saved, and is rebuilt from its weights and the archive
        // into run C, which takes the second step: C must end exactly where A did.
        auto modelA = headLikeModel();
        auto modelB = headLikeModel();
        torch::manual_seed(5);
        {
            torch::NoGradGuard noGrad;
            for (auto& p : modelA->parameters())
                p.copy_(torch::randn_like(p));
            const auto a = modelA->parameters();
            const auto b = modelB->parameters();
            for (size_t i = 0; i < a.size(); ++i)
                b[i].copy_(a[i]);
        }
        MuSgd optimizerA(toParamGroups(muSgdGroups(*modelA, kBoosted, 0.01, 5e-4), 0.9));
        MuSgd optimizerB(toParamGroups(muSgdGroups(*modelB, kBoosted, 0.01, 5e-4), 0.9));
        setGradients(modelA->parameters(), 7);
        setGradients(modelB->parameters(), 7);
        optimizerA.step();
        optimizerB.step();
        torch::serialize::OutputArchive out;
        optimizerB.save(out);
        std::ostringstream bytes;
        out.save_to(bytes);
        const auto weightsAfterOne = snapshot(modelB->parameters());

        auto modelC = headLikeModel();
        {
            torch::NoGradGuard noGrad;
            const auto c = modelC->parameters();
            for (size_t i = 0; i < c.size(); ++i)
                c[i].copy_(weightsAfterOne[i]);
        }
        MuSgd optimizerC(toParamGroups(muSgdGroups(*modelC, kBoosted, 0.01, 5e-4), 0.9));
        torch::serialize::InputArchive in;
        std::istringstream reader(bytes.str());
        in.load_from(reader);
        optimizerC.load(in);
        QCOMPARE(optimizerC.state().size(), optimizerA.state().size());
        setGradients(modelA->parameters(), 8);
        setGradients(modelC->parameters(), 8);
        optimizerA.step();
        optimizerC.step();
        const auto a = modelA->parameters();
        const auto c = modelC->parameters();
        for (size_t i = 0; i < a.size(); ++i)
            QVERIFY2(torch::equal(a[i].detach(), c[i].detach()), qPrintable(QString::number(i)));
        // Without the buffers the second step differs: the test can tell.
        auto modelD = headLikeModel();
        {
            torch::NoGradGuard noGrad;
            const auto d = modelD->parameters();
            for (size_t i = 0; i < d.size(); ++i)
                d[i].copy_(weightsAfterOne[i]);
        }
        MuSgd optimizerD(toParamGroups(muSgdGroups(*modelD, kBoosted, 0.01, 5e-4), 0.9));
        setGradients(modelD->parameters(), 8);
        optimizerD.step();
        QVERIFY(!torch::equal(modelD->parameters()[0].detach(), a[0].detach()));
    }
    void yolo26OptimizerRule() {
        TrainConfig config;
        config.epochs = 100;
        config.batch = 16;
        const auto large = chooseYolo26Optimizer(config, 7000, 80); // 110 x 100 = 11,000 iterations
        QVERIFY(large.kind == OptimizerKind::MuSgd);
        QCOMPARE(large.lr, 0.01);
        QCOMPARE(large.momentum, 0.9);
        QCOMPARE(large.warmupBiasLr, 0.0);
        // YOLOv8/YOLO11 keep their rule: SGD for the same run.
        QVERIFY(chooseOptimizer(config, 7000, 80).kind == OptimizerKind::Sgd);
        const auto small = chooseYolo26Optimizer(config, 6336, 80); // 99 x 100 = 9,900
        QVERIFY(small.kind == OptimizerKind::AdamW);
        QCOMPARE(small.lr, 0.000119); // round(0.01 / 84, 6)
        QCOMPARE(small.momentum, 0.9);
        config.optimizer = OptimizerKind::MuSgd;
        config.lr0 = 0.02;
        const auto given = chooseYolo26Optimizer(config, 10, 1);
        QVERIFY(given.kind == OptimizerKind::MuSgd);
        QCOMPARE(given.lr, 0.02);
        QCOMPARE(given.momentum, config.momentum);
        QCOMPARE(given.warmupBiasLr, config.warmupBiasLr);
        QCOMPARE(osprey::run::toString(OptimizerKind::MuSgd), std::string("MuSGD"));
    }
    void yolo26WarmupHasNoFloorAndSparesTheLastEpoch() {
        QCOMPARE(yolo26WarmupIterations(3, 100, 25), 75); // v8/11: 100
        QCOMPARE(warmupIterations(3, 25), 100);
        QCOMPARE(yolo26WarmupIterations(3, 3, 25), 50); // capped at epochs - 1 = 2
        QCOMPARE(yolo26WarmupIterations(3, 1, 25), 0);  // a 1-epoch run has no warmup
        QCOMPARE(yolo26WarmupIterations(0, 100, 25), 0);
        QCOMPARE(yolo26WarmupIterations(0.5, 100, 5), 2); // 2.5: Python rounds half to even
        QCOMPARE(yolo26WarmupIterations(0.5, 100, 7), 4); // 3.5
    }
};

QTEST_APPLESS_MAIN(TestMuSgd)
#include "tst_mu_sgd.moc"
