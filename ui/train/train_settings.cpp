#include "ui/train/train_settings.h"

#include "run/train_options.h"

#include <QRegularExpression>

namespace osprey::ui {

TrainForm::TrainForm(QWidget* parent) : OptionForm(fields(), parent) {}

std::vector<OptionForm::Field> TrainForm::fields() {
    std::vector<Field> fields = guiFields(run::trainOptions());
    for (Field& field : platformFields())
        fields.push_back(std::move(field));
    for (Field& field : trackingFields())
        fields.push_back(std::move(field));
    return fields;
}

std::vector<OptionForm::Field> TrainForm::platformFields() {
    Field stream;
    stream.spec.key = "stream";
    stream.spec.type = run::OptionType::Flag;
    stream.spec.defaultValue = "false";
    stream.spec.label = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Stream to platform");
    stream.spec.help = QT_TRANSLATE_NOOP(
        "osprey::ui::TrainForm",
        "Send live metrics to the platform dashboard and upload the weights at the end. Needs an API key "
        "(Settings → Platform). Events wait in the project's outbox while the platform cannot be reached; "
        "training never waits for them.");
    stream.context = "osprey::ui::TrainForm";
    stream.isSwitch = true;
    Field remote;
    remote.spec.key = "remote";
    remote.spec.type = run::OptionType::Text;
    remote.spec.label = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Platform project");
    remote.spec.help =
        QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                          "The platform project to stream to, as user/project. Remembered for this project.");
    remote.spec.placeholder = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "user/project");
    remote.context = "osprey::ui::TrainForm";
    remote.enabledBy = QStringLiteral("stream");
    return {stream, remote};
}

std::vector<OptionForm::Field> TrainForm::trackingFields() {
    Field track;
    track.spec.key = "track";
    track.spec.type = run::OptionType::Flag;
    track.spec.defaultValue = "false";
    track.spec.label = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Log to MLflow");
    track.spec.help = QT_TRANSLATE_NOOP(
        "osprey::ui::TrainForm",
        "Log the run's options, metrics, dataset and weights to your team's MLflow tracking server. Records "
        "wait "
        "in the project while the server cannot be reached; training never waits for them. Credentials come "
        "from MLFLOW_TRACKING_USERNAME/PASSWORD or MLFLOW_TRACKING_TOKEN.");
    track.context = "osprey::ui::TrainForm";
    track.isSwitch = true;
    Field server;
    server.spec.key = "mlflow";
    server.spec.type = run::OptionType::Text;
    server.spec.label = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "MLflow server");
    server.spec.help = QT_TRANSLATE_NOOP(
        "osprey::ui::TrainForm", "The tracking server's address, as http://host:port. Remembered for this "
                                 "project.");
    server.spec.placeholder = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "http://host:5000");
    server.context = "osprey::ui::TrainForm";
    server.enabledBy = QStringLiteral("track");
    Field experiment;
    experiment.spec.key = "mlflow_experiment";
    experiment.spec.type = run::OptionType::Text;
    experiment.spec.label = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "MLflow experiment");
    experiment.spec.help = QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                                             "The experiment the run goes into; created when missing. Empty: "
                                             "the project folder's name. Remembered for this project.");
    experiment.spec.placeholder = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "the project's name");
    experiment.context = "osprey::ui::TrainForm";
    experiment.enabledBy = QStringLiteral("track");
    return {track, server, experiment};
}

bool TrainForm::validate(QString* error) const {
    static const QRegularExpression project(QStringLiteral("^[^/\\s]+/\\S.*$"));
    if (value(QStringLiteral("stream")).toBool() &&
        !project.match(value(QStringLiteral("remote")).toString()).hasMatch()) {
        if (error)
            *error = tr("Stream to platform is on, but the platform project is missing. Enter it as "
                        "user/project, or turn streaming off.");
        return false;
    }
    static const QRegularExpression server(QStringLiteral("^https?://[^/@\\s]+(/\\S*)?$"));
    if (value(QStringLiteral("track")).toBool() &&
        !server.match(value(QStringLiteral("mlflow")).toString().trimmed()).hasMatch()) {
        if (error)
            *error = tr("Log to MLflow is on, but the MLflow server is missing or is not an address like "
                        "http://host:5000 (without a user name or password). Enter it, or turn logging off.");
        return false;
    }
    return true;
}

} // namespace osprey::ui
