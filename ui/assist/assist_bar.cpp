#include "ui/assist/assist_bar.h"

#include "ui/assist/assist_controller.h"

#include <QBoxLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QSlider>
#include <QToolButton>
#include <algorithm>

namespace osprey::ui {

namespace {

/// A slider over hundredths, from `min` to `max`, starting at `value`.
QSlider* percentSlider(const QString& name, int min, int max, float value, QWidget* parent) {
    auto* slider = new QSlider(Qt::Horizontal, parent);
    slider->setObjectName(name);
    slider->setRange(min, max);
    slider->setSingleStep(1);
    slider->setPageStep(5);
    slider->setValue(qRound(value * 100));
    slider->setMinimumWidth(56);
    slider->setMaximumWidth(120);
    slider->setFocusPolicy(Qt::StrongFocus);
    return slider;
}

QString twoDecimals(int hundredths) {
    return QString::number(hundredths / 100.0, 'f', 2);
}

} // namespace

AssistBar::AssistBar(AssistController* assist, QWidget* parent)
    : QWidget(parent), m_assist(assist), m_model(new QToolButton(this)), m_suggest(new QToolButton(this)),
      m_every(new QToolButton(this)),
      m_conf(percentSlider(QStringLiteral("assist.confidence"),
                           qRound(AssistController::kRawConfidence * 100), 95, assist->confidence(), this)),
      m_confValue(new QLabel(this)),
      m_iou(percentSlider(QStringLiteral("assist.iou"), 5, 95, assist->iou(), this)),
      m_iouValue(new QLabel(this)), m_count(new QLabel(this)), m_busy(new QProgressBar(this)) {
    // Two groups side by side, or one above the other when the window is too narrow for both (a laptop
    // screen with both docks open): the bar never makes the window wider than the screen.
    m_rows = new QBoxLayout(QBoxLayout::LeftToRight, this);
    m_rows->setSizeConstraint(QLayout::SetNoConstraint);
    m_rows->setContentsMargins(6, 2, 6, 2);
    m_rows->setSpacing(14);
    m_modelGroup = new QWidget(this);
    m_filterGroup = new QWidget(this);
    for (QWidget* group : {m_modelGroup, m_filterGroup}) {
        auto* row = new QHBoxLayout(group);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(6);
    }
    m_model->setObjectName(QStringLiteral("assist.model"));
    m_modelTip =
        tr("The model that suggests boxes: an Osprey checkpoint (.pt), an ONNX detector or a Darknet "
           ".cfg with its .weights and names. The arrow offers to follow the training runs instead.");
    m_model->setPopupMode(QToolButton::MenuButtonPopup);
    auto* modelMenu = new QMenu(m_model);
    modelMenu->addAction(tr("Choose Model File…"), this, [this] { m_assist->chooseModel(window()); });
    m_follow = modelMenu->addAction(tr("Follow the Active Training Run"));
    m_follow->setObjectName(QStringLiteral("assistBar.followRun"));
    m_follow->setCheckable(true);
    m_follow->setToolTip(tr("Use the best.pt written last under this project's runs, and reload it each time "
                            "training saves a better one"));
    m_model->setMenu(modelMenu);
    m_suggest->setText(tr("Suggest (I)"));
    m_suggest->setToolTip(tr("Run the model on this image"));
    m_every->setText(tr("Every image"));
    m_every->setToolTip(tr("Suggest boxes on every image as it opens (Shift+I)"));
    m_every->setCheckable(true);
    m_confValue->setMinimumWidth(m_confValue->fontMetrics().horizontalAdvance(QStringLiteral("0.00")));
    m_iouValue->setMinimumWidth(m_iouValue->fontMetrics().horizontalAdvance(QStringLiteral("0.00")));
    m_conf->setToolTip(tr("Confidence: proposals scoring below it are hidden"));
    m_iou->setToolTip(
        tr("IoU: a proposal overlapping a better one of its class by more than this is hidden"));
    m_busy->setObjectName(QStringLiteral("assist.busy"));
    m_busy->setRange(0, 0); // indeterminate
    m_busy->setTextVisible(false);
    m_busy->setFixedSize(60, 10);
    m_busy->setVisible(false);
    m_count->setObjectName(QStringLiteral("assist.count"));

    auto* left = static_cast<QHBoxLayout*>(m_modelGroup->layout());
    left->addWidget(new QLabel(tr("Model:"), m_modelGroup));
    left->addWidget(m_model);
    left->addWidget(m_suggest);
    left->addWidget(m_every);
    left->addStretch(1);
    auto* right = static_cast<QHBoxLayout*>(m_filterGroup->layout());
    right->addWidget(new QLabel(tr("Confidence"), m_filterGroup));
    right->addWidget(m_conf);
    right->addWidget(m_confValue);
    right->addWidget(new QLabel(tr("IoU"), m_filterGroup));
    right->addWidget(m_iou);
    right->addWidget(m_iouValue);
    right->addSpacing(8);
    right->addWidget(m_busy);
    right->addWidget(m_count);
    right->addStretch(1);
    m_rows->addWidget(m_modelGroup);
    m_rows->addWidget(m_filterGroup, 1);

    connect(m_model, &QToolButton::clicked, this, [this] { m_assist->chooseModel(window()); });
    connect(m_follow, &QAction::toggled, assist, &AssistController::setFollowRun);
    connect(assist, &AssistController::followRunChanged, m_follow, &QAction::setChecked);
    connect(m_suggest, &QToolButton::clicked, assist, &AssistController::suggest);
    connect(m_every, &QToolButton::toggled, assist, &AssistController::setAutoSuggest);
    connect(assist, &AssistController::autoSuggestChanged, m_every, &QToolButton::setChecked);
    connect(m_conf, &QSlider::valueChanged, this, [this](int value) {
        m_confValue->setText(twoDecimals(value));
        m_assist->setConfidence(float(value) / 100.0f);
    });
    connect(assist, &AssistController::runConfidenceFound, this, [this](float confidence) {
        m_conf->setValue(std::clamp(qRound(confidence * 100), m_conf->minimum(), m_conf->maximum()));
    });
    connect(m_iou, &QSlider::valueChanged, this, [this](int value) {
        m_iouValue->setText(twoDecimals(value));
        m_assist->setIou(float(value) / 100.0f);
    });
    connect(assist, &AssistController::busyChanged, this, [this](bool busy) {
        m_busy->setVisible(busy);
        updateCount();
    });
    connect(assist, &AssistController::modelChanged, this, &AssistBar::updateModel);
    connect(assist, &AssistController::followRunChanged, this, &AssistBar::updateModel);
    connect(assist, &AssistController::proposalsChanged, this, &AssistBar::updateCount);
    m_conf->installEventFilter(this);
    m_iou->installEventFilter(this);
    m_confValue->setText(twoDecimals(m_conf->value()));
    m_iouValue->setText(twoDecimals(m_iou->value()));
    updateModel();
    updateCount();
}

bool AssistBar::eventFilter(QObject* watched, QEvent* event) {
    // The editor's canvas shortcuts (arrows nudge boxes) cover its children; a focused slider keeps its
    // own keys.
    if (event->type() == QEvent::ShortcutOverride && (watched == m_conf || watched == m_iou)) {
        switch (static_cast<QKeyEvent*>(event)->key()) {
        case Qt::Key_Left:
        case Qt::Key_Right:
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_Home:
        case Qt::Key_End:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
            event->accept();
            return true;
        default:
            break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AssistBar::addReviewActions(const QList<QAction*>& actions) {
    auto* review = new QToolButton(this);
    review->setObjectName(QStringLiteral("assist.review"));
    review->setText(tr("Review Queue"));
    review->setToolTip(tr("Walk the images whose model boxes nobody has checked yet, likeliest mistakes "
                          "first"));
    review->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(review);
    menu->addActions(actions);
    review->setMenu(menu);
    auto* row = static_cast<QHBoxLayout*>(m_filterGroup->layout());
    row->insertWidget(row->count() - 1, review); // before the stretch
    arrangeRows();
}

QSize AssistBar::sizeHint() const {
    const QMargins margins = m_rows->contentsMargins();
    const QSize left = m_modelGroup->sizeHint(), right = m_filterGroup->sizeHint();
    const bool wide = m_rows->direction() == QBoxLayout::LeftToRight;
    return QSize(left.width() + m_rows->spacing() + right.width(),
                 wide ? std::max(left.height(), right.height())
                      : left.height() + m_rows->spacing() + right.height())
        .grownBy(margins);
}

QSize AssistBar::minimumSizeHint() const {
    // Narrow enough for the two groups one above the other.
    const QMargins margins = m_rows->contentsMargins();
    return QSize(std::max(m_modelGroup->minimumSizeHint().width(), m_filterGroup->minimumSizeHint().width()),
                 sizeHint().height() - margins.top() - margins.bottom())
        .grownBy(margins);
}

void AssistBar::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrangeRows();
}

void AssistBar::arrangeRows() {
    const QMargins margins = m_rows->contentsMargins();
    const int both = m_modelGroup->sizeHint().width() + m_rows->spacing() +
                     m_filterGroup->sizeHint().width() + margins.left() + margins.right();
    const auto direction = width() >= both ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom;
    if (direction == m_rows->direction())
        return;
    m_rows->setDirection(direction);
    updateGeometry(); // the height changes
}

void AssistBar::updateModel() {
    const bool waiting = m_assist->followRun() && !m_assist->hasModel();
    const QString name = m_assist->hasModel() ? m_assist->modelName()
                         : waiting            ? tr("Waiting for a run…")
                                              : tr("Choose…");
    // A long file name is elided, so that the bar fits a laptop screen; the tooltip has it whole.
    m_model->setText(m_model->fontMetrics().elidedText(name, Qt::ElideMiddle, 200));
    m_model->setToolTip(
        m_assist->hasModel()
            ? tr("%1\n%2").arg(QString::fromStdString(m_assist->source().model.string()), m_modelTip)
            : m_modelTip);
}

void AssistBar::updateCount() {
    const auto shown = static_cast<int>(m_assist->visible().size());
    m_count->setText(m_assist->busy() ? tr("suggesting…")
                     : shown == 0     ? QString()
                     : shown == 1     ? tr("1 proposal")
                                      : tr("%1 proposals").arg(shown));
}

} // namespace osprey::ui
