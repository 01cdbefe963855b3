#pragma once
// AssistBar: the strip above the canvas for model proposals: the active model (click to choose another),
// Suggest, "every image", following the latest training run's best checkpoint, the review queue, the
// confidence and IoU sliders that re-filter the proposals live, the proposal count and a busy indicator while
// the model runs. GUI thread only.

#include <QWidget>

class QAction;
class QBoxLayout;
class QLabel;
class QProgressBar;
class QSlider;
class QToolButton;

namespace osprey::ui {

class AssistController;

class AssistBar : public QWidget {
    Q_OBJECT
public:
    explicit AssistBar(AssistController* assist, QWidget* parent = nullptr);

    QSlider* confidenceSlider() const { return m_conf; }
    QSlider* iouSlider() const { return m_iou; }
    QProgressBar* busyIndicator() const { return m_busy; }
    /// Adds a "Review" button whose menu holds these actions (the review queue orders).
    void addReviewActions(const QList<QAction*>& actions);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void updateModel();
    void updateCount();
    /// The two groups side by side when both fit, else one above the other.
    void arrangeRows();

    AssistController* m_assist;
    QBoxLayout* m_rows = nullptr;
    QWidget* m_modelGroup = nullptr;
    QWidget* m_filterGroup = nullptr;
    QToolButton* m_model;
    QString m_modelTip;
    QAction* m_follow;
    QToolButton* m_suggest;
    QToolButton* m_every;
    QSlider* m_conf;
    QLabel* m_confValue;
    QSlider* m_iou;
    QLabel* m_iouValue;
    QLabel* m_count;
    QProgressBar* m_busy;
};

} // namespace osprey::ui
