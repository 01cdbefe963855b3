#include "ui/annotate/class_panel.h"

#include "ui/annotate/annotation_session.h"
#include "ui/annotate/commands/add_class_command.h"
#include "ui/annotate/commands/edit_class_command.h"
#include "ui/project/project_document.h"

#include <QColorDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

namespace osprey::ui {

namespace {
constexpr int kClassIdRole = Qt::UserRole;
// Counting every box is a full scan; coalesce the refreshes of a burst of edits.
constexpr int kCountDelayMs = 250;

std::int64_t classNamed(const ProjectDocument& document, const QString& name) {
    for (const auto& info : document.classes())
        if (QString::fromStdString(info.name) == name)
            return info.id;
    return 0;
}
} // namespace

ClassPanel::ClassPanel(AnnotationSession* session, QWidget* parent) : QWidget(parent), m_session(session) {
    m_tree = new QTreeWidget(this);
    m_tree->setRootIsDecorated(false);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Class"), tr("Images"), tr("Boxes")});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_tree->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_tree->setToolTip(tr("Click: use this class for new boxes. Double-click: rename."));

    auto makeButton = [this](const QString& text, const QString& tip) {
        auto* button = new QToolButton(this);
        button->setText(text);
        button->setToolTip(tip);
        return button;
    };
    QToolButton* add = makeButton(tr("Add"), tr("Add a class"));
    QToolButton* color = makeButton(tr("Colour"), tr("Change the colour of the selected class"));
    QToolButton* up = makeButton(tr("Up"), tr("Move the selected class up (its digit key changes)"));
    QToolButton* down = makeButton(tr("Down"), tr("Move the selected class down (its digit key changes)"));
    auto* buttons = new QHBoxLayout;
    for (QToolButton* button : {add, color, up, down})
        buttons->addWidget(button);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tree, 1);
    layout->addLayout(buttons);

    m_countTimer = new QTimer(this);
    m_countTimer->setSingleShot(true);
    m_countTimer->setInterval(kCountDelayMs);
    connect(m_countTimer, &QTimer::timeout, this, &ClassPanel::refresh);
    connect(add, &QToolButton::clicked, this, &ClassPanel::addClass);
    connect(color, &QToolButton::clicked, this, &ClassPanel::chooseColor);
    connect(up, &QToolButton::clicked, this, [this] { moveClass(selectedClassId(), -1); });
    connect(down, &QToolButton::clicked, this, [this] { moveClass(selectedClassId(), +1); });
    connect(m_tree, &QTreeWidget::itemChanged, this, &ClassPanel::onItemChanged);
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem* item) {
        m_session->setCurrentClassId(item->data(0, kClassIdRole).toLongLong());
    });
    connect(session, &AnnotationSession::currentClassChanged, this, &ClassPanel::refresh);
    if (ProjectDocument* document = session->document()) {
        connect(document, &ProjectDocument::classesChanged, this, &ClassPanel::refresh);
        connect(document, &ProjectDocument::imagesReset, this, &ClassPanel::refresh);
        connect(document, &ProjectDocument::imageChanged, m_countTimer, qOverload<>(&QTimer::start));
    }
    refresh();
}

void ClassPanel::refresh() {
    ProjectDocument* document = m_session->document();
    if (!document)
        return;
    const std::int64_t selected = selectedClassId();
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> totals;
    if (auto counts = document->project().boxes().classSplitCounts())
        for (const auto& row : *counts) {
            totals[row.classId].first += row.images;
            totals[row.classId].second += row.boxes;
        }
    m_filling = true;
    m_tree->clear();
    int index = 0;
    const std::int64_t current = m_session->currentClassId();
    for (const auto& info : document->classes()) {
        auto* item = new QTreeWidgetItem(m_tree);
        QPixmap swatch(14, 14);
        swatch.fill(QColor(QString::fromStdString(info.color)));
        item->setIcon(0, QIcon(swatch));
        item->setText(0, QString::fromStdString(info.name));
        item->setData(0, kClassIdRole, QVariant::fromValue<qint64>(info.id));
        item->setFlags(item->flags() | Qt::ItemIsEditable);
        item->setText(1, QString::number(totals[info.id].first));
        item->setText(2, QString::number(totals[info.id].second));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(0, index < 9 ? tr("Key %1 gives the selected boxes this class").arg(index + 1)
                                      : QString());
        if (info.id == current) {
            QFont font = item->font(0);
            font.setBold(true);
            item->setFont(0, font);
        }
        if (info.id == selected)
            m_tree->setCurrentItem(item);
        ++index;
    }
    m_filling = false;
}

std::int64_t ClassPanel::selectedClassId() const {
    const QTreeWidgetItem* item = m_tree->currentItem();
    return item ? item->data(0, kClassIdRole).toLongLong() : 0;
}

void ClassPanel::addClass() {
    bool ok = false;
    const QString name =
        QInputDialog::getText(this, tr("Add Class"), tr("Class name:"), QLineEdit::Normal, {}, &ok);
    if (ok)
        addClassNamed(name);
}

bool ClassPanel::addClassNamed(const QString& name, const QString& color) {
    ProjectDocument* document = m_session->document();
    const QString trimmed = name.trimmed();
    if (!document || trimmed.isEmpty() || classNamed(*document, trimmed) != 0)
        return false;
    // Each edit goes through the session, which keeps one the database refuses for now and stores it in
    // its turn; so the checks run again when the command is made (then, not now).
    auto* stored = m_session->pushEdit([session = m_session, document, trimmed, color]() -> QUndoCommand* {
        if (classNamed(*document, trimmed) != 0)
            return nullptr;
        return new AddClassCommand(document, session->ids(), trimmed, color);
    });
    const std::int64_t added = stored ? static_cast<AddClassCommand*>(stored)->classId() : 0;
    if (added != 0)
        m_session->setCurrentClassId(added);
    return added != 0;
}

bool ClassPanel::renameClass(std::int64_t classId, const QString& name) {
    ProjectDocument* document = m_session->document();
    const QString trimmed = name.trimmed();
    if (!document || trimmed.isEmpty() || classId == 0)
        return false;
    if (document->className(classId) == trimmed)
        return true;
    if (classNamed(*document, trimmed) != 0)
        return false;
    AnnotationSession* session = m_session;
    const std::int64_t logical = session->ids()->classes.logical(classId);
    session->pushEdit([session, document, logical, trimmed]() -> QUndoCommand* {
        const std::int64_t id = session->ids()->classes.current(logical);
        const QString old = document->className(id);
        if (old == trimmed || classNamed(*document, trimmed) != 0)
            return nullptr;
        return new EditClassCommand(document, session->ids(), id, EditClassCommand::Kind::Rename, old,
                                    trimmed);
    });
    return document->className(classId) == trimmed;
}

void ClassPanel::recolorClass(std::int64_t classId, const QColor& color) {
    ProjectDocument* document = m_session->document();
    if (!document || classId == 0 || !color.isValid() || document->classColor(classId) == color)
        return;
    AnnotationSession* session = m_session;
    const std::int64_t logical = session->ids()->classes.logical(classId);
    session->pushEdit([session, document, logical, after = color.name()]() -> QUndoCommand* {
        const std::int64_t id = session->ids()->classes.current(logical);
        const QString old = document->classColor(id).name();
        if (old == after)
            return nullptr;
        return new EditClassCommand(document, session->ids(), id, EditClassCommand::Kind::Recolor, old,
                                    after);
    });
}

void ClassPanel::moveClass(std::int64_t classId, int step) {
    ProjectDocument* document = m_session->document();
    if (!document || classId == 0)
        return;
    const auto& classes = document->classes();
    const auto info =
        std::find_if(classes.begin(), classes.end(), [&](const auto& c) { return c.id == classId; });
    if (info == classes.end() || info->position + step < 0 ||
        info->position + step >= static_cast<int>(classes.size()))
        return;
    AnnotationSession* session = m_session;
    const std::int64_t logical = session->ids()->classes.logical(classId);
    // The position is read when the move is made: two quick "Down" presses behind a waiting edit move
    // the class two places.
    session->pushEdit([session, document, logical, step]() -> QUndoCommand* {
        const std::int64_t id = session->ids()->classes.current(logical);
        const auto& classes = document->classes();
        for (const auto& info : classes)
            if (info.id == id) {
                const int target = info.position + step;
                if (target < 0 || target >= static_cast<int>(classes.size()))
                    return nullptr;
                return new EditClassCommand(document, session->ids(), id, EditClassCommand::Kind::Move,
                                            info.position, target);
            }
        return nullptr;
    });
}

void ClassPanel::onItemChanged(QTreeWidgetItem* item, int column) {
    if (m_filling || column != 0)
        return;
    const std::int64_t classId = item->data(0, kClassIdRole).toLongLong();
    const QString name = item->text(0);
    // Edits leave the tree through the command; refresh afterwards, not from inside this signal.
    QTimer::singleShot(0, this, [this, classId, name] {
        renameClass(classId, name);
        refresh();
    });
}

void ClassPanel::chooseColor() {
    const std::int64_t classId = selectedClassId();
    ProjectDocument* document = m_session->document();
    if (classId == 0 || !document)
        return;
    const QColor color = QColorDialog::getColor(document->classColor(classId), this, tr("Class Colour"));
    recolorClass(classId, color);
}

} // namespace osprey::ui
