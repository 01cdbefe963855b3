#include "ui/assist/class_mapping_dialog.h"

#include "assist/auto_labeler.h"
#include "ui/common/background_task.h"
#include "ui/project/project_document.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QShortcut>
#include <QTableWidget>
#include <QVBoxLayout>

namespace osprey::ui {

namespace {

QString fileName(const assist::ModelSource& model) {
    return QString::fromStdString(model.model.filename().string());
}

} // namespace

ClassMappingDialog::ClassMappingDialog(ProjectDocument* document, const assist::ModelSource& model,
                                       QWidget* parent)
    : QDialog(parent), m_document(document), m_model(model), m_task(new BackgroundTask(this)) {
    setWindowTitle(tr("Class Mapping for %1").arg(fileName(model)));
    resize(600, 640);
    m_status = new QLabel(tr("Reading the classes of %1…").arg(fileName(model)), this);
    m_status->setWordWrap(true);
    m_status->setMinimumHeight(2 * m_status->fontMetrics().lineSpacing() + 4); // room for two lines
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("filter"));
    m_filter->setPlaceholderText(tr("Filter classes (Ctrl+F)"));
    m_filter->setClearButtonEnabled(true);
    auto* find = new QShortcut(QKeySequence::Find, this);
    connect(find, &QShortcut::activated, m_filter, [this] { m_filter->setFocus(Qt::ShortcutFocusReason); });
    m_table = new QTableWidget(0, 2, this);
    m_table->setHorizontalHeaderLabels({tr("Model class"), tr("Project class")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setTabKeyNavigation(false); // Tab walks from combo box to combo box
    auto* note = new QLabel(tr("Boxes of ignored classes are not stored. The mapping is saved in the project "
                               "for this model file and used by every later auto-label run, in the "
                               "application and in osprey-cli."),
                            this);
    note->setWordWrap(true);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    QPushButton* reset = m_buttons->addButton(tr("&Match by Name"), QDialogButtonBox::ResetRole);
    reset->setToolTip(tr("Map every model class to the project class of the same name, ignoring the saved "
                         "mapping"));
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Save"));
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    reset->setEnabled(false);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    layout->addWidget(note);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &ClassMappingDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ClassMappingDialog::reject);
    connect(reset, &QPushButton::clicked, this, &ClassMappingDialog::resetToNames);
    connect(m_filter, &QLineEdit::textChanged, this, &ClassMappingDialog::applyFilter);
    connect(m_task, &BackgroundTask::finished, this, &ClassMappingDialog::onLoaded);
    m_task->start([model](TaskContext&) {
        auto predictor = assist::BoxPredictor::open(model);
        if (!predictor)
            return TaskResult{{}, QString::fromStdString(predictor.message())};
        QStringList names;
        for (const auto& name : (*predictor)->names())
            names << QString::fromStdString(name);
        return TaskResult{names, {}};
    });
}

ClassMappingDialog::~ClassMappingDialog() {
    m_task->wait();
}

std::string ClassMappingDialog::modelKey(const assist::ModelSource& model) {
    return model.model.filename().string();
}

bool ClassMappingDialog::isLoading() const {
    return m_task->isRunning();
}

QComboBox* ClassMappingDialog::choiceBox(int row) const {
    return qobject_cast<QComboBox*>(m_table->cellWidget(row, 1));
}

qint64 ClassMappingDialog::choice(int row) const {
    const QComboBox* box = choiceBox(row);
    return box ? box->currentData().toLongLong() : kIgnore;
}

std::vector<std::string> ClassMappingDialog::names() const {
    std::vector<std::string> names;
    for (const QString& name : m_names)
        names.push_back(name.toStdString());
    return names;
}

void ClassMappingDialog::onLoaded(const TaskResult& result) {
    if (!result.ok()) {
        m_error = tr("Cannot read the classes of %1: %2").arg(fileName(m_model), result.error);
        m_status->setText(m_error);
        emit loaded();
        return;
    }
    if (!m_document)
        return;
    m_names = result.value.toStringList();
    auto byName = assist::mapClassesByName(m_document->project(), names(), assist::AddClasses::No);
    m_byName = byName ? byName->projectClassIds : std::vector<std::optional<std::int64_t>>{};
    m_byName.resize(static_cast<size_t>(m_names.size()));
    auto mapping =
        assist::mapClassesByName(m_document->project(), names(), assist::AddClasses::No, modelKey(m_model));
    if (!mapping) {
        m_error =
            tr("Cannot read the saved class mapping: %1").arg(QString::fromStdString(mapping.message()));
        m_status->setText(m_error);
        emit loaded();
        return;
    }
    fill(mapping->projectClassIds);
    for (QAbstractButton* button : m_buttons->buttons())
        button->setEnabled(true);
    if (QComboBox* first = choiceBox(0))
        first->setFocus();
    emit loaded();
}

void ClassMappingDialog::fill(const std::vector<std::optional<std::int64_t>>& projectClassIds) {
    const auto& classes = m_document->classes();
    m_table->setRowCount(static_cast<int>(m_names.size()));
    m_touched.assign(static_cast<size_t>(m_names.size()), false);
    for (int row = 0; row < m_names.size(); ++row) {
        const QString& name = m_names[row];
        auto* item = new QTableWidgetItem(name);
        item->setFlags(Qt::ItemIsEnabled);
        m_table->setItem(row, 0, item);
        auto* box = new QComboBox(m_table);
        box->setAccessibleName(tr("Project class for %1").arg(name));
        box->addItem(tr("(ignore)"), kIgnore);
        bool nameExists = false;
        for (const auto& info : classes)
            nameExists =
                nameExists || QString::fromStdString(info.name).compare(name, Qt::CaseInsensitive) == 0;
        if (!nameExists && !name.isEmpty())
            box->addItem(tr("(add as new class)"), kAddClass);
        for (const auto& info : classes)
            box->addItem(QString::fromStdString(info.name), static_cast<qint64>(info.id));
        const auto& id = projectClassIds[static_cast<size_t>(row)];
        // Mirrors add_classes=auto: a project without classes takes the model's.
        const qint64 wanted = id ? *id : (classes.empty() && !nameExists ? kAddClass : kIgnore);
        box->setCurrentIndex(std::max(0, box->findData(wanted)));
        connect(box, &QComboBox::currentIndexChanged, this, [this, row] {
            m_touched[static_cast<size_t>(row)] = true;
            updateSummary();
        });
        m_table->setCellWidget(row, 1, box);
    }
    updateSummary();
    applyFilter();
}

void ClassMappingDialog::applyFilter() {
    const QString text = m_filter->text().trimmed();
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QComboBox* box = choiceBox(row);
        const bool match = text.isEmpty() || m_names[row].contains(text, Qt::CaseInsensitive) ||
                           (box && box->currentText().contains(text, Qt::CaseInsensitive));
        m_table->setRowHidden(row, !match);
    }
}

void ClassMappingDialog::updateSummary() {
    int mapped = 0, added = 0;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const qint64 value = choice(row);
        mapped += value != kIgnore ? 1 : 0;
        added += value == kAddClass ? 1 : 0;
    }
    QString text =
        tr("Mapped: %1 of %2 model classes; the others are ignored.").arg(mapped).arg(m_names.size());
    if (added > 0)
        text += QLatin1Char('\n') + tr("Classes to add to the project on Save: %1.").arg(added);
    m_status->setText(text);
}

void ClassMappingDialog::resetToNames() {
    if (m_document)
        fill(m_byName);
}

void ClassMappingDialog::accept() {
    if (m_names.isEmpty() || !m_document) {
        QDialog::reject();
        return;
    }
    assist::ClassMapping mapping;
    mapping.projectClassIds.resize(static_cast<size_t>(m_names.size()));
    std::vector<int> toAdd;
    for (int row = 0; row < m_names.size(); ++row) {
        const qint64 value = choice(row);
        if (value == kAddClass)
            toAdd.push_back(row);
        else if (value != kIgnore)
            mapping.projectClassIds[static_cast<size_t>(row)] = value;
    }
    if (!toAdd.empty()) {
        const Status added = m_document->editClasses([&](project::Project& project) -> Status {
            for (const int row : toAdd) {
                auto id = project.classes().add(m_names[row].toStdString());
                if (!id)
                    return fail(id.error());
                mapping.projectClassIds[static_cast<size_t>(row)] = *id;
            }
            return {};
        });
        if (!added) {
            QMessageBox::warning(
                this, windowTitle(),
                tr("Cannot add the new classes: %1").arg(QString::fromStdString(added.message())));
            return;
        }
    }
    // Pin only what differs from the match by name or what the user set, so that classes left unmapped
    // can still be added by add_classes.
    std::vector<std::string> pinnedNames;
    assist::ClassMapping pinned;
    for (int row = 0; row < m_names.size(); ++row) {
        const auto index = static_cast<size_t>(row);
        const bool byName =
            mapping.projectClassIds[index].value_or(kIgnore) == m_byName[index].value_or(kIgnore);
        if (m_touched[index] || !byName) {
            pinnedNames.push_back(m_names[row].toStdString());
            pinned.projectClassIds.push_back(mapping.projectClassIds[index]);
        }
    }
    const Status saved =
        assist::saveClassMapping(m_document->project(), modelKey(m_model), pinnedNames, pinned);
    if (!saved) {
        QMessageBox::warning(
            this, windowTitle(),
            tr("Cannot save the class mapping: %1").arg(QString::fromStdString(saved.message())));
        return;
    }
    QDialog::accept();
}

} // namespace osprey::ui
