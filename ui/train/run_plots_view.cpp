#include "ui/train/run_plots_view.h"

#include "run/run_folder.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace osprey::ui {
namespace {

/// The pictures core/plot writes, then the first training and validation batches.
std::vector<std::string> pictureFiles() {
    std::vector<std::string> names = run::RunFolder::pictureNames();
    const run::RunFolder folder({});
    for (int i = 0; i < 3; ++i)
        names.push_back(folder.trainBatch(i).filename().string());
    for (int i = 0; i < 3; ++i) {
        names.push_back(folder.valBatchLabels(i).filename().string());
        names.push_back(folder.valBatchPredictions(i).filename().string());
    }
    return names;
}

} // namespace

RunPlotsView::RunPlotsView(QWidget* parent) : QWidget(parent) {
    m_chooser = new QComboBox(this);
    m_chooser->setObjectName(QStringLiteral("plotChooser"));
    m_chooser->setToolTip(tr("The run folder's pictures, as Ultralytics names them."));
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setStyleSheet(QStringLiteral("color: #808690;"));
    m_picture = new QLabel(this);
    m_picture->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_scroll = new QScrollArea(this);
    m_scroll->setWidget(m_picture);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Picture:"), this));
    top->addWidget(m_chooser, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_note);
    layout->addWidget(m_scroll, 1);
    connect(m_chooser, &QComboBox::currentTextChanged, this, [this](const QString& name) {
        if (!name.isEmpty())
            showPicture(name);
    });
    setRunDir({});
}

void RunPlotsView::setRunDir(const QString& runDir) {
    QStringList found;
    QDateTime newest;
    if (!runDir.isEmpty())
        for (const std::string& name : pictureFiles()) {
            const QFileInfo file(QDir(runDir).filePath(QString::fromStdString(name)));
            if (!file.isFile())
                continue;
            found.append(QString::fromStdString(name));
            newest = std::max(newest, file.lastModified());
        }
    if (runDir == m_runDir && found == m_pictures && newest == m_newest)
        return;
    const QString current = m_chooser->currentText();
    m_runDir = runDir;
    m_pictures = found;
    m_newest = newest;
    m_chooser->blockSignals(true);
    m_chooser->clear();
    m_chooser->addItems(found);
    m_chooser->blockSignals(false);
    m_chooser->setEnabled(!found.isEmpty());
    if (found.isEmpty()) {
        m_pixmap = QPixmap();
        m_picture->clear();
        m_note->setText(runDir.isEmpty()
                            ? tr("No run to show.")
                            : tr("No pictures yet: they are drawn when the run ends. For an older run: "
                                 "osprey-cli runs plots %1 project=…")
                                  .arg(QFileInfo(runDir).fileName()));
        m_note->show();
        return;
    }
    m_note->hide();
    showPicture(found.contains(current) ? current : found.first());
}

bool RunPlotsView::showPicture(const QString& name) {
    if (!m_pictures.contains(name))
        return false;
    if (m_chooser->currentText() != name) {
        m_chooser->blockSignals(true);
        m_chooser->setCurrentText(name);
        m_chooser->blockSignals(false);
    }
    m_pixmap = QPixmap(QDir(m_runDir).filePath(name));
    rescale();
    return !m_pixmap.isNull();
}

void RunPlotsView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    rescale();
}

void RunPlotsView::rescale() {
    if (m_pixmap.isNull())
        return;
    const int width = std::max(100, m_scroll->viewport()->width() - 8);
    m_picture->setPixmap(width < m_pixmap.width() ? m_pixmap.scaledToWidth(width, Qt::SmoothTransformation)
                                                  : m_pixmap);
}

} // namespace osprey::ui
