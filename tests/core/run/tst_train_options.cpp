// The training option table (core/run): its defaults pass their own checks, a default-constructed
// TrainConfig holds them, parsing checks types, ranges and choices with the key in the message, and
// toMap() writes every option (args.yaml) in the form applyArgs reads back.

#include "run/train_config.h"
#include "run/train_options.h"

#include <QtTest>

#include <set>

using namespace osprey::run;

class TestTrainOptions : public QObject {
    Q_OBJECT
private slots:
    void everyDefaultPassesItsOwnCheck() {
        std::set<std::string> keys;
        for (const OptionSpec& option : trainOptions()) {
            QVERIFY2(keys.insert(option.key).second, option.key.c_str());
            QVERIFY2(!option.help.empty(), option.key.c_str());
            if (shows(option.shownIn, FrontEnd::Gui))
                QVERIFY2(!option.label.empty(), option.key.c_str());
            auto value = normalizeOptionValue(option, option.defaultValue);
            QVERIFY2(value.hasValue(), option.key.c_str());
        }
        QVERIFY(TrainConfig().check().hasValue());
    }

    void defaultConfigHoldsTheRecipe() {
        const TrainConfig config;
        QCOMPARE(config.model, std::string("yolov8n"));
        QCOMPARE(config.epochs, 100);
        QCOMPARE(config.batch, 16);
        QCOMPARE(config.imgsz, 640);
        QCOMPARE(config.device, std::string("cpu"));
        QCOMPARE(config.workers, -1);
        QVERIFY(config.optimizer == OptimizerKind::Auto);
        QVERIFY(config.schedule == LrSchedule::Linear);
        QCOMPARE(config.lr0, 0.01);
        QCOMPARE(config.weightDecay, 0.0005);
        QCOMPARE(config.momentum, 0.937);
        QCOMPARE(config.nominalBatch, 64);
        QCOMPARE(config.mosaic, 1.0);
        QCOMPARE(config.closeMosaic, 10);
        QCOMPARE(config.hsvH, 0.015);
        QCOMPARE(config.boxGain, 7.5);
        QCOMPARE(config.valConf, 0.001);
        QCOMPARE(config.valMaxDet, 300);
        QVERIFY(config.amp);
        QVERIFY(config.validate);
        QVERIFY(!config.resume);
        QCOMPARE(config.gradClipNorm, 10.0);
    }

    void toMapRoundTripsThroughApplyArgs() {
        TrainConfig config;
        QVERIFY(applyArgs(config, {{"epochs", "7"},
                                   {"optimizer", "adamw"},
                                   {"cos_lr", "yes"},
                                   {"lr0", "0.002"},
                                   {"seed", "42"},
                                   {"name", "exp 1"},
                                   {"not_an_option", "x"}})
                    .hasValue());
        QCOMPARE(config.epochs, 7);
        QVERIFY(config.optimizer == OptimizerKind::AdamW);
        QVERIFY(config.schedule == LrSchedule::Cosine);
        QCOMPARE(config.seed, std::uint64_t(42));
        const auto map = config.toMap();
        QCOMPARE(map.size(), trainOptions().size());
        QCOMPARE(map.at("optimizer"), std::string("AdamW"));
        QCOMPARE(map.at("cos_lr"), std::string("true"));
        QCOMPARE(map.at("weight_decay"), std::string("0.0005"));
        QCOMPARE(map.at("lr0"), std::string("0.002"));
        TrainConfig again;
        QVERIFY(applyArgs(again, map).hasValue());
        QVERIFY(again.toMap() == map);
    }

    void badValuesNameTheKey() {
        const auto errorOf = [](const std::string& key, const std::string& value) {
            TrainConfig config;
            auto status = applyArgs(config, {{key, value}});
            return status ? std::string() : status.message();
        };
        QCOMPARE(errorOf("epochs", "ten"), std::string("epochs: 'ten' is not an integer"));
        QCOMPARE(errorOf("epochs", "0"),
                 std::string("epochs: 0 is out of range; it must be between 1 and 10000"));
        QCOMPARE(errorOf("lr0", "fast"), std::string("lr0: 'fast' is not a number"));
        QCOMPARE(errorOf("fliplr", "1.5"),
                 std::string("fliplr: 1.5 is out of range; it must be between 0 and 1"));
        QCOMPARE(errorOf("amp", "maybe"), std::string("amp: 'maybe' is not true or false"));
        QCOMPARE(errorOf("optimizer", "adam"),
                 std::string("optimizer: unknown value 'adam'; use auto, SGD, AdamW or MuSGD"));
        // Open choices: a CUDA index or another model spelling is for the engine to judge.
        QCOMPARE(errorOf("device", "0"), std::string());
        QCOMPARE(errorOf("model", "YOLOv8s.pt"), std::string());

        TrainConfig config;
        config.imgsz = 100;
        QCOMPARE(config.check().message(), std::string("imgsz: must be a positive multiple of 32 (got 100)"));
        config.imgsz = 320;
        config.batch = 0;
        QCOMPARE(config.check().message(),
                 std::string("batch: 0 is out of range; it must be between 1 and 1024 (whole images), -1 "
                             "(AutoBatch) or a fraction between 0 and 1 (AutoBatch for that share of free "
                             "GPU memory)"));
        // YOLO26 trains like the other families.
        config.batch = 16;
        config.model = "YOLO26s.pt";
        QVERIFY(config.check().hasValue());
        // Nesterov SGD without momentum is refused before a run folder is claimed (LibTorch would throw).
        config.momentum = 0;
        for (const auto kind : {OptimizerKind::Auto, OptimizerKind::Sgd, OptimizerKind::MuSgd}) {
            config.optimizer = kind;
            QVERIFY(config.check().message().starts_with("momentum: 0 does not work with optimizer="));
        }
        config.optimizer = OptimizerKind::AdamW;
        QVERIFY(config.check().hasValue());
        config.model = "yolo11s";
        QVERIFY(config.check().hasValue());
    }

    void addedOptionLivesInExtra() {
        QVERIFY(!addTrainOption({.key = "epochs"}).hasValue());
        QVERIFY(!addTrainOption({.key = "bad_default", .type = OptionType::Integer, .defaultValue = "x"})
                     .hasValue());
        QVERIFY(addTrainOption({.key = "mixup",
                                .type = OptionType::Number,
                                .defaultValue = "0",
                                .help = "mixup probability",
                                .minimum = 0,
                                .maximum = 1})
                    .hasValue());
        TrainConfig config;
        QCOMPARE(config.toMap().at("mixup"), std::string("0"));
        QVERIFY(applyArgs(config, {{"mixup", "0.25"}}).hasValue());
        QCOMPARE(config.extra.at("mixup"), std::string("0.25"));
        QVERIFY(!applyArgs(config, {{"mixup", "2"}}).hasValue());
    }
};

QTEST_APPLESS_MAIN(TestTrainOptions)
#include "tst_train_options.moc"
