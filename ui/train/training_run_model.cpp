#include "ui/train/training_run_model.h"

#include "run/events_tail.h"
#include "run/run_files.h"
#include "run/run_folder.h"
#include "run/train_events.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <limits>

namespace osprey::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString formatT(double seconds) {
    return QStringLiteral("[%1s]").arg(seconds, 7, 'f', 1);
}

// A rank whose figure is unknown (null) counts as 0, as the total's gauge does.
QVector<double> rankSpeeds(const run::TrainEvent& event) {
    QVector<double> speeds;
    speeds.reserve(qsizetype(event.rankImagesPerS.size()));
    for (const double speed : event.rankImagesPerS)
        speeds.append(std::isfinite(speed) ? speed : 0.0);
    return speeds;
}

} // namespace

TrainingRunModel::TrainingRunModel(QObject* parent) : QObject(parent) {}

void TrainingRunModel::clear() {
    m_epochs.clear();
    m_series.clear();
    m_status = Status::Empty;
    m_statusMessage.clear();
    m_progress = {};
    m_system = {};
    m_remote = {};
    m_modelName.clear();
    m_runDir.clear();
    m_trainerPid = 0;
    m_bestEpoch = 0;
    m_bestFitness = 0.0;
    m_log.clear();
    m_logTotal = 0;
    notify();
}

bool TrainingRunModel::ingestLine(const QByteArray& line) {
    const QByteArray trimmed = line.trimmed();
    if (trimmed.isEmpty() || trimmed.front() != '{')
        return false;
    auto event = run::parseEvent(std::string_view(trimmed.constData(), size_t(trimmed.size())));
    if (!event)
        return event.error().code == "unknown_type"; // a JSON object of a newer writer: skipped
    ingestEvent(event.value());
    return true;
}

void TrainingRunModel::ingestEvent(const run::TrainEvent& event) {
    using Type = run::TrainEvent::Type;
    const double t = std::isfinite(event.timeS) ? event.timeS : 0.0;
    if (t > m_progress.elapsedS)
        m_progress.elapsedS = t;
    // Unknown figures read as NaN; the dashboard shows them as "unknown" (ETA) or 0 (a gauge).
    const auto orZero = [](double value) { return std::isfinite(value) ? value : 0.0; };
    const auto etaOf = [](double value) { return std::isfinite(value) ? value : -1.0; };
    switch (event.type) {
    case Type::Batch:
        m_status = Status::Running;
        m_progress.epoch = event.epoch;
        m_progress.epochs = event.epochs;
        m_progress.batch = event.batch;
        m_progress.batches = event.batches;
        m_progress.imagesPerS = orZero(event.imagesPerS);
        m_progress.rankImagesPerS = rankSpeeds(event);
        m_progress.etaS = etaOf(event.etaS);
        break;
    case Type::Epoch: {
        m_status = Status::Running;
        QHash<QString, double> row;
        for (const run::MetricColumn& column : run::metricColumns())
            row.insert(QString::fromLatin1(column.key), event.metrics.*column.value);
        row.insert(QStringLiteral("epoch"), event.epoch);
        addEpochRow(row);
        m_progress.epoch = event.epoch;
        m_progress.epochs = event.epochs;
        m_progress.completedEpochs = m_progress.epoch;
        m_progress.batch = m_progress.batches;
        if (std::isfinite(event.imagesPerS))
            m_progress.imagesPerS = event.imagesPerS;
        if (!event.rankImagesPerS.empty())
            m_progress.rankImagesPerS = rankSpeeds(event);
        m_progress.etaS = etaOf(event.etaS);
        if (event.best) {
            m_bestEpoch = m_progress.epoch;
            // fitness is mAP50-95 (EVENTS.md); a writer that leaves it out still has the metric itself.
            m_bestFitness =
                std::isnan(event.metrics.fitness) ? event.metrics.map50to95 : event.metrics.fitness;
        }
        break;
    }
    case Type::System:
        m_system.valid = true;
        m_system.cpuPercent = orZero(event.cpuPercent);
        m_system.ramUsedMb = orZero(event.ramUsedMb);
        m_system.ramTotalMb = orZero(event.ramTotalMb);
        m_system.processRssMb = orZero(event.processRssMb);
        m_system.hasGpu = event.gpu;
        m_system.gpuName = QString::fromStdString(event.gpuName);
        m_system.gpuUtilPercent = orZero(event.gpuUtilPercent);
        m_system.gpuMemUsedMb = orZero(event.gpuMemUsedMb);
        m_system.gpuMemTotalMb = orZero(event.gpuMemTotalMb);
        m_system.gpuTempC = orZero(event.gpuTempC);
        break;
    case Type::Remote:
        ingestRemote(event);
        break;
    case Type::Log:
        appendLog(
            QStringLiteral("%1 %2: %3")
                .arg(formatT(t), QString::fromStdString(event.level), QString::fromStdString(event.message)));
        break;
    case Type::Advice:
        appendLog(tr("%1 advice: %2").arg(formatT(t), QString::fromStdString(event.message)));
        break;
    case Type::RunStarted:
        m_status = Status::Running;
        m_statusMessage.clear();
        m_modelName = QString::fromStdString(event.modelName);
        m_runDir = QString::fromStdString(event.runDir);
        m_trainerPid = event.pid;
        m_progress.epochs = event.epochs;
        appendLog(tr("%1 info: run started: %2, %3 epochs, %4 train / %5 val images, run folder %6")
                      .arg(formatT(t), m_modelName)
                      .arg(m_progress.epochs)
                      .arg(event.trainImages)
                      .arg(event.valImages)
                      .arg(m_runDir));
        break;
    case Type::Checkpoint:
        appendLog(tr("%1 info: saved %2 weights after epoch %3: %4")
                      .arg(formatT(t), QString::fromStdString(event.kind))
                      .arg(event.epoch)
                      .arg(QString::fromStdString(event.path)));
        break;
    case Type::Finished: {
        const QString status = QString::fromStdString(event.status);
        m_status = status == QLatin1String("stopped")         ? Status::Stopped
                   : status == QLatin1String("early_stopped") ? Status::EarlyStopped
                                                              : Status::Finished;
        m_statusMessage = QString::fromStdString(event.message);
        if (event.bestEpoch > 0)
            m_bestEpoch = event.bestEpoch;
        if (std::isfinite(event.bestFitness))
            m_bestFitness = event.bestFitness;
        m_progress.completedEpochs = event.epoch;
        m_progress.etaS = 0.0;
        appendLog(QStringLiteral("%1 %2: %3").arg(formatT(t), status, m_statusMessage));
        break;
    }
    case Type::Failed:
        m_status = Status::Failed;
        m_statusMessage = QString::fromStdString(event.message);
        appendLog(QStringLiteral("%1 error: %2").arg(formatT(t), m_statusMessage));
        break;
    }
    notify();
    if (!m_batched && (event.type == Type::Finished || event.type == Type::Failed))
        emit ended();
}

void TrainingRunModel::ingestRemote(const run::TrainEvent& event) {
    RemoteState next;
    next.valid = true;
    next.state = QString::fromStdString(event.remoteState);
    next.queued = event.queued;
    next.delivered = event.delivered;
    next.failed = event.remoteFailed;
    next.error = QString::fromStdString(event.message);
    // The URL becomes known once the platform registered the run; later lines may leave it out.
    next.dashboardUrl =
        event.dashboardUrl ? QString::fromStdString(*event.dashboardUrl) : m_remote.dashboardUrl;
    next.uploading = event.uploading;
    next.uploadSentBytes = event.uploadSent;
    next.uploadTotalBytes = event.uploadTotal;
    next.cancelled = event.cancelled.value_or(m_remote.cancelled);
    // Only links the browser can open safely; anything else would be a surprise in a clickable label.
    const QUrl url(next.dashboardUrl);
    if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        next.dashboardUrl.clear();
    if (next.state != m_remote.state || next.error != m_remote.error ||
        next.cancelled != m_remote.cancelled) {
        QString line =
            tr("%1 platform: %2").arg(formatT(std::isfinite(event.timeS) ? event.timeS : 0.0), next.state);
        if (!next.error.isEmpty())
            line += tr(" (%1)").arg(next.error);
        if (next.cancelled && !m_remote.cancelled)
            line += tr("; the run was cancelled on the platform");
        appendLog(line);
    }
    m_remote = next;
}

void TrainingRunModel::addEpochRow(const QHash<QString, double>& row) {
    const double epoch = row.value(QStringLiteral("epoch"), kNaN);
    if (std::isnan(epoch))
        return;
    // A resumed run repeats epochs after the last checkpoint: the newer values replace the older ones.
    qsizetype keep = m_epochs.size();
    while (keep > 0 && m_epochs[keep - 1] >= epoch)
        --keep;
    m_epochs.resize(keep);
    for (auto& values : m_series)
        values.resize(keep);
    m_epochs.append(epoch);
    for (auto it = row.begin(); it != row.end(); ++it) {
        if (it.key() == QLatin1String("epoch"))
            continue;
        auto& values = m_series[it.key()];
        values.resize(keep, kNaN);
        values.append(it.value());
    }
    for (auto& values : m_series)
        values.resize(m_epochs.size(), kNaN);
}

void TrainingRunModel::appendLog(const QString& line) {
    m_log.append(line);
    ++m_logTotal;
    // Drop in chunks so a long run does not shift the list on every line.
    if (m_log.size() > kMaxLogLines + kMaxLogLines / 10)
        m_log.erase(m_log.begin(), m_log.begin() + (m_log.size() - kMaxLogLines));
    notify();
}

void TrainingRunModel::notify() {
    if (!m_batched)
        emit changed();
}

void TrainingRunModel::markCrashed(const QString& reason) {
    m_status = Status::Crashed;
    m_statusMessage = reason;
    appendLog(tr("error: %1").arg(reason));
    notify();
    emit ended();
}

namespace {

bool readEventsFile(const QString& path, TrainingRunModel::RunFiles& files) {
    run::EventsTail tail(QFile::encodeName(path).toStdString());
    auto lines = tail.read(run::EventsTail::Partial::Wait);
    if (!lines) {
        files.error = TrainingRunModel::tr("Cannot read %1: %2")
                          .arg(QDir::toNativeSeparators(path), QString::fromStdString(lines.message()));
        return false;
    }
    files.hasEvents = true;
    files.eventsOffset = qint64(tail.offset());
    // A last line without its newline is shown when it is a whole event (a writer that ended without one);
    // a reader following the file reads it again from eventsOffset once it is complete.
    if (auto rest = run::EventsTail(tail).read(run::EventsTail::Partial::Take))
        lines->insert(lines->end(), rest->begin(), rest->end());
    // Lines that are not events (a newer writer's types, a torn last line) are skipped.
    for (auto& line : *lines)
        if (line.event)
            files.events.append(std::move(*line.event));
    return true;
}

bool readResultsCsv(const QString& path, TrainingRunModel::RunFiles& files) {
    const auto table = run::readResultsCsv(path.toStdString()); // the one results.csv reader
    if (!table) {
        files.error = TrainingRunModel::tr("Cannot read %1: %2")
                          .arg(QDir::toNativeSeparators(path), QString::fromStdString(table.message()));
        return false;
    }
    for (const auto& cells : table->rows) {
        QHash<QString, double> row;
        for (size_t i = 0; i < cells.size() && i < table->columns.size(); ++i)
            row.insert(QString::fromStdString(table->columns[i]), cells[i]);
        files.rows.append(row);
    }
    return true;
}

} // namespace

TrainingRunModel::RunFiles TrainingRunModel::readRunFolder(const QString& runDir) {
    RunFiles files;
    const run::RunFolder folder(runDir.toStdString());
    const QString events = QString::fromStdString(folder.events().string());
    const QString results = QString::fromStdString(folder.results().string());
    if (QFileInfo::exists(events))
        readEventsFile(events, files);
    else if (QFileInfo::exists(results))
        readResultsCsv(results, files);
    else
        files.error = tr("The run folder %1 has neither events.jsonl nor results.csv.")
                          .arg(QDir::toNativeSeparators(runDir));
    return files;
}

void TrainingRunModel::load(const RunFiles& files) {
    const bool wasBatched = m_batched;
    m_batched = true;
    clear();
    if (!files.error.isEmpty()) {
        m_batched = wasBatched;
        markCrashed(files.error);
        return;
    }
    for (const run::TrainEvent& event : files.events)
        ingestEvent(event);
    m_eventsFileOffset = files.eventsOffset;
    for (const auto& row : files.rows)
        addEpochRow(row);
    // A replayed run without a terminal event was killed, or is still going in another process.
    if (!files.hasEvents && !m_epochs.isEmpty()) {
        m_status = Status::Finished;
        m_progress.epoch = m_progress.completedEpochs = m_progress.epochs = int(m_epochs.last());
        m_progress.elapsedS = m_series.value(QStringLiteral("time")).value(m_epochs.size() - 1);
    }
    m_batched = wasBatched;
    notify();
}

bool TrainingRunModel::loadEventsFile(const QString& path, QString* error) {
    RunFiles files;
    if (!readEventsFile(path, files)) {
        if (error)
            *error = files.error;
        return false;
    }
    load(files);
    return true;
}

bool TrainingRunModel::loadResultsCsv(const QString& path, QString* error) {
    RunFiles files;
    if (!readResultsCsv(path, files)) {
        if (error)
            *error = files.error;
        return false;
    }
    load(files);
    return true;
}

bool TrainingRunModel::loadRunFolder(const QString& runDir, QString* error) {
    const RunFiles files = readRunFolder(runDir);
    if (!files.error.isEmpty()) {
        if (error)
            *error = files.error;
        return false;
    }
    load(files);
    return true;
}

} // namespace osprey::ui
