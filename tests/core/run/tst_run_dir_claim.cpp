// A run folder has exactly one writer: processes that start a run with the same name at once each get
// their own folder (ddp, ddp2, ...), decided by mkdir, never by a check-then-create race.
#include "run/run_files.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <set>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

using namespace osprey;
namespace fs = std::filesystem;

class TestRunDirClaim : public QObject {
    Q_OBJECT
private slots:
    void incrementsLikeUltralytics() {
        QTemporaryDir dir;
        const fs::path runs = fs::path(dir.path().toStdString()) / "runs";
        QCOMPARE(run::claimRunDir(runs, "ddp").value(), runs / "ddp");
        QCOMPARE(run::claimRunDir(runs, "ddp").value(), runs / "ddp2");
        // A file in the way is skipped, not an error.
        { std::ofstream(runs / "ddp3") << "x"; }
        QCOMPARE(run::claimRunDir(runs, "ddp").value(), runs / "ddp4");
        QVERIFY(fs::is_directory(runs / "ddp4"));
        QCOMPARE(run::claimRunDir(runs, "train").value(), runs / "train");
    }

    void concurrentProcessesGetDistinctFolders() {
        QTemporaryDir dir;
        const fs::path runs = fs::path(dir.path().toStdString()) / "runs";
        constexpr int kProcesses = 8;
        int fds[2];
        QCOMPARE(::pipe(fds), 0);
        int go[2];
        QCOMPARE(::pipe(go), 0);
        std::vector<pid_t> children;
        for (int i = 0; i < kProcesses; ++i) {
            const pid_t pid = ::fork();
            QVERIFY(pid >= 0);
            if (pid == 0) {
                ::close(fds[0]);
                ::close(go[1]);
                char c;
                (void)!::read(go[0], &c, 1); // all start together when the parent closes the pipe
                const auto claimed = run::claimRunDir(runs, "ddp");
                const std::string line = (claimed ? claimed->filename().string() : "error") + "\n";
                (void)!::write(fds[1], line.data(), line.size());
                ::_exit(claimed ? 0 : 1);
            }
            children.push_back(pid);
        }
        ::close(fds[1]);
        ::close(go[0]);
        ::close(go[1]); // release every child at once
        std::string out;
        char buffer[256];
        for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
            out.append(buffer, static_cast<std::size_t>(n));
        ::close(fds[0]);
        for (const pid_t pid : children) {
            int status = 0;
            ::waitpid(pid, &status, 0);
            QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
        std::set<std::string> names;
        std::size_t lines = 0;
        for (const auto& line : QString::fromStdString(out).split('\n', Qt::SkipEmptyParts)) {
            names.insert(line.toStdString());
            ++lines;
        }
        QCOMPARE(lines, std::size_t(kProcesses));
        QCOMPARE(names.size(), std::size_t(kProcesses)); // no folder claimed twice
        std::set<std::string> expected = {"ddp"};
        for (int i = 2; i <= kProcesses; ++i)
            expected.insert("ddp" + std::to_string(i));
        QCOMPARE(names, expected);
    }
};

QTEST_GUILESS_MAIN(TestRunDirClaim)
#include "tst_run_dir_claim.moc"
