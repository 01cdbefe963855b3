#include "ui/assist/proposal_set.h"

#include "common/xyxy_iou.h"

#include <algorithm>

namespace osprey::ui {

namespace {

struct Corners {
    double x1, y1, x2, y2;
};

Corners corners(const QRectF& r) {
    return {r.left(), r.top(), r.right(), r.bottom()};
}

} // namespace

void ProposalSet::replace(std::int64_t imageId, std::vector<Candidate> candidates) {
    m_imageId = imageId;
    ++m_batch;
    m_candidates = std::move(candidates);
    std::stable_sort(m_candidates.begin(), m_candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    m_selected = -1;
    refilter();
}

void ProposalSet::clear() {
    ++m_batch;
    m_candidates.clear();
    m_visible.clear();
    m_selected = -1;
}

void ProposalSet::setConfidence(float threshold) {
    m_conf = threshold;
    refilter();
}

void ProposalSet::setIou(float threshold) {
    m_iou = threshold;
    refilter();
}

int ProposalSet::positionOf(int index) const {
    return static_cast<int>(std::find(m_visible.begin(), m_visible.end(), index) - m_visible.begin());
}

void ProposalSet::refilter() {
    // Class-aware greedy NMS over every candidate above the confidence, dismissed ones included (an
    // accepted box keeps suppressing its duplicates), then the dismissed ones are hidden.
    std::vector<int> kept;
    for (int i = 0; i < static_cast<int>(m_candidates.size()); ++i) {
        const Candidate& c = m_candidates[static_cast<size_t>(i)];
        if (c.score < m_conf)
            continue;
        const bool suppressed = std::any_of(kept.begin(), kept.end(), [&](int k) {
            const Candidate& other = m_candidates[static_cast<size_t>(k)];
            return other.classId == c.classId &&
                   xyxyIou<double>(corners(other.rect), corners(c.rect)) > m_iou;
        });
        if (!suppressed)
            kept.push_back(i);
    }
    m_visible.clear();
    for (const int i : kept)
        if (!m_candidates[static_cast<size_t>(i)].dismissed)
            m_visible.push_back(i);
    if (std::find(m_visible.begin(), m_visible.end(), m_selected) == m_visible.end())
        m_selected = m_visible.empty() ? -1 : m_visible.front();
}

void ProposalSet::setDismissed(const std::vector<int>& indices, bool dismissed) {
    for (const int index : indices)
        if (index >= 0 && index < static_cast<int>(m_candidates.size()))
            m_candidates[static_cast<size_t>(index)].dismissed = dismissed;
}

void ProposalSet::selectNext() {
    if (m_visible.empty())
        return;
    const auto it = std::find(m_visible.begin(), m_visible.end(), m_selected);
    m_selected = it == m_visible.end() || it + 1 == m_visible.end() ? m_visible.front() : *(it + 1);
}

void ProposalSet::selectAt(int position) {
    refilter();
    if (!m_visible.empty())
        m_selected = m_visible[static_cast<size_t>(std::min<int>(position, int(m_visible.size()) - 1))];
}

int ProposalSet::proposalAt(QPointF imagePx) const {
    int best = -1;
    double bestArea = 0;
    for (const int index : m_visible) {
        const QRectF& r = m_candidates[static_cast<size_t>(index)].rect;
        const double area = r.width() * r.height();
        if (r.contains(imagePx) && (best < 0 || area < bestArea)) {
            best = index;
            bestArea = area;
        }
    }
    return best;
}

} // namespace osprey::ui
