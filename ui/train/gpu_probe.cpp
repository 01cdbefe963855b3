#include "ui/train/gpu_probe.h"

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>
#include <algorithm>

namespace osprey::ui {

GpuProbe::GpuProbe(QObject* parent) : QObject(parent), m_timer(new QTimer(this)) {
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        // A driver in a bad state can make nvidia-smi hang; the form must not wait for it.
        if (m_process)
            m_process->kill();
    });
}

bool GpuProbe::isRunning() const {
    return m_process != nullptr;
}

void GpuProbe::start() {
    // A restart supersedes whatever the previous probe would still report.
    const quint64 generation = ++m_generation;
    if (m_process) {
        disconnect(m_process, nullptr, this, nullptr);
        m_process->kill();
        m_process->waitForFinished(1000);
        m_process->deleteLater();
        m_process = nullptr;
    }
    // Not finding the program is the common case on machines without NVIDIA drivers; say so directly.
    if (QStandardPaths::findExecutable(m_program).isEmpty() &&
        !(m_program.contains(QLatin1Char('/')) && QFileInfo(m_program).isExecutable())) {
        QTimer::singleShot(0, this, [this, generation] {
            if (generation == m_generation)
                done({}, tr("no NVIDIA GPU found"));
        });
        return;
    }
    m_process = new QProcess(this);
    connect(m_process, &QProcess::finished, this, [this](int exitCode, QProcess::ExitStatus status) {
        const QByteArray out = m_process->readAllStandardOutput();
        const bool timedOut = !m_timer->isActive();
        m_timer->stop();
        const QList<GpuDevice> devices =
            status == QProcess::NormalExit && exitCode == 0 ? parse(out) : QList<GpuDevice>{};
        done(devices, devices.isEmpty() ? (timedOut ? tr("no NVIDIA GPU found (nvidia-smi did not answer)")
                                                    : tr("no NVIDIA GPU found"))
                                        : QString());
    });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            m_timer->stop();
            done({}, tr("no NVIDIA GPU found"));
        }
    });
    m_timer->start(m_timeoutMs);
    m_process->start(m_program, {QStringLiteral("--query-gpu=index,name,memory.total"),
                                 QStringLiteral("--format=csv,noheader")});
}

void GpuProbe::done(const QList<GpuDevice>& devices, const QString& note) {
    if (m_process) {
        m_process->deleteLater();
        m_process = nullptr;
    }
    emit finished(devices, note);
}

QList<GpuDevice> GpuProbe::parse(const QByteArray& csv) {
    QList<GpuDevice> devices;
    for (const QByteArray& raw : csv.split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        // "index, name, memory": a name may itself contain commas, so the first and last cells anchor it.
        const qsizetype first = line.indexOf(QLatin1Char(','));
        const qsizetype last = line.lastIndexOf(QLatin1Char(','));
        if (first < 0 || last <= first)
            continue;
        bool ok = false;
        GpuDevice device;
        device.index = line.left(first).trimmed().toInt(&ok);
        if (!ok || device.index < 0)
            continue;
        device.name = line.mid(first + 1, last - first - 1).trimmed();
        if (device.name.isEmpty())
            continue;
        QString memory = line.mid(last + 1).trimmed();
        memory.remove(QStringLiteral("MiB"), Qt::CaseInsensitive);
        device.memoryMiB = std::max(0.0, memory.trimmed().toDouble());
        devices.append(device);
    }
    return devices;
}

} // namespace osprey::ui
