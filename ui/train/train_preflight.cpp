#include "ui/train/train_preflight.h"

#include "quality/health_check.h"
#include "ui/common/background_task.h"
#include "ui/project/task_progress.h"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <map>
#include <memory>

namespace osprey::ui {

namespace {

constexpr int kMaxLinesShown = 8;

QString bulletList(const QStringList& lines) {
    QString html = QStringLiteral("<ul style='margin-left: -20px;'>");
    for (qsizetype i = 0; i < lines.size() && i < kMaxLinesShown; ++i)
        html += QStringLiteral("<li>%1</li>").arg(lines[i].toHtmlEscaped());
    if (lines.size() > kMaxLinesShown)
        html += QStringLiteral("<li>%1</li>")
                    .arg(TrainPreflight::tr("… and %1 more").arg(lines.size() - kMaxLinesShown));
    return html + QStringLiteral("</ul>");
}

} // namespace

TrainPreflight::TrainPreflight(QObject* parent) : QObject(parent), m_task(new BackgroundTask(this)) {
    qRegisterMetaType<osprey::ui::PreflightResult>();
    connect(m_task, &BackgroundTask::finished, this, [this](const TaskResult& taskResult) {
        PreflightResult result;
        if (m_cancelRequested) {
            result.cancelled = true;
        } else if (!taskResult.ok()) {
            result.failure = taskResult.error;
        } else if (const auto report = taskResult.value.value<std::shared_ptr<quality::HealthReport>>()) {
            result = summarize(*report);
        }
        m_cancelRequested = false;
        emit finished(result);
    });
}

bool TrainPreflight::start(const QString& projectFolder, int imgsz) {
    if (m_task->isRunning())
        return false;
    quality::HealthOptions options;
    options.imgsz = imgsz;
    options.decode = false;
    const std::string folder = projectFolder.toStdString();
    return m_task->start(healthCheckJob(folder, options));
}

void TrainPreflight::cancel() {
    if (!m_task->isRunning())
        return;
    m_cancelRequested = true;
    m_task->cancel();
}

bool TrainPreflight::isRunning() const {
    return m_task->isRunning();
}

PreflightResult TrainPreflight::summarize(const quality::HealthReport& report) {
    PreflightResult result;
    result.images = report.images;
    result.boxes = report.boxes;
    // Report order is the checks' order, which puts the most serious kinds first.
    std::map<int, std::vector<const quality::HealthIssue*>> byCheck;
    for (const auto& issue : report.issues)
        byCheck[static_cast<int>(issue.check)].push_back(&issue);
    for (const auto& [checkValue, issues] : byCheck) {
        const auto check = static_cast<quality::Check>(checkValue);
        const auto severity = quality::checkSeverity(check);
        if (severity == quality::Severity::Info)
            continue;
        const quality::HealthIssue& first = *issues.front();
        QString line =
            tr("%1: %2").arg(QString::fromStdString(quality::checkTitle(check))).arg(issues.size());
        const QString where = QFileInfo(QString::fromStdString(first.path)).fileName();
        if (!where.isEmpty() || !first.detail.empty())
            line += tr(", e.g. %1")
                        .arg(first.detail.empty() ? where
                             : where.isEmpty()
                                 ? QString::fromStdString(first.detail)
                                 : QStringLiteral("%1: %2").arg(where, QString::fromStdString(first.detail)));
        (severity == quality::Severity::Error ? result.errors : result.warnings).append(line);
    }
    return result;
}

QMessageBox* TrainPreflight::createDialog(const PreflightResult& result, QWidget* parent) {
    auto* box = new QMessageBox(parent);
    box->setAttribute(Qt::WA_DeleteOnClose);
    // Wide enough that a finding with a file name reads as one line.
    box->setStyleSheet(QStringLiteral("QLabel#qt_msgbox_informativelabel { min-width: 460px; }"));
    box->setWindowTitle(tr("Dataset check before training"));
    box->setTextFormat(Qt::RichText);
    const QString counts = tr("%1 images, %2 boxes checked.").arg(result.images).arg(result.boxes);
    if (result.blocksStart()) {
        box->setObjectName(QStringLiteral("trainPreflightErrors"));
        box->setIcon(QMessageBox::Critical);
        box->setText(tr("<b>Training cannot start: the dataset has errors.</b>"));
        QString body = bulletList(result.errors);
        if (!result.warnings.isEmpty())
            body += tr("Warnings:") + bulletList(result.warnings);
        box->setInformativeText(body + counts + QLatin1Char(' ') +
                                tr("Fix them (Dataset → Health Check lists every finding and opens the "
                                   "image), then start again."));
        box->setStandardButtons(QMessageBox::Ok);
        return box;
    }
    box->setObjectName(QStringLiteral("trainPreflightWarnings"));
    box->setIcon(QMessageBox::Warning);
    box->setText(result.failure.isEmpty() ? tr("<b>The dataset has warnings.</b>")
                                          : tr("<b>The dataset check could not run.</b>"));
    QString body =
        result.failure.isEmpty() ? bulletList(result.warnings) + counts : result.failure.toHtmlEscaped();
    box->setInformativeText(body + QStringLiteral("<p>") +
                            tr("Training can go on, but these may cost accuracy.") + QStringLiteral("</p>"));
    QPushButton* startAnyway = box->addButton(tr("Start Anyway"), QMessageBox::AcceptRole);
    startAnyway->setObjectName(QStringLiteral("startAnyway"));
    QPushButton* cancel = box->addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancel"));
    box->setDefaultButton(cancel);
    box->setEscapeButton(cancel);
    return box;
}

} // namespace osprey::ui
