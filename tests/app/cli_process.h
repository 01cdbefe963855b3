#pragma once
// Runs osprey-cli (OSPREY_CLI_PATH) as a user would and collects its exit code and output.

#include <QProcess>
#include <QString>
#include <QStringList>

#include <filesystem>

namespace osprey::test {

struct CliResult {
    int exitCode = -1; ///< -1 when it crashed or did not finish in time
    QString out;
    QString err;
};

inline CliResult runCli(const QStringList& args, int timeoutMs = 120000) {
    QProcess process;
    process.start(OSPREY_CLI_PATH, args);
    CliResult result;
    if (!process.waitForFinished(timeoutMs)) {
        process.kill();
        process.waitForFinished();
        return result;
    }
    if (process.exitStatus() == QProcess::NormalExit)
        result.exitCode = process.exitCode();
    result.out = QString::fromUtf8(process.readAllStandardOutput());
    result.err = QString::fromUtf8(process.readAllStandardError());
    return result;
}

inline QString pathArg(const char* key, const std::filesystem::path& path) {
    return QString::fromLatin1(key) + "=" + QString::fromStdString(path.string());
}

} // namespace osprey::test
