#pragma once
// OptionForm: the one generic settings form. It draws options declared as data in core (run::OptionSpec,
// the OBS idea): one row per option, in the given order, with its translated label, tooltip, range, unit
// and choices, and reads the values back, also as `key=value` command-line arguments. A row may be a
// switch (a check box that is no key) that enables the rows naming it. Choices known only at run time
// replace an option's list through setChoices(). The train panel's TrainForm is one; the dialogs draw
// their declared settings with it too. GUI thread only.

#include "run/option_spec.h"

#include <QList>
#include <QStringList>
#include <QVariant>
#include <QWidget>

#include <vector>

class QFormLayout;
class QLabel;

namespace osprey::ui {

/// One entry of a choice field: what the user reads and what the CLI gets.
struct OptionChoice {
    QString text;
    QString value;
};

/// Draws declared options as a form and reads the values back.
class OptionForm : public QWidget {
    Q_OBJECT
public:
    /// One row of the form: the declaration it draws and its widgets.
    struct Field {
        run::OptionSpec spec;
        const char* context = run::kOptionTextContext; ///< translation context of label, help, placeholder
        bool isSwitch = false; ///< a check box that is no CLI key; it enables the fields naming it
        QString enabledBy;     ///< a switch's key: editable and passed on only when it is on
        QWidget* editor = nullptr;
        QLabel* note = nullptr; ///< null until a note is set
    };

    /// The rows of every option of `options` shown in the GUI, in table order.
    static std::vector<Field> guiFields(const std::vector<run::OptionSpec>& options);

    explicit OptionForm(std::vector<Field> fields, QWidget* parent = nullptr);
    ~OptionForm() override;

    /// The keys of the fields, in form order.
    QStringList keys() const;
    /// The value of a field by key (as the widget holds it).
    QVariant value(const QString& key) const;
    /// Sets a field; returns false for an unknown key.
    bool setValue(const QString& key, const QVariant& value);
    /// `key=value` arguments of the fields; switches, empty text fields and fields whose switch is off are
    /// omitted.
    QStringList arguments() const;

    /// Replaces a choice field's entries, keeping the current value when it is still offered (else the
    /// option's default, else the first entry). False for an unknown or non-choice key.
    bool setChoices(const QString& key, const QList<OptionChoice>& choices);
    /// A short grey note under a field (e.g. "no NVIDIA GPU found"); empty hides it.
    void setNote(const QString& key, const QString& note);
    /// The note under a field, empty when none.
    QString note(const QString& key) const;
    /// The editor of a field, or null.
    QWidget* editor(const QString& key) const;

private:
    int indexOf(const QString& key) const;
    void updateEnabled();

    QFormLayout* m_layout;
    std::vector<Field> m_fields; ///< in form order
};

} // namespace osprey::ui
