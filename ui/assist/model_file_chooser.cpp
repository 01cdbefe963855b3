#include "ui/assist/model_file_chooser.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace osprey::ui {

namespace {

/// A names file beside `model`: X.names, else the only .names file in its folder.
QString namesBeside(const QFileInfo& model) {
    const QString sameName = model.dir().filePath(model.completeBaseName() + ".names");
    if (QFileInfo::exists(sameName))
        return sameName;
    const QStringList names = model.dir().entryList({QStringLiteral("*.names")}, QDir::Files);
    return names.size() == 1 ? model.dir().filePath(names.front()) : QString();
}

} // namespace

std::optional<assist::ModelSource> askForModelSource(QWidget* parent, const QString& title,
                                                     const QString& startFolder) {
    const QString file = QFileDialog::getOpenFileName(
        parent, title, startFolder,
        QCoreApplication::translate("ModelFileChooser",
                                    "Models (*.pt *.onnx *.cfg);;Osprey or Ultralytics checkpoints "
                                    "(*.pt);;ONNX (*.onnx);;Darknet (*.cfg)"));
    if (file.isEmpty())
        return std::nullopt;
    assist::ModelSource source;
    source.model = file.toStdString();
    const QFileInfo info(file);
    if (info.suffix().compare(QStringLiteral("cfg"), Qt::CaseInsensitive) == 0) {
        QString weights = info.dir().filePath(info.completeBaseName() + ".weights");
        if (!QFileInfo::exists(weights))
            weights = QFileDialog::getOpenFileName(
                parent,
                QCoreApplication::translate("ModelFileChooser", "Darknet Weights for %1")
                    .arg(info.fileName()),
                info.path(), QCoreApplication::translate("ModelFileChooser", "Darknet weights (*.weights)"));
        if (weights.isEmpty())
            return std::nullopt;
        QString names = namesBeside(info);
        if (names.isEmpty())
            names = QFileDialog::getOpenFileName(
                parent,
                QCoreApplication::translate("ModelFileChooser", "Class Names for %1").arg(info.fileName()),
                info.path(), QCoreApplication::translate("ModelFileChooser", "Names files (*.names *.txt)"));
        if (names.isEmpty())
            return std::nullopt;
        source.weights = weights.toStdString();
        source.names = names.toStdString();
    } else if (info.suffix().compare(QStringLiteral("onnx"), Qt::CaseInsensitive) == 0) {
        source.names =
            namesBeside(info).toStdString(); // optional: the ONNX metadata usually names the classes
    }
    return source;
}

} // namespace osprey::ui
