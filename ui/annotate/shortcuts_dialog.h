#pragma once
// ShortcutsDialog: the settings page for keyboard shortcuts. One row per action; click a shortcut cell
// and press the new keys. Conflicts are shown at once and block OK.

#include <QDialog>
#include <QHash>
#include <QKeySequence>

class QDialogButtonBox;
class QLabel;
class QTableWidget;

namespace osprey::ui {

class ShortcutRegistry;

class ShortcutsDialog : public QDialog {
    Q_OBJECT
public:
    ShortcutsDialog(ShortcutRegistry* registry, QWidget* parent = nullptr);

    /// Sets the shortcut of the action `id` in the dialog (what typing into its cell does).
    void setShortcut(const QString& id, const QKeySequence& sequence);
    /// The conflicts among the shortcuts as edited, as "A / B" lines.
    QStringList conflictText() const;
    void accept() override;

private:
    void fill();
    void updateConflicts();

    ShortcutRegistry* m_registry;
    QHash<QString, QList<QKeySequence>> m_edited;
    QTableWidget* m_table;
    QLabel* m_conflicts;
    QDialogButtonBox* m_buttons;
};

} // namespace osprey::ui
