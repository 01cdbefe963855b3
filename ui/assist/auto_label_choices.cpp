#include "ui/assist/auto_label_choices.h"

#include "assist/assist_options.h"
#include "project/project.h"

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

AutoLabelChoices AutoLabelChoices::read(const project::Project& project) {
    AutoLabelChoices choices;
    const auto stored = project.settings().get(kSettingsKey);
    if (!stored)
        return choices;
    // Unknown keys and values out of range are dropped: the defaults stay.
    for (const QString& pair : QString::fromStdString(*stored).split(QLatin1Char(';'), Qt::SkipEmptyParts)) {
        const QString key = pair.section(QLatin1Char('='), 0, 0);
        QString value = pair.section(QLatin1Char('='), 1);
        if (key == QLatin1String("images")) {
            choices.images = value;
            continue;
        }
        const run::OptionSpec* spec = run::findOption(assist::autoLabelOptions(), key.toStdString());
        if (!spec)
            continue;
        if (key == QLatin1String("mode") || key == QLatin1String("add_classes"))
            value = fromEnumNumber(key, value);
        if (const auto normalized = run::normalizeOptionValue(*spec, value.toStdString()))
            choices.options << key + QLatin1Char('=') + QString::fromStdString(*normalized);
    }
    return choices;
}

void AutoLabelChoices::write(project::Project& project) const {
    const QStringList values = QStringList{QStringLiteral("images=") + images} + options;
    (void)project.settings().set(kSettingsKey, values.join(QLatin1Char(';')).toStdString()); // best effort
}

} // namespace osprey::ui
