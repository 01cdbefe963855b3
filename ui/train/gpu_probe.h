#pragma once
// GpuProbe: lists the NVIDIA GPUs for the train form's device field through core/system's GpuMonitor
// (NVML via dlopen), off the GUI thread: loading the driver can take a moment. No driver, a broken one
// or no GPU all mean "CPU only", with the reason as the form's note. GUI thread only.

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include "ui/train/train_settings.h"

namespace osprey::ui {

class BackgroundTask;

/// One GPU as NVML reports it.
struct GpuDevice {
    int index = 0;
    QString name;
    double memoryMiB = 0; ///< total memory; 0 when not reported
};

class GpuProbe : public QObject {
    Q_OBJECT
public:
    explicit GpuProbe(QObject* parent = nullptr);

    /// The NVML library (a name the dynamic loader finds, or a path); tests point it at a stand-in.
    void setLibrary(const QString& library) { m_library = library; }
    /// Starts a probe; `finished` follows. A probe in flight is superseded: only the newest reports.
    void start();
    bool isRunning() const { return m_running > 0; }

    /// The device field's entries: each GPU ("GPU 0: NVIDIA H200 (140 GB)", value "0"), then the CPU.
    static QList<TrainChoice> deviceChoices(const QList<GpuDevice>& devices);

signals:
    /// The GPUs found (empty when none) and, when empty, why in a few words for the form
    /// ("no NVIDIA GPU found").
    void finished(const QList<osprey::ui::GpuDevice>& devices, const QString& note);

private:
    QString m_library;
    quint64 m_generation = 0;
    int m_running = 0;
};

} // namespace osprey::ui

Q_DECLARE_METATYPE(QList<osprey::ui::GpuDevice>)
