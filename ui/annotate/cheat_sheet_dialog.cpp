#include "ui/annotate/cheat_sheet_dialog.h"

#include "ui/annotate/shortcut_registry.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace osprey::ui {

CheatSheetDialog::CheatSheetDialog(ShortcutRegistry* registry, QWidget* parent)
    : QDialog(parent), m_registry(registry) {
    setWindowTitle(tr("Keyboard Shortcuts Cheat Sheet"));
    m_text = new QTextBrowser(this);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(620, 700);
    refresh();
}

void CheatSheetDialog::refresh() {
    QString html = QStringLiteral("<style>td{padding:2px 10px 2px 0} th{text-align:left;padding-top:10px}"
                                  " kbd{font-weight:bold;color:#8ab4ff}</style><table>");
    QString lastMenu;
    for (const auto& entry : m_registry->entries()) {
        if (entry.menu != lastMenu) {
            html += QStringLiteral("<tr><th colspan=2>%1</th></tr>").arg(QString(entry.menu).remove('&'));
            lastMenu = entry.menu;
        }
        QStringList keys;
        for (const auto& sequence : entry.action->shortcuts())
            keys.append(QStringLiteral("<kbd>%1</kbd>")
                            .arg(sequence.toString(QKeySequence::NativeText).toHtmlEscaped()));
        html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>")
                    .arg(keys.isEmpty() ? tr("—") : keys.join(tr(" or ")),
                         entry.action->text().remove('&').toHtmlEscaped());
    }
    const QList<QPair<QString, QString>> mouse = {
        {tr("Drag on empty space"), tr("Draw a box")},
        {tr("Click / Ctrl+click"), tr("Select a box / add to the selection")},
        {tr("Click again"), tr("Select the next of several overlapping boxes")},
        {tr("Shift+drag"), tr("Select the boxes inside a rectangle")},
        {tr("Drag a box / a handle"), tr("Move it / resize it")},
        {tr("Wheel"), tr("Zoom around the cursor")},
        {tr("Space+drag or middle drag"), tr("Pan")},
    };
    html += QStringLiteral("<tr><th colspan=2>%1</th></tr>").arg(tr("Mouse"));
    for (const auto& [gesture, meaning] : mouse)
        html += QStringLiteral("<tr><td><kbd>%1</kbd></td><td>%2</td></tr>")
                    .arg(gesture.toHtmlEscaped(), meaning.toHtmlEscaped());
    html += QStringLiteral("</table>");
    m_text->setHtml(html);
}

QString CheatSheetDialog::html() const {
    return m_text->toHtml();
}

} // namespace osprey::ui
