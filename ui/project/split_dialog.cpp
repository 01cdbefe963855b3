#include "ui/project/split_dialog.h"

#include "formats/project_export.h"
#include "quality/dataset_splitter.h"
#include "ui/common/background_task.h"
#include "ui/project/project_document.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace osprey::ui {

SplitDialog::SplitDialog(ProjectDocument* document, QWidget* parent)
    : QDialog(parent), m_document(document), m_task(new BackgroundTask(this)) {
    setWindowTitle(tr("Split Dataset"));
    auto makeFraction = [this](double value) {
        auto* box = new QDoubleSpinBox(this);
        box->setRange(0, 1);
        box->setSingleStep(0.05);
        box->setDecimals(2);
        box->setValue(value);
        return box;
    };
    m_train = makeFraction(0.8);
    m_val = makeFraction(0.2);
    m_test = makeFraction(0);
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1 << 30);
    m_seed->setToolTip(tr("The same seed gives the same split"));
    auto* form = new QFormLayout;
    form->addRow(tr("Train:"), m_train);
    form->addRow(tr("Val:"), m_val);
    form->addRow(tr("Test:"), m_test);
    form->addRow(tr("Seed:"), m_seed);
    m_status = new QLabel(
        tr("Stratified by class. Identical images stay in one split; locked images keep theirs."), this);
    m_status->setWordWrap(true);
    m_apply = new QPushButton(tr("Split"), this);
    m_apply->setDefault(true);
    auto* close = new QPushButton(tr("Close"), this);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_apply);
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addLayout(buttons);
    connect(m_apply, &QPushButton::clicked, this, &SplitDialog::runSplit);
    connect(close, &QPushButton::clicked, this, &SplitDialog::reject);
    connect(m_task, &BackgroundTask::finished, this, &SplitDialog::onFinished);
}

void SplitDialog::setFractions(double train, double val, double test, int seed) {
    m_train->setValue(train);
    m_val->setValue(val);
    m_test->setValue(test);
    m_seed->setValue(seed);
}

bool SplitDialog::isBusy() const {
    return m_task->isRunning();
}
QString SplitDialog::resultText() const {
    return m_status->text();
}

void SplitDialog::runSplit() {
    if (m_train->value() + m_val->value() + m_test->value() <= 0) {
        m_status->setText(tr("At least one fraction must be above zero."));
        return;
    }
    quality::SplitOptions options;
    options.train = m_train->value();
    options.val = m_val->value();
    options.test = m_test->value();
    options.seed = static_cast<std::uint64_t>(m_seed->value());
    const std::string folder = m_document->folder().toStdString();
    m_apply->setEnabled(false);
    m_status->setText(tr("Splitting…"));
    m_task->start([options, folder](TaskContext&) {
        auto project = project::Project::open(folder);
        if (!project)
            return TaskResult{{}, QString::fromStdString(project.message())};
        auto dataset = formats::readProject(**project);
        if (!dataset)
            return TaskResult{{}, QString::fromStdString(dataset.message())};
        auto plan = quality::planSplit(*dataset, options);
        if (!plan)
            return TaskResult{{}, QString::fromStdString(plan.message())};
        if (auto applied = quality::applySplit(**project, *dataset, *plan); !applied)
            return TaskResult{{}, QString::fromStdString(applied.message())};
        QString text =
            QObject::tr("Split applied: %1 images changed split, %2 locked images kept, %3 grouped "
                        "with an identical image.")
                .arg(plan->changed)
                .arg(plan->locked)
                .arg(plan->groupedDuplicates);
        if (plan->groupedFrames > 0)
            text += QLatin1Char(' ') +
                    QObject::tr("%1 video frames kept in the split of the other frames of their video.")
                        .arg(plan->groupedFrames);
        return TaskResult{text, {}};
    });
}

void SplitDialog::onFinished(const TaskResult& result) {
    m_apply->setEnabled(true);
    m_status->setText(result.ok() ? result.value.toString() : tr("Split failed: %1").arg(result.error));
    if (result.ok())
        emit m_document->imagesReset();
}

} // namespace osprey::ui
