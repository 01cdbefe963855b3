#pragma once
// TrainForm: the generic option form (ui/common/option_form.h) drawing the training options declared in
// core/run (train_options.h): every option the table shows in the GUI, in table order, followed by the
// platform-streaming switch and project and the MLflow switch, server and experiment. trainArguments()
// turns the values into the `osprey-cli train` command line. GUI thread only.

#include "ui/common/option_form.h"

namespace osprey::ui {

/// One entry of the device choice (the GPUs found).
using TrainChoice = OptionChoice;

/// The training options as a form.
class TrainForm : public OptionForm {
    Q_OBJECT
public:
    explicit TrainForm(QWidget* parent = nullptr);

    /// `key=value` arguments for `osprey-cli train` (without project= and events=); empty text fields
    /// and fields whose switch is off are omitted. The keys are the training options, then "stream" and
    /// "remote", then "track", "mlflow" and "mlflow_experiment".
    QStringList trainArguments() const { return arguments(); }

    /// False with `error` when the values cannot start a run: streaming is on without a platform project
    /// (user/project), or MLflow logging is on without an http(s) server address.
    bool validate(QString* error) const;

private:
    /// The training options shown in the GUI, then the platform and MLflow rows.
    static std::vector<Field> fields();
    /// The platform-streaming rows: the GUI's view of `osprey-cli train remote=`, not training options.
    static std::vector<Field> platformFields();
    /// The MLflow rows: the GUI's view of `osprey-cli train mlflow= mlflow_experiment=`.
    static std::vector<Field> trackingFields();
};

} // namespace osprey::ui
