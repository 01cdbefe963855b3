#include "ui/train/trainer_process.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QTimer>
#include <csignal>
#include <unistd.h>
#include <utility>

namespace osprey::ui {

namespace {

// Spool files of a GUI that crashed are never read again; a day is far beyond any reader's need.
void removeStaleSpoolFiles(const QDir& dir) {
    const QDateTime cutoff = QDateTime::currentDateTime().addDays(-1);
    for (const QFileInfo& info : dir.entryInfoList({QStringLiteral("trainer-*")}, QDir::Files))
        if (info.lastModified() < cutoff)
            QFile::remove(info.filePath());
}

// Splits `pending` at newlines; calls `emitLine` for each complete line and keeps the partial rest.
template <typename Emit> void splitLines(QByteArray& pending, Emit emitLine) {
    qsizetype start = 0;
    for (qsizetype end; (end = pending.indexOf('\n', start)) >= 0; start = end + 1)
        emitLine(pending.mid(start, end - start));
    pending.remove(0, start);
}

} // namespace

TrainerProcess::TrainerProcess(const QString& spoolDir, QObject* parent)
    : QObject(parent), m_spoolDir(spoolDir), m_poll(new QTimer(this)) {
    m_poll->setInterval(100);
    connect(m_poll, &QTimer::timeout, this, &TrainerProcess::poll);
}

TrainerProcess::~TrainerProcess() {
    if (isRunning() && !m_detached) {
        disconnect(m_process, nullptr, this, nullptr);
        m_process->terminate();
        if (!m_process->waitForFinished(15000))
            m_process->kill();
        m_process->waitForFinished(2000);
    }
    if (!m_detached)
        removeSpoolFiles();
}

bool TrainerProcess::start(const QString& program, const QStringList& arguments, QString* error) {
    if (isRunning()) {
        if (error)
            *error = tr("A trainer is already running.");
        return false;
    }
    const QDir dir(m_spoolDir);
    if (!dir.mkpath(QStringLiteral("."))) {
        if (error)
            *error = tr("Cannot create the folder %1 for the trainer's output.")
                         .arg(QDir::toNativeSeparators(m_spoolDir));
        return false;
    }
    removeStaleSpoolFiles(dir);
    removeSpoolFiles();
    const QString stem = QStringLiteral("trainer-%1-%2")
                             .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")))
                             .arg(QRandomGenerator::global()->generate() % 100000, 5, 10, QLatin1Char('0'));
    m_out.setFileName(dir.filePath(stem + QStringLiteral(".out")));
    m_err.setFileName(dir.filePath(stem + QStringLiteral(".err")));
    // The files exist before the child does, so the readers can open them at offset 0.
    for (QFile* file : {&m_out, &m_err}) {
        QFile create(file->fileName());
        if (!create.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            (file == &m_err && !file->open(QIODevice::ReadOnly | QIODevice::Unbuffered))) {
            if (error)
                *error = tr("Cannot create %1: %2")
                             .arg(QDir::toNativeSeparators(file->fileName()), create.errorString());
            removeSpoolFiles();
            return false;
        }
    }
    m_outTail.emplace(QFile::encodeName(m_out.fileName()).toStdString());
    m_errPending.clear();
    delete m_process;
    m_process = new QProcess(this);
    m_process->setStandardOutputFile(m_out.fileName(), QIODevice::Append);
    m_process->setStandardErrorFile(m_err.fileName(), QIODevice::Append);
    m_process->setStandardInputFile(QProcess::nullDevice());
    // Its own session: closing the terminal that started the GUI must not hang up a background run.
    m_process->setChildProcessModifier([] { ::setsid(); });
    connect(m_process, &QProcess::finished, this, &TrainerProcess::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError processError) {
        if (processError != QProcess::FailedToStart)
            return;
        m_poll->stop();
        removeSpoolFiles();
        emit failedToStart(m_process->errorString());
    });
    m_detached = false;
    m_process->start(program, arguments);
    m_poll->start();
    return true;
}

bool TrainerProcess::isRunning() const {
    return m_process && !m_detached && m_process->state() != QProcess::NotRunning;
}

qint64 TrainerProcess::processId() const {
    return isRunning() ? m_process->processId() : 0;
}

void TrainerProcess::terminate() {
    if (isRunning())
        m_process->terminate();
}

void TrainerProcess::kill() {
    if (isRunning())
        m_process->kill();
}

qint64 TrainerProcess::detach() {
    if (!isRunning())
        return 0;
    const qint64 pid = m_process->processId();
    m_poll->stop();
    disconnect(m_process, nullptr, this, nullptr);
    // The QProcess must not be destroyed while the child runs (its destructor kills it). Without a
    // parent it outlives this object; should the GUI still be up when the trainer ends, it reaps the
    // child and deletes itself. When the GUI exits first, the trainer is reparented to init.
    m_process->setParent(nullptr);
    connect(m_process, &QProcess::finished, m_process, &QObject::deleteLater);
    m_process = nullptr;
    m_detached = true;
    // Unlinked files stay writable for the child; their space is freed when it exits.
    removeSpoolFiles();
    return pid;
}

void TrainerProcess::poll() {
    readOut(run::EventsTail::Partial::Wait);
    if (m_err.isOpen()) {
        m_errPending += m_err.readAll();
        splitLines(m_errPending, [this](const QByteArray& line) {
            const QString text = QString::fromUtf8(line).trimmed();
            if (!text.isEmpty())
                emit errorLine(text);
        });
    }
}

void TrainerProcess::onFinished(int exitCode, QProcess::ExitStatus status) {
    m_poll->stop();
    poll();
    readOut(run::EventsTail::Partial::Take); // a last line without a newline still counts
    if (const QString rest = QString::fromUtf8(std::exchange(m_errPending, {})).trimmed(); !rest.isEmpty())
        emit errorLine(rest);
    removeSpoolFiles();
    emit finished(exitCode, status);
}

void TrainerProcess::readOut(run::EventsTail::Partial partial) {
    if (!m_outTail)
        return;
    // A spool file that cannot be read yields nothing now; the process's end still arrives.
    if (auto lines = m_outTail->read(partial))
        for (const run::EventsLine& line : *lines)
            emit lineReceived(line);
}

void TrainerProcess::removeSpoolFiles() {
    m_outTail.reset();
    for (QFile* file : {&m_out, &m_err}) {
        file->close();
        if (!file->fileName().isEmpty())
            QFile::remove(file->fileName());
    }
}

bool TrainerProcess::isTrainer(qint64 pid) {
#if defined(Q_OS_LINUX)
    if (pid <= 0)
        return false;
    QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (!cmdline.open(QIODevice::ReadOnly))
        return false;
    const QList<QByteArray> arguments = cmdline.readAll().split('\0'); // empty for a zombie
    // The program, or a script's interpreter followed by the script (a wrapper named osprey-cli...).
    for (int i = 0; i < 2 && i + 1 < arguments.size(); ++i) {
        const QByteArray program = arguments[i].mid(arguments[i].lastIndexOf('/') + 1);
        if (program.startsWith("osprey-cli"))
            return arguments[i + 1] == "train";
    }
    return false;
#else
    Q_UNUSED(pid)
    return false;
#endif
}

bool TrainerProcess::terminateTrainer(qint64 pid) {
#if defined(Q_OS_LINUX)
    return isTrainer(pid) && ::kill(static_cast<pid_t>(pid), SIGTERM) == 0;
#else
    Q_UNUSED(pid)
    return false;
#endif
}

} // namespace osprey::ui
