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

    /// The words of /proc/cpuinfo's first line named `field` ("flags", "vendor_id").
    static std::set<std::string> kernelField(const std::string& field) {
        std::ifstream cpuinfo("/proc/cpuinfo");
        std::string line;
        while (std::getline(cpuinfo, line))
            if (line.rfind(field, 0) == 0 && line.find(':') != std::string::npos) {
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
        const auto flags = kernelField("flags");
        if (flags.empty())
            QSKIP("no flags line in /proc/cpuinfo (not an x86 Linux machine)");
        const bool amx = flags.count("amx_bf16") > 0;
        const bool avx512 = flags.count("avx512_bf16") > 0;
        QCOMPARE(system::cpuComputesBFloat16(), amx || avx512);
        const auto names = system::cpuBFloat16Instructions();
        QCOMPARE(names.find("AMX-BF16") != std::string::npos, amx);
        QCOMPARE(names.find("AVX512-BF16") != std::string::npos, avx512);
        // bf16 counts as fast with AMX, or with AVX512-BF16 on AMD (not on Intel without AMX).
        const bool amd = kernelField("vendor_id").count("AuthenticAMD") > 0;
        QCOMPARE(system::cpuBFloat16IsFast(), amx || (avx512 && amd));
        qInfo("bf16 instructions: %s", names.empty() ? "none" : names.c_str());
    }
};

QTEST_GUILESS_MAIN(TestCpuFeatures)
#include "tst_cpu_features.moc"
