#include "ui/assist/run_follower.h"

#include "run/run_folder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTimer>

namespace osprey::ui {

RunFollower::RunFollower(QObject* parent) : QObject(parent), m_timer(new QTimer(this)) {
    m_timer->setInterval(2000);
    connect(m_timer, &QTimer::timeout, this, &RunFollower::check);
}

void RunFollower::setProjectFolder(const QString& folder) {
    m_folder = folder;
    m_checkpoint.clear();
    m_runName.clear();
    m_modified = {};
    setEnabled(m_enabled);
}

void RunFollower::setEnabled(bool on) {
    m_enabled = on;
    if (on && !m_folder.isEmpty()) {
        m_timer->start();
        check();
    } else {
        m_timer->stop();
    }
}

void RunFollower::setInterval(int ms) {
    m_timer->setInterval(ms);
}

QString RunFollower::newestBestCheckpoint(const QString& projectFolder, QDateTime* modified) {
    QString newest;
    QDateTime newestTime;
    for (const run::RunFolder& run : run::RunFolder::list(QFile::encodeName(projectFolder).toStdString())) {
        const QFileInfo best(QFile::decodeName(run.bestWeights().c_str()));
        if (!best.isFile())
            continue;
        const QDateTime time = best.lastModified();
        if (newest.isEmpty() || time > newestTime) {
            newest = best.absoluteFilePath();
            newestTime = time;
        }
    }
    if (modified)
        *modified = newestTime;
    return newest;
}

void RunFollower::check() {
    if (!m_enabled || m_folder.isEmpty())
        return;
    QDateTime modified;
    const QString newest = newestBestCheckpoint(m_folder, &modified);
    if (newest.isEmpty() || (newest == m_checkpoint && modified == m_modified))
        return;
    m_checkpoint = newest;
    m_modified = modified;
    m_runName = QFileInfo(newest).dir().absolutePath().section(QLatin1Char('/'), -2, -2);
    emit checkpointChanged(m_checkpoint, m_runName);
}

} // namespace osprey::ui
