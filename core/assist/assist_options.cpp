#include "assist/assist_options.h"

#include "assist/proposal.h"
#include "model/model_options.h"

namespace osprey::assist {

using run::OptionSpec;
using run::OptionType;

namespace {

const OptionSpec& threshold(std::string_view key) {
    return *run::findOption(model::thresholdOptions(), key);
}

} // namespace

float defaultConfidence() {
    return model::defaultConfidence();
}

float defaultIou() {
    return model::defaultIou();
}

int defaultMaxDetections() {
    return model::defaultMaxDetections();
}

const std::vector<OptionSpec>& predictOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "model",
         .type = OptionType::Path,
         .help = "weights file (.pt) or an ONNX export (.onnx, run in OpenCV DNN)",
         .required = true},
        {.key = "source",
         .type = OptionType::Path,
         .help = "an image, a video (.mp4, .avi, ...) or a folder of them",
         .required = true},
        threshold("conf"),
        threshold("iou"),
        {.key = "imgsz",
         .type = OptionType::Integer,
         .defaultValue = "640",
         .help = "inference size (0: the size the model was trained at)"},
        threshold("max_det"),
        threshold("nms"),
        {.key = "save", .type = OptionType::Flag, .defaultValue = "true", .help = "write annotated images"},
        {.key = "save_txt",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "write YOLO txt labels (class cx cy w h conf)"},
        {.key = "device",
         .type = OptionType::Text,
         .defaultValue = "cpu",
         .help = "cpu, or a CUDA device index such as 0"},
        {.key = "out", .type = OptionType::Path, .defaultValue = "runs/predict", .help = "output folder"},
    };
    return options;
}

const std::vector<OptionSpec>& autoLabelOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "model",
         .type = OptionType::Path,
         .help = "Osprey checkpoint (.pt), ONNX file (.onnx) or Darknet .cfg",
         .required = true},
        {.key = "weights", .type = OptionType::Path, .help = "Darknet .weights (default: beside the .cfg)"},
        {.key = "names",
         .type = OptionType::Path,
         .help = "class names file, one per line (Darknet; ONNX without metadata)"},
        {.key = "images",
         .type = OptionType::Text,
         .defaultValue = "unlabeled",
         .help = "unlabeled, all, or split:train|val|test"},
        threshold("conf"),
        threshold("iou"),
        {.key = "imgsz",
         .type = OptionType::Integer,
         .defaultValue = "0",
         .help = "inference size (0: the model's own)"},
        {.key = "mode",
         .type = OptionType::Choice,
         .defaultValue = "add",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Mode"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                       "add: keep existing boxes; replace: replace earlier model boxes"),
         .shownIn = run::FrontEnd::Both,
         .choices = {"add", "replace"}},
        {.key = "add_classes",
         .type = OptionType::Choice,
         .defaultValue = "auto",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Add missing classes"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                       "add model classes the project lacks (auto: when it has none)"),
         .shownIn = run::FrontEnd::Both,
         .choices = {"auto", "true", "false"}},
        {.key = "batch",
         .type = OptionType::Integer,
         .defaultValue = "16",
         .help = "images per database transaction"},
        {.key = "device",
         .type = OptionType::Text,
         .defaultValue = "cpu",
         .help = "checkpoints: cpu, or a CUDA device index such as 0"},
        {.key = "workers",
         .type = OptionType::Integer,
         .defaultValue = "0",
         .help = "images in flight at once (0: one per core on the CPU, 1 on a GPU)"},
        {.key = "threads",
         .type = OptionType::Integer,
         .defaultValue = "0",
         .help = "compute threads per image (0: cores / workers)"},
    };
    return options;
}

const std::vector<OptionSpec>& reviewOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "order",
         .type = OptionType::Choice,
         .defaultValue = "confidence",
         .help = "confidence: lowest mean model score first; disagreement: most false positives + missed "
                 "boxes against the manual/imported labels first",
         .choices = {"confidence", "disagreement"}},
        {.key = "limit",
         .type = OptionType::Integer,
         .defaultValue = "20",
         .help = "list at most this many images (0: all)"},
        {.key = "iou",
         .type = OptionType::Number,
         .defaultValue = "0.5",
         .help = "IoU at which a model box matches a label of the same class"},
    };
    return options;
}

const std::vector<OptionSpec>& selectOptions() {
    // The model file and the inference settings are auto-label's: the same rows, declared there once.
    const auto autoLabelRow = [](std::string_view key) { return *run::findOption(autoLabelOptions(), key); };
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "model",
         .type = OptionType::Path,
         .help =
             "Osprey checkpoint (.pt), ONNX file (.onnx) or Darknet .cfg; needed by strategy=uncertainty"},
        autoLabelRow("weights"),
        autoLabelRow("names"),
        {.key = "n",
         .type = OptionType::Integer,
         .defaultValue = "200",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Images to pick"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "images to pick"),
         .shownIn = run::FrontEnd::Both,
         .minimum = 1},
        {.key = "strategy",
         .type = OptionType::Choice,
         .defaultValue = "uncertainty",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Strategy"),
         .help = OSPREY_TRANSLATE_NOOP(
             "osprey::run::Options",
             "uncertainty: where the model is least sure (ambiguous scores, disagreement with the mirrored "
             "image, two classes at one place), spread over scene groups; diversity: one image per scene "
             "group, no model; random: a seeded random pick"),
         .shownIn = run::FrontEnd::Both,
         .choices = {"uncertainty", "diversity", "random"}},
        {.key = "from",
         .type = OptionType::Choice,
         .defaultValue = "unlabeled",
         .help = "candidates: unlabeled (status new) or all images",
         .choices = {"unlabeled", "all"}},
        {.key = "seed",
         .type = OptionType::Integer,
         .defaultValue = "0",
         .help = "random seed of the scene groups and the random pick; the same seed gives the same pick"},
        {.key = "propose",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Propose boxes"),
         .help = OSPREY_TRANSLATE_NOOP(
             "osprey::run::Options",
             "store the model's boxes on the picked images for review (source=model), as autolabel does"),
         .shownIn = run::FrontEnd::Both},
        threshold("conf"),
        autoLabelRow("imgsz"),
        autoLabelRow("device"),
        autoLabelRow("workers"),
        autoLabelRow("threads"),
    };
    return options;
}

} // namespace osprey::assist
