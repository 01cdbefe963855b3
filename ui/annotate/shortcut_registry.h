#pragma once
// ShortcutRegistry: every editor action with its id, menu, default shortcuts and the user's choice
// (kept in QSettings under "shortcuts/<id>"). Finds conflicts: one key sequence on two actions.
// GUI thread only.

#include <QHash>
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>

class QAction;

namespace osprey::ui {

class ShortcutRegistry : public QObject {
    Q_OBJECT
public:
    struct Entry {
        QString id;
        QString menu; ///< the menu title the action sits in (for the cheat sheet)
        QAction* action = nullptr;
        QList<QKeySequence> defaults;
    };

    explicit ShortcutRegistry(QObject* parent = nullptr);

    /// Registers an action and applies the user's saved shortcuts (or the defaults).
    void add(const QString& id, const QString& menu, QAction* action, const QList<QKeySequence>& defaults);
    const QList<Entry>& entries() const { return m_entries; }
    QAction* action(const QString& id) const;

    /// Pairs of action ids that share a key sequence, for `shortcuts` (id -> sequences).
    static QList<QPair<QString, QString>> conflicts(const QHash<QString, QList<QKeySequence>>& shortcuts);
    /// The shortcuts in use now, by id.
    QHash<QString, QList<QKeySequence>> current() const;
    /// Applies and saves new shortcuts; refuses (returns false) when they conflict.
    bool apply(const QHash<QString, QList<QKeySequence>>& shortcuts);
    /// Forgets the saved choices and restores every default.
    void resetToDefaults();

private:
    QList<Entry> m_entries;
};

} // namespace osprey::ui
