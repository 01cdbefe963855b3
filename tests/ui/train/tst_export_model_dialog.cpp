// Train ▸ Export Model…: the dialog exports in the background (the GUI stays responsive), shows the
// summary, and shows the error naming the file for bad weights, writing nothing. Its ONNX settings are
// drawn from core/export's declared options.
#include "export/onnx_export.h"
#include "model/detector.h"
#include "model/weights.h"
#include "ui/train/export_model_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace osprey;

class TestExportModelDialog : public QObject {
    Q_OBJECT
private slots:
    void exportsInTheBackground() {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        auto detector = model::Detector::create(model::parseModelName("yolov8n", 2).value());
        QVERIFY(detector);
        QVERIFY(model::saveWeights(*detector, {}, folder / "best.pt"));

        ui::ExportModelDialog dialog(QString::fromStdString((folder / "best.pt").string()));
        dialog.show();
        // The ONNX settings are core/export's declared options with their defaults; the format is offered by
        // name in its own combo box.
        for (const run::OptionSpec& option : exporter::exportOptions())
            if (option.type == run::OptionType::Integer)
                QCOMPARE(dialog.findChild<QSpinBox*>(option.key.c_str())->value(),
                         std::stoi(option.defaultValue));
            else if (option.type == run::OptionType::Flag)
                QCOMPARE(dialog.findChild<QCheckBox*>(option.key.c_str())->isChecked(),
                         option.defaultValue == "true");
        QVERIFY(!dialog.findChild<QWidget*>("format"));
        dialog.findChild<QSpinBox*>("imgsz")->setValue(320);
        QVERIFY(dialog.findChild<QCheckBox*>("simplify")->isChecked());
        QSignalSpy finished(&dialog, &ui::ExportModelDialog::finished);
        QTest::mouseClick(dialog.findChild<QPushButton*>("exportButton"), Qt::LeftButton);
        QVERIFY(dialog.busy());
        QVERIFY(!dialog.findChild<QPushButton*>("exportButton")->isEnabled());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.at(0).at(1).toString(), QString());
        const auto file = folder / "best.onnx";
        QCOMPARE(finished.at(0).at(0).toString().toStdString(), file.string());
        QVERIFY(std::filesystem::file_size(file) > 1000000);
        QCOMPARE(dialog.findChild<QProgressBar*>("progressBar")->value(), 100);
        QVERIFY(dialog.findChild<QLabel*>("statusLabel")->text().contains("opset 12, 2 classes"));
        QVERIFY(!dialog.busy());
    }

    void exportsAnUltralyticsCheckpoint() {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        auto detector = model::Detector::create(model::parseModelName("yolo11n", 3).value());
        QVERIFY(detector);
        QVERIFY(model::saveWeights(*detector, {}, folder / "best.pt"));

        ui::ExportModelDialog dialog(QString::fromStdString((folder / "best.pt").string()));
        dialog.show();
        auto* format = dialog.findChild<QComboBox*>("formatCombo");
        QVERIFY(dialog.findChild<QSpinBox*>("opset")->isEnabled());
        format->setCurrentIndex(format->findData("ultralytics"));
        // The ONNX settings do not apply to a checkpoint.
        for (const char* name : {"imgsz", "opset"})
            QVERIFY(!dialog.findChild<QSpinBox*>(name)->isEnabled());
        QVERIFY(!dialog.findChild<QCheckBox*>("half")->isEnabled());
        QSignalSpy finished(&dialog, &ui::ExportModelDialog::finished);
        QTest::mouseClick(dialog.findChild<QPushButton*>("exportButton"), Qt::LeftButton);
        QVERIFY(dialog.busy());
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.at(0).at(1).toString(), QString());
        const auto file = folder / "best-ultralytics.pt";
        QCOMPARE(finished.at(0).at(0).toString().toStdString(), file.string());
        const auto meta = model::readCheckpointMeta(file);
        QVERIFY2(meta, meta ? "" : meta.message().c_str());
        QCOMPARE(meta->formatVersion, model::kWeightsFormatVersion);
        QCOMPARE(meta->spec.name(), std::string("yolo11n"));
        QCOMPARE(dialog.findChild<QProgressBar*>("progressBar")->value(), 100);
        QVERIFY(dialog.findChild<QLabel*>("statusLabel")->text().contains("best-ultralytics.pt"));
        QVERIFY(!dialog.findChild<QSpinBox*>("opset")->isEnabled()); // still the checkpoint format
    }

    void showsTheErrorForBadWeights() {
        QTemporaryDir dir;
        const std::filesystem::path folder = dir.path().toStdString();
        std::ofstream(folder / "notes.pt") << "not weights";
        ui::ExportModelDialog dialog(QString::fromStdString((folder / "notes.pt").string()));
        dialog.show();
        QSignalSpy finished(&dialog, &ui::ExportModelDialog::finished);
        QTest::mouseClick(dialog.findChild<QPushButton*>("exportButton"), Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.at(0).at(0).toString().isEmpty());
        const QString status = dialog.findChild<QLabel*>("statusLabel")->text();
        QVERIFY2(status.contains("notes.pt"), qPrintable(status));
        QVERIFY(!std::filesystem::exists(folder / "notes.onnx"));
    }
};

QTEST_MAIN(TestExportModelDialog)
#include "tst_export_model_dialog.moc"
