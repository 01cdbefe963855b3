// The device option against stand-in inventories (a CPU-only LibTorch, a CUDA LibTorch without GPUs,
// two H200s) and against this machine's own: each error names what was asked and what was found.
#include "train/device_choice.h"

#include <QtTest>

using namespace osprey::train;

namespace {

DeviceInventory cpuOnly() {
    DeviceInventory found;
    found.torchVersion = "1.13.0";
    found.nvmlGpus = {"NVIDIA H200"};
    return found;
}

DeviceInventory twoGpus() {
    DeviceInventory found;
    found.torchVersion = "2.15.0";
    found.torchHasCuda = true;
    found.cudaDevices = 2;
    found.nvmlGpus = {"NVIDIA H200", "NVIDIA H200"};
    return found;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

} // namespace

class TestDeviceChoice : public QObject {
    Q_OBJECT

private slots:
    void cpuNeedsNothing() {
        for (const char* text : {"cpu", "", " CPU "}) {
            const auto choice = chooseDevices(text, cpuOnly());
            QVERIFY(choice);
            QVERIFY(!choice->cuda);
            QCOMPARE(choice->describe(), std::string("cpu"));
        }
    }

    void indicesAndLists() {
        auto choice = chooseDevices("0", twoGpus());
        QVERIFY(choice);
        QCOMPARE(choice->indices, std::vector<int>{0});
        QCOMPARE(choice->describe(), std::string("cuda:0"));
        choice = chooseDevices("1,0", twoGpus());
        QVERIFY(choice);
        QCOMPARE(choice->indices, (std::vector<int>{1, 0}));
        QCOMPARE(choice->describe(), std::string("cuda:1,0"));
        QCOMPARE(chooseDevices("cuda:1", twoGpus())->indices, std::vector<int>{1});
        QCOMPARE(chooseDevices("cuda", twoGpus())->indices, std::vector<int>{0});
    }

    void badTextIsNamed() {
        for (const char* text : {"gpu", "0,x", "-1", "0,,1", "cuda:a"}) {
            const auto choice = chooseDevices(text, twoGpus());
            QVERIFY2(!choice, text);
            QVERIFY2(contains(choice.message(), std::string("device=") + text), choice.message().c_str());
        }
        const auto twice = chooseDevices("0,0", twoGpus());
        QVERIFY(!twice);
        QCOMPARE(twice.message(), std::string("device=0,0: device 0 is listed twice"));
    }

    void cpuOnlyLibTorchNamesTheGpusNvmlSees() {
        const auto choice = chooseDevices("0", cpuOnly());
        QVERIFY(!choice);
        QCOMPARE(
            choice.message(),
            std::string("device=0 asks for CUDA, but this program was built against LibTorch 1.13.0 without "
                        "CUDA (the NVIDIA driver (NVML) lists 1 GPU: 0 NVIDIA H200). Build it against a "
                        "CUDA LibTorch (docs/cuda.md) or use device=cpu"));
    }

    void cudaLibTorchWithoutGpus() {
        DeviceInventory found = twoGpus();
        found.cudaDevices = 0;
        found.nvmlGpus.clear();
        found.nvmlReason = "no NVIDIA driver found";
        const auto choice = chooseDevices("0", found);
        QVERIFY(!choice);
        QVERIFY2(contains(choice.message(), "LibTorch 2.15.0 has CUDA but the CUDA runtime sees no GPU"),
                 choice.message().c_str());
        QVERIFY2(contains(choice.message(), "(NVML): no NVIDIA driver found"), choice.message().c_str());
    }

    void missingIndexNamesTheDevices() {
        const auto choice = chooseDevices("0,2", twoGpus());
        QVERIFY(!choice);
        QCOMPARE(
            choice.message(),
            std::string("device=0,2: there is no CUDA device 2; the CUDA runtime sees 2 devices (indices "
                        "0-1); the NVIDIA driver (NVML) lists 2 GPUs: 0 NVIDIA H200, 1 NVIDIA H200"));
    }

    void thisMachine() {
        const auto found = probeDevices();
        QVERIFY(!found.torchVersion.empty());
        QVERIFY(chooseDevices("cpu", found));
        if (found.cudaDevices > 0)
            QSKIP("a GPU is visible; the no-GPU error is not reachable here");
        const auto choice = chooseDevices("0", found);
        QVERIFY(!choice);
        QVERIFY2(contains(choice.message(), "LibTorch " + found.torchVersion), choice.message().c_str());
        QVERIFY2(contains(choice.message(), found.torchHasCuda ? "has CUDA but" : "without CUDA"),
                 choice.message().c_str());
    }
};

QTEST_APPLESS_MAIN(TestDeviceChoice)
#include "tst_device_choice.moc"
