// How osprey-cli sets up the process of a batch verb (train, val, autolabel). OpenMP's wait policy
// (app/openmp_wait.h): /proc/stat read right, busy cores from two readings, and the choice itself in a
// child process (this test started again with --choose-wait) while a thread of this test keeps a core
// busy: passive waits, set before the re-exec, reported in OSPREY_OPENMP_WAIT; a policy the user set is
// kept as it is. malloc (app/malloc_policy.h): a 100 MB block comes from a fresh mapping before
// keepFreedMemory() and from the heap after it, and stays in the process once freed.
#include "malloc_policy.h"
#include "openmp_wait.h"

#include <QtTest>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace osprey::app;

namespace {

QString runChild(const QProcessEnvironment& environment) {
    QProcess child;
    child.setProcessEnvironment(environment);
    child.start(QCoreApplication::applicationFilePath(), {"--choose-wait"});
    if (!child.waitForFinished(30000))
        return "timed out";
    return QString::fromUtf8(child.readAllStandardOutput()).trimmed();
}

/// Keeps one core busy while it lives: a thread that spins.
class BusyCore {
public:
    BusyCore()
        : m_thread([this] {
              while (!m_stop.load(std::memory_order_relaxed)) {
              }
          }) {}
    ~BusyCore() {
        m_stop = true;
        m_thread.join();
    }

private:
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace

class TestBatchProcess : public QObject {
    Q_OBJECT

private slots:
    void keepsFreedMemoryInTheProcess() {
#if defined(__GLIBC__)
        constexpr size_t kBlock = 100u << 20;
        const auto mapped = [] { return mallinfo2().hblks; };
        const size_t before = mapped();
        void* first = std::malloc(kBlock);
        QVERIFY(first);
        QCOMPARE(mapped(), before + 1); // glibc's default: a block this large is a mapping of its own
        std::free(first);
        QCOMPARE(mapped(), before); // and goes back to the kernel when freed
        QVERIFY(keepFreedMemory());
        void* second = std::malloc(kBlock);
        QVERIFY(second);
        std::memset(second, 1, kBlock);
        QCOMPARE(mapped(), before); // from the heap now
        std::free(second);
        QVERIFY2(mallinfo2().fordblks >= kBlock, "the freed block was returned to the kernel");
#else
        QSKIP("keepFreedMemory tunes glibc's malloc; this C library is not glibc");
#endif
    }

    void parsesTheAggregateCpuLine() {
        const auto jiffies = parseProcStat("cpu  100 5 20 800 40 3 2 10 0 0\n"
                                           "cpu0 50 2 10 400 20 1 1 5 0 0\n"
                                           "intr 12345\n");
        QVERIFY(jiffies.has_value());
        QCOMPARE(jiffies->total, 980ull);      // user..steal; guest times are inside user and nice
        QCOMPARE(jiffies->busy, 980ull - 840); // iowait counts as idle
        QVERIFY(!parseProcStat("cpu0 1 2 3 4 5\n").has_value());
        QVERIFY(!parseProcStat("cpu  1 2 3\n").has_value()); // too few fields
        QVERIFY(!parseProcStat("").has_value());
    }

    void busyCoresFromTwoReadings() {
        // 2 cores, 200 jiffies in all between the readings, 100 of them busy: one core's worth.
        QCOMPARE(busyCores({1000, 5000}, {1100, 5200}, 2), 1.0);
        QCOMPARE(busyCores({1000, 5000}, {1000, 5200}, 2), 0.0);
        QCOMPARE(busyCores({1000, 5000}, {1000, 5000}, 2), 0.0); // no time passed
        QVERIFY(busyCores({1000, 5000}, {1100, 5200}, 2) >= kBusyCoresForPassive);
    }

    void measuresABusyCore() {
        std::optional<double> busy;
        {
            BusyCore core;
            busy = measureBusyCores(kLoadWindow);
        }
        if (!busy)
            QSKIP("/proc/stat cannot be read here");
        QVERIFY2(*busy >= 0.7, qPrintable(QString("measured %1 busy cores while one spins").arg(*busy)));
    }

    void choosesPassiveWaitsOnABusyMachine() {
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.remove("OMP_WAIT_POLICY");
        environment.remove("OSPREY_OPENMP_WAIT");
        QString output;
        {
            BusyCore core;
            output = runChild(environment);
        }
        QVERIFY2(output.startsWith("OMP_WAIT_POLICY=PASSIVE\nOSPREY_OPENMP_WAIT=passive: "),
                 qPrintable(output));
    }

    void keepsThePolicyTheUserSet() {
        auto environment = QProcessEnvironment::systemEnvironment();
        environment.insert("OMP_WAIT_POLICY", "ACTIVE");
        environment.remove("OSPREY_OPENMP_WAIT");
        QCOMPARE(runChild(environment),
                 QString("OMP_WAIT_POLICY=ACTIVE\nOSPREY_OPENMP_WAIT=OMP_WAIT_POLICY=ACTIVE, as set"));
    }
};

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "--choose-wait") == 0) {
        chooseOpenMpWait(argv);
        const char* policy = std::getenv("OMP_WAIT_POLICY");
        const char* reason = std::getenv("OSPREY_OPENMP_WAIT");
        std::printf("OMP_WAIT_POLICY=%s\nOSPREY_OPENMP_WAIT=%s\n", policy ? policy : "(unset)",
                    reason ? reason : "(unset)");
        return 0;
    }
    QCoreApplication app(argc, argv);
    TestBatchProcess test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_batch_process.moc"
