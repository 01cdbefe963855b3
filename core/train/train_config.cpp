#include "train/train_config.h"

#include "common/strings.h"

#include <sstream>

namespace osprey::train {

namespace {

std::string number(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace

std::string toString(OptimizerKind kind) {
    switch (kind) {
    case OptimizerKind::Auto:
        return "auto";
    case OptimizerKind::Sgd:
        return "SGD";
    case OptimizerKind::AdamW:
        return "AdamW";
    }
    return "auto";
}

Expected<OptimizerKind> parseOptimizer(const std::string& text) {
    const auto lower = toLower(text);
    if (lower == "auto")
        return OptimizerKind::Auto;
    if (lower == "sgd")
        return OptimizerKind::Sgd;
    if (lower == "adamw")
        return OptimizerKind::AdamW;
    return fail("optimizer: unknown value '" + text + "'; use auto, SGD or AdamW");
}

Status TrainConfig::check() const {
    if (epochs < 1)
        return fail("epochs: must be at least 1 (got " + std::to_string(epochs) + ")");
    if (batch < 1)
        return fail("batch: must be at least 1 (got " + std::to_string(batch) + ")");
    if (imgsz < 32 || imgsz % 32 != 0)
        return fail("imgsz: must be a positive multiple of 32 (got " + std::to_string(imgsz) + ")");
    if (workers < 0)
        return fail("workers: must not be negative");
    if (lr0 <= 0 || lrf <= 0)
        return fail("lr0 and lrf: must be positive");
    if (patience < 1)
        return fail("patience: must be at least 1");
    if (mosaic < 0 || mosaic > 1 || fliplr < 0 || fliplr > 1)
        return fail("mosaic and fliplr: probabilities must lie in 0..1");
    if (scale < 0 || scale >= 1 || translate < 0 || translate > 0.5)
        return fail("scale must lie in [0, 1) and translate in [0, 0.5]");
    return {};
}

std::map<std::string, std::string> TrainConfig::toMap() const {
    return {{"model", model},
            {"weights", weights},
            {"epochs", std::to_string(epochs)},
            {"patience", std::to_string(patience)},
            {"batch", std::to_string(batch)},
            {"imgsz", std::to_string(imgsz)},
            {"device", device},
            {"workers", std::to_string(workers)},
            {"threads", std::to_string(threads)},
            {"seed", std::to_string(seed)},
            {"name", name},
            {"resume", resume ? "true" : "false"},
            {"amp", amp ? "true" : "false"},
            {"optimizer", toString(optimizer)},
            {"lr0", number(lr0)},
            {"lrf", number(lrf)},
            {"momentum", number(momentum)},
            {"weight_decay", number(weightDecay)},
            {"warmup_epochs", number(warmupEpochs)},
            {"warmup_momentum", number(warmupMomentum)},
            {"warmup_bias_lr", number(warmupBiasLr)},
            {"cos_lr", schedule == LrSchedule::Cosine ? "true" : "false"},
            {"nbs", std::to_string(nominalBatch)},
            {"box", number(boxGain)},
            {"cls", number(clsGain)},
            {"dfl", number(dflGain)},
            {"mosaic", number(mosaic)},
            {"close_mosaic", std::to_string(closeMosaic)},
            {"translate", number(translate)},
            {"scale", number(scale)},
            {"fliplr", number(fliplr)},
            {"hsv_h", number(hsvH)},
            {"hsv_s", number(hsvS)},
            {"hsv_v", number(hsvV)},
            {"conf", number(valConf)},
            {"iou", number(valIou)},
            {"max_det", std::to_string(valMaxDet)},
            {"val", validate ? "true" : "false"}};
}

Status applyArgs(TrainConfig& config, const std::map<std::string, std::string>& args) {
    const auto bad = [](const std::string& key, const std::string& value, const char* expected) {
        return fail(key + ": '" + value + "' is not " + expected);
    };
    for (const auto& [key, value] : args) {
        std::string* text = nullptr;
        int* integer = nullptr;
        double* real = nullptr;
        bool* flag = nullptr;
        if (key == "model")
            text = &config.model;
        else if (key == "weights")
            text = &config.weights;
        else if (key == "device")
            text = &config.device;
        else if (key == "name")
            text = &config.name;
        else if (key == "epochs")
            integer = &config.epochs;
        else if (key == "patience")
            integer = &config.patience;
        else if (key == "batch")
            integer = &config.batch;
        else if (key == "imgsz")
            integer = &config.imgsz;
        else if (key == "workers")
            integer = &config.workers;
        else if (key == "threads")
            integer = &config.threads;
        else if (key == "nbs")
            integer = &config.nominalBatch;
        else if (key == "close_mosaic")
            integer = &config.closeMosaic;
        else if (key == "max_det")
            integer = &config.valMaxDet;
        else if (key == "resume")
            flag = &config.resume;
        else if (key == "amp")
            flag = &config.amp;
        else if (key == "val")
            flag = &config.validate;
        else if (key == "lr0")
            real = &config.lr0;
        else if (key == "lrf")
            real = &config.lrf;
        else if (key == "momentum")
            real = &config.momentum;
        else if (key == "weight_decay")
            real = &config.weightDecay;
        else if (key == "warmup_epochs")
            real = &config.warmupEpochs;
        else if (key == "warmup_momentum")
            real = &config.warmupMomentum;
        else if (key == "warmup_bias_lr")
            real = &config.warmupBiasLr;
        else if (key == "box")
            real = &config.boxGain;
        else if (key == "cls")
            real = &config.clsGain;
        else if (key == "dfl")
            real = &config.dflGain;
        else if (key == "mosaic")
            real = &config.mosaic;
        else if (key == "translate")
            real = &config.translate;
        else if (key == "scale")
            real = &config.scale;
        else if (key == "fliplr")
            real = &config.fliplr;
        else if (key == "hsv_h")
            real = &config.hsvH;
        else if (key == "hsv_s")
            real = &config.hsvS;
        else if (key == "hsv_v")
            real = &config.hsvV;
        else if (key == "conf")
            real = &config.valConf;
        else if (key == "iou")
            real = &config.valIou;
        if (text) {
            *text = value;
        } else if (integer) {
            const auto parsed = parseInt(value);
            if (!parsed)
                return bad(key, value, "an integer");
            *integer = static_cast<int>(*parsed);
        } else if (real) {
            const auto parsed = parseDouble(value);
            if (!parsed)
                return bad(key, value, "a number");
            *real = *parsed;
        } else if (flag) {
            const auto parsed = parseBool(value);
            if (!parsed)
                return bad(key, value, "true or false");
            *flag = *parsed;
        } else if (key == "seed") {
            const auto parsed = parseInt(value);
            if (!parsed || *parsed < 0)
                return bad(key, value, "a non-negative integer");
            config.seed = static_cast<std::uint64_t>(*parsed);
        } else if (key == "optimizer") {
            auto parsed = parseOptimizer(value);
            if (!parsed)
                return fail(parsed.error());
            config.optimizer = parsed.value();
        } else if (key == "cos_lr") {
            const auto parsed = parseBool(value);
            if (!parsed)
                return bad(key, value, "true or false");
            config.schedule = *parsed ? LrSchedule::Cosine : LrSchedule::Linear;
        }
    }
    return {};
}

} // namespace osprey::train
