#pragma once
// RemoteStatusWidget: one row in the training view for a run streamed to the platform: a coloured
// badge (connected, N queued, or the failure and its reason), a link to the run's dashboard and the
// weights upload progress. Driven by the `remote` lines the trainer prints (TrainingRunModel::remote());
// hidden for runs that do not stream. GUI thread only.

#include "ui/train/training_run_model.h"

#include <QWidget>

class QLabel;
class QProgressBar;

namespace osprey::ui {

class RemoteStatusWidget : public QWidget {
    Q_OBJECT
public:
    explicit RemoteStatusWidget(QWidget* parent = nullptr);

    /// Shows `state`; hides the row when it is not valid or streaming is off without an error.
    void setState(const TrainingRunModel::RemoteState& state);

    /// "Platform: connected · 3 queued", "Platform: key rejected (401) · reporting stopped", ...
    static QString badgeText(const TrainingRunModel::RemoteState& state);
    /// What the user can do about it (the badge's tooltip); empty when all is well.
    static QString adviceText(const TrainingRunModel::RemoteState& state);
    enum class Tone { Good, Busy, Bad, Neutral };
    static Tone tone(const TrainingRunModel::RemoteState& state);

    QLabel* badge() const { return m_badge; }
    /// Rich text with the dashboard link; hidden until the URL is known.
    QLabel* link() const { return m_link; }
    /// The weights upload in per mille of the file (so files over 2 GB fit an int range).
    QProgressBar* uploadBar() const { return m_upload; }

private:
    QLabel* m_badge;
    QLabel* m_link;
    QProgressBar* m_upload;
};

} // namespace osprey::ui
