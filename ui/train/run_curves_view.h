#pragma once
// RunCurvesView: the run view's Curves tab, the best model's curves from <run>/curves.json
// (run/run_curves.h): precision-recall at IoU 0.5 and F1 over the confidence, each class thin and the
// mean over classes thick, the best-F1 confidence marked. A slider picks a confidence and says P, R and
// F1 (means over the classes) there; hovering a curve says the same for the point under the pointer. The
// file is read again when it changes (a running run rewrites it at each new best). GUI thread only.

#include "run/run_curves.h"

#include <QDateTime>
#include <QString>
#include <QWidget>

#include <optional>

class QCustomPlot;
class QLabel;
class QMouseEvent;
class QSlider;

namespace osprey::ui {

class RunCurvesView : public QWidget {
    Q_OBJECT
public:
    explicit RunCurvesView(QWidget* parent = nullptr);

    /// Shows the curves of the run in `runDir` (empty: none). Reads curves.json when it is new or changed
    /// since the last call, so calling this on every refresh is cheap.
    void setRunDir(const QString& runDir);
    bool hasCurves() const { return m_curves.has_value(); }

    /// "confidence 0.42: P 0.81, R 0.72, F1 0.76" (means over the classes with labels); empty without
    /// curves.
    QString textAt(double confidence) const;
    /// The confidence the slider picks.
    double chosenConfidence() const;
    void setChosenConfidence(double confidence);
    QSlider* slider() const { return m_slider; }
    QLabel* summary() const { return m_summary; }
    QCustomPlot* prPlot() const { return m_pr; }
    QCustomPlot* confidencePlot() const { return m_f1; }

private:
    void load(const QString& file);
    void redraw();
    void updateChoice();
    void showHover(QCustomPlot* plot, QMouseEvent* event);

    QLabel* m_summary;
    QCustomPlot* m_pr;
    QCustomPlot* m_f1;
    QSlider* m_slider;
    QLabel* m_choice;
    QString m_file;
    QDateTime m_loadedAt;
    std::optional<run::RunCurves> m_curves;
};

} // namespace osprey::ui
