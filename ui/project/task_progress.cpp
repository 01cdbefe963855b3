#include "ui/project/task_progress.h"

#include "project/project.h"

#include <QLabel>
#include <QProgressBar>

namespace osprey::ui {

formats::Progress formatsProgress(TaskContext& context) {
    formats::Progress progress;
    progress.cancel = &context.cancelFlag();
    progress.callback = [&context](std::int64_t done, std::int64_t total, std::string_view stage) {
        context.progress(done, total, QString::fromUtf8(stage.data(), static_cast<qsizetype>(stage.size())));
    };
    return progress;
}

void showTaskProgress(BackgroundTask* task, QProgressBar* bar, QLabel* label) {
    QObject::connect(task, &BackgroundTask::progressed, bar,
                     [bar, label](qint64 done, qint64 total, const QString& stage) {
                         bar->setRange(0, total > 0 ? 1000 : 0);
                         if (total > 0)
                             bar->setValue(static_cast<int>(1000.0 * static_cast<double>(done) /
                                                            static_cast<double>(total)));
                         if (label)
                             label->setText(QObject::tr("%1: %2 of %3").arg(stage).arg(done).arg(total));
                     });
}

BackgroundTask::Job healthCheckJob(std::string folder, quality::HealthOptions options) {
    return [folder = std::move(folder), options = std::move(options)](TaskContext& context) mutable {
        options.progress = formatsProgress(context);
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{{}, QString::fromStdString(project.message())};
        auto report = quality::checkProject(**project, options);
        if (!report)
            return TaskResult{{}, QString::fromStdString(report.message())};
        return TaskResult{
            QVariant::fromValue(std::make_shared<quality::HealthReport>(std::move(report.value()))), {}};
    };
}

} // namespace osprey::ui
