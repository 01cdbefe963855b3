// TensorBoard event files (issue 35): the TFRecord framing and CRC-32C against their published check values,
// the records of a written file parsed back, and the whole folder read by tensorboard's own EventAccumulator
// (the tracking peer's venv, packaging/setup-test-peers.sh tracking; that part skips with a line without it):
// every scalar of every epoch, at its step, across a resumed run's two files.
#include "../../peer_python.h"
#include "run/tensorboard.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace osprey;

namespace {

std::uint64_t readLe(const std::string& bytes, size_t at, int size) {
    std::uint64_t value = 0;
    for (int i = size - 1; i >= 0; --i)
        value = value << 8 | static_cast<std::uint8_t>(bytes[at + static_cast<size_t>(i)]);
    return value;
}

run::EpochMetrics epochMetrics(int epoch) {
    run::EpochMetrics m;
    m.epoch = epoch;
    m.timeS = 10.0 * epoch;
    m.boxLoss = 1.5 / epoch;
    m.clsLoss = 2.25 / epoch;
    m.dflLoss = 1.125 / epoch;
    m.precision = 0.1 * epoch;
    m.recall = 0.05 * epoch;
    m.map50 = 0.07 * epoch;
    m.map50to95 = 0.03 * epoch;
    m.valBoxLoss = 1.25 / epoch;
    m.valClsLoss = 2.0 / epoch;
    m.valDflLoss = 1.0 / epoch;
    m.lrPg0 = m.lrPg1 = m.lrPg2 = 0.001 * epoch;
    return m;
}

} // namespace

class TestTensorBoard : public QObject {
    Q_OBJECT
private slots:
    void crcAndFraming() {
        // CRC-32C's check value, and TFRecord's mask of the CRC of nothing.
        QCOMPARE(run::crc32c("123456789"), std::uint32_t{0xe3069283});
        QCOMPARE(run::maskedCrc32c(""), std::uint32_t{0xa282ead8});
        const std::string record = run::tfRecord("abc");
        QCOMPARE(record.size(), size_t(8 + 4 + 3 + 4));
        QCOMPARE(readLe(record, 0, 8), std::uint64_t{3});
        QCOMPARE(static_cast<std::uint32_t>(readLe(record, 8, 4)), run::maskedCrc32c(record.substr(0, 8)));
        QCOMPARE(record.substr(12, 3), std::string("abc"));
        QCOMPARE(static_cast<std::uint32_t>(readLe(record, 15, 4)), run::maskedCrc32c("abc"));
        // Event{wall_time 1.5, step 3, summary{value{tag "a", simple_value 0.5}}}: the bytes tensorboard's
        // own event_pb2 serialises it to.
        const std::string expected("\x09\x00\x00\x00\x00\x00\x00\xf8\x3f\x10\x03\x2a\x0a\x0a\x08\x0a\x01\x61"
                                   "\x15\x00\x00\x00\x3f",
                                   23);
        QCOMPARE(run::scalarEvent(1.5, 3, "a", 0.5F), expected);
    }

    void writesEveryEpochAndTensorBoardReadsIt() {
        QTemporaryDir dir;
        const std::filesystem::path folder = std::filesystem::path(dir.path().toStdString()) / "tensorboard";
        {
            auto writer = run::TensorBoardWriter::open(folder);
            QVERIFY2(writer, writer ? "" : writer.message().c_str());
            for (int epoch = 1; epoch <= 3; ++epoch)
                QVERIFY((*writer)->epoch(epochMetrics(epoch)));
            // Every record of the file frames correctly.
            std::ifstream in((*writer)->path(), std::ios::binary);
            const std::string bytes(std::istreambuf_iterator<char>(in), {});
            int records = 0;
            for (size_t at = 0; at < bytes.size(); ++records) {
                QVERIFY(at + 12 <= bytes.size());
                const auto length = static_cast<size_t>(readLe(bytes, at, 8));
                QCOMPARE(static_cast<std::uint32_t>(readLe(bytes, at + 8, 4)),
                         run::maskedCrc32c(bytes.substr(at, 8)));
                QVERIFY(at + 12 + length + 4 <= bytes.size());
                QCOMPARE(static_cast<std::uint32_t>(readLe(bytes, at + 12 + length, 4)),
                         run::maskedCrc32c(bytes.substr(at + 12, length)));
                at += 12 + length + 4;
            }
            QCOMPARE(records, 1 + 3 * 13); // file_version, then 13 scalars per epoch
            QVERIFY(bytes.find("brain.Event:2") != std::string::npos);
        }
        // A resumed run: a second writer adds a second file (a different name, even within the same second).
        QTest::qWait(1100);
        {
            auto writer = run::TensorBoardWriter::open(folder);
            QVERIFY2(writer, writer ? "" : writer.message().c_str());
            QVERIFY((*writer)->epoch(epochMetrics(4)));
        }

        const QString python = test::trackingPython();
        if (python.isEmpty())
            QSKIP(
                "no Python with tensorboard (set OSPREY_TRACKING_PYTHON or run packaging/setup-test-peers.sh "
                "tracking); the files were checked by their framing only");
        QProcess reader;
        reader.start(python, {QStringLiteral(OSPREY_TEST_SOURCE_DIR) + "/reference/read_tensorboard.py",
                              QString::fromStdString(folder.string())});
        QVERIFY2(reader.waitForFinished(120000), "tensorboard's reader timed out");
        QVERIFY2(reader.exitCode() == 0, reader.readAllStandardError().right(3000).constData());
        const QJsonObject read = QJsonDocument::fromJson(reader.readAllStandardOutput()).object();
        QCOMPARE(read["files"].toInt(), 2);
        const QJsonObject scalars = read["scalars"].toObject();
        int checked = 0;
        for (const run::MetricColumn& column : run::metricColumns()) {
            const bool logged = column.inResultsCsv && std::strcmp(column.key, "time") != 0;
            QCOMPARE(scalars.contains(column.key), logged);
            if (!logged)
                continue;
            const QJsonArray series = scalars[column.key].toArray();
            QCOMPARE(series.size(), 4);
            for (int epoch = 1; epoch <= 4; ++epoch) {
                const QJsonArray point = series[epoch - 1].toArray();
                QCOMPARE(point[0].toInt(), epoch);
                const run::EpochMetrics m = epochMetrics(epoch);
                QCOMPARE(static_cast<float>(point[1].toDouble()), static_cast<float>(m.*column.value));
                ++checked;
            }
        }
        QCOMPARE(checked, 13 * 4);
    }
};

QTEST_GUILESS_MAIN(TestTensorBoard)
#include "tst_tensorboard.moc"
