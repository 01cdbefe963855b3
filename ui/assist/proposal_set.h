#pragma once
// ProposalSet: the model's raw candidates for one image and what of them is shown. Candidates above the
// confidence threshold pass a class-aware greedy NMS at the IoU threshold (recomputed live when either
// slider moves, without running the model again); accepted or rejected ones are dismissed, though they
// keep suppressing their duplicates. One of the shown proposals is selected. A value type; GUI thread.

#include "assist/proposal.h"

#include <QPointF>
#include <QRectF>
#include <cstdint>
#include <vector>

namespace osprey::ui {

class ProposalSet {
public:
    /// One raw candidate, mapped to a project class.
    struct Candidate {
        QRectF rect; ///< image pixels
        float score = 0;
        std::int64_t classId = 0;
        bool dismissed = false; ///< accepted or rejected
    };

    /// Replaces the candidates (of image `imageId`; sorted here by descending score) and refilters.
    void replace(std::int64_t imageId, std::vector<Candidate> candidates);
    /// No candidates; a new batch.
    void clear();

    void setConfidence(float threshold);
    void setIou(float threshold);
    float confidence() const { return m_conf; }
    float iou() const { return m_iou; }

    std::int64_t imageId() const { return m_imageId; }
    /// Changes whenever the candidates are replaced or cleared (an undo of an older accept is ignored).
    std::int64_t batch() const { return m_batch; }
    const std::vector<Candidate>& candidates() const { return m_candidates; }
    /// Indices into candidates() shown now (by descending score).
    const std::vector<int>& visible() const { return m_visible; }
    /// The selected candidate (index into candidates()), -1 when none.
    int selected() const { return m_selected; }
    /// The position of candidate `index` among visible() (visible().size() when hidden).
    int positionOf(int index) const;

    /// Recomputes visible() from the thresholds; keeps the selection when it is still shown.
    void refilter();
    /// Marks candidates dismissed (accepted or rejected) or, undoing that, shown again.
    void setDismissed(const std::vector<int>& indices, bool dismissed);
    /// The next shown proposal (wrapping).
    void selectNext();
    /// Selects candidate `index` (no check).
    void select(int index) { m_selected = index; }
    /// After a refilter, selects what now stands at `position` of visible() (the last one past the end).
    void selectAt(int position);
    /// The smallest shown proposal containing `imagePx` (a small one inside a big one wins); -1 when none.
    int proposalAt(QPointF imagePx) const;

private:
    std::int64_t m_imageId = 0;
    std::int64_t m_batch = 0;
    std::vector<Candidate> m_candidates;
    std::vector<int> m_visible;
    int m_selected = -1;
    float m_conf = assist::defaultConfidence(); ///< the declared default (core/model's thresholds)
    float m_iou = assist::defaultIou();
};

} // namespace osprey::ui
