#include "ui/train/training_run_model.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <limits>

namespace osprey::ui {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The trainer writes non-finite numbers as null; a gap in the chart is the honest picture.
double number(const QJsonValue& value) {
    return value.isDouble() ? value.toDouble() : kNaN;
}

QString formatT(double seconds) {
    return QStringLiteral("[%1s]").arg(seconds, 7, 'f', 1);
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
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(trimmed, &error);
    if (error.error != QJsonParseError::NoError || !document.isObject())
        return false;
    ingestEvent(document.object());
    return true;
}

void TrainingRunModel::ingestEvent(const QJsonObject& event) {
    const QString type = event.value(QLatin1String("type")).toString();
    const double t = event.value(QLatin1String("t")).toDouble();
    if (t > m_progress.elapsedS)
        m_progress.elapsedS = t;
    if (type == QLatin1String("batch")) {
        m_status = Status::Running;
        m_progress.epoch = event.value(QLatin1String("epoch")).toInt();
        m_progress.epochs = event.value(QLatin1String("epochs")).toInt();
        m_progress.batch = event.value(QLatin1String("batch")).toInt();
        m_progress.batches = event.value(QLatin1String("batches")).toInt();
        m_progress.imagesPerS = event.value(QLatin1String("images_per_s")).toDouble();
        m_progress.etaS = event.value(QLatin1String("eta_s")).toDouble(-1.0);
    } else if (type == QLatin1String("epoch")) {
        m_status = Status::Running;
        const QJsonObject metrics = event.value(QLatin1String("metrics")).toObject();
        QHash<QString, double> row;
        for (auto it = metrics.begin(); it != metrics.end(); ++it)
            row.insert(it.key(), number(it.value()));
        row.insert(QStringLiteral("epoch"), event.value(QLatin1String("epoch")).toInt());
        addEpochRow(row);
        m_progress.epoch = event.value(QLatin1String("epoch")).toInt();
        m_progress.epochs = event.value(QLatin1String("epochs")).toInt();
        m_progress.completedEpochs = m_progress.epoch;
        m_progress.batch = m_progress.batches;
        m_progress.imagesPerS = event.value(QLatin1String("images_per_s")).toDouble(m_progress.imagesPerS);
        m_progress.etaS = event.value(QLatin1String("eta_s")).toDouble(-1.0);
        if (event.value(QLatin1String("best")).toBool()) {
            m_bestEpoch = m_progress.epoch;
            // fitness is mAP50-95 (EVENTS.md); a writer that leaves it out still has the metric itself.
            m_bestFitness = row.value(QStringLiteral("fitness"), kNaN);
            if (std::isnan(m_bestFitness))
                m_bestFitness = row.value(QStringLiteral("metrics/mAP50-95(B)"), kNaN);
        }
    } else if (type == QLatin1String("system")) {
        m_system.valid = true;
        m_system.cpuPercent = event.value(QLatin1String("cpu_percent")).toDouble();
        m_system.ramUsedMb = event.value(QLatin1String("ram_used_mb")).toDouble();
        m_system.ramTotalMb = event.value(QLatin1String("ram_total_mb")).toDouble();
        m_system.processRssMb = event.value(QLatin1String("process_rss_mb")).toDouble();
        const QJsonValue gpu = event.value(QLatin1String("gpu"));
        m_system.hasGpu = gpu.isObject();
        const QJsonObject g = gpu.toObject();
        m_system.gpuName = g.value(QLatin1String("name")).toString();
        m_system.gpuUtilPercent = g.value(QLatin1String("util_percent")).toDouble();
        m_system.gpuMemUsedMb = g.value(QLatin1String("mem_used_mb")).toDouble();
        m_system.gpuMemTotalMb = g.value(QLatin1String("mem_total_mb")).toDouble();
        m_system.gpuTempC = g.value(QLatin1String("temp_c")).toDouble();
    } else if (type == QLatin1String("remote")) {
        ingestRemote(event);
    } else if (type == QLatin1String("log")) {
        appendLog(QStringLiteral("%1 %2: %3")
                      .arg(formatT(t), event.value(QLatin1String("level")).toString(),
                           event.value(QLatin1String("message")).toString()));
    } else if (type == QLatin1String("run_started")) {
        m_status = Status::Running;
        m_statusMessage.clear();
        m_modelName = event.value(QLatin1String("model")).toObject().value(QLatin1String("name")).toString();
        m_runDir = event.value(QLatin1String("run_dir")).toString();
        m_trainerPid = event.value(QLatin1String("pid")).toInteger();
        m_progress.epochs = event.value(QLatin1String("epochs")).toInt();
        const QJsonObject dataset = event.value(QLatin1String("dataset")).toObject();
        appendLog(tr("%1 info: run started: %2, %3 epochs, %4 train / %5 val images, run folder %6")
                      .arg(formatT(t), m_modelName)
                      .arg(m_progress.epochs)
                      .arg(dataset.value(QLatin1String("train_images")).toInt())
                      .arg(dataset.value(QLatin1String("val_images")).toInt())
                      .arg(m_runDir));
    } else if (type == QLatin1String("checkpoint")) {
        appendLog(tr("%1 info: saved %2 weights after epoch %3: %4")
                      .arg(formatT(t), event.value(QLatin1String("kind")).toString())
                      .arg(event.value(QLatin1String("epoch")).toInt())
                      .arg(event.value(QLatin1String("path")).toString()));
    } else if (type == QLatin1String("finished")) {
        const QString status = event.value(QLatin1String("status")).toString();
        m_status = status == QLatin1String("stopped")         ? Status::Stopped
                   : status == QLatin1String("early_stopped") ? Status::EarlyStopped
                                                              : Status::Finished;
        m_statusMessage = event.value(QLatin1String("message")).toString();
        m_bestEpoch = event.value(QLatin1String("best_epoch")).toInt(m_bestEpoch);
        m_bestFitness = event.value(QLatin1String("best_fitness")).toDouble(m_bestFitness);
        m_progress.completedEpochs = event.value(QLatin1String("epochs_completed")).toInt();
        m_progress.etaS = 0.0;
        appendLog(QStringLiteral("%1 %2: %3").arg(formatT(t), status, m_statusMessage));
    } else if (type == QLatin1String("failed")) {
        m_status = Status::Failed;
        m_statusMessage = event.value(QLatin1String("reason")).toString();
        appendLog(QStringLiteral("%1 error: %2").arg(formatT(t), m_statusMessage));
    } else {
        return;
    }
    notify();
    if (!m_batched && (type == QLatin1String("finished") || type == QLatin1String("failed")))
        emit ended();
}

void TrainingRunModel::ingestRemote(const QJsonObject& event) {
    const auto count = [&event](const char* key) {
        return qint64(std::max(0.0, event.value(QLatin1String(key)).toDouble()));
    };
    RemoteState next;
    next.valid = true;
    next.state = event.value(QLatin1String("state")).toString();
    next.queued = count("queued");
    next.delivered = count("delivered");
    next.failed = count("failed");
    next.error = event.value(QLatin1String("error")).toString();
    // The URL becomes known once the platform registered the run; later lines may leave it out.
    next.dashboardUrl = event.value(QLatin1String("dashboard_url")).toString(m_remote.dashboardUrl);
    next.uploading = event.value(QLatin1String("uploading")).toBool();
    next.uploadSentBytes = count("upload_sent");
    next.uploadTotalBytes = count("upload_total");
    next.cancelled = event.value(QLatin1String("cancelled")).toBool(m_remote.cancelled);
    // Only links the browser can open safely; anything else would be a surprise in a clickable label.
    const QUrl url(next.dashboardUrl);
    if (!url.isValid() || (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")))
        next.dashboardUrl.clear();
    if (next.state != m_remote.state || next.error != m_remote.error ||
        next.cancelled != m_remote.cancelled) {
        QString line =
            tr("%1 platform: %2").arg(formatT(event.value(QLatin1String("t")).toDouble()), next.state);
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

bool TrainingRunModel::loadEventsFile(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    const bool wasBatched = m_batched;
    m_batched = true;
    clear();
    const QByteArray all = file.readAll();
    m_eventsFileOffset = all.lastIndexOf('\n') + 1;
    qsizetype start = 0;
    while (start < all.size()) {
        qsizetype end = all.indexOf('\n', start);
        if (end < 0)
            end = all.size();
        ingestLine(QByteArray::fromRawData(all.constData() + start, end - start));
        start = end + 1;
    }
    // A replayed run without a terminal event was killed, or is still going in another process.
    m_batched = wasBatched;
    notify();
    return true;
}

bool TrainingRunModel::loadResultsCsv(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        if (error)
            *error = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    const bool wasBatched = m_batched;
    m_batched = true;
    clear();
    QStringList header;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty())
            continue;
        const QStringList cells = line.split(QLatin1Char(','));
        if (header.isEmpty()) {
            for (const QString& cell : cells)
                header.append(cell.trimmed());
            continue;
        }
        QHash<QString, double> row;
        for (qsizetype i = 0; i < cells.size() && i < header.size(); ++i) {
            bool ok = false;
            const double value = cells[i].trimmed().toDouble(&ok);
            row.insert(header[i], ok ? value : kNaN);
        }
        addEpochRow(row);
    }
    if (!m_epochs.isEmpty()) {
        m_status = Status::Finished;
        m_progress.epoch = m_progress.completedEpochs = m_progress.epochs = int(m_epochs.last());
        m_progress.elapsedS = m_series.value(QStringLiteral("time")).value(m_epochs.size() - 1);
    }
    m_batched = wasBatched;
    notify();
    return true;
}

bool TrainingRunModel::loadRunFolder(const QString& runDir, QString* error) {
    const QDir dir(runDir);
    if (QFileInfo::exists(dir.filePath(QStringLiteral("events.jsonl"))))
        return loadEventsFile(dir.filePath(QStringLiteral("events.jsonl")), error);
    if (QFileInfo::exists(dir.filePath(QStringLiteral("results.csv"))))
        return loadResultsCsv(dir.filePath(QStringLiteral("results.csv")), error);
    if (error)
        *error = tr("The run folder %1 has neither events.jsonl nor results.csv.")
                     .arg(QDir::toNativeSeparators(runDir));
    return false;
}

} // namespace osprey::ui
