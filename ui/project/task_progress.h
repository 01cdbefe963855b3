#pragma once
// Glue between core's formats::Progress and the GUI's BackgroundTask: the same progress and cancel wiring
// for every dataset dialog and panel.

#include "formats/format.h"
#include "ui/project/background_task.h"

class QLabel;
class QProgressBar;

namespace osprey::ui {

/// A formats::Progress that reports to `context` and stops when the task is cancelled. Lives as long as
/// the job that `context` belongs to.
formats::Progress formatsProgress(TaskContext& context);

/// Shows `task`'s progress in `bar` (busy indicator while the total is unknown) and, when given, the stage
/// with counts in `label`.
void showTaskProgress(BackgroundTask* task, QProgressBar* bar, QLabel* label = nullptr);

} // namespace osprey::ui
