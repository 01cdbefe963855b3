#include "ui/train/train_settings.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <algorithm>

namespace osprey::ui {

namespace {

QString trForm(const char* text) {
    return QCoreApplication::translate("osprey::ui::TrainForm", text);
}

} // namespace

const QList<TrainField>& trainFields() {
    using T = TrainField::Type;
    static const QList<TrainField> fields = {
        {"family",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Model family"),
         T::Choice,
         "yolov8",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "The detector architecture: YOLOv8 or YOLO11."),
         {"yolov8", "yolo11"}},
        {"scale",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Model scale"),
         T::Choice,
         "n",
         QT_TRANSLATE_NOOP(
             "osprey::ui::TrainForm",
             "n (nano) is fastest; s, m, l and x are larger, slower and usually more accurate."),
         {"n", "s", "m", "l", "x"}},
        {"weights", QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Pretrained weights"), T::Path, QString(),
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Optional .pt checkpoint to start from. Empty trains from scratch.")},
        {"epochs",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Epochs"),
         T::Integer,
         100,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "How many passes over the training images."),
         {},
         1,
         10000},
        {"imgsz",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Image size (px)"),
         T::Integer,
         640,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Images are letterboxed to this side, a multiple of 32. Larger finds smaller "
                           "objects but trains slower."),
         {},
         32,
         4096},
        {"batch",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Batch size"),
         T::Integer,
         0,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Images per step. auto uses the trainer's default (16). Lower it if memory runs "
                           "out."),
         {},
         0,
         1024,
         0},
        {"device",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Device"),
         T::Choice,
         "cpu",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Where to train: the CPU, or one of the NVIDIA GPUs that nvidia-smi finds. A GPU "
                           "needs an osprey-cli built with CUDA LibTorch."),
         {"cpu"}},
        {"optimizer",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Optimiser"),
         T::Choice,
         "auto",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "auto picks AdamW for short runs and SGD for long ones, with its own learning "
                           "rate."),
         {"auto", "SGD", "AdamW"}},
        {"lr0",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Initial learning rate"),
         T::Number,
         0.01,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Starting learning rate; ignored when the optimiser is auto."),
         {},
         0.00001,
         1.0},
        {"patience",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Patience (epochs)"),
         T::Integer,
         100,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Stop early after this many epochs without a better mAP50-95."),
         {},
         1,
         10000},
        {"mosaic",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Mosaic probability"),
         T::Number,
         1.0,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Chance of combining four images into one training image."),
         {},
         0,
         1},
        {"close_mosaic",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Close mosaic (epochs)"),
         T::Integer,
         10,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Turn mosaic off for this many final epochs."),
         {},
         0,
         10000},
        {"fliplr",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Horizontal flip probability"),
         T::Number,
         0.5,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Chance of mirroring an image left to right."),
         {},
         0,
         1},
        {"workers",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Loader threads"),
         T::Integer,
         2,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Threads that decode and augment images."),
         {},
         1,
         64},
        {"name", QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Run name"), T::Text, QString(),
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Folder under runs/. Empty picks train, train2, ... automatically.")},
        {"seed",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Seed"),
         T::Integer,
         0,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Random seed; the same seed repeats the same run."),
         {},
         0,
         1000000},
        {"stream", QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Stream to platform"), T::Switch, false,
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "Send live metrics to the platform dashboard and upload the weights at the end. "
                           "Needs an API key (Settings → Platform). Events wait in the project's outbox "
                           "while the platform cannot be reached; training never waits for them.")},
        {"remote",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "Platform project"),
         T::Text,
         QString(),
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm",
                           "The platform project to stream to, as user/project. Remembered for this "
                           "project."),
         {},
         0,
         0,
         -1,
         "stream",
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "user/project")},
    };
    return fields;
}

TrainForm::TrainForm(QWidget* parent) : QWidget(parent), m_layout(new QFormLayout(this)) {
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const TrainField& field : trainFields()) {
        QWidget* editor = nullptr;
        switch (field.type) {
        case TrainField::Type::Choice: {
            auto* combo = new QComboBox(this);
            for (const QString& choice : field.choices)
                combo->addItem(choice, choice);
            combo->setCurrentText(field.defaultValue.toString());
            editor = combo;
            break;
        }
        case TrainField::Type::Integer: {
            auto* spin = new QSpinBox(this);
            spin->setRange(int(field.minimum), int(field.maximum));
            if (field.autoValue >= 0)
                spin->setSpecialValueText(tr("auto"));
            spin->setValue(field.defaultValue.toInt());
            editor = spin;
            break;
        }
        case TrainField::Type::Number: {
            auto* spin = new QDoubleSpinBox(this);
            // Learning rates need five decimals; probabilities read better with two.
            spin->setDecimals(field.minimum > 0 && field.minimum < 0.001 ? 5 : 2);
            spin->setRange(field.minimum, field.maximum);
            spin->setSingleStep(field.maximum <= 1.0 ? 0.05 : 1.0);
            spin->setValue(field.defaultValue.toDouble());
            editor = spin;
            break;
        }
        case TrainField::Type::Text:
        case TrainField::Type::Path: {
            auto* line = new QLineEdit(field.defaultValue.toString(), this);
            line->setPlaceholderText(field.placeholder                      ? trForm(field.placeholder)
                                     : field.type == TrainField::Type::Path ? tr("none")
                                                                            : tr("automatic"));
            editor = line;
            break;
        }
        case TrainField::Type::Switch: {
            auto* check = new QCheckBox(this);
            check->setChecked(field.defaultValue.toBool());
            connect(check, &QCheckBox::toggled, this, &TrainForm::updateEnabled);
            editor = check;
            break;
        }
        }
        editor->setObjectName(QString::fromLatin1(field.key));
        editor->setToolTip(trForm(field.tooltip));
        m_layout->addRow(trForm(field.label), editor);
        m_editors.append(editor);
        m_notes.append(nullptr);
    }
    updateEnabled();
}

int TrainForm::indexOf(const QString& key) const {
    const auto& fields = trainFields();
    for (int i = 0; i < fields.size(); ++i)
        if (key == QLatin1String(fields[i].key))
            return i;
    return -1;
}

QWidget* TrainForm::editor(const QString& key) const {
    const int i = indexOf(key);
    return i < 0 ? nullptr : m_editors[i];
}

void TrainForm::updateEnabled() {
    const auto& fields = trainFields();
    for (int i = 0; i < fields.size(); ++i)
        if (fields[i].enabledBy)
            m_editors[i]->setEnabled(value(QString::fromLatin1(fields[i].enabledBy)).toBool());
}

bool TrainForm::setChoices(const QString& key, const QList<TrainChoice>& choices) {
    const int i = indexOf(key);
    auto* combo = i < 0 ? nullptr : qobject_cast<QComboBox*>(m_editors[i]);
    if (!combo)
        return false;
    const QString current = value(key).toString();
    combo->clear();
    for (const TrainChoice& choice : choices)
        combo->addItem(choice.text, choice.value);
    int keep = combo->findData(current);
    if (keep < 0)
        keep = combo->findData(trainFields()[i].defaultValue.toString());
    combo->setCurrentIndex(std::max(0, keep));
    return true;
}

void TrainForm::setNote(const QString& key, const QString& text) {
    const int i = indexOf(key);
    if (i < 0)
        return;
    if (!m_notes[i] && text.isEmpty())
        return;
    if (!m_notes[i]) {
        // The note sits in the field column right under its editor.
        int row = 0;
        QFormLayout::ItemRole role;
        m_layout->getWidgetPosition(m_editors[i], &row, &role);
        m_notes[i] = new QLabel(this);
        m_notes[i]->setObjectName(QString::fromLatin1(trainFields()[i].key) + QStringLiteral("Note"));
        m_notes[i]->setStyleSheet(QStringLiteral("color: #8a8f98;"));
        m_notes[i]->setWordWrap(true);
        m_layout->insertRow(row + 1, QString(), m_notes[i]);
    }
    m_notes[i]->setText(text);
    m_notes[i]->setVisible(!text.isEmpty());
}

QString TrainForm::note(const QString& key) const {
    const int i = indexOf(key);
    return i < 0 || !m_notes[i] || m_notes[i]->isHidden() ? QString() : m_notes[i]->text();
}

QVariant TrainForm::value(const QString& key) const {
    const int i = indexOf(key);
    if (i < 0)
        return {};
    if (auto* combo = qobject_cast<QComboBox*>(m_editors[i]))
        return combo->currentData().isValid() ? combo->currentData().toString() : combo->currentText();
    if (auto* spin = qobject_cast<QSpinBox*>(m_editors[i]))
        return spin->value();
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(m_editors[i]))
        return spin->value();
    if (auto* line = qobject_cast<QLineEdit*>(m_editors[i]))
        return line->text().trimmed();
    if (auto* check = qobject_cast<QCheckBox*>(m_editors[i]))
        return check->isChecked();
    return {};
}

bool TrainForm::setValue(const QString& key, const QVariant& value) {
    const int i = indexOf(key);
    if (i < 0)
        return false;
    if (auto* combo = qobject_cast<QComboBox*>(m_editors[i])) {
        const int found = combo->findData(value.toString());
        if (found >= 0)
            combo->setCurrentIndex(found);
        else
            combo->setCurrentText(value.toString());
    } else if (auto* spin = qobject_cast<QSpinBox*>(m_editors[i])) {
        spin->setValue(value.toInt());
    } else if (auto* spin = qobject_cast<QDoubleSpinBox*>(m_editors[i])) {
        spin->setValue(value.toDouble());
    } else if (auto* line = qobject_cast<QLineEdit*>(m_editors[i])) {
        line->setText(value.toString());
    } else if (auto* check = qobject_cast<QCheckBox*>(m_editors[i])) {
        check->setChecked(value.toBool());
    }
    return true;
}

QStringList TrainForm::trainArguments() const {
    QStringList arguments{
        QStringLiteral("model=%1%2").arg(value("family").toString(), value("scale").toString())};
    for (const TrainField& field : trainFields()) {
        const QString key = QString::fromLatin1(field.key);
        if (key == QLatin1String("family") || key == QLatin1String("scale") ||
            field.type == TrainField::Type::Switch)
            continue;
        if (field.enabledBy && !value(QString::fromLatin1(field.enabledBy)).toBool())
            continue;
        const QVariant v = value(key);
        if (field.type == TrainField::Type::Integer && field.autoValue >= 0 && v.toInt() == field.autoValue)
            continue;
        if (field.type == TrainField::Type::Number) {
            arguments.append(QStringLiteral("%1=%2").arg(key).arg(v.toDouble(), 0, 'g', 6));
            continue;
        }
        const QString text = v.toString();
        if (text.isEmpty())
            continue;
        arguments.append(QStringLiteral("%1=%2").arg(key, text));
    }
    return arguments;
}

} // namespace osprey::ui
