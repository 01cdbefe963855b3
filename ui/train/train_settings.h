#pragma once
// TrainSettings: the training run configuration as data. One table describes every field (its
// `osprey-cli train` key, label, type, default, tooltip and choices); TrainForm draws it and
// trainArguments() turns the values into the command line. GUI thread only.

#include <QList>
#include <QStringList>
#include <QVariant>
#include <QWidget>

class QFormLayout;

namespace osprey::ui {

/// One field of the run configuration.
struct TrainField {
    enum class Type { Choice, Integer, Number, Text, Path };
    const char* key;   ///< `osprey-cli train` key; "family" and "scale" combine into `model`
    const char* label; ///< translated in context osprey::ui::TrainForm
    Type type;
    QVariant defaultValue;
    const char* tooltip; ///< translated in context osprey::ui::TrainForm
    QStringList choices; ///< Choice: the values; an empty string means "auto" (key omitted)
    double minimum = 0;
    double maximum = 0;
    int autoValue = -1; ///< Integer: this value shows as "auto" and omits the key
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
    /// "auto" or empty are omitted so the trainer's defaults apply.
    QStringList trainArguments() const;

private:
    QList<QWidget*> m_editors; ///< parallel to trainFields()
};

} // namespace osprey::ui
