#pragma once
// Draws the shown proposals of a ProposalSet over the canvas: dashed class-coloured outlines with a halo,
// "class 0.87" labels, the selected one filled and marked; lowest scores first and the selection last,
// so that the labels that matter stay on top. GUI thread.

#include <QRectF>

class QPainter;

namespace osprey::ui {

class BoxCanvas;
class ProjectDocument;
class ProposalSet;

/// Paints `proposals` in `canvas` coordinates; labels keep clear of `avoid` (the caption).
void paintProposals(QPainter& painter, const ProposalSet& proposals, const BoxCanvas& canvas,
                    const ProjectDocument& document, const QRectF& avoid);

} // namespace osprey::ui
