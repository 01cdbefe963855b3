// A run's curves (<run>/curves.json and the platform's training_complete plots) against Ultralytics 8.4.190
// run in the same test on the same predictions: the Ultralytics-trained fixture's detections on its 100 val
// images (reference/run_curves_reference.py). Osprey's scorer, the one the trainer validates with, must give
// the PR, F1, P and R curves within 1e-3 at each of the 101 points, the same per-class AP, the best-F1
// confidence within 0.01, and the platform's validation payload (ranking, ids, counts) exactly. Skipped
// without the Ultralytics venv (packaging/setup-test-peers.sh).
#include "../../peer_python.h"
#include "remote/event_mapper.h"
#include "run/run_curves.h"
#include "train/ultralytics_scorer.h"

#include <nlohmann/json.hpp>

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace osprey;
using nlohmann::json;

namespace {

double maxDifference(const json& reference, const std::vector<std::vector<double>>& ours) {
    double worst = 0;
    if (reference.size() != ours.size())
        return 1e9;
    for (size_t row = 0; row < ours.size(); ++row) {
        if (reference[row].size() != ours[row].size())
            return 1e9;
        for (size_t i = 0; i < ours[row].size(); ++i)
            worst = std::max(worst, std::abs(reference[row][i].get<double>() - ours[row][i]));
    }
    return worst;
}

} // namespace

class TestRunCurvesUltralytics : public QObject {
    Q_OBJECT
private slots:
    void curvesMatchUltralytics() {
        const QString python = osprey::test::ultralyticsPython();
        if (python.isEmpty())
            QSKIP("no Python with ultralytics (set OSPREY_ULTRALYTICS_PYTHON or run "
                  "packaging/setup-test-peers.sh); skipping");
        QTemporaryDir dir;
        const QString out = dir.filePath("reference.json");
        QProcess script;
        script.start(python,
                     {QStringLiteral(OSPREY_TEST_SOURCE_DIR) + "/reference/run_curves_reference.py",
                      QStringLiteral(OSPREY_SHARED_DIR) + "/fixtures/models/ultralytics-trained", out});
        QVERIFY2(script.waitForFinished(600000), "the Ultralytics script timed out");
        QVERIFY2(script.exitCode() == 0, script.readAllStandardError().right(3000).constData());
        qInfo("Ultralytics: %s", script.readAllStandardOutput().trimmed().constData());
        std::ifstream in(out.toStdString());
        const json ref = json::parse(in);

        // The same boxes through the trainer's scorer.
        const auto classNames = ref["classNames"].get<std::vector<std::string>>();
        train::UltralyticsScorer scorer(static_cast<int>(classNames.size()));
        std::vector<std::string> names;
        for (const auto& image : ref["images"]) {
            std::vector<train::TargetBox> truths;
            for (const auto& t : image["truths"])
                truths.push_back({0, t[0].get<int>(), t[1].get<float>(), t[2].get<float>(), t[3].get<float>(),
                                  t[4].get<float>()});
            std::vector<train::ScoredBox> detections;
            for (const auto& d : image["detections"])
                detections.push_back({d[2].get<float>(), d[3].get<float>(), d[4].get<float>(),
                                      d[5].get<float>(), d[1].get<float>(), d[0].get<int>()});
            scorer.addImage(truths, detections);
            names.push_back(image["name"].get<std::string>());
        }
        const auto metrics = scorer.compute();
        auto curves = scorer.curves(names);
        QVERIFY(curves.has_value());
        curves->classNames = classNames;
        curves->confusionMatrix.assign((classNames.size() + 1) * (classNames.size() + 1), 0.0);
        qInfo("Osprey: mAP50-95 %.5f, best conf %.3f", metrics.map50to95, curves->bestConfidence);

        QCOMPARE(json(curves->classes), ref["classes"]);
        QVERIFY(std::abs(metrics.map50to95 - ref["map50to95"].get<double>()) < 1e-6);
        QVERIFY(std::abs(metrics.map50 - ref["map50"].get<double>()) < 1e-6);
        QVERIFY2(std::abs(curves->bestConfidence - ref["bestConfidence"].get<double>()) < 0.01,
                 qPrintable(QString("best-F1 confidence %1, Ultralytics %2")
                                .arg(curves->bestConfidence)
                                .arg(ref["bestConfidence"].get<double>())));
        // The plots as the platform receives them, point by point.
        const json ours = remote::platformPlots(*curves);
        for (const auto& plot : ref["plots"]) {
            const std::string type = plot["type"].get<std::string>();
            const auto match =
                std::find_if(ours.begin(), ours.end(), [&](const json& p) { return p["type"] == type; });
            QVERIFY2(match != ours.end(), type.c_str());
            QCOMPARE((*match)["x"].size(), size_t(101));
            QVERIFY(maxDifference(json::array({plot["x"]}), {(*match)["x"].get<std::vector<double>>()}) <
                    1e-12);
            const auto rows = (*match)["y"].get<std::vector<std::vector<double>>>();
            const double difference = maxDifference(plot["y"], rows);
            qInfo("%s: largest difference %.2e over %zu rows of 101", type.c_str(), difference, rows.size());
            QVERIFY2(difference < 1e-3, type.c_str());
            if (type == "pr_curve")
                QVERIFY(maxDifference(plot["ap"], (*match)["ap"].get<std::vector<std::vector<double>>>()) <
                        1e-9);
        }
        // The validation payload: the same ranking, ids and counts.
        QCOMPARE(remote::validationPayload(*curves).dump(), ref["validation"].dump());
    }
};

QTEST_GUILESS_MAIN(TestRunCurvesUltralytics)
#include "tst_run_curves_ultralytics.moc"
