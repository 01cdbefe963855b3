#pragma once
// CheatSheetDialog: every editor shortcut grouped by menu, plus the mouse gestures (F1 or ?).
// Built from the ShortcutRegistry when shown, so it lists the user's own shortcuts.

#include <QDialog>

class QTextBrowser;

namespace osprey::ui {

class ShortcutRegistry;

class CheatSheetDialog : public QDialog {
    Q_OBJECT
public:
    CheatSheetDialog(ShortcutRegistry* registry, QWidget* parent = nullptr);
    /// Rebuilds the sheet from the current shortcuts.
    void refresh();
    QString html() const;

private:
    ShortcutRegistry* m_registry;
    QTextBrowser* m_text;
};

} // namespace osprey::ui
