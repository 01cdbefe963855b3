#include "ui/train/train_settings.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

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
         QT_TRANSLATE_NOOP("osprey::ui::TrainForm", "cpu, or the index of a CUDA GPU."),
         {"cpu", "0"}},
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
    };
    return fields;
}

TrainForm::TrainForm(QWidget* parent) : QWidget(parent) {
    auto* layout = new QFormLayout(this);
    layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const TrainField& field : trainFields()) {
        QWidget* editor = nullptr;
        switch (field.type) {
        case TrainField::Type::Choice: {
            auto* combo = new QComboBox(this);
            combo->addItems(field.choices);
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
            spin->setDecimals(field.maximum <= 1.0 && field.minimum < 0.001 ? 5 : 2);
            spin->setRange(field.minimum, field.maximum);
            spin->setSingleStep(field.maximum <= 1.0 ? 0.05 : 1.0);
            spin->setValue(field.defaultValue.toDouble());
            editor = spin;
            break;
        }
        case TrainField::Type::Text:
        case TrainField::Type::Path: {
            auto* line = new QLineEdit(field.defaultValue.toString(), this);
            line->setPlaceholderText(field.type == TrainField::Type::Path ? tr("none") : tr("automatic"));
            editor = line;
            break;
        }
        }
        editor->setObjectName(QString::fromLatin1(field.key));
        editor->setToolTip(trForm(field.tooltip));
        layout->addRow(trForm(field.label), editor);
        m_editors.append(editor);
    }
}

QVariant TrainForm::value(const QString& key) const {
    const auto& fields = trainFields();
    for (int i = 0; i < fields.size(); ++i) {
        if (key != QLatin1String(fields[i].key))
            continue;
        if (auto* combo = qobject_cast<QComboBox*>(m_editors[i]))
            return combo->currentText();
        if (auto* spin = qobject_cast<QSpinBox*>(m_editors[i]))
            return spin->value();
        if (auto* spin = qobject_cast<QDoubleSpinBox*>(m_editors[i]))
            return spin->value();
        if (auto* line = qobject_cast<QLineEdit*>(m_editors[i]))
            return line->text().trimmed();
    }
    return {};
}

bool TrainForm::setValue(const QString& key, const QVariant& value) {
    const auto& fields = trainFields();
    for (int i = 0; i < fields.size(); ++i) {
        if (key != QLatin1String(fields[i].key))
            continue;
        if (auto* combo = qobject_cast<QComboBox*>(m_editors[i]))
            combo->setCurrentText(value.toString());
        else if (auto* spin = qobject_cast<QSpinBox*>(m_editors[i]))
            spin->setValue(value.toInt());
        else if (auto* spin = qobject_cast<QDoubleSpinBox*>(m_editors[i]))
            spin->setValue(value.toDouble());
        else if (auto* line = qobject_cast<QLineEdit*>(m_editors[i]))
            line->setText(value.toString());
        return true;
    }
    return false;
}

QStringList TrainForm::trainArguments() const {
    QStringList arguments{
        QStringLiteral("model=%1%2").arg(value("family").toString(), value("scale").toString())};
    for (const TrainField& field : trainFields()) {
        const QString key = QString::fromLatin1(field.key);
        if (key == QLatin1String("family") || key == QLatin1String("scale"))
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
