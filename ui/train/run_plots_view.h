#pragma once
// RunPlotsView: the run view's Plots tab, the pictures in the run folder (core/plot's results.png, the
// PR/F1/P/R curves, the confusion matrices, labels.jpg, the train and val batches) one at a time, scaled to
// the tab's width, with a chooser. The interactive curves are the Curves tab. GUI thread only.

#include <QDateTime>
#include <QPixmap>
#include <QStringList>
#include <QWidget>

class QComboBox;
class QLabel;
class QScrollArea;

namespace osprey::ui {

class RunPlotsView : public QWidget {
    Q_OBJECT
public:
    explicit RunPlotsView(QWidget* parent = nullptr);

    /// Shows the pictures of the run in `runDir` (empty: none). Looks at the folder again only when a
    /// picture appeared or changed, so calling this on every refresh is cheap.
    void setRunDir(const QString& runDir);
    /// The pictures found, in Ultralytics' order ("results.png", "PR_curve.png", ...).
    QStringList pictures() const { return m_pictures; }
    /// Shows one picture by file name; false when the run has no such picture.
    bool showPicture(const QString& name);
    const QPixmap& shown() const { return m_pixmap; }

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void rescale();

    QComboBox* m_chooser;
    QLabel* m_note;
    QScrollArea* m_scroll;
    QLabel* m_picture;
    QString m_runDir;
    QStringList m_pictures;
    QDateTime m_newest;
    QPixmap m_pixmap;
};

} // namespace osprey::ui
