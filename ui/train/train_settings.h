#pragma once
// TrainForm: the generic form that draws the training options declared in core/run (train_options.h):
// every option the table shows in the GUI, in table order, with its label, tooltip, range and choices,
// followed by the platform-streaming switch and project and the MLflow switch, server and experiment.
// trainArguments() turns the values into the `osprey-cli train` command line. Choices known only at run time
// (the GPUs found) replace an option's list through setChoices(). GUI thread only.

#include <QList>
#include <QStringList>
#include <QVariant>
#include <QWidget>

#include <vector>

class QFormLayout;
class QLabel;

namespace osprey::ui {

/// One entry of a choice field: what the user reads and what the CLI gets.
struct TrainChoice {
    QString text;
    QString value;
};

/// Draws the GUI's training options as a form and reads the values back.
class TrainForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainForm(QWidget* parent = nullptr);
    ~TrainForm() override;

    /// The keys of the fields, in form order: the training options, then "stream" and "remote", then
    /// "track", "mlflow" and "mlflow_experiment".
    QStringList keys() const;
    /// The value of a field by key (as the widget holds it).
    QVariant value(const QString& key) const;
    /// Sets a field; returns false for an unknown key.
    bool setValue(const QString& key, const QVariant& value);
    /// `key=value` arguments for `osprey-cli train` (without project= and events=); empty text fields
    /// and fields whose switch is off are omitted.
    QStringList trainArguments() const;

    /// False with `error` when the values cannot start a run: streaming is on without a platform project
    /// (user/project), or MLflow logging is on without an http(s) server address.
    bool validate(QString* error) const;

    /// Replaces a choice field's entries, keeping the current value when it is still offered (else the
    /// option's default, else the first entry). False for an unknown or non-choice key.
    bool setChoices(const QString& key, const QList<TrainChoice>& choices);
    /// A short grey note under a field (e.g. "no NVIDIA GPU found"); empty hides it.
    void setNote(const QString& key, const QString& note);
    /// The note under a field, empty when none.
    QString note(const QString& key) const;
    /// The editor of a field, or null.
    QWidget* editor(const QString& key) const;

private:
    struct Field;
    /// The platform-streaming rows: the GUI's view of `osprey-cli train remote=`, not training options.
    static std::vector<Field> platformFields();
    /// The MLflow rows: the GUI's view of `osprey-cli train mlflow= mlflow_experiment=`.
    static std::vector<Field> trackingFields();
    int indexOf(const QString& key) const;
    void updateEnabled();

    QFormLayout* m_layout;
    std::vector<Field> m_fields; ///< in form order
};

} // namespace osprey::ui
