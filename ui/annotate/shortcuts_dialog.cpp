#include "ui/annotate/shortcuts_dialog.h"

#include "ui/annotate/shortcut_registry.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequenceEdit>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace osprey::ui {

namespace {
QString plainText(const QAction* action) {
    return action->text().remove('&').remove(QStringLiteral("…"));
}
} // namespace

ShortcutsDialog::ShortcutsDialog(ShortcutRegistry* registry, QWidget* parent)
    : QDialog(parent), m_registry(registry), m_edited(registry->current()) {
    setWindowTitle(tr("Keyboard Shortcuts"));
    m_table = new QTableWidget(this);
    m_table->setColumnCount(3);
    m_table->setHorizontalHeaderLabels({tr("Menu"), tr("Action"), tr("Shortcut")});
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_conflicts = new QLabel(this);
    m_conflicts->setObjectName("conflicts");
    m_conflicts->setStyleSheet("color: #ff8a80");
    m_conflicts->setWordWrap(true);
    m_buttons = new QDialogButtonBox(
        QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::RestoreDefaults, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::RestoreDefaults), &QPushButton::clicked, this, [this] {
        for (const auto& entry : m_registry->entries())
            m_edited.insert(entry.id, entry.defaults);
        fill();
    });
    auto* hint = new QLabel(tr("Click a shortcut and press the new keys. Backspace clears it."), this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(hint);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_conflicts);
    layout->addWidget(m_buttons);
    resize(560, 620);
    fill();
}

void ShortcutsDialog::fill() {
    const auto& entries = m_registry->entries();
    m_table->setRowCount(static_cast<int>(entries.size()));
    for (int row = 0; row < entries.size(); ++row) {
        const auto& entry = entries[row];
        m_table->setItem(row, 0, new QTableWidgetItem(QString(entry.menu).remove('&')));
        m_table->setItem(row, 1, new QTableWidgetItem(plainText(entry.action)));
        for (int column = 0; column < 2; ++column)
            m_table->item(row, column)->setFlags(Qt::ItemIsEnabled);
        auto* edit = new QKeySequenceEdit(m_table);
        const QList<QKeySequence> sequences = m_edited.value(entry.id);
        edit->setKeySequence(sequences.value(0));
        const QString id = entry.id;
        connect(edit, &QKeySequenceEdit::keySequenceChanged, this, [this, id](const QKeySequence& sequence) {
            QList<QKeySequence> list = m_edited.value(id);
            if (list.isEmpty())
                list.append(sequence);
            else
                list[0] = sequence;
            // Only the first shortcut is edited here; clearing it clears the alternates too.
            if (sequence.isEmpty())
                list.clear();
            m_edited.insert(id, list);
            updateConflicts();
        });
        m_table->setCellWidget(row, 2, edit);
    }
    m_table->resizeColumnToContents(0);
    m_table->setColumnWidth(2, 160);
    updateConflicts();
}

void ShortcutsDialog::setShortcut(const QString& id, const QKeySequence& sequence) {
    const auto& entries = m_registry->entries();
    for (int row = 0; row < entries.size(); ++row)
        if (entries[row].id == id)
            static_cast<QKeySequenceEdit*>(m_table->cellWidget(row, 2))->setKeySequence(sequence);
}

QStringList ShortcutsDialog::conflictText() const {
    QStringList lines;
    for (const auto& [first, second] : ShortcutRegistry::conflicts(m_edited)) {
        QKeySequence shared;
        for (const auto& sequence : m_edited.value(first))
            if (!sequence.isEmpty() && m_edited.value(second).contains(sequence))
                shared = sequence;
        lines.append(tr("%1 is used by both “%2” and “%3”")
                         .arg(shared.toString(QKeySequence::NativeText), plainText(m_registry->action(first)),
                              plainText(m_registry->action(second))));
    }
    return lines;
}

void ShortcutsDialog::updateConflicts() {
    const QStringList lines = conflictText();
    m_conflicts->setText(lines.join('\n'));
    m_conflicts->setVisible(!lines.isEmpty());
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(lines.isEmpty());
}

void ShortcutsDialog::accept() {
    if (!m_registry->apply(m_edited))
        return;
    QDialog::accept();
}

} // namespace osprey::ui
