// The run advice, from recorded event streams that show each condition: the advice appears once, at the
// right moment, and not in a healthy run (nor in a stream that lacks what the condition needs).
#include "planner/run_advice.h"

#include <QtTest>

#include <cmath>

using namespace osprey;
using namespace osprey::planner;
using Type = run::TrainEvent::Type;

namespace {

std::string started(int patience) {
    run::TrainEvent e;
    e.type = Type::RunStarted;
    e.config = {{"patience", std::to_string(patience)}, {"model", "yolov8n"}};
    e.epochs = 100;
    return run::toJson(e);
}

std::string system(double t, double gpuUtil, double cpu, double memUsed = 4000, double memTotal = 24000) {
    run::TrainEvent e;
    e.type = Type::System;
    e.timeS = t;
    e.cpuPercent = cpu;
    e.gpu = true;
    e.gpuName = "NVIDIA GeForce RTX 4090";
    e.gpuUtilPercent = gpuUtil;
    e.gpuMemUsedMb = memUsed;
    e.gpuMemTotalMb = memTotal;
    return run::toJson(e);
}

/// A CPU run computing on `threads` threads (run_started) and its machine's samples.
std::string cpuStarted(int threads) {
    run::TrainEvent e;
    e.type = Type::RunStarted;
    e.config = {{"patience", "100"}, {"model", "yolov8n"}, {"device", "cpu"}};
    e.epochs = 100;
    e.computeThreads = threads;
    return run::toJson(e);
}

std::string cpuSample(double t, double machine, double process, int cores) {
    run::TrainEvent e;
    e.type = Type::System;
    e.timeS = t;
    e.cpuPercent = machine;
    e.processCpuPercent = process;
    e.cpuCores = cores;
    return run::toJson(e);
}

std::string epoch(int n, double fitness, double boxLoss = 1.0) {
    run::TrainEvent e;
    e.type = Type::Epoch;
    e.timeS = n * 10.0;
    e.epoch = n;
    e.epochs = 100;
    e.metrics.epoch = n;
    e.metrics.boxLoss = boxLoss;
    e.metrics.clsLoss = 1.0;
    e.metrics.dflLoss = 1.0;
    e.metrics.fitness = e.metrics.map50to95 = fitness;
    return run::toJson(e);
}

std::vector<std::string> kinds(const std::vector<run::TrainEvent>& advice) {
    std::vector<std::string> out;
    for (const auto& a : advice) {
        out.push_back(a.kind);
        // Each line round-trips through the one writer and reader.
        const auto back = run::parseEvent(run::toJson(a));
        if (!back || back->type != Type::Advice || back->message != a.message)
            out.push_back("bad round trip");
    }
    return out;
}

} // namespace

class TestRunAdvice : public QObject {
    Q_OBJECT
private slots:
    void healthyRunGetsNoAdvice() {
        std::vector<std::string> lines{started(100)};
        for (int i = 0; i < 200; ++i)
            lines.push_back(system(2.0 * i, 95, 90));
        for (int n = 1; n <= 30; ++n)
            lines.push_back(epoch(n, 0.01 * n));
        QVERIFY(replayAdvice(lines).empty());
    }

    void starvedGpuIsTheDataPipeline() {
        std::vector<std::string> lines{started(100)};
        // 100 s starved, a busy GPU sample, then 150 s starved again: only the second stretch qualifies.
        for (int i = 0; i <= 50; ++i)
            lines.push_back(system(2.0 * i, 35, 97));
        lines.push_back(system(102, 90, 97));
        for (int i = 52; i <= 130; ++i)
            lines.push_back(system(2.0 * i, 40, 95));
        const auto advice = replayAdvice(lines);
        QCOMPARE(kinds(advice), std::vector<std::string>{"data_pipeline"});
        QCOMPARE(advice[0].timeS, 104.0 + 120.0);
        QVERIFY(advice[0].message.find("more workers") != std::string::npos);
        // An idle CPU with an idle GPU is not a pipeline problem.
        std::vector<std::string> idle{started(100)};
        for (int i = 0; i < 200; ++i)
            idle.push_back(system(2.0 * i, 20, 30));
        QVERIFY(replayAdvice(idle).empty());
    }

    void gpuMemoryNearItsLimitOnce() {
        std::vector<std::string> lines{started(100), system(2, 99, 50, 23000, 24000),
                                       system(4, 99, 50, 23500, 24000)};
        QCOMPARE(kinds(replayAdvice(lines)), std::vector<std::string>{"gpu_memory"});
    }

    void flatMapSaysPatienceWillStop() {
        std::vector<std::string> lines{started(30)};
        for (int n = 1; n <= 5; ++n)
            lines.push_back(epoch(n, 0.1 * n));
        for (int n = 6; n <= 20; ++n)
            lines.push_back(epoch(n, 0.45));
        const auto advice = replayAdvice(lines);
        QCOMPARE(kinds(advice), std::vector<std::string>{"plateau"});
        // Best in epoch 5; patience 30 -> advice after 10 flat epochs, in epoch 15.
        QCOMPARE(advice[0].epoch, 15);
        QVERIFY(advice[0].message.find("patience=30") != std::string::npos);
        QVERIFY(advice[0].message.find("best.pt") != std::string::npos);
    }

    void nanLossStopsWithCauses() {
        std::vector<std::string> lines{started(100), epoch(1, 0.1)};
        run::TrainEvent batch;
        batch.type = Type::Batch;
        batch.epoch = 2;
        batch.boxLoss = std::nan("");
        batch.clsLoss = batch.dflLoss = 1.0;
        lines.push_back(run::toJson(batch)); // written as null, read back as NaN
        lines.push_back(run::toJson(batch));
        lines.push_back(epoch(2, 0.1, std::nan("")));
        const auto advice = replayAdvice(lines);
        QCOMPARE(kinds(advice), std::vector<std::string>{"nan_loss"});
        QCOMPARE(advice[0].epoch, 2);
        QVERIFY(advice[0].message.find("lr0") != std::string::npos);
    }

    void cpuRunSharingItsCoresIsToldToUseFewerThreads() {
        // 2 threads on 2 cores: training alone, then `yes` on one core (the machine full, the trainer at
        // 1.33 of the 2 cores) for 3 samples: the advice comes with the third, once.
        std::vector<std::string> lines{cpuStarted(2)};
        for (int i = 0; i < 5; ++i)
            lines.push_back(cpuSample(2.0 * i, 100, 99, 2));
        for (int i = 5; i < 12; ++i)
            lines.push_back(cpuSample(2.0 * i, 100, 66.5, 2));
        auto advice = replayAdvice(lines);
        QCOMPARE(kinds(advice), std::vector<std::string>{"shared_cpu"});
        QCOMPARE(advice[0].timeS, 14.0);
        const auto& message = advice[0].message;
        QVERIFY2(message.find("about 0.7 of this machine's 2 cores") != std::string::npos, message.c_str());
        QVERIFY2(message.find("computes on 2 threads") != std::string::npos, message.c_str());
        QVERIFY2(message.find("threads=1 is likely faster") != std::string::npos, message.c_str());

        // A burst of 2 samples starts the count again.
        std::vector<std::string> burst{
            cpuStarted(2),           cpuSample(2, 100, 50, 2), cpuSample(4, 100, 50, 2),
            cpuSample(6, 60, 50, 2), cpuSample(8, 100, 50, 2), cpuSample(10, 100, 50, 2)};
        QVERIFY(replayAdvice(burst).empty());
        burst.push_back(cpuSample(12, 100, 50, 2));
        QCOMPARE(kinds(replayAdvice(burst)), std::vector<std::string>{"shared_cpu"});

        // 8 threads on 16 cores leave 8 free: other programs on 8 cores are fine, on 8.8 they compete.
        std::vector<std::string> roomy{cpuStarted(8)};
        for (int i = 0; i < 5; ++i)
            roomy.push_back(cpuSample(2.0 * i, 100, 50, 16));
        QVERIFY(replayAdvice(roomy).empty());
        for (int i = 5; i < 8; ++i)
            roomy.push_back(cpuSample(2.0 * i, 100, 45, 16));
        advice = replayAdvice(roomy);
        QCOMPARE(kinds(advice), std::vector<std::string>{"shared_cpu"});
        QVERIFY2(advice[0].message.find("about 8.8 of this machine's 16 cores") != std::string::npos,
                 advice[0].message.c_str());
        QVERIFY2(advice[0].message.find("threads=7 is") != std::string::npos, advice[0].message.c_str());

        // 1 thread on 2 cores: another program on the free core does not compete with it.
        std::vector<std::string> single{cpuStarted(1)};
        for (int i = 0; i < 10; ++i)
            single.push_back(cpuSample(2.0 * i, 100, 50, 2));
        QVERIFY(replayAdvice(single).empty());

        // A GPU run (compute_threads 0), and a stream written before the trainer's CPU share was recorded.
        std::vector<std::string> gpu{started(100)};
        std::vector<std::string> old{cpuStarted(2)};
        for (int i = 0; i < 10; ++i) {
            gpu.push_back(cpuSample(2.0 * i, 100, 50, 2));
            std::string line = cpuSample(2.0 * i, 100, 50, 2);
            const std::string key = "\"process_cpu_percent\":50.0,";
            QVERIFY2(line.find(key) != std::string::npos, line.c_str());
            old.push_back(line.erase(line.find(key), key.size()));
        }
        QVERIFY(replayAdvice(gpu).empty());
        QVERIFY(replayAdvice(old).empty());
    }

    void sinkInsertsAdviceAfterTheEvent() {
        struct Collect : run::EventSink {
            std::vector<run::TrainEvent> events;
            void onEvent(const run::TrainEvent& e) override { events.push_back(e); }
        } collect;
        AdvisingSink sink(collect);
        for (const auto& line : {started(100), system(1, 99, 50, 23900, 24000)})
            sink.onEvent(*run::parseEvent(line));
        QCOMPARE(collect.events.size(), std::size_t(3));
        QCOMPARE(collect.events[1].type, Type::System);
        QCOMPARE(collect.events[2].type, Type::Advice);
        QCOMPARE(collect.events[2].kind, std::string("gpu_memory"));
    }
};

QTEST_GUILESS_MAIN(TestRunAdvice)
#include "tst_run_advice.moc"
