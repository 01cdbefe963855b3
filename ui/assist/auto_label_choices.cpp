// AutoLabelDialog's remembered choices: the last run's images, confidence, IoU, mode and add-classes,
// kept as the project setting "autolabel.dialog"; a damaged setting falls back value by value.

#include "ui/assist/auto_label_dialog.h"

#include "ui/project/project_document.h"

#include <QComboBox>
#include <QDoubleSpinBox>

namespace osprey::ui {

namespace {
constexpr char kSettingsKey[] = "autolabel.dialog";
} // namespace

void AutoLabelDialog::saveSettings() {
    if (!m_document)
        return;
    const QString text = QStringLiteral("images=%1;conf=%2;iou=%3;mode=%4;add_classes=%5")
                             .arg(m_images->currentData().toString())
                             .arg(m_conf->value(), 0, 'f', 2)
                             .arg(m_iou->value(), 0, 'f', 2)
                             .arg(m_mode->currentData().toInt())
                             .arg(m_addClasses->currentData().toInt());
    (void)m_document->project().setSetting(kSettingsKey, text.toStdString()); // a preference: best effort
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
        const QString value = pair.section(QLatin1Char('='), 1);
        bool number = false;
        if (key == QLatin1String("images")) {
            if (const int index = m_images->findData(value); index >= 0)
                m_images->setCurrentIndex(index);
        } else if (key == QLatin1String("conf")) {
            if (const double v = value.toDouble(&number);
                number && v >= m_conf->minimum() && v <= m_conf->maximum())
                m_conf->setValue(v);
        } else if (key == QLatin1String("iou")) {
            if (const double v = value.toDouble(&number);
                number && v >= m_iou->minimum() && v <= m_iou->maximum())
                m_iou->setValue(v);
        } else if (key == QLatin1String("mode")) {
            if (const int index = m_mode->findData(value.toInt(&number)); number && index >= 0)
                m_mode->setCurrentIndex(index);
        } else if (key == QLatin1String("add_classes")) {
            if (const int index = m_addClasses->findData(value.toInt(&number)); number && index >= 0)
                m_addClasses->setCurrentIndex(index);
        }
    }
}

} // namespace osprey::ui
