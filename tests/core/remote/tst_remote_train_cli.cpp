// End to end: the real `osprey-cli train ... remote=user/proj` on a tiny demo project against the
// loopback platform (fake_platform.py). A streamed run delivers every event in order and best.pt byte
// for byte, prints `remote` status lines on stdout (never into events.jsonl) and never the key; a
// platform cancel stops training at an epoch boundary and still uploads; no key means a warning and a
// local run; a rejected key stops reporting while training goes on.
#include "../../peer_python.h"
#include "fake_platform.h"

#include "model/weights.h"
#include "project/project.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>

using namespace osprey;
using namespace osprey::test;
using nlohmann::json;

namespace {

constexpr int kTrainTimeoutMs = 240000;

/// What one CLI run printed, with stdout split into JSON lines.
struct CliRun {
    int exitCode = -1;
    QByteArray out, err;
    std::vector<json> lines; ///< every stdout line that is a JSON object
    std::vector<json> ofType(const std::string& type) const {
        std::vector<json> found;
        for (const auto& line : lines)
            if (line.value("type", "") == type)
                found.push_back(line);
        return found;
    }
};

QByteArray readFileBytes(const std::filesystem::path& path) {
    QFile file(QString::fromStdString(path.string()));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

std::vector<json> parseLines(const QByteArray& text) {
    std::vector<json> lines;
    for (const auto& line : text.split('\n')) {
        auto parsed = json::parse(line.toStdString(), nullptr, false);
        if (!parsed.is_discarded() && parsed.is_object())
            lines.push_back(parsed);
    }
    return lines;
}

/// Fails the test unless `line` is a complete `remote` status line (core/run/EVENTS.md).
void checkRemoteLine(const json& line) {
    QCOMPARE(line.value("type", ""), std::string("remote"));
    QCOMPARE(line.value("v", 0), 1);
    QVERIFY(line.at("t").is_number());
    QVERIFY(line.at("state").is_string());
    for (const char* key : {"queued", "delivered", "failed", "upload_sent", "upload_total"})
        QVERIFY2(line.at(key).is_number_integer(), key);
    for (const char* key : {"error", "dashboard_url"})
        QVERIFY2(line.at(key).is_string(), key);
    for (const char* key : {"uploading", "cancelled"})
        QVERIFY2(line.at(key).is_boolean(), key);
}

/// Appends to `problems` each place where `ours` differs from `reference`: a missing key, another JSON type
/// (an integer is not a float), another array length, another string, or a number more than 1e-9 away.
/// Keys only Osprey sends are allowed where `kOspreyOnly` names them.
void compareJson(const json& reference, const json& ours, const std::string& where,
                 std::vector<std::string>& problems) {
    static const std::vector<std::string> kOspreyOnly = {"data.results.epochs", "data.results.status"};
    const auto typeName = [](const json& value) {
        return value.is_number_integer() ? std::string("integer") : std::string(value.type_name());
    };
    if (typeName(reference) != typeName(ours)) {
        problems.push_back(where + ": " + typeName(ours) + ", Ultralytics " + typeName(reference));
        return;
    }
    if (reference.is_object()) {
        for (const auto& [key, value] : reference.items())
            if (!ours.contains(key))
                problems.push_back(where + "." + key + ": missing");
            else
                compareJson(value, ours[key], where + "." + key, problems);
        for (const auto& [key, value] : ours.items())
            if (!reference.contains(key) &&
                std::find(kOspreyOnly.begin(), kOspreyOnly.end(), where + "." + key) == kOspreyOnly.end())
                problems.push_back(where + "." + key + ": Ultralytics has no such key");
    } else if (reference.is_array()) {
        if (reference.size() != ours.size()) {
            problems.push_back(where + ": " + std::to_string(ours.size()) + " items, Ultralytics " +
                               std::to_string(reference.size()));
            return;
        }
        for (size_t i = 0; i < reference.size(); ++i)
            compareJson(reference[i], ours[i], where + "[" + std::to_string(i) + "]", problems);
    } else if (reference.is_number()) {
        if (std::abs(reference.get<double>() - ours.get<double>()) > 1e-9)
            problems.push_back(where + ": " + ours.dump() + ", Ultralytics " + reference.dump());
    } else if (reference != ours) {
        problems.push_back(where + ": " + ours.dump() + ", Ultralytics " + reference.dump());
    }
}

} // namespace

class TestRemoteTrainCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid() && m_config.isValid());
        m_project = std::filesystem::path(m_dir.path().toStdString()) / "demo";
        QProcess demo;
        demo.start(OSPREY_CLI_PATH, {"demo", "path=" + QString::fromStdString(m_project.string()),
                                     "images=10", "imgsz=64", "seed=3"});
        QVERIFY(demo.waitForFinished(60000));
        QVERIFY2(demo.exitCode() == 0, demo.readAllStandardError().constData());
    }

    void streamedRunDeliversEverything() {
        FakePlatform server;
        QVERIFY(server.ok());
        const auto run = train(server, {"name=streamed", "epochs=2", "events=jsonl", "remote=user/proj"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const auto runDir = m_project / "runs" / "streamed";
        const QByteArray best = readFileBytes(runDir / "weights" / "best.pt");
        QVERIFY(best.size() > 1000);

        // The trainer's stream is untouched: stdout without the remote lines is events.jsonl, line for line.
        std::vector<std::string> trainerLines;
        for (const auto& line : run.out.split('\n'))
            if (!line.isEmpty() && !line.contains("\"type\":\"remote\""))
                trainerLines.push_back(line.toStdString());
        std::vector<std::string> fileLines;
        for (const auto& line : readFileBytes(runDir / "events.jsonl").split('\n'))
            if (!line.isEmpty())
                fileLines.push_back(line.toStdString());
        QCOMPARE(fileLines.size(), trainerLines.size());
        QVERIFY(fileLines == trainerLines);
        const auto finished = run.ofType("finished");
        QCOMPARE(finished.size(), size_t(1));
        QCOMPARE(finished[0].value("status", ""), std::string("finished"));

        // Status lines: complete, at most 2 a second, and a final one after `finished`.
        const auto remoteLines = run.ofType("remote");
        QVERIFY2(remoteLines.size() >= 2, run.out.constData());
        for (const auto& line : remoteLines)
            checkRemoteLine(line);
        for (size_t i = 1; i + 1 < remoteLines.size(); ++i)
            QVERIFY2(remoteLines[i]["t"].get<double>() - remoteLines[i - 1]["t"].get<double>() >= 0.45,
                     remoteLines[i].dump().c_str());
        QVERIFY(run.lines.back().value("type", "") == "remote");
        const json& last = remoteLines.back();
        QCOMPARE(last["state"].get<std::string>(), std::string("finished"));
        QCOMPARE(last["queued"].get<int>(), 0);
        QCOMPARE(last["failed"].get<int>(), 0);
        QVERIFY(last["delivered"].get<int>() >= 5);
        QCOMPARE(last["error"].get<std::string>(), std::string());
        QCOMPARE(last["dashboard_url"].get<std::string>(), server.url() + "/user/proj/streamed");
        QCOMPARE(last["upload_total"].get<qint64>(), qint64(best.size()));
        QCOMPARE(last["upload_sent"].get<qint64>(), qint64(best.size()));
        QCOMPARE(last["cancelled"].get<bool>(), false);

        // What the platform received: started, one epoch_end per epoch in order, complete last.
        const auto received = server.received();
        const auto& events = received.at("events");
        QVERIFY(events.size() >= 4);
        QCOMPARE(events.front()["event"].get<std::string>(), std::string("training_started"));
        QCOMPARE(events.front()["name"].get<std::string>(), std::string("streamed"));
        QCOMPARE(events.front()["project"].get<std::string>(), std::string("user/proj"));
        QCOMPARE(events.front()["data"]["epochs"].get<int>(), 2);
        QCOMPARE(events.back()["event"].get<std::string>(), std::string("training_complete"));
        std::vector<int> epochs;
        for (const auto& e : events) {
            if (e["event"] == "epoch_end")
                epochs.push_back(e["data"]["epoch"].get<int>());
            if (e["event"] == "training_started" || e["event"] == "training_complete")
                QCOMPARE(std::count_if(events.begin(), events.end(),
                                       [&](const json& other) { return other["event"] == e["event"]; }),
                         std::ptrdiff_t(1));
        }
        QCOMPARE(epochs, (std::vector<int>{0, 1}));
        const auto& complete = events.back()["data"];
        QCOMPARE(complete["results"]["status"].get<std::string>(), std::string("finished"));
        QCOMPARE(complete["results"]["modelSize"].get<qint64>(), qint64(best.size()));
        QVERIFY(complete["results"]["modelPath"].is_string());
        // A real run's curves.json: the five plots at 101 points and a row per val image.
        QCOMPARE(complete["plots"].size(), size_t(5));
        for (const auto& plot : complete["plots"])
            if (plot["type"] != "confusion_matrix") {
                QCOMPARE(plot["x"].size(), size_t(101));
                QCOMPARE(plot["y"].size(), complete["plots"][4]["ap"].size());
            }
        QCOMPARE(complete["results"]["validation"]["population"].get<int>(),
                 static_cast<int>(complete["results"]["validation"]["rows"].size()));
        QVERIFY(complete["results"]["validation"]["population"].get<int>() > 0);
        QCOMPARE(received["duplicates"].get<int>(), 0);
        m_streamedComplete = complete;

        // The weights: one upload, byte-identical to best.pt, checksum verified by the server.
        QCOMPARE(received["uploads"].size(), size_t(1));
        const auto& upload = received["uploads"][0];
        QVERIFY(upload["ok"].get<bool>());
        QVERIFY(readFileBytes(upload["path"].get<std::string>()) == best);
        // ... and an Ultralytics checkpoint (weights format 2), a model the platform can deploy.
        const auto uploaded = model::readCheckpointMeta(upload["path"].get<std::string>());
        QVERIFY2(uploaded, uploaded ? "" : uploaded.message().c_str());
        QCOMPARE(uploaded->formatVersion, 2);

        // The platform project is remembered for the GUI.
        auto project = project::Project::open(m_project);
        QVERIFY(project.hasValue());
        QCOMPARE((*project)->settings().get("remote.project").value(), std::string("user/proj"));

        // The key: nowhere in what the CLI printed, nor in any file of the project.
        QVERIFY2(!run.out.contains(kTestKey) && !run.err.contains(kTestKey), "the key was printed");
        QVERIFY(run.err.contains("ul_****4567")); // the masked form is how it is named
        checkNoKeyInProject();
    }

    /// The streamed run's training_complete against the one Ultralytics 8.4.190's own platform callback
    /// builds for the same run figures (training_complete_reference.py): every key, every type, every
    /// value, the plot types and their 101 points. Osprey's two additions (`epochs`, `status`) are the only
    /// keys Ultralytics lacks.
    void completeMatchesUltralytics() {
        const QString python = osprey::test::ultralyticsPython();
        if (python.isEmpty())
            QSKIP("no Python with ultralytics (set OSPREY_ULTRALYTICS_PYTHON or run "
                  "packaging/setup-test-peers.sh); skipping");
        QVERIFY2(m_streamedComplete.is_object(), "streamedRunDeliversEverything did not run");
        const QString ours = m_dir.filePath("osprey_complete.json");
        const QString theirs = m_dir.filePath("ultralytics_complete.json");
        {
            QFile file(ours);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray::fromStdString(m_streamedComplete.dump()));
        }
        QProcess script;
        script.start(python,
                     {QStringLiteral(OSPREY_SOURCE_DIR) + "/tests/core/remote/training_complete_reference.py",
                      QString::fromStdString((m_project / "runs" / "streamed").string()), ours, theirs});
        QVERIFY2(script.waitForFinished(120000), "the Ultralytics script timed out");
        QVERIFY2(script.exitCode() == 0, script.readAllStandardError().right(3000).constData());
        qInfo("Ultralytics: %s", script.readAllStandardOutput().trimmed().constData());
        const json reference = json::parse(readFileBytes(theirs.toStdString()).toStdString());

        std::vector<std::string> problems;
        compareJson(reference, m_streamedComplete, "data", problems);
        QVERIFY2(problems.empty(), (std::to_string(problems.size()) +
                                    " differences, first: " + (problems.empty() ? "" : problems.front()))
                                       .c_str());
        // The acceptance's own words, checked once more: the plot types, 101 points each.
        std::vector<std::string> types;
        for (const auto& plot : m_streamedComplete["plots"]) {
            types.push_back(plot["type"].get<std::string>());
            if (plot.contains("x")) {
                QCOMPARE(plot["x"].size(), size_t(101));
                for (const auto& row : plot["y"])
                    QCOMPARE(row.size(), size_t(101));
            }
        }
        std::sort(types.begin(), types.end());
        QCOMPARE(types, (std::vector<std::string>{"confusion_matrix", "f1_curve", "p_curve", "pr_curve",
                                                  "r_curve"}));
        QVERIFY(reference["results"].contains("validation") && reference["results"].contains("modelSize"));
    }

    void platformCancelStopsAtEpochBoundary() {
        FakePlatform server;
        QVERIFY(server.ok());
        QProcess cli;
        cli.setProcessEnvironment(environment(server, true));
        cli.start(OSPREY_CLI_PATH,
                  trainArguments({"name=cancelled", "epochs=4", "events=jsonl", "remote=user/proj"}));
        QVERIFY(cli.waitForStarted());
        QByteArray out;
        bool cancelled = false;
        // Cancel on the platform while the first epoch trains.
        while (cli.state() == QProcess::Running && !cancelled) {
            cli.waitForReadyRead(1000);
            out += cli.readAllStandardOutput();
            if (out.contains("\"type\":\"batch\"")) {
                QVERIFY(server.control("cancel", {{"cancel", true}}));
                cancelled = true;
            }
        }
        QVERIFY2(cancelled, "the run ended before its first batch");
        QVERIFY(cli.waitForFinished(kTrainTimeoutMs));
        out += cli.readAllStandardOutput();
        const QByteArray err = cli.readAllStandardError();
        QVERIFY2(cli.exitCode() == 0, err.constData());
        const auto lines = parseLines(out);

        json finished;
        int lastBatchEpoch = 0;
        for (const auto& line : lines) {
            if (line["type"] == "finished")
                finished = line;
            if (line["type"] == "batch")
                lastBatchEpoch = std::max(lastBatchEpoch, line["epoch"].get<int>());
        }
        QVERIFY2(finished.is_object(), out.constData());
        QCOMPARE(finished["status"].get<std::string>(), std::string("stopped"));
        const int completed = finished["epochs_completed"].get<int>();
        QVERIFY2(completed >= 1 && completed < 4, finished.dump().c_str());
        // At the boundary: no batch of a further epoch was trained (a mid-epoch stop would show one).
        QCOMPARE(lastBatchEpoch, completed);
        QVERIFY(err.contains("cancelled on the platform"));

        const auto runDir = m_project / "runs" / "cancelled";
        const auto csvLines = readFileBytes(runDir / "results.csv").trimmed().split('\n');
        QCOMPARE(int(csvLines.size()) - 1, completed);
        const QByteArray best = readFileBytes(runDir / "weights" / "best.pt");
        QVERIFY(best.size() > 1000);

        const auto received = server.received();
        int epochEnds = 0;
        for (const auto& e : received["events"])
            if (e["event"] == "epoch_end")
                QCOMPARE(e["data"]["epoch"].get<int>(), epochEnds++);
        QCOMPARE(epochEnds, completed);
        const auto& complete = received["events"].back();
        QCOMPARE(complete["event"].get<std::string>(), std::string("training_complete"));
        QCOMPARE(complete["data"]["results"]["status"].get<std::string>(), std::string("stopped"));
        QCOMPARE(received["uploads"].size(), size_t(1));
        QVERIFY(readFileBytes(received["uploads"][0]["path"].get<std::string>()) == best);

        const json& last = lines.back();
        QCOMPARE(last.value("type", ""), std::string("remote"));
        QCOMPARE(last["state"].get<std::string>(), std::string("finished"));
        QCOMPARE(last["cancelled"].get<bool>(), true);
        QCOMPARE(last["queued"].get<int>(), 0);
    }

    void noKeyWarnsAndTrainsLocally() {
        FakePlatform server;
        QVERIFY(server.ok());
        const auto run =
            train(server, {"name=nokey", "epochs=1", "events=jsonl", "remote=user/proj"}, /*withKey=*/false);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.err.contains("NOT streamed") && run.err.contains("remote login"), run.err.constData());
        const auto remoteLines = run.ofType("remote");
        QCOMPARE(remoteLines.size(), size_t(1));
        checkRemoteLine(remoteLines[0]);
        QCOMPARE(remoteLines[0]["state"].get<std::string>(), std::string("off"));
        QVERIFY(remoteLines[0]["error"].get<std::string>().find("API key") != std::string::npos);
        QCOMPARE(run.ofType("finished").at(0)["status"].get<std::string>(), std::string("finished"));
        QVERIFY(std::filesystem::file_size(m_project / "runs" / "nokey" / "weights" / "best.pt") > 1000);
        QVERIFY(server.received()["requests"].empty());
    }

    void rejectedKeyStopsReportingTrainingGoesOn() {
        FakePlatform server("ul_ffffffffffffffffffffffffffffffffffffffff"); // not the key the CLI sends
        QVERIFY(server.ok());
        const auto run = train(server, {"name=rejected", "epochs=1", "remote=user/proj"}); // terminal mode
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QVERIFY2(run.err.contains("Platform: streaming run rejected to user/proj"), run.err.constData());
        QVERIFY2(run.err.contains("HTTP 401") && run.err.contains("training goes on locally"),
                 run.err.constData());
        QVERIFY2(run.err.contains("remote sync project=" + QByteArray::fromStdString(m_project.string())),
                 run.err.constData());
        QVERIFY(run.err.contains("1 epochs completed"));
        QVERIFY(std::filesystem::file_size(m_project / "runs" / "rejected" / "weights" / "best.pt") > 1000);
        QVERIFY(server.events().empty());
        QVERIFY(!run.out.contains(kTestKey) && !run.err.contains(kTestKey));
        checkNoKeyInProject();
    }

private:
    QProcessEnvironment environment(const FakePlatform& server, bool withKey) const {
        auto env = QProcessEnvironment::systemEnvironment();
        if (withKey)
            env.insert("ULTRALYTICS_API_KEY", kTestKey);
        else
            env.remove("ULTRALYTICS_API_KEY");
        env.insert("ULTRALYTICS_PLATFORM_URL", QString::fromStdString(server.url()));
        env.insert("XDG_CONFIG_HOME", m_config.path()); // no stored key
        env.insert("NO_PROXY", "127.0.0.1,localhost");
        env.insert("no_proxy", "127.0.0.1,localhost");
        env.remove("DBUS_SESSION_BUS_ADDRESS"); // no keychain
        env.insert("OMP_NUM_THREADS", "2");
        return env;
    }

    QStringList trainArguments(const QStringList& extra) const {
        return QStringList{"train",     "project=" + QString::fromStdString(m_project.string()),
                           "imgsz=64",  "batch=8",
                           "workers=1", "threads=2",
                           "seed=1"} +
               extra;
    }

    CliRun train(const FakePlatform& server, const QStringList& extra, bool withKey = true) const {
        CliRun run;
        QProcess cli;
        cli.setProcessEnvironment(environment(server, withKey));
        cli.start(OSPREY_CLI_PATH, trainArguments(extra));
        if (!cli.waitForFinished(kTrainTimeoutMs)) {
            cli.kill();
            cli.waitForFinished();
        }
        run.exitCode = cli.exitStatus() == QProcess::NormalExit ? cli.exitCode() : -1;
        run.out = cli.readAllStandardOutput();
        run.err = cli.readAllStandardError();
        run.lines = parseLines(run.out);
        return run;
    }

    void checkNoKeyInProject() const {
        int files = 0;
        bool control = false;
        for (const auto& entry : std::filesystem::recursive_directory_iterator(m_project)) {
            if (!entry.is_regular_file())
                continue;
            ++files;
            const QByteArray bytes = readFileBytes(entry.path());
            QVERIFY2(!bytes.contains(kTestKey), entry.path().c_str());
            // Positive control: the scan reads what the run wrote (the outbox names the platform project).
            control = control || (entry.path().filename().string().rfind("project.osprey", 0) == 0 &&
                                  bytes.contains("user/proj"));
        }
        QVERIFY(files >= 10);
        QVERIFY(control);
    }

    QTemporaryDir m_dir, m_config;
    std::filesystem::path m_project;
    json m_streamedComplete; ///< what the platform received as the streamed run's training_complete
};

QTEST_GUILESS_MAIN(TestRemoteTrainCli)
#include "tst_remote_train_cli.moc"
