// cpu_features against the kernel's own reading of CPUID: the flags line of /proc/cpuinfo.
#include "system/cpu_features.h"

#include <QtTest>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace osprey;

class TestCpuFeatures : public QObject {
    Q_OBJECT

    static std::set<std::string> kernelFlags() {
        std::ifstream cpuinfo("/proc/cpuinfo");
        std::string line;
        while (std::getline(cpuinfo, line))
            if (line.rfind("flags", 0) == 0) {
                std::istringstream words(line.substr(line.find(':') + 1));
                std::set<std::string> flags;
                for (std::string word; words >> word;)
                    flags.insert(word);
                return flags;
            }
        return {};
    }

private slots:
    void matchesTheKernel() {
        const auto flags = kernelFlags();
        if (flags.empty())
            QSKIP("no flags line in /proc/cpuinfo (not an x86 Linux machine)");
        const bool amx = flags.count("amx_bf16") > 0;
        const bool avx512 = flags.count("avx512_bf16") > 0;
        QCOMPARE(system::cpuComputesBFloat16(), amx || avx512);
        const auto names = system::cpuBFloat16Instructions();
        QCOMPARE(names.find("AMX-BF16") != std::string::npos, amx);
        QCOMPARE(names.find("AVX512-BF16") != std::string::npos, avx512);
        qInfo("bf16 instructions: %s", names.empty() ? "none" : names.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCpuFeatures)
#include "tst_cpu_features.moc"
