#pragma once
// The Python of a test peer (never linked, never a dependency of the product): the venv
// packaging/setup-test-peers.sh makes, or the one an environment variable names. Tests that need it skip
// with a line when it is absent.

#include <QDir>
#include <QFile>
#include <QString>

namespace osprey::test {

/// The Python with ultralytics 8.4.190: $OSPREY_ULTRALYTICS_PYTHON, else ~/.cache/osprey/ultralytics-venv;
/// empty when neither is there.
inline QString ultralyticsPython() {
    const QString given = qEnvironmentVariable("OSPREY_ULTRALYTICS_PYTHON");
    if (!given.isEmpty())
        return given;
    const QString cached = QDir::homePath() + "/.cache/osprey/ultralytics-venv/bin/python";
    return QFile::exists(cached) ? cached : QString();
}

/// The Python with mlflow 3.17.2 and tensorboard: $OSPREY_TRACKING_PYTHON, else
/// ~/.cache/osprey/tracking-venv; empty when neither is there.
inline QString trackingPython() {
    const QString given = qEnvironmentVariable("OSPREY_TRACKING_PYTHON");
    if (!given.isEmpty())
        return given;
    const QString cached = QDir::homePath() + "/.cache/osprey/tracking-venv/bin/python";
    return QFile::exists(cached) ? cached : QString();
}

} // namespace osprey::test
