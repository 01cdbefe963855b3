// AutoLabelDialog's remembered choices: the last run's images, confidence, IoU, mode and add-classes,
// kept as the project setting "autolabel.dialog" in the CLI's spelling (conf=0.3;mode=replace;...); a
// damaged setting falls back value by value. The values are checked against the declared options.

#include "ui/assist/auto_label_dialog.h"

#include "assist/assist_options.h"
#include "ui/common/option_form.h"
#include "ui/project/project_document.h"

#include <QComboBox>

namespace osprey::ui {

namespace {

constexpr char kSettingsKey[] = "autolabel.dialog";

/// The settings before they used the CLI's spelling stored mode and add_classes as enum numbers.
QString fromEnumNumber(const QString& key, const QString& value) {
    static const QStringList modes{QStringLiteral("add"), QStringLiteral("replace")};
    static const QStringList addClasses{QStringLiteral("auto"), QStringLiteral("true"),
                                        QStringLiteral("false")};
    bool number = false;
    const int index = value.toInt(&number);
    const QStringList& names = key == QLatin1String("mode") ? modes : addClasses;
    return number && index >= 0 && index < names.size() ? names[index] : value;
}

} // namespace

void AutoLabelDialog::saveSettings() {
    if (!m_document)
        return;
    const QStringList values =
        QStringList{QStringLiteral("images=") + m_images->currentData().toString()} + m_settings->arguments();
    (void)m_document->project().setSetting(kSettingsKey, values.join(';').toStdString()); // best effort
}

void AutoLabelDialog::restoreSettings() {
    if (!m_document)
        return;
    const auto stored = m_document->project().setting(kSettingsKey);
    if (!stored || stored->empty())
        return;
    // Unknown keys and values out of range are ignored: the defaults stay.
    for (const QString& pair : QString::fromStdString(*stored).split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QString key = pair.section(QLatin1Char('='), 0, 0);
        QString value = pair.section(QLatin1Char('='), 1);
        if (key == QLatin1String("images")) {
            if (const int index = m_images->findData(value); index >= 0)
                m_images->setCurrentIndex(index);
            continue;
        }
        if (!m_settings->keys().contains(key))
            continue;
        if (key == QLatin1String("mode") || key == QLatin1String("add_classes"))
            value = fromEnumNumber(key, value);
        const run::OptionSpec* spec = run::findOption(assist::autoLabelOptions(), key.toStdString());
        if (const auto normalized = run::normalizeOptionValue(*spec, value.toStdString()))
            m_settings->setValue(key, QString::fromStdString(*normalized));
    }
}

} // namespace osprey::ui
