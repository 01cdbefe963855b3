#pragma once
// TrainSettings: the training run configuration as data. One table describes every field (its
// `osprey-cli train` key, label, type, default, tooltip and choices); TrainForm draws it and
// trainArguments() turns the values into the command line. Choices that are only known at run time
// (the GPUs found) replace a field's list through setChoices(). GUI thread only.

#include <QList>
#include <QStringList>
#include <QVariant>
#include <QWidget>

class QFormLayout;
class QLabel;

namespace osprey::ui {

/// One field of the run configuration.
struct TrainField {
    /// Switch: a check box that is no CLI key itself; it enables the fields that name it in `enabledBy`.
    enum class Type { Choice, Integer, Number, Text, Path, Switch };
    const char* key;   ///< `osprey-cli train` key; "family" and "scale" combine into `model`
    const char* label; ///< translated in context osprey::ui::TrainForm
    Type type;
    QVariant defaultValue;
    const char* tooltip; ///< translated in context osprey::ui::TrainForm
    QStringList choices; ///< Choice: the values; an empty string means "auto" (key omitted)
    double minimum = 0;
    double maximum = 0;
    int autoValue = -1;                ///< Integer: this value shows as "auto" and omits the key
    const char* enabledBy = nullptr;   ///< a Switch field's key: editable and passed on only when it is on
    const char* placeholder = nullptr; ///< Text: shown while empty (translated like the label)
};

/// One entry of a Choice field: what the user reads and what the CLI gets.
struct TrainChoice {
    QString text;
    QString value;
};

/// All fields, in form order.
const QList<TrainField>& trainFields();

/// Draws trainFields() as a form and reads the values back.
class TrainForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainForm(QWidget* parent = nullptr);

    /// The value of a field by key (as the widget holds it).
    QVariant value(const QString& key) const;
    /// Sets a field; returns false for an unknown key.
    bool setValue(const QString& key, const QVariant& value);
    /// `key=value` arguments for `osprey-cli train` (without project= and events=); fields left on
    /// "auto" or empty, and fields whose switch is off, are omitted so the trainer's defaults apply.
    QStringList trainArguments() const;

    /// Replaces a Choice field's entries, keeping the current value when it is still offered (else the
    /// field's default, else the first entry). False for an unknown or non-Choice key.
    bool setChoices(const QString& key, const QList<TrainChoice>& choices);
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
    QList<QWidget*> m_editors; ///< parallel to trainFields()
    QList<QLabel*> m_notes;    ///< parallel to trainFields(); null until a note is set
};

} // namespace osprey::ui
