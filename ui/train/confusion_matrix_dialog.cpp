#include "ui/train/confusion_matrix_dialog.h"

#include "run/run_folder.h"
#include "ui/common/background_task.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <memory>

namespace osprey::ui {

ConfusionMatrixDialog::ConfusionMatrixDialog(const QString& runDir, int shownEpoch, QWidget* parent)
    : QDialog(parent), m_runDir(runDir), m_wanted(shownEpoch), m_reading(new BackgroundTask(this)) {
    setObjectName("confusionMatrixDialog");
    setWindowTitle(tr("Confusion Matrix — %1").arg(QDir(runDir).dirName()));
    m_epoch = new QComboBox(this);
    m_normalised = new QCheckBox(tr("Normalise each row (labelled class)"), this);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setMinimumHeight(m_note->fontMetrics().height() * 3 + 4);
    m_note->setText(tr("Reading the validation results…"));
    m_table = new QTableWidget(this);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Epoch:"), this));
    top->addWidget(m_epoch);
    top->addWidget(new QLabel(tr("Rows: the labelled class. Columns: the detected class."), this));
    top->addStretch(1);
    top->addWidget(m_normalised);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_note);
    m_table->setMinimumHeight(220);
    resize(820, 480);
    connect(m_epoch, &QComboBox::currentIndexChanged, this, [this] { fill(); });
    connect(m_normalised, &QCheckBox::toggled, this, [this] { fill(); });
    connect(m_table, &QTableWidget::cellClicked, this, [this](int row, int column) {
        if (epoch() > 0)
            emit cellRequested(m_runDir, epoch(), column, row);
    });

    const std::filesystem::path file = run::RunFolder(runDir.toStdString()).validation();
    auto holder = std::make_shared<std::vector<run::EpochValidation>>();
    connect(m_reading, &BackgroundTask::finished, this, [this, holder](const TaskResult& result) {
        if (!result.ok()) {
            m_note->setText(tr("Cannot read the validation results: %1").arg(result.error));
            emit loaded(false);
            return;
        }
        m_epochs = std::move(*holder);
        int current = static_cast<int>(m_epochs.size()) - 1;
        m_epoch->blockSignals(true);
        for (int i = 0; i < static_cast<int>(m_epochs.size()); ++i) {
            m_epoch->addItem(QString::number(m_epochs[static_cast<size_t>(i)].epoch));
            if (m_epochs[static_cast<size_t>(i)].epoch == m_wanted)
                current = i;
        }
        m_epoch->setCurrentIndex(current);
        m_epoch->blockSignals(false);
        fill();
        emit loaded(!m_epochs.empty());
    });
    m_reading->start([file, holder](TaskContext&) {
        TaskResult result;
        auto epochs = run::readValidationFile(file);
        if (!epochs)
            result.error = QString::fromStdString(epochs.message());
        else
            *holder = std::move(*epochs);
        return result;
    });
}

ConfusionMatrixDialog::~ConfusionMatrixDialog() {
    m_reading->cancel();
    m_reading->wait();
}

int ConfusionMatrixDialog::epoch() const {
    const int index = m_epoch->currentIndex();
    return index >= 0 && index < static_cast<int>(m_epochs.size())
               ? m_epochs[static_cast<size_t>(index)].epoch
               : 0;
}

QString ConfusionMatrixDialog::cellText(int actual, int detected) const {
    const auto* item = m_table->item(actual, detected);
    return item ? item->text() : QString();
}

void ConfusionMatrixDialog::fill() {
    const int index = m_epoch->currentIndex();
    m_table->clear();
    if (index < 0 || index >= static_cast<int>(m_epochs.size())) {
        m_note->setText(tr("No epoch of this run has been validated yet."));
        return;
    }
    const run::EpochValidation& e = m_epochs[static_cast<size_t>(index)];
    const int side = static_cast<int>(e.classNames.size()) + 1;
    QStringList names;
    for (const auto& name : e.classNames)
        names << QString::fromStdString(name);
    names << tr("background");
    m_table->setRowCount(side);
    m_table->setColumnCount(side);
    m_table->setHorizontalHeaderLabels(names);
    m_table->setVerticalHeaderLabels(names);
    const bool normalised = m_normalised->isChecked();
    for (int actual = 0; actual < side; ++actual) {
        long long rowSum = 0;
        for (int d = 0; d < side; ++d)
            rowSum += e.matrixCount(d, actual);
        for (int d = 0; d < side; ++d) {
            const long long count = e.matrixCount(d, actual);
            const double share = rowSum > 0 ? static_cast<double>(count) / static_cast<double>(rowSum) : 0.0;
            auto* item =
                new QTableWidgetItem(normalised ? QString::number(share, 'f', 2) : QString::number(count));
            item->setTextAlignment(Qt::AlignCenter);
            // Darker blue for a larger share of the row; the diagonal is what the model got right.
            const int shade = 255 - static_cast<int>(share * 150);
            item->setBackground(QColor(shade, shade, 255));
            item->setForeground(Qt::black);
            const run::ValCell* cell = e.cell(d, actual);
            const long long images = cell ? cell->imageCount : 0;
            item->setToolTip(
                tr("Labelled %1, detected %2: %3 boxes in %4 images. Click to open them in the editor.")
                    .arg(names[actual], names[d])
                    .arg(count)
                    .arg(images));
            m_table->setItem(actual, d, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_note->setText(
        tr("Epoch %1, %2 val images. A box counts where its detection (confidence above %3, IoU above "
           "%4) lands; a missed box in the background column, a false positive in the background row. "
           "Click a cell to walk its images in the editor.")
            .arg(e.epoch)
            .arg(e.totals.images)
            .arg(e.matrixConfidence, 0, 'f', 2)
            .arg(e.matrixIou, 0, 'f', 2));
}

} // namespace osprey::ui
