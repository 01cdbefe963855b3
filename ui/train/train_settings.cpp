#include "ui/train/train_settings.h"

#include "run/train_options.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <algorithm>
#include <climits>
#include <cmath>

namespace osprey::ui {

/// One row of the form: the declaration it draws and its widgets.
struct TrainForm::Field {
    run::OptionSpec spec;
    const char* context = run::kOptionTextContext; ///< translation context of label, help, placeholder
    bool isSwitch = false; ///< a check box that is no CLI key; it enables the fields naming it
    QString enabledBy;     ///< a switch's key: editable and passed on only when it is on
    QWidget* editor = nullptr;
    QLabel* note = nullptr; ///< null until a note is set
};

namespace {

QString translated(const char* context, const std::string& text) {
    return text.empty() ? QString() : QCoreApplication::translate(context, text.c_str());
}

/// A number field that shows 16 rather than 16.00 and 0.01 rather than 0.01000: trailing zeros dropped, the
/// precision kept for typing.
class TidyDoubleSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QString textFromValue(double value) const override {
        QString text = locale().toString(value, 'f', decimals());
        text.remove(locale().groupSeparator());
        const QString point = locale().decimalPoint();
        if (text.contains(point)) {
            while (text.endsWith(QLatin1Char('0')))
                text.chop(1);
            if (text.endsWith(point))
                text.chop(point.size());
        }
        return text;
    }
};

int spinBound(double value, int fallback) {
    if (!std::isfinite(value))
        return fallback;
    return static_cast<int>(std::clamp(value, double(INT_MIN), double(INT_MAX)));
}

} // namespace

std::vector<TrainForm::Field> TrainForm::platformFields() {
    TrainForm::Field stream;
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
    TrainForm::Field remote;
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

std::vector<TrainForm::Field> TrainForm::trackingFields() {
    TrainForm::Field track;
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
    TrainForm::Field server;
    server.spec.key = "mlflow";
    server.spec.type = run::OptionType::Text;
    server.spec.label = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "MLflow server");
    server.spec.help = QT_TRANSLATE_NOOP(
        "osprey::ui::TrainForm", "The tracking server's address, as http://host:port. Remembered for this "
                                 "project.");
    server.spec.placeholder = QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "http://host:5000");
    server.context = "osprey::ui::TrainForm";
    server.enabledBy = QStringLiteral("track");
    TrainForm::Field experiment;
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

TrainForm::TrainForm(QWidget* parent) : QWidget(parent), m_layout(new QFormLayout(this)) {
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const run::OptionSpec& spec : run::trainOptions())
        if (run::shows(spec.shownIn, run::FrontEnd::Gui))
            m_fields.push_back({spec});
    for (Field& field : platformFields())
        m_fields.push_back(std::move(field));
    for (Field& field : trackingFields())
        m_fields.push_back(std::move(field));

    for (Field& field : m_fields) {
        const run::OptionSpec& spec = field.spec;
        const QString defaultText = QString::fromStdString(spec.defaultValue);
        QWidget* editor = nullptr;
        if (field.isSwitch || spec.type == run::OptionType::Flag) {
            auto* check = new QCheckBox(this);
            check->setChecked(defaultText == QLatin1String("true"));
            if (field.isSwitch)
                connect(check, &QCheckBox::toggled, this, &TrainForm::updateEnabled);
            editor = check;
        } else if (spec.type == run::OptionType::Choice) {
            auto* combo = new QComboBox(this);
            for (const std::string& choice : spec.choices)
                combo->addItem(QString::fromStdString(choice), QString::fromStdString(choice));
            combo->setCurrentIndex(std::max(0, combo->findData(defaultText)));
            editor = combo;
        } else if (spec.type == run::OptionType::Integer) {
            auto* spin = new QSpinBox(this);
            spin->setRange(spinBound(spec.minimum, 0), spinBound(spec.maximum, INT_MAX));
            // A negative minimum is the option's "decide for me" value (workers=-1): say so, not "-1".
            if (spec.minimum < 0)
                spin->setSpecialValueText(tr("automatic"));
            spin->setValue(defaultText.toInt());
            editor = spin;
        } else if (spec.type == run::OptionType::Number) {
            auto* spin = new TidyDoubleSpinBox(this);
            // Learning rates need five decimals; probabilities read better with two.
            spin->setDecimals(spec.minimum > 0 && spec.minimum < 0.001 ? 5 : 2);
            spin->setRange(std::isfinite(spec.minimum) ? spec.minimum : 0.0,
                           std::isfinite(spec.maximum) ? spec.maximum : 1e9);
            spin->setSingleStep(spec.maximum <= 1.0 ? 0.05 : 1.0);
            spin->setValue(defaultText.toDouble());
            editor = spin;
        } else {
            auto* line = new QLineEdit(defaultText, this);
            line->setPlaceholderText(!spec.placeholder.empty() ? translated(field.context, spec.placeholder)
                                     : spec.type == run::OptionType::Path ? tr("none")
                                                                          : tr("automatic"));
            editor = line;
        }
        editor->setObjectName(QString::fromStdString(spec.key));
        editor->setToolTip(translated(field.context, spec.help));
        QString label = translated(field.context, spec.label);
        const QString unit = translated(run::kOptionTextContext, spec.unit);
        // "Image size (px)", but not "Epochs (epochs)".
        if (!unit.isEmpty() && !label.contains(unit, Qt::CaseInsensitive))
            label += QStringLiteral(" (%1)").arg(unit);
        m_layout->addRow(label, editor);
        field.editor = editor;
    }
    updateEnabled();
}

TrainForm::~TrainForm() = default;

QStringList TrainForm::keys() const {
    QStringList keys;
    for (const Field& field : m_fields)
        keys.append(QString::fromStdString(field.spec.key));
    return keys;
}

int TrainForm::indexOf(const QString& key) const {
    const std::string wanted = key.toStdString();
    for (size_t i = 0; i < m_fields.size(); ++i)
        if (m_fields[i].spec.key == wanted)
            return static_cast<int>(i);
    return -1;
}

QWidget* TrainForm::editor(const QString& key) const {
    const int i = indexOf(key);
    return i < 0 ? nullptr : m_fields[size_t(i)].editor;
}

void TrainForm::updateEnabled() {
    for (Field& field : m_fields)
        if (!field.enabledBy.isEmpty())
            field.editor->setEnabled(value(field.enabledBy).toBool());
}

bool TrainForm::setChoices(const QString& key, const QList<TrainChoice>& choices) {
    const int i = indexOf(key);
    auto* combo = i < 0 ? nullptr : qobject_cast<QComboBox*>(m_fields[size_t(i)].editor);
    if (!combo)
        return false;
    const QString current = value(key).toString();
    combo->clear();
    for (const TrainChoice& choice : choices)
        combo->addItem(choice.text, choice.value);
    int keep = combo->findData(current);
    if (keep < 0)
        keep = combo->findData(QString::fromStdString(m_fields[size_t(i)].spec.defaultValue));
    combo->setCurrentIndex(std::max(0, keep));
    return true;
}

void TrainForm::setNote(const QString& key, const QString& text) {
    const int i = indexOf(key);
    if (i < 0)
        return;
    Field& field = m_fields[size_t(i)];
    if (!field.note && text.isEmpty())
        return;
    if (!field.note) {
        // The note sits in the field column right under its editor.
        int row = 0;
        QFormLayout::ItemRole role;
        m_layout->getWidgetPosition(field.editor, &row, &role);
        field.note = new QLabel(this);
        field.note->setObjectName(QString::fromStdString(field.spec.key) + QStringLiteral("Note"));
        field.note->setStyleSheet(QStringLiteral("color: #8a8f98;"));
        field.note->setWordWrap(true);
        m_layout->insertRow(row + 1, QString(), field.note);
    }
    field.note->setText(text);
    field.note->setVisible(!text.isEmpty());
}

QString TrainForm::note(const QString& key) const {
    const int i = indexOf(key);
    const QLabel* label = i < 0 ? nullptr : m_fields[size_t(i)].note;
    return !label || label->isHidden() ? QString() : label->text();
}

QVariant TrainForm::value(const QString& key) const {
    const int i = indexOf(key);
    if (i < 0)
        return {};
    QWidget* editor = m_fields[size_t(i)].editor;
    if (auto* combo = qobject_cast<QComboBox*>(editor))
        return combo->currentData().isValid() ? combo->currentData().toString() : combo->currentText();
    if (auto* spin = qobject_cast<QSpinBox*>(editor))
        return spin->value();
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(editor))
        return spin->value();
    if (auto* line = qobject_cast<QLineEdit*>(editor))
        return line->text().trimmed();
    if (auto* check = qobject_cast<QCheckBox*>(editor))
        return check->isChecked();
    return {};
}

bool TrainForm::setValue(const QString& key, const QVariant& value) {
    const int i = indexOf(key);
    if (i < 0)
        return false;
    QWidget* editor = m_fields[size_t(i)].editor;
    if (auto* combo = qobject_cast<QComboBox*>(editor)) {
        const int found = combo->findData(value.toString());
        if (found >= 0)
            combo->setCurrentIndex(found);
        else
            combo->setCurrentText(value.toString());
    } else if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
        spin->setValue(value.toInt());
    } else if (auto* spin = qobject_cast<QDoubleSpinBox*>(editor)) {
        spin->setValue(value.toDouble());
    } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
        line->setText(value.toString());
    } else if (auto* check = qobject_cast<QCheckBox*>(editor)) {
        check->setChecked(value.toBool());
    }
    return true;
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

QStringList TrainForm::trainArguments() const {
    QStringList arguments;
    for (const Field& field : m_fields) {
        if (field.isSwitch)
            continue;
        if (!field.enabledBy.isEmpty() && !value(field.enabledBy).toBool())
            continue;
        const QString key = QString::fromStdString(field.spec.key);
        const QVariant v = value(key);
        if (field.spec.type == run::OptionType::Number) {
            arguments.append(QStringLiteral("%1=%2").arg(key).arg(v.toDouble(), 0, 'g', 6));
            continue;
        }
        const QString text =
            v.typeId() == QMetaType::Bool ? QString::fromLatin1(v.toBool() ? "true" : "false") : v.toString();
        if (text.isEmpty())
            continue;
        arguments.append(QStringLiteral("%1=%2").arg(key, text));
    }
    return arguments;
}

} // namespace osprey::ui
