// EventsTail, the one reader that follows a growing events file (the live dashboard's spooled stdout, a run
// viewer's events.jsonl): a line is read once, and only when its newline is there; text that is not an
// event, a torn or a garbled line is reported with its line number; a truncated file is an error.
#include "run/events_tail.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <string>

using namespace osprey;
namespace fs = std::filesystem;

namespace {

void append(const fs::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << bytes;
}

std::string epochLine(int epoch) {
    return R"({"type":"epoch","v":1,"t":)" + std::to_string(epoch * 10) + R"(,"epoch":)" +
           std::to_string(epoch) + R"x(,"epochs":5,"metrics":{"metrics/mAP50-95(B)":0.)x" +
           std::to_string(epoch) + "}}";
}

} // namespace

class TestEventsTail : public QObject {
    Q_OBJECT
private slots:
    void partialLineWaitsForItsNewline() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "events.jsonl";
        const std::string first = epochLine(1);
        append(path, first + "\n" + first.substr(0, 20));
        run::EventsTail tail(path);
        auto lines = tail.read();
        QVERIFY2(lines, lines ? "" : lines.message().c_str());
        QCOMPARE(lines->size(), size_t(1));
        QVERIFY(lines->front().event);
        QCOMPARE(lines->front().event->epoch, 1);
        QCOMPARE(lines->front().number, std::int64_t(1));
        QCOMPARE(tail.offset(), std::uint64_t(first.size() + 1));
        // Still no newline: nothing new, the half line stays unread.
        QCOMPARE(tail.read()->size(), size_t(0));
        QCOMPARE(tail.offset(), std::uint64_t(first.size() + 1));
        // The writer finishes the line: read whole, once.
        const std::string second = epochLine(2);
        append(path, second.substr(20) + "\n");
        lines = tail.read();
        QCOMPARE(lines->size(), size_t(1));
        QVERIFY(lines->front().event);
        QCOMPARE(lines->front().event->epoch, 2);
        QCOMPARE(lines->front().number, std::int64_t(2));
        QCOMPARE(lines->front().text, second);
    }

    void appendedLinesAreReadOnce() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "events.jsonl";
        append(path, "");
        run::EventsTail tail(path);
        QCOMPARE(tail.read()->size(), size_t(0));
        int seen = 0;
        for (int round = 0; round < 3; ++round) {
            append(path, epochLine(2 * round + 1) + "\n" + epochLine(2 * round + 2) + "\r\n");
            auto lines = tail.read();
            QCOMPARE(lines->size(), size_t(2));
            for (const auto& line : *lines) {
                QVERIFY(line.event);
                QCOMPARE(line.event->epoch, ++seen);
                QVERIFY(line.text.back() != '\r');
            }
            QCOMPARE(tail.read()->size(), size_t(0)); // nothing twice
        }
        QCOMPARE(seen, 6);
        QCOMPARE(tail.offset(), std::uint64_t(fs::file_size(path)));
        // A second tail started at the first one's offset reads only what comes after.
        run::EventsTail later(path, tail.offset());
        append(path, epochLine(7) + "\n");
        const auto lines = later.read();
        QCOMPARE(lines->size(), size_t(1));
        QCOMPARE(lines->front().event->epoch, 7);
    }

    void badLinesAreReportedNotFatal() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "events.jsonl";
        const std::string torn = epochLine(1).substr(0, 25); // a writer killed mid-line, then restarted
        append(path, torn + "\n" + "Epoch 1/5: plain text from the trainer\n" +
                         "{\"type\":\"epoch\",\"v\":1,\"t\":\x01\xff}\n" +
                         R"({"type":"telemetry_v9","v":9,"t":1})" + "\n\n" + epochLine(2) + "\n");
        run::EventsTail tail(path);
        const auto lines = tail.read();
        QVERIFY(lines);
        QCOMPARE(lines->size(), size_t(6));
        const auto& l = *lines;
        QVERIFY(!l[0].event);
        QCOMPARE(l[0].error.code, std::string("not_json"));
        QCOMPARE(l[0].text, torn);
        QVERIFY(!l[1].event);
        QCOMPARE(l[1].error.code, std::string("not_json"));
        QCOMPARE(l[1].text, std::string("Epoch 1/5: plain text from the trainer"));
        QVERIFY(!l[2].event); // garbled bytes
        QCOMPARE(l[2].error.code, std::string("not_json"));
        QVERIFY(!l[2].error.message.empty());
        QVERIFY(!l[3].event); // a newer writer's event type: skippable
        QCOMPARE(l[3].error.code, std::string("unknown_type"));
        QVERIFY(!l[4].event); // an empty line
        QVERIFY(l[5].event);
        QCOMPARE(l[5].event->epoch, 2);
        QCOMPARE(l[5].number, std::int64_t(6));
    }

    void writerEndTakesTheLastLineWithoutNewline() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "out";
        append(path, epochLine(1) + "\n" + epochLine(2));
        run::EventsTail tail(path);
        QCOMPARE(tail.read()->size(), size_t(1));
        const auto rest = tail.read(run::EventsTail::Partial::Take);
        QCOMPARE(rest->size(), size_t(1));
        QCOMPARE(rest->front().event->epoch, 2);
        QCOMPARE(tail.offset(), std::uint64_t(fs::file_size(path)));
        QCOMPARE(tail.read(run::EventsTail::Partial::Take)->size(), size_t(0));
    }

    void missingOrTruncatedFileIsAnError() {
        QTemporaryDir dir;
        const fs::path path = fs::path(dir.path().toStdString()) / "events.jsonl";
        run::EventsTail missing(path);
        const auto none = missing.read();
        QVERIFY(!none);
        QCOMPARE(none.error().code, std::string("missing"));
        QVERIFY(none.message().find(path.string()) != std::string::npos);

        append(path, epochLine(1) + "\n" + epochLine(2) + "\n");
        run::EventsTail tail(path);
        QCOMPARE(tail.read()->size(), size_t(2));
        const auto offset = tail.offset();
        fs::resize_file(path, 10); // replaced or truncated under the reader
        const auto shorter = tail.read();
        QVERIFY(!shorter);
        QCOMPARE(shorter.error().code, std::string("truncated"));
        QCOMPARE(tail.offset(), offset);
    }
};

QTEST_GUILESS_MAIN(TestEventsTail)
#include "tst_events_tail.moc"
