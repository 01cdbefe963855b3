// The training options reach every front end from the one table in core/run: `osprey-cli help train`
// and `help val` list the same keys with the same defaults as before the table existed, and an option
// added to the table (here a throw-away one, added by this test) shows up in the CLI help, is parsed
// into the config, and is drawn by the GUI form, without any other edit.

#include "assist/assist_options.h"
#include "assist/proposal.h"
#include "cli/train_args.h"
#include "cli/verb.h"
#include "formats/folder_watch.h"
#include "formats/format_options.h"
#include "formats/video_import.h"
#include "model/detection.h"
#include "planner/break_even.h"
#include "planner/estimate_plan.h"
#include "run/train_options.h"
#include "ui/train/train_settings.h"

#include <QDoubleSpinBox>
#include <QtTest>

#include <map>
#include <sstream>

using namespace osprey;

namespace {

/// key -> default ("" when none, "required" when required), read back from the printed help.
std::map<std::string, std::string> helpDefaults(const std::string& verb) {
    std::map<std::string, std::string> keys;
    std::istringstream in(cli::helpText(cli::verbs().at(verb)));
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("  ", 0) != 0)
            continue;
        const auto start = line.find_first_not_of(' ');
        const std::string key = line.substr(start, line.find(' ', start) - start);
        const auto bracket = line.rfind('[');
        const std::string tail = line.substr(bracket);
        std::string value;
        if (tail.find(", required") != std::string::npos)
            value = "required";
        else if (const auto at = tail.find(", default "); at != std::string::npos)
            value = tail.substr(at + 10, tail.size() - at - 11);
        keys[key] = value;
    }
    return keys;
}

} // namespace

class TestOptionFrontEnds : public QObject {
    Q_OBJECT
private slots:
    void cliHelpListsTheSameKeysAndDefaults() {
        // `osprey-cli help train` as it was when app/cli/train.cpp declared the keys itself.
        std::map<std::string, std::string> train{
            {"project", "required"}, {"model", "yolov8n"}, {"weights", ""},        {"epochs", "100"},
            {"imgsz", "640"},        {"batch", "16"},      {"device", "cpu"},      {"optimizer", "auto"},
            {"lr0", "0.01"},         {"lrf", "0.01"},      {"momentum", "0.937"},  {"weight_decay", "0.0005"},
            {"warmup_epochs", "3"},  {"patience", "100"},  {"workers", "-1"},      {"name", ""},
            {"seed", "0"},           {"cos_lr", "false"},  {"close_mosaic", "10"}, {"mosaic", "1.0"},
            {"fliplr", "0.5"},       {"hsv_h", "0.015"},   {"hsv_s", "0.7"},       {"hsv_v", "0.4"},
            {"translate", "0.1"},    {"scale", "0.5"},     {"resume", "false"},    {"events", ""},
            {"remote", ""},          {"threads", "0"},     {"amp", "true"},        {"nbs", "64"}};
        // Data-parallel processes and SyncBN (issue 18), inserted whole: assigning these literals draws a
        // GCC 12 -Wrestrict false positive.
        train.insert({{"workers_per_node", "0"}, {"sync_bn", "false"}});
        // MLflow tracking (issue 35).
        train.insert({{"mlflow", ""}, {"mlflow_experiment", ""}});
        // The RAM cache of decoded images (issue 37).
        train.insert({{"cache", "false"}});
        QVERIFY(helpDefaults("train") == train);
        std::map<std::string, std::string> val{
            {"project", "required"}, {"weights", "required"}, {"imgsz", "640"}, {"batch", "16"},
            {"device", "cpu"},       {"workers", "-1"},       {"threads", "0"}, {"conf", "0.001"},
            {"iou", "0.7"},          {"max_det", "300"}};
        // Its pictures (issue 33).
        val.insert({{"plots", "true"}, {"save_dir", ""}});
        // YOLO26's head choice (issue 30).
        val.insert({{"nms", "true"}});
        QVERIFY(helpDefaults("val") == val);
        // And the help is the table: every command-line option with its declared default.
        const auto printed = helpDefaults("train");
        for (const run::OptionSpec& option : run::trainOptions())
            if (run::shows(option.shownIn, run::FrontEnd::Cli))
                QCOMPARE(printed.at(option.key), option.defaultValue);
    }

    void coreDefaultsAreTheDeclaredOnes() {
        // The thresholds are declared once (core/model) and reach predict, autolabel and both core structs.
        const auto declared = [](const std::vector<run::OptionSpec>& table, const char* key) {
            const run::OptionSpec* option = run::findOption(table, key);
            return option ? std::stod(option->defaultValue) : -1.0;
        };
        const double conf = declared(model::thresholdOptions(), "conf");
        QCOMPARE(conf, 0.25);
        QCOMPARE(declared(assist::predictOptions(), "conf"), conf);
        QCOMPARE(declared(assist::autoLabelOptions(), "conf"), conf);
        QCOMPARE(assist::SuggestOptions{}.confThreshold, float(conf));
        QCOMPARE(model::NmsOptions{}.confThreshold, float(conf));
        QCOMPARE(model::NmsOptions{}.iouThreshold, float(declared(model::thresholdOptions(), "iou")));
        QCOMPARE(double(assist::SuggestOptions{}.maxDetections),
                 declared(assist::predictOptions(), "max_det"));
        // The planner's break-even and power defaults: one row each for the CLI, the GUI and the core.
        const planner::BreakEvenInputs breakEven;
        QCOMPARE(breakEven.hardwareCost, declared(planner::planBreakEvenOptions(), "hardware"));
        QCOMPARE(breakEven.cloudPerHour, 0.89);
        QCOMPARE(breakEven.powerPerHour, declared(planner::planOptions(), "power"));
        QCOMPARE(planner::PlanInputs{}.thisMachinePowerPerHour, breakEven.powerPerHour);
        // Video import (issue 36): the CLI's keys and the core struct's defaults are the declared ones.
        const formats::VideoImportOptions video;
        QCOMPARE(video.fps, declared(formats::datasetImportOptions(), "fps"));
        QCOMPARE(double(video.every), declared(formats::datasetImportOptions(), "every"));
        QCOMPARE(double(video.dedupBits), declared(formats::datasetImportOptions(), "dedup"));
        const auto import = helpDefaults("import");
        QCOMPARE(import.at("source"), std::string()); // required unless videos= is given
        QCOMPARE(import.at("videos"), std::string());
        QCOMPARE(import.at("fps"), std::string("1"));
        QCOMPARE(import.at("every"), std::string("0"));
        QCOMPARE(import.at("dedup"), std::to_string(formats::kDefaultDedupBits));
        QVERIFY(import.count("start") && import.count("end"));
        QCOMPARE(import.at("watch"), std::string("false"));
        QCOMPARE(import.at("interval"), std::string("2"));
        QCOMPARE(formats::WatchOptions{}.interval.count(),
                 static_cast<long long>(declared(formats::datasetImportOptions(), "interval") * 1000));
    }

    void throwAwayOptionReachesEveryFrontEnd() {
        QVERIFY(run::addTrainOption({.key = "test_gain",
                                     .type = run::OptionType::Number,
                                     .defaultValue = "0.25",
                                     .label = "Test gain",
                                     .help = "A throw-away option of tst_option_front_ends.",
                                     .shownIn = run::FrontEnd::Both,
                                     .minimum = 0,
                                     .maximum = 1})
                    .hasValue());

        const cli::Verb& verb = cli::verbs().at("train");
        const std::string help = cli::helpText(verb);
        const auto line = help.find("\n  test_gain ");
        QVERIFY2(line != std::string::npos, help.c_str());
        const std::string row = help.substr(line + 1, help.find('\n', line + 1) - line - 1);
        QVERIFY2(row.find(" A throw-away option of tst_option_front_ends [number, default 0.25]") !=
                     std::string::npos,
                 row.c_str());

        std::string error;
        auto args = cli::parseArgs(verb, {"project=p", "test_gain=0.75", "epochs=3"}, error);
        QVERIFY2(args, error.c_str());
        run::TrainConfig config;
        QVERIFY(cli::applyTrainArgs(config, *args).hasValue());
        QCOMPARE(config.extra.at("test_gain"), std::string("0.75"));
        QCOMPARE(config.epochs, 3);
        QCOMPARE(config.toMap().at("test_gain"), std::string("0.75"));
        args = cli::parseArgs(verb, {"project=p", "test_gain=3"}, error);
        QVERIFY(args);
        const auto status = cli::applyTrainArgs(config, *args);
        QVERIFY(!status);
        QCOMPARE(status.message(), std::string("test_gain: 3 is out of range; it must be between 0 and 1"));
        QVERIFY(!cli::parseArgs(verb, {"project=p", "test_gain=high"}, error));
        QVERIFY(error.find("test_gain") != std::string::npos);

        ui::TrainForm form;
        auto* editor = form.findChild<QDoubleSpinBox*>("test_gain");
        QVERIFY(editor);
        QCOMPARE(editor->value(), 0.25);
        QCOMPARE(editor->maximum(), 1.0);
        QCOMPARE(editor->toolTip(), QString("A throw-away option of tst_option_front_ends."));
        QVERIFY(form.setValue("test_gain", 0.5));
        QVERIFY(form.trainArguments().contains("test_gain=0.5"));
    }
};

QTEST_MAIN(TestOptionFrontEnds)
#include "tst_option_front_ends.moc"
