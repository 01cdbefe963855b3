#include "ui/assist/proposal_painter.h"

#include "ui/annotate/box_canvas.h"
#include "ui/annotate/box_painter.h"
#include "ui/assist/proposal_set.h"
#include "ui/project/project_document.h"

#include <QPainter>
#include <algorithm>

namespace osprey::ui {

void paintProposals(QPainter& painter, const ProposalSet& proposals, const BoxCanvas& canvas,
                    const ProjectDocument& document, const QRectF& avoid) {
    const std::vector<int>& visible = proposals.visible();
    const int selectedIndex = proposals.selected();
    std::vector<int> order(visible.rbegin(), visible.rend());
    std::stable_partition(order.begin(), order.end(), [selectedIndex](int i) { return i != selectedIndex; });
    for (const int index : order) {
        const ProposalSet::Candidate& c = proposals.candidates()[static_cast<size_t>(index)];
        const QRectF r = QRectF(canvas.toWidget(c.rect.topLeft()), canvas.toWidget(c.rect.bottomRight()));
        const QColor color = document.classColor(c.classId);
        const bool selected = index == selectedIndex;
        const int width = selected ? 3 : 2;
        const QRectF line = BoxPainter::snapped(r, width);
        painter.save();
        if (selected) {
            QColor fill = color;
            fill.setAlpha(48);
            painter.fillRect(r, fill);
        }
        painter.setBrush(Qt::NoBrush);
        painter.setPen(
            QPen(BoxPainter::haloFor(color), width + 2, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        painter.drawRect(line);
        QPen dashed(color, width, Qt::CustomDashLine, Qt::FlatCap, Qt::MiterJoin);
        dashed.setDashPattern({4, 3});
        painter.setPen(dashed);
        painter.drawRect(line);
        painter.restore();
        const QString label =
            QStringLiteral("%1 %2").arg(document.className(c.classId)).arg(double(c.score), 0, 'f', 2);
        BoxPainter::paintLabel(painter, r, color, selected ? QStringLiteral("▶ ") + label : label,
                               canvas.rect(), avoid);
    }
}

} // namespace osprey::ui
