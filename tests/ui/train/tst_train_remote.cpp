// Streaming to the platform, GUI side: recorded `remote` lines (core/run/EVENTS.md) drive the status
// badge, the dashboard link and the upload bar; unknown event types are ignored; the train form's
// "Stream to platform" switch passes remote=user/proj and the project remembers it; a stand-in trainer
// printing remote lines reaches the view through TrainPanel.

#include "ui/main/main_window.h"
#include "ui/project/project_document.h"
#include "ui/train/remote_status_widget.h"
#include "ui/train/train_panel.h"
#include "ui/train/train_settings.h"
#include "ui/train/training_charts.h"
#include "ui/train/training_run_model.h"
#include "ui/train/training_view.h"

#include <QCheckBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace osprey::ui;

namespace {

// What `osprey-cli train ... events=jsonl remote=alice/shapes` prints, in order, over a run.
const char* const kConnecting =
    R"({"type":"remote","v":1,"t":0.4,"state":"connecting","queued":1,"delivered":0,"failed":0,"error":"","dashboard_url":"","uploading":false,"upload_sent":0,"upload_total":0,"cancelled":false})";
const char* const kConnected =
    R"({"type":"remote","v":1,"t":3.1,"state":"connected","queued":3,"delivered":5,"failed":0,"error":"","dashboard_url":"https://platform.example.com/alice/shapes/run1","uploading":false,"upload_sent":0,"upload_total":0,"cancelled":false})";
const char* const kRetrying =
    R"({"type":"remote","v":1,"t":9.0,"state":"retrying","queued":7,"delivered":5,"failed":0,"error":"connection refused","dashboard_url":"https://platform.example.com/alice/shapes/run1","uploading":false,"upload_sent":0,"upload_total":0,"cancelled":false})";
const char* const kUploading =
    R"({"type":"remote","v":1,"t":20.5,"state":"connected","queued":1,"delivered":12,"failed":0,"error":"","dashboard_url":"https://platform.example.com/alice/shapes/run1","uploading":true,"upload_sent":26214400,"upload_total":104857600,"cancelled":false})";
const char* const kUnauthorized =
    R"({"type":"remote","v":1,"t":21.0,"state":"unauthorized","queued":4,"delivered":12,"failed":0,"error":"HTTP 401","dashboard_url":"https://platform.example.com/alice/shapes/run1","uploading":false,"upload_sent":26214400,"upload_total":104857600,"cancelled":false})";
const char* const kFinished =
    R"({"type":"remote","v":1,"t":30.0,"state":"finished","queued":0,"delivered":42,"failed":0,"error":"","dashboard_url":"https://platform.example.com/alice/shapes/run1","uploading":false,"upload_sent":104857600,"upload_total":104857600,"cancelled":false})";

void writeScript(const QString& path, const QByteArray& body) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("#!/bin/sh\n" + body);
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

} // namespace

class TestTrainRemote : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!qEnvironmentVariable("OSPREY_SCREENSHOT_DIR").isEmpty())
            applyTheme(); // screenshots show the dashboard as users see it
    }
    void recordedLinesDriveBadgeLinkAndUpload();
    void unknownTypesAndUnsafeLinksAreIgnored();
    void streamSwitchPassesRemoteAndRemembersIt();
    void trainerRemoteLinesReachTheView();
};

void TestTrainRemote::recordedLinesDriveBadgeLinkAndUpload() {
    TrainingRunModel model;
    TrainingView view;
    view.setModel(&model);
    view.resize(1000, 600);
    view.show();
    RemoteStatusWidget* remote = view.remoteStatus();
    view.refresh();
    QVERIFY(remote->isHidden()); // a run that does not stream shows no badge

    QVERIFY(model.ingestLine(kConnecting));
    view.refresh();
    QVERIFY(remote->isVisible());
    QCOMPARE(remote->badge()->text(), QString("Platform: connecting…"));
    QVERIFY(remote->link()->isHidden()); // no URL yet
    QVERIFY(remote->uploadBar()->isHidden());

    QVERIFY(model.ingestLine(kConnected));
    view.refresh();
    QCOMPARE(remote->badge()->text(), QString("Platform: connected · 3 queued"));
    QCOMPARE(RemoteStatusWidget::tone(model.remote()), RemoteStatusWidget::Tone::Good);
    QVERIFY(remote->link()->isVisible());
    QVERIFY(remote->link()->text().contains("href=\"https://platform.example.com/alice/shapes/run1\""));
    QVERIFY(remote->link()->openExternalLinks());

    QVERIFY(model.ingestLine(kRetrying));
    view.refresh();
    QCOMPARE(remote->badge()->text(),
             QString("Platform: unreachable (connection refused), retrying · 7 queued"));
    QCOMPARE(RemoteStatusWidget::tone(model.remote()), RemoteStatusWidget::Tone::Busy);
    QVERIFY(remote->badge()->toolTip().contains("Nothing is lost"));

    QVERIFY(model.ingestLine(kUploading));
    view.refresh();
    QVERIFY(remote->uploadBar()->isVisible());
    QCOMPARE(remote->uploadBar()->maximum(), 1000);
    QCOMPARE(remote->uploadBar()->value(), 250); // 25 of 100 MiB
    QCOMPARE(remote->uploadBar()->format(), QString("Uploading weights: 25.0 / 100.0 MB"));

    QVERIFY(model.ingestLine(kUnauthorized));
    view.refresh();
    QCOMPARE(remote->badge()->text(), QString("Platform: key rejected (401) · reporting stopped"));
    QCOMPARE(RemoteStatusWidget::tone(model.remote()), RemoteStatusWidget::Tone::Bad);
    QVERIFY(remote->badge()->toolTip().contains("HTTP 401"));
    QVERIFY(remote->badge()->toolTip().contains("Settings → Platform"));
    QCOMPARE(remote->uploadBar()->format(), QString("Upload interrupted at 25.0 / 100.0 MB; it is retried"));
    // State changes are logged to the console with their reason.
    QVERIFY(model.logLines().last().contains("platform: unauthorized (HTTP 401)"));

    QVERIFY(model.ingestLine(kFinished));
    view.refresh();
    QCOMPARE(remote->badge()->text(), QString("Platform: done · 42 delivered"));
    QCOMPARE(RemoteStatusWidget::tone(model.remote()), RemoteStatusWidget::Tone::Good);
    QCOMPARE(remote->uploadBar()->value(), 1000);
    QCOMPARE(remote->uploadBar()->format(), QString("Weights uploaded: 100.0 MB"));

    // Cancelled on the platform and rejected events are both named.
    QVERIFY(model.ingestLine(
        R"({"type":"remote","v":1,"t":31,"state":"connected","queued":0,"delivered":43,"failed":2,"error":"HTTP 422","cancelled":true})"));
    view.refresh();
    QCOMPARE(remote->badge()->text(),
             QString("Platform: connected · 2 rejected · cancelled on the platform"));
    // The URL from earlier lines is kept when a line leaves it out.
    QCOMPARE(model.remote().dashboardUrl, QString("https://platform.example.com/alice/shapes/run1"));

    // Streaming off with a reason (no key) is shown; off without a reason hides the row.
    model.clear();
    QVERIFY(model.ingestLine(
        R"({"type":"remote","v":1,"t":0.1,"state":"off","queued":0,"delivered":0,"failed":0,"error":"no API key: run osprey-cli remote login"})"));
    view.refresh();
    QVERIFY(remote->isVisible());
    QCOMPARE(remote->badge()->text(), QString("Platform: off (no API key: run osprey-cli remote login)"));
    QVERIFY(model.ingestLine(R"({"type":"remote","v":1,"t":0.2,"state":"off"})"));
    view.refresh();
    QVERIFY(remote->isHidden());

    if (const QString shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR"); !shots.isEmpty()) {
        // A run in progress that streams: a few epochs, then the badge while best.pt uploads.
        model.clear();
        QVERIFY(model.ingestLine(R"({"type":"run_started","v":1,"t":0,"epochs":30,"run_dir":"/p/runs/exp",)"
                                 R"("model":{"name":"yolov8s"}})"));
        QVERIFY(model.ingestLine(kConnected));
        for (int epoch = 1; epoch <= 12; ++epoch) {
            const double loss = 2.0 / (1.0 + 0.15 * epoch) + 0.4;
            const double map = 0.5 * (1.0 - std::exp(-epoch / 5.0));
            const QJsonObject metrics{{"train/box_loss", loss},
                                      {"train/cls_loss", 1.5 * loss},
                                      {"train/dfl_loss", 0.8 + 0.3 * loss},
                                      {"val/box_loss", 1.1 * loss},
                                      {"val/cls_loss", 1.6 * loss},
                                      {"val/dfl_loss", 0.85 + 0.3 * loss},
                                      {"metrics/mAP50(B)", map * 1.5},
                                      {"metrics/mAP50-95(B)", map},
                                      {"metrics/precision(B)", 0.3 + map},
                                      {"metrics/recall(B)", 0.2 + map},
                                      {"lr/pg0", 0.01 - epoch * 0.0003},
                                      {"lr/pg1", 0.01 - epoch * 0.0003},
                                      {"lr/pg2", 0.01 - epoch * 0.0003}};
            const QJsonObject event{{"type", "epoch"},
                                    {"v", 1},
                                    {"t", epoch * 20.0},
                                    {"epoch", epoch},
                                    {"epochs", 30},
                                    {"metrics", metrics},
                                    {"best", true},
                                    {"images_per_s", 41.5},
                                    {"eta_s", (30 - epoch) * 20.0}};
            QVERIFY(model.ingestLine(QJsonDocument(event).toJson(QJsonDocument::Compact)));
        }
        QVERIFY(model.ingestLine(kUploading));
        view.resize(1400, 800);
        view.refresh();
        view.charts()->refresh();
        QTest::qWait(50); // let the layout settle before the grab
        view.grab().save(shots + "/dashboard-remote.png");
    }
}

void TestTrainRemote::unknownTypesAndUnsafeLinksAreIgnored() {
    TrainingRunModel model;
    QSignalSpy changed(&model, &TrainingRunModel::changed);
    QVERIFY(model.ingestLine(R"({"type":"telemetry_v2","v":2,"t":1,"payload":{"x":[1,2,3]}})"));
    QVERIFY(model.ingestLine(R"({"v":1,"t":1})")); // no type at all
    QCOMPARE(changed.count(), 0);
    QCOMPARE(model.status(), TrainingRunModel::Status::Empty);
    QVERIFY(!model.remote().valid);
    // Wrong value types do not crash and read as empty/zero.
    QVERIFY(
        model.ingestLine(R"({"type":"remote","v":1,"t":"x","state":5,"queued":"many","upload_total":-3})"));
    QVERIFY(model.remote().valid);
    QCOMPARE(model.remote().queued, 0);
    QCOMPARE(model.remote().uploadTotalBytes, 0);
    // Only http(s) dashboard links become clickable.
    QVERIFY(model.ingestLine(
        R"j({"type":"remote","v":1,"t":2,"state":"connected","dashboard_url":"javascript:alert(1)"})j"));
    QVERIFY(model.remote().dashboardUrl.isEmpty());
}

void TestTrainRemote::streamSwitchPassesRemoteAndRemembersIt() {
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY2(document, qPrintable(error));
    const QString script = dir.filePath("fake-cli");
    writeScript(script, "echo '{\"type\":\"failed\",\"v\":1,\"t\":0,\"epoch\":0,\"reason\":\"stand-in\"}'\n");
    {
        TrainPanel panel(document.get());
        panel.setTrainerPath(script);
        TrainForm* form = panel.form();
        auto* stream = form->findChild<QCheckBox*>("stream");
        auto* remote = form->findChild<QLineEdit*>("remote");
        QVERIFY(stream && remote);
        QVERIFY(!stream->isChecked());
        QVERIFY(!remote->isEnabled()); // editable only with streaming on
        QCOMPARE(remote->placeholderText(), QString("user/project"));
        QVERIFY(!form->trainArguments().join(' ').contains("remote="));

        // On without a project: a clear refusal, nothing starts.
        stream->setChecked(true);
        QVERIFY(remote->isEnabled());
        QVERIFY(!panel.start(&error));
        QVERIFY(error.contains("user/project"));
        QVERIFY(!panel.requestStart(&error));
        QVERIFY(!panel.isRunning());

        remote->setText("alice/shapes");
        QVERIFY(form->trainArguments().contains("remote=alice/shapes"));
        QSignalSpy ended(&panel, &TrainPanel::runEnded);
        QVERIFY2(panel.start(&error), qPrintable(error));
        QVERIFY(panel.lastArguments().contains("remote=alice/shapes"));
        QVERIFY(ended.wait(10000));
        QCOMPARE(document->project().settings().get("remote.project").value(), std::string("alice/shapes"));

        // Turned off again: no remote= even though the field keeps its text.
        stream->setChecked(false);
        QVERIFY(!form->trainArguments().join(' ').contains("remote="));
    }
    // A new panel on the same project starts from the remembered platform project.
    TrainPanel again(document.get());
    QCOMPARE(again.form()->value("remote").toString(), QString("alice/shapes"));
    QCOMPARE(again.form()->value("stream").toBool(), false);
}

void TestTrainRemote::trainerRemoteLinesReachTheView() {
    QTemporaryDir dir;
    QString error;
    auto document = ProjectDocument::create(dir.filePath("p"), &error);
    QVERIFY2(document, qPrintable(error));
    QByteArray body = "echo '{\"type\":\"run_started\",\"v\":1,\"t\":0,\"epochs\":2,\"run_dir\":\"x/runs/r\","
                      "\"model\":{\"name\":\"yolov8n\"}}'\n";
    for (const char* line : {kConnecting, kConnected, kUploading})
        body += "echo '" + QByteArray(line) + "'\nsleep 0.05\n";
    body += "echo '{\"type\":\"finished\",\"v\":1,\"t\":25,\"status\":\"finished\",\"epochs_completed\":2,"
            "\"message\":\"done\"}'\n";
    // The CLI's last remote line follows `finished` (it reports the final upload).
    body += "echo '" + QByteArray(kFinished) + "'\n";
    const QString script = dir.filePath("fake-cli");
    writeScript(script, body);

    TrainPanel panel(document.get());
    panel.setTrainerPath(script);
    QSignalSpy ended(&panel, &TrainPanel::runEnded);
    QVERIFY2(panel.start(&error), qPrintable(error));
    QVERIFY(ended.wait(10000));
    panel.view()->refresh();
    RemoteStatusWidget* remote = panel.view()->remoteStatus();
    QCOMPARE(panel.liveModel()->status(), TrainingRunModel::Status::Finished);
    QCOMPARE(remote->badge()->text(), QString("Platform: done · 42 delivered"));
    QVERIFY(remote->link()->text().contains("https://platform.example.com/alice/shapes/run1"));
    QCOMPARE(remote->uploadBar()->value(), 1000);
    QVERIFY(panel.liveModel()->logLines().join('\n').contains("platform: connected"));
}

QTEST_MAIN(TestTrainRemote)
#include "tst_train_remote.moc"
