#include "ui/annotate/shortcut_registry.h"

#include <QAction>
#include <QSettings>

namespace osprey::ui {

namespace {
QString settingsKey(const QString& id) {
    return QStringLiteral("shortcuts/") + id;
}
} // namespace

ShortcutRegistry::ShortcutRegistry(QObject* parent) : QObject(parent) {}

void ShortcutRegistry::add(const QString& id, const QString& menu, QAction* action,
                           const QList<QKeySequence>& defaults) {
    m_entries.append({id, menu, action, defaults});
    QSettings settings;
    const QString key = settingsKey(id);
    action->setShortcuts(settings.contains(key) ? QKeySequence::listFromString(settings.value(key).toString(),
                                                                               QKeySequence::PortableText)
                                                : defaults);
}

QAction* ShortcutRegistry::action(const QString& id) const {
    for (const auto& entry : m_entries)
        if (entry.id == id)
            return entry.action;
    return nullptr;
}

QList<QPair<QString, QString>>
ShortcutRegistry::conflicts(const QHash<QString, QList<QKeySequence>>& shortcuts) {
    QHash<QKeySequence, QString> owner;
    QList<QPair<QString, QString>> found;
    QStringList ids = shortcuts.keys();
    ids.sort(); // a stable report
    for (const QString& id : ids)
        for (const QKeySequence& sequence : shortcuts.value(id)) {
            if (sequence.isEmpty())
                continue;
            const auto it = owner.constFind(sequence);
            if (it != owner.constEnd() && *it != id)
                found.append({*it, id});
            else
                owner.insert(sequence, id);
        }
    return found;
}

QHash<QString, QList<QKeySequence>> ShortcutRegistry::current() const {
    QHash<QString, QList<QKeySequence>> shortcuts;
    for (const auto& entry : m_entries)
        shortcuts.insert(entry.id, entry.action->shortcuts());
    return shortcuts;
}

bool ShortcutRegistry::apply(const QHash<QString, QList<QKeySequence>>& shortcuts) {
    QHash<QString, QList<QKeySequence>> merged = current();
    for (auto it = shortcuts.begin(); it != shortcuts.end(); ++it)
        merged.insert(it.key(), it.value());
    if (!conflicts(merged).isEmpty())
        return false;
    QSettings settings;
    for (auto& entry : m_entries) {
        const QList<QKeySequence> sequences = merged.value(entry.id);
        entry.action->setShortcuts(sequences);
        if (sequences == entry.defaults)
            settings.remove(settingsKey(entry.id));
        else
            settings.setValue(settingsKey(entry.id),
                              QKeySequence::listToString(sequences, QKeySequence::PortableText));
    }
    return true;
}

void ShortcutRegistry::resetToDefaults() {
    QSettings settings;
    for (auto& entry : m_entries) {
        settings.remove(settingsKey(entry.id));
        entry.action->setShortcuts(entry.defaults);
    }
}

} // namespace osprey::ui
