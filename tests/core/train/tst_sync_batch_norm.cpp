// SyncBN (sync_bn=true) against plain BatchNorm in one process: two Gloo ranks (this executable started
// twice, on loopback, through a store the test hosts) each run an Ultralytics Conv block (conv, BatchNorm,
// SiLU) on their share of 16 images, 9 and 7, with the SyncBN hook; one process runs the same block on
// all 16 without it. Forward outputs, the running statistics (on both ranks), the input gradients and the
// parameter gradients (the ranks' summed, as the gradient all-reduce does) must agree to float rounding.
// Without SyncBN the same ranks' outputs differ by far more, which shows the comparison can fail.
#include <torch/torch.h>

#include "model/blocks_torch_impl.h"
#include "train/distributed.h"
#include "train/sync_batch_norm_impl.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdio>
#include <filesystem>
#include <string>

using namespace osprey;

namespace {

constexpr int kImages = 16;
constexpr int kRank0Images = 9; // unequal shares: the statistics must weight by count

struct Setup {
    torch::Tensor x, upstream;
    std::shared_ptr<model::Conv> block;
};

// The same inputs, upstream gradient and block weights in every process.
Setup makeSetup() {
    torch::manual_seed(7);
    Setup s;
    s.x = torch::randn({kImages, 4, 6, 6}) * 2 + 0.5;
    s.upstream = torch::randn({kImages, 8, 6, 6});
    s.block = std::make_shared<model::Conv>(4, 8, 3);
    torch::NoGradGuard noGrad;
    s.block->bn->weight.uniform_(0.5, 1.5);
    s.block->bn->bias.uniform_(-0.5, 0.5);
    s.block->bn->running_var.fill_(2.0);
    s.block->train();
    return s;
}

/// What one process computed: the output, the input gradient, then the running statistics and the
/// gradients of conv weight, BN weight and BN bias.
struct Outcome {
    torch::Tensor y, gradX, runningMean, runningVar, gradConv, gradWeight, gradBias;
};

Outcome step(Setup& s, std::int64_t first, std::int64_t count) {
    auto x = s.x.narrow(0, first, count).clone().requires_grad_(true);
    auto y = s.block->forward(x);
    // Two steps, so that the running statistics are updated twice from the global figures.
    y = s.block->forward(x);
    (y * s.upstream.narrow(0, first, count)).sum().backward();
    return {y.detach(),
            x.grad(),
            s.block->bn->running_mean.clone(),
            s.block->bn->running_var.clone(),
            s.block->conv->weight.grad(),
            s.block->bn->weight.grad(),
            s.block->bn->bias.grad()};
}

std::vector<torch::Tensor> tensorsOf(const Outcome& o) {
    return {o.y, o.gradX, o.runningMean, o.runningVar, o.gradConv, o.gradWeight, o.gradBias};
}

std::filesystem::path outcomeFile(const std::filesystem::path& out, int rank, bool sync) {
    return out / ("rank" + std::to_string(rank) + (sync ? "_sync" : "_plain") + ".pt");
}

int runWorker() {
    const std::filesystem::path out = std::getenv("OSPREY_TEST_OUT");
    auto info = train::rankInfoFromEnvironment();
    if (!info || !info.value())
        return 2;
    auto context = train::DistributedContext::connect(**info, 60);
    if (!context) {
        std::fprintf(stderr, "worker: %s\n", context.message().c_str());
        return 2;
    }
    if (auto status = (*context)->startGroup(train::CommBackend::Gloo, -1, 120); !status) {
        std::fprintf(stderr, "worker: %s\n", status.message().c_str());
        return 2;
    }
    const int rank = (*context)->rank();
    const std::int64_t first = rank == 0 ? 0 : kRank0Images;
    const std::int64_t count = rank == 0 ? kRank0Images : kImages - kRank0Images;
    for (const bool sync : {true, false}) {
        auto setup = makeSetup();
        if (sync && train::enableSyncBatchNorm(*setup.block, **context) != 1)
            return 3;
        torch::save(tensorsOf(step(setup, first, count)), outcomeFile(out, rank, sync).string());
        if (sync) { // evaluation mode is plain BatchNorm with the running statistics
            torch::NoGradGuard noGrad;
            setup.block->eval();
            const auto hooked = setup.block->forward(setup.x);
            setup.block->normalize = nullptr;
            if (!torch::equal(hooked, setup.block->forward(setup.x)))
                return 4;
        }
    }
    return 0;
}

double maxDiff(const torch::Tensor& a, const torch::Tensor& b) {
    return (a - b).abs().max().item<double>();
}

} // namespace

class TestSyncBatchNorm : public QObject {
    Q_OBJECT
private slots:
    void twoRanksMatchOneProcessBatch() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::filesystem::path out = dir.path().toStdString();
        auto store = train::LaunchStore::host("127.0.0.1");
        QVERIFY2(store, store ? "" : store.message().c_str());
        std::vector<std::unique_ptr<QProcess>> workers;
        for (int rank = 0; rank < 2; ++rank) {
            auto process = std::make_unique<QProcess>();
            auto env = QProcessEnvironment::systemEnvironment();
            env.insert("OSPREY_TEST_WORKER", "1");
            env.insert("OSPREY_TEST_OUT", QString::fromStdString(out.string()));
            env.insert("RANK", QString::number(rank));
            env.insert("WORLD_SIZE", "2");
            env.insert("MASTER_ADDR", "127.0.0.1");
            env.insert("MASTER_PORT", QString::number((*store)->port()));
            env.insert("TORCHELASTIC_USE_AGENT_STORE", "True");
            process->setProcessEnvironment(env);
            process->setProcessChannelMode(QProcess::ForwardedChannels);
            process->start(QCoreApplication::applicationFilePath(), {});
            QVERIFY(process->waitForStarted());
            workers.push_back(std::move(process));
        }
        for (auto& worker : workers) {
            QVERIFY(worker->waitForFinished(120000));
            QCOMPARE(worker->exitCode(), 0);
        }

        auto reference = makeSetup();
        const Outcome whole = step(reference, 0, kImages);
        std::vector<Outcome> ranks;
        for (const bool sync : {true, false})
            for (int rank = 0; rank < 2; ++rank) {
                std::vector<torch::Tensor> t;
                torch::load(t, outcomeFile(out, rank, sync).string());
                QCOMPARE(t.size(), size_t(7));
                ranks.push_back({t[0], t[1], t[2], t[3], t[4], t[5], t[6]});
            }
        const auto compareWith = [&](const Outcome& r0, const Outcome& r1) {
            struct {
                double y, gradX, running, gradParams;
            } d{};
            d.y = maxDiff(torch::cat({r0.y, r1.y}), whole.y);
            d.gradX = maxDiff(torch::cat({r0.gradX, r1.gradX}), whole.gradX);
            d.running = std::max(
                {maxDiff(r0.runningMean, whole.runningMean), maxDiff(r1.runningMean, whole.runningMean),
                 maxDiff(r0.runningVar, whole.runningVar), maxDiff(r1.runningVar, whole.runningVar)});
            d.gradParams = std::max({maxDiff(r0.gradConv + r1.gradConv, whole.gradConv),
                                     maxDiff(r0.gradWeight + r1.gradWeight, whole.gradWeight),
                                     maxDiff(r0.gradBias + r1.gradBias, whole.gradBias)});
            return d;
        };
        const auto sync = compareWith(ranks[0], ranks[1]);
        const auto plain = compareWith(ranks[2], ranks[3]);
        std::printf("max |diff| vs 1 process x 16: SyncBN output %.3g, input grad %.3g, running stats %.3g, "
                    "param grads %.3g (scale: output %.3g, param grad %.3g)\n",
                    sync.y, sync.gradX, sync.running, sync.gradParams, whole.y.abs().max().item<double>(),
                    whole.gradConv.abs().max().item<double>());
        std::printf("without SyncBN: output %.3g, input grad %.3g, running stats %.3g, param grads %.3g\n",
                    plain.y, plain.gradX, plain.running, plain.gradParams);
        QVERIFY2(sync.y < 1e-4, std::to_string(sync.y).c_str());
        QVERIFY2(sync.gradX < 1e-4, std::to_string(sync.gradX).c_str());
        QVERIFY2(sync.running < 1e-5, std::to_string(sync.running).c_str());
        QVERIFY2(sync.gradParams < 1e-3, std::to_string(sync.gradParams).c_str());
        // Each rank alone normalises with its own share's statistics: visibly different.
        QVERIFY(plain.y > 100 * sync.y);
        QVERIFY(plain.running > 100 * sync.running);
        // Both ranks hold the same running statistics (computed from the same all-reduced sums).
        QVERIFY(torch::equal(ranks[0].runningMean, ranks[1].runningMean));
        QVERIFY(torch::equal(ranks[0].runningVar, ranks[1].runningVar));
    }
};

int main(int argc, char** argv) {
    if (std::getenv("OSPREY_TEST_WORKER"))
        return runWorker();
    QCoreApplication app(argc, argv);
    TestSyncBatchNorm test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_sync_batch_norm.moc"
