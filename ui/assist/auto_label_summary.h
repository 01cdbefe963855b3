#pragma once
// AutoLabelSummary: the auto-label dialog's texts that depend only on values: the summary of a finished
// run and durations. Translated (tr()); GUI thread.

#include "assist/auto_labeler.h"

#include <QCoreApplication>
#include <QString>

namespace osprey::ui {

class AutoLabelSummary {
    Q_DECLARE_TR_FUNCTIONS(osprey::ui::AutoLabelSummary)
public:
    /// What a finished run over `total` images did, line by line: processed images and speed, images that
    /// received boxes, boxes stored, reviewed images reopened, unreadable images (the first 10 warnings),
    /// where a cancel stopped, and how to take boxes back (with `mode` Replace: the undo history is gone).
    static QString of(const assist::AutoLabelReport& report, int total, assist::WriteMode mode);
    /// "4.2 s", "12 min 5 s", "2 h 3 min".
    static QString duration(double seconds);
};

} // namespace osprey::ui
