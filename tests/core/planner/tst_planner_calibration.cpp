// The planner on this machine for real: `plan calibrate` measures a real training throughput (a few
// steps of yolov8n through the engine), and `plan` then predicts the duration of a following 2-epoch
// CPU run within +-30 %. The finished run adds its own measured point. Runs osprey-cli in child
// processes with their own config and cache dirs.
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

class TestPlannerCalibration : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QByteArray cli(const QStringList& arguments, int* exitCode = nullptr) {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CACHE_HOME"), m_dir.filePath(QStringLiteral("cache")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(OSPREY_CLI_PATH), arguments);
        process.waitForFinished(300000);
        if (exitCode)
            *exitCode = process.exitCode();
        if (process.exitCode() != 0)
            qWarning().noquote() << process.readAllStandardError();
        return process.readAllStandardOutput();
    }

    QJsonArray points() {
        QFile file(m_dir.filePath(QStringLiteral("cache/osprey/planner/measurements.json")));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("points")).toArray();
    }

private slots:
    void calibrationPredictsATwoEpochRun() {
        const QString project = m_dir.filePath(QStringLiteral("demo"));
        int code = -1;
        cli({"demo", "path=" + project, "images=60", "imgsz=160"}, &code);
        QCOMPARE(code, 0);
        const QStringList run{"model=yolov8n", "imgsz=160", "batch=8"};

        QElapsedTimer calibration;
        calibration.start();
        cli(QStringList{"plan", "calibrate"} + run, &code);
        QCOMPARE(code, 0);
        QVERIFY(calibration.elapsed() < 90000);
        const QJsonArray measured = points();
        QCOMPARE(measured.size(), 1);
        const double imagesPerS =
            measured[0].toObject().value(QStringLiteral("train_images_per_s")).toDouble();
        QVERIFY2(imagesPerS > 0.1 && imagesPerS < 1000, qPrintable(QString::number(imagesPerS)));
        QCOMPARE(measured[0].toObject().value(QStringLiteral("source")).toString(),
                 QStringLiteral("calibration"));

        const QByteArray json =
            cli(QStringList{"plan", "project=" + project, "epochs=2", "json=true"} + run, &code);
        QCOMPARE(code, 0);
        const QJsonObject local =
            QJsonDocument::fromJson(json).object().value(QStringLiteral("rows")).toArray()[0].toObject();
        QVERIFY(local.value(QStringLiteral("this_machine")).toBool());
        QCOMPARE(local.value(QStringLiteral("basis")).toString(), QStringLiteral("measured"));
        const double predictedS =
            local.value(QStringLiteral("time_s")).toObject().value(QStringLiteral("mid")).toDouble();

        QElapsedTimer training;
        training.start();
        cli(QStringList{"train", "project=" + project, "epochs=2", "name=check"} + run, &code);
        const double tookS = training.elapsed() / 1000.0;
        QCOMPARE(code, 0);
        const double error = predictedS / tookS - 1.0;
        qInfo("calibrated %.2f train images/s; predicted %.1f s, the 2-epoch run took %.1f s: error %+.0f %%",
              imagesPerS, predictedS, tookS, error * 100);
        QVERIFY2(std::abs(error) <= 0.30, qPrintable(QString::number(error * 100) + " %"));

        // The finished run is a measured point too.
        bool fromRun = false;
        for (const auto& point : points())
            fromRun |= point.toObject().value(QStringLiteral("source")).toString() == QStringLiteral("run");
        QVERIFY(fromRun);
    }
};

QTEST_GUILESS_MAIN(TestPlannerCalibration)
#include "tst_planner_calibration.moc"
