// GpuMonitor and MachineMonitor against a stand-in NVML library (fake_nvml.cpp): the GPUs' names,
// memory, utilisation, temperature and power come through exactly; a missing driver, a broken one and
// an index out of range give no GPU and a reason; every NVML initialisation is shut down again. The
// machine sample's CPU, memory and this process's CPU share.

#include "system/gpu_monitor.h"
#include "system/machine_monitor.h"

#include <QtTest>

#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

using namespace osprey::system;

class TestGpuMonitor : public QObject {
    Q_OBJECT
private slots:
    void readsEveryGpuOfTheDriver() {
        {
            const GpuMonitor monitor(OSPREY_FAKE_NVML);
            QVERIFY(monitor.available());
            QVERIFY(monitor.state() == GpuMonitor::State::Ready);
            QVERIFY(monitor.unavailableReason().empty());
            QCOMPARE(monitor.count(), 2);
            const auto gpus = monitor.sampleAll();
            QCOMPARE(gpus.size(), size_t(2));
            QCOMPARE(gpus[0].index, 0);
            QCOMPARE(gpus[0].name, std::string("NVIDIA H200"));
            QCOMPARE(gpus[0].memoryTotalMb, 143771.0);
            QCOMPARE(gpus[0].memoryUsedMb, 1024.0);
            QCOMPARE(gpus[0].utilPercent, 37.0);
            QCOMPARE(gpus[0].temperatureC, 45.0);
            QCOMPARE(gpus[0].powerW, 123.456);
            QCOMPARE(gpus[1].name, std::string("NVIDIA GeForce RTX 4090"));
            QCOMPARE(gpus[1].memoryUsedMb, 20480.0);
            QCOMPARE(gpus[1].powerW, 350.0);
            QVERIFY(!monitor.sample(2));
            QVERIFY(!monitor.sample(-1));
        }
        // The monitor shut NVML down: the stand-in counts open initialisations.
        void* library = dlopen(OSPREY_FAKE_NVML, RTLD_NOW | RTLD_LOCAL);
        QVERIFY(library);
        auto initialisations = reinterpret_cast<int (*)()>(dlsym(library, "fakeNvmlInitialisations"));
        QVERIFY(initialisations);
        QCOMPARE(initialisations(), 0);
        dlclose(library);
    }

    void noDriverMeansNoGpu() {
        const GpuMonitor monitor("/nonexistent/libnvidia-ml.so.1");
        QVERIFY(!monitor.available());
        QVERIFY(monitor.state() == GpuMonitor::State::NoDriver);
        QCOMPARE(monitor.count(), 0);
        QVERIFY(monitor.sampleAll().empty());
        QCOMPARE(monitor.unavailableReason(), std::string("no NVIDIA driver found"));
    }

    void brokenDriverSaysWhy() {
        const GpuMonitor monitor(OSPREY_FAKE_NVML_BROKEN);
        QVERIFY(monitor.state() == GpuMonitor::State::DriverBroken);
        QCOMPARE(monitor.count(), 0);
        QCOMPARE(monitor.unavailableReason(), std::string("the NVIDIA driver is not working (NVML error 9)"));
    }

    void machineSampleHoldsCpuMemoryAndGpus() {
        MachineMonitor monitor(OSPREY_FAKE_NVML);
        // Burn a little CPU so that the second sample has a load to report.
        volatile double sink = 0;
        for (int i = 0; i < 20000000; ++i)
            sink = sink + i * 0.5;
        const MachineSample sample = monitor.sample();
        QVERIFY(sample.cpuPercent > 0 && sample.cpuPercent <= 100);
        QVERIFY(sample.ramTotalMb > 100);
        QVERIFY(sample.ramUsedMb > 0 && sample.ramUsedMb < sample.ramTotalMb);
        QVERIFY(sample.processRssMb > 1 && sample.processRssMb < sample.ramTotalMb);
        QCOMPARE(sample.gpus.size(), size_t(2));
        QCOMPARE(sample.gpus[1].utilPercent, 99.0);
    }

    // This process's share of the machine's CPU, against the CPU time the process itself counted
    // (std::clock) over the same wall time: a busy loop on one thread for 0.6 s.
    void processCpuMatchesTheProcessesOwnClock() {
        MachineMonitor monitor(OSPREY_FAKE_NVML_BROKEN);
        const auto cores = static_cast<double>(std::max(1u, std::thread::hardware_concurrency()));
        const std::clock_t cpuStart = std::clock();
        const auto wallStart = std::chrono::steady_clock::now();
        volatile double sink = 0;
        while (std::chrono::steady_clock::now() - wallStart < std::chrono::milliseconds(600))
            sink = sink + 0.5;
        const MachineSample sample = monitor.sample();
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
        const double cpu = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
        const double expected = 100.0 * cpu / (wall * cores);
        qInfo("process %.1f %% of the machine (its own clock: %.1f %%), machine %.1f %%, %g cores",
              sample.processCpuPercent, expected, sample.cpuPercent, cores);
        QVERIFY2(expected > 100.0 / cores * 0.1, "the busy loop got almost no CPU");
        // Clock ticks are 10 ms: a few of them, plus 15 %, of slack.
        QVERIFY(std::abs(sample.processCpuPercent - expected) <= 5.0 + 0.15 * expected);
        QVERIFY(sample.processCpuPercent <= sample.cpuPercent + 5.0);
    }
};

QTEST_APPLESS_MAIN(TestGpuMonitor)
#include "tst_gpu_monitor.moc"
