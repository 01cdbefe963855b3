#include "ui/annotate/class_picker_dialog.h"

#include "ui/project/project_document.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <QListWidget>
#include <QVBoxLayout>

namespace osprey::ui {

ClassPickerDialog::ClassPickerDialog(ProjectDocument* document, std::int64_t currentClassId, QWidget* parent)
    : QDialog(parent) {
    setWindowTitle(tr("Choose Class"));
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Type to search classes…"));
    m_search->setClearButtonEnabled(true);
    m_list = new QListWidget(this);
    int index = 0;
    for (const auto& info : document->classes()) {
        QPixmap swatch(14, 14);
        swatch.fill(QColor(QString::fromStdString(info.color)));
        const QString name = QString::fromStdString(info.name);
        auto* item = new QListWidgetItem(QIcon(swatch),
                                         index < 9 ? QStringLiteral("%1  %2").arg(index + 1).arg(name)
                                                   : QStringLiteral("    %1").arg(name),
                                         m_list);
        item->setData(Qt::UserRole, QVariant::fromValue<qint64>(info.id));
        item->setData(Qt::UserRole + 1, name);
        if (info.id == currentClassId)
            m_list->setCurrentItem(item);
        ++index;
    }
    if (!m_list->currentItem() && m_list->count() > 0)
        m_list->setCurrentRow(0);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_search);
    layout->addWidget(m_list);
    resize(320, 360);
    m_search->installEventFilter(this);
    connect(m_search, &QLineEdit::textChanged, this, &ClassPickerDialog::filter);
    connect(m_search, &QLineEdit::returnPressed, this, [this] {
        if (classId() != 0)
            accept();
    });
    connect(m_list, &QListWidget::itemActivated, this, &QDialog::accept);
}

void ClassPickerDialog::filter(const QString& text) {
    QListWidgetItem* first = nullptr;
    for (int row = 0; row < m_list->count(); ++row) {
        QListWidgetItem* item = m_list->item(row);
        const bool match =
            item->data(Qt::UserRole + 1).toString().contains(text.trimmed(), Qt::CaseInsensitive);
        item->setHidden(!match);
        if (match && !first)
            first = item;
    }
    m_list->setCurrentItem(first);
}

int ClassPickerDialog::visibleCount() const {
    int count = 0;
    for (int row = 0; row < m_list->count(); ++row)
        count += m_list->item(row)->isHidden() ? 0 : 1;
    return count;
}

std::int64_t ClassPickerDialog::classId() const {
    const QListWidgetItem* item = m_list->currentItem();
    return item && !item->isHidden() ? item->data(Qt::UserRole).toLongLong() : 0;
}

bool ClassPickerDialog::eventFilter(QObject* watched, QEvent* event) {
    // Up and Down in the search field move through the list, so the hands stay on the keyboard.
    if (watched == m_search && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if (key == Qt::Key_Up || key == Qt::Key_Down) {
            int row = m_list->currentRow();
            do
                row += key == Qt::Key_Down ? 1 : -1;
            while (row >= 0 && row < m_list->count() && m_list->item(row)->isHidden());
            if (row >= 0 && row < m_list->count())
                m_list->setCurrentRow(row);
            return true;
        }
    }
    return QDialog::eventFilter(watched, event);
}

} // namespace osprey::ui
