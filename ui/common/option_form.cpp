#include "ui/common/option_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>
#include <climits>
#include <cmath>

namespace osprey::ui {

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

std::vector<OptionForm::Field> OptionForm::guiFields(const std::vector<run::OptionSpec>& options) {
    std::vector<Field> fields;
    for (const run::OptionSpec& spec : options)
        if (run::shows(spec.shownIn, run::FrontEnd::Gui))
            fields.push_back({spec});
    return fields;
}

OptionForm::OptionForm(std::vector<Field> fields, QWidget* parent)
    : QWidget(parent), m_layout(new QFormLayout(this)), m_fields(std::move(fields)) {
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    for (Field& field : m_fields) {
        const run::OptionSpec& spec = field.spec;
        const QString defaultText = QString::fromStdString(spec.defaultValue);
        QWidget* editor = nullptr;
        if (field.isSwitch || spec.type == run::OptionType::Flag) {
            auto* check = new QCheckBox(this);
            check->setChecked(defaultText == QLatin1String("true"));
            if (field.isSwitch)
                connect(check, &QCheckBox::toggled, this, &OptionForm::updateEnabled);
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

OptionForm::~OptionForm() = default;

QStringList OptionForm::keys() const {
    QStringList keys;
    for (const Field& field : m_fields)
        keys.append(QString::fromStdString(field.spec.key));
    return keys;
}

int OptionForm::indexOf(const QString& key) const {
    const std::string wanted = key.toStdString();
    for (size_t i = 0; i < m_fields.size(); ++i)
        if (m_fields[i].spec.key == wanted)
            return static_cast<int>(i);
    return -1;
}

QWidget* OptionForm::editor(const QString& key) const {
    const int i = indexOf(key);
    return i < 0 ? nullptr : m_fields[size_t(i)].editor;
}

void OptionForm::updateEnabled() {
    for (Field& field : m_fields)
        if (!field.enabledBy.isEmpty())
            field.editor->setEnabled(value(field.enabledBy).toBool());
}

bool OptionForm::setChoices(const QString& key, const QList<OptionChoice>& choices) {
    const int i = indexOf(key);
    auto* combo = i < 0 ? nullptr : qobject_cast<QComboBox*>(m_fields[size_t(i)].editor);
    if (!combo)
        return false;
    const QString current = value(key).toString();
    combo->clear();
    for (const OptionChoice& choice : choices)
        combo->addItem(choice.text, choice.value);
    int keep = combo->findData(current);
    if (keep < 0)
        keep = combo->findData(QString::fromStdString(m_fields[size_t(i)].spec.defaultValue));
    combo->setCurrentIndex(std::max(0, keep));
    return true;
}

void OptionForm::setNote(const QString& key, const QString& text) {
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

QString OptionForm::note(const QString& key) const {
    const int i = indexOf(key);
    const QLabel* label = i < 0 ? nullptr : m_fields[size_t(i)].note;
    return !label || label->isHidden() ? QString() : label->text();
}

QVariant OptionForm::value(const QString& key) const {
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

bool OptionForm::setValue(const QString& key, const QVariant& value) {
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

QStringList OptionForm::arguments() const {
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
