#pragma once
// GpuProbe: lists the NVIDIA GPUs for the train form's device field without linking torch or NVML:
// it runs `nvidia-smi --query-gpu=index,name,memory.total --format=csv,noheader` asynchronously with a
// short timeout. No nvidia-smi, an error or a timeout all mean "no NVIDIA GPU found". GUI thread only.

#include <QList>
#include <QObject>
#include <QString>

class QProcess;
class QTimer;

namespace osprey::ui {

/// One GPU as nvidia-smi reports it.
struct GpuDevice {
    int index = 0;
    QString name;
    double memoryMiB = 0; ///< total memory; 0 when not reported
};

class GpuProbe : public QObject {
    Q_OBJECT
public:
    explicit GpuProbe(QObject* parent = nullptr);

    /// The nvidia-smi executable (a name on PATH or a path); tests point it at a stand-in.
    void setProgram(const QString& program) { m_program = program; }
    void setTimeoutMs(int timeoutMs) { m_timeoutMs = timeoutMs; }
    /// Starts a probe; `finished` follows, also when nothing can run. A probe in flight is restarted.
    void start();
    bool isRunning() const;

    /// Parses nvidia-smi's CSV lines ("0, NVIDIA H200, 143771 MiB"); malformed lines are skipped.
    static QList<GpuDevice> parse(const QByteArray& csv);

signals:
    /// The GPUs found (empty when none) and, when empty, why in a few words for the form
    /// ("no NVIDIA GPU found").
    void finished(const QList<osprey::ui::GpuDevice>& devices, const QString& note);

private:
    void done(const QList<GpuDevice>& devices, const QString& note);

    QString m_program = QStringLiteral("nvidia-smi");
    int m_timeoutMs = 5000;
    QProcess* m_process = nullptr;
    QTimer* m_timer;
    quint64 m_generation = 0;
};

} // namespace osprey::ui
