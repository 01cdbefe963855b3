#include "ui/assist/auto_label_summary.h"

#include <QStringList>
#include <algorithm>

namespace osprey::ui {

namespace {
constexpr int kWarningsShown = 10;
} // namespace

QString AutoLabelSummary::duration(double seconds) {
    if (seconds < 10)
        return tr("%1 s").arg(seconds, 0, 'f', 1);
    const int total = static_cast<int>(seconds + 0.5);
    if (total < 60)
        return tr("%1 s").arg(total);
    if (total < 3600)
        return tr("%1 min %2 s").arg(total / 60).arg(total % 60);
    return tr("%1 h %2 min").arg(total / 3600).arg(total % 3600 / 60);
}

QString AutoLabelSummary::of(const assist::AutoLabelReport& report, int total, assist::WriteMode mode) {
    QStringList lines;
    const double rate = report.seconds > 0 ? report.images / report.seconds : 0.0;
    lines << tr("Processed: %1 of %2 images in %3 (%4 images/s)")
                 .arg(report.images)
                 .arg(total)
                 .arg(duration(report.seconds))
                 .arg(rate, 0, 'f', 1);
    lines << tr("Images that received boxes: %1").arg(report.labeled);
    lines << tr("Boxes stored (source: model, with their scores): %1").arg(report.boxes);
    if (report.reopened > 0)
        lines << tr("Reviewed images that received boxes and went back to labeled, for review: %1")
                     .arg(report.reopened);
    if (report.failed > 0) {
        lines << tr("Images skipped because they could not be read: %1").arg(report.failed);
        const int shown = std::min<int>(kWarningsShown, static_cast<int>(report.warnings.size()));
        for (int i = 0; i < shown; ++i)
            lines << QStringLiteral("  ") + QString::fromStdString(report.warnings[static_cast<size_t>(i)]);
        if (static_cast<int>(report.warnings.size()) > shown)
            lines << tr("  … and %1 more").arg(static_cast<int>(report.warnings.size()) - shown);
    }
    if (report.cancelled)
        lines << tr("Stopped early: the processed images keep their boxes. Images left unchanged: %1")
                     .arg(std::max(0, total - report.images));
    lines << QString();
    lines << tr("Auto-label is not on the undo stack. Delete unwanted boxes in the editor, or run again with "
                "\"Replace earlier model boxes\".");
    if (mode == assist::WriteMode::Replace)
        lines << tr(
            "Replace mode: the editor's undo history is cleared, since it may refer to replaced model "
            "boxes.");
    return lines.join(QLatin1Char('\n'));
}

} // namespace osprey::ui
