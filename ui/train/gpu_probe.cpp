#include "ui/train/gpu_probe.h"

#include "system/gpu_monitor.h"
#include "ui/common/background_task.h"

namespace osprey::ui {

namespace {

/// What the worker hands back: a value snapshot, no live object.
struct ProbeResult {
    QList<GpuDevice> devices;
    QString note;
};

} // namespace

} // namespace osprey::ui

Q_DECLARE_METATYPE(osprey::ui::ProbeResult)

namespace osprey::ui {

GpuProbe::GpuProbe(QObject* parent)
    : QObject(parent), m_library(QString::fromLatin1(system::GpuMonitor::kDefaultLibrary)) {}

QList<TrainChoice> GpuProbe::deviceChoices(const QList<GpuDevice>& devices) {
    QList<TrainChoice> choices;
    for (const GpuDevice& gpu : devices)
        choices.append({gpu.memoryMiB > 0 ? tr("GPU %1: %2 (%3 GB)")
                                                .arg(gpu.index)
                                                .arg(gpu.name)
                                                .arg(gpu.memoryMiB / 1024.0, 0, 'f', 0)
                                          : tr("GPU %1: %2").arg(gpu.index).arg(gpu.name),
                        QString::number(gpu.index)});
    choices.append({tr("CPU"), QStringLiteral("cpu")});
    return choices;
}

void GpuProbe::start() {
    const quint64 generation = ++m_generation;
    ++m_running;
    auto* task = new BackgroundTask(this);
    connect(task, &BackgroundTask::finished, this, [this, task, generation](const TaskResult& result) {
        --m_running;
        task->deleteLater();
        if (generation != m_generation)
            return; // superseded by a later start()
        const auto probe = result.value.value<ProbeResult>();
        emit finished(probe.devices, probe.note);
    });
    const std::string library = m_library.toStdString();
    task->start([library](TaskContext&) {
        const system::GpuMonitor monitor(library);
        ProbeResult probe;
        for (const system::GpuSample& gpu : monitor.sampleAll())
            probe.devices.append({gpu.index, QString::fromStdString(gpu.name),
                                  gpu.memoryTotalMb > 0 ? gpu.memoryTotalMb : 0.0});
        if (probe.devices.isEmpty())
            probe.note =
                monitor.state() == system::GpuMonitor::State::DriverBroken
                    ? tr("no NVIDIA GPU: %1").arg(QString::fromStdString(monitor.unavailableReason()))
                    : tr("no NVIDIA GPU found");
        return TaskResult{QVariant::fromValue(probe), QString()};
    });
}

} // namespace osprey::ui
