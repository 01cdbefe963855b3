// GpuMonitor and MachineMonitor against a stand-in NVML library (fake_nvml.cpp): the GPUs' names,
// memory, utilisation, temperature and power come through exactly; a missing driver, a broken one and
// an index out of range give no GPU and a reason; every NVML initialisation is shut down again.

#include "system/gpu_monitor.h"
#include "system/machine_monitor.h"

#include <QtTest>

#include <dlfcn.h>

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
};

QTEST_APPLESS_MAIN(TestGpuMonitor)
#include "tst_gpu_monitor.moc"
