#pragma once
// Glue between core's formats::Progress and the GUI's BackgroundTask: the same progress and cancel wiring
// for every dataset dialog and panel.

#include "formats/format.h"
#include "quality/health_check.h"
#include "ui/common/background_task.h"

#include <QMetaType>

#include <memory>
#include <string>

class QLabel;
class QProgressBar;

namespace osprey::ui {

/// A formats::Progress that reports to `context` and stops when the task is cancelled. Lives as long as
/// the job that `context` belongs to.
formats::Progress formatsProgress(TaskContext& context);

/// Shows `task`'s progress in `bar` (busy indicator while the total is unknown) and, when given, the stage
/// with counts in `label`.
void showTaskProgress(BackgroundTask* task, QProgressBar* bar, QLabel* label = nullptr);

/// The dataset health check as a BackgroundTask job. It opens its own connection to the project in
/// `folder` (the GUI's Project belongs to the GUI thread); the result's value is a
/// std::shared_ptr<quality::HealthReport>.
BackgroundTask::Job healthCheckJob(std::string folder, quality::HealthOptions options);

} // namespace osprey::ui

Q_DECLARE_METATYPE(std::shared_ptr<osprey::quality::HealthReport>)
