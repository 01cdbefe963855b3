// `osprey-cli eval`: scores detection files against ground truth files in the COCO, VOC or Ultralytics
// style. Reading and scoring live in core/metrics; this file only wires keys to them.
#include "cli/verb.h"
#include "formats/format_options.h"

#include "common/strings.h"
#include "formats/eval_reader.h"
#include "metrics/eval_report.h"

#include <iostream>

namespace osprey::cli {

namespace {

std::optional<formats::BoxNotation> notationFrom(const std::string& text) {
    if (text == "xyxy")
        return formats::BoxNotation::Xyxy;
    if (text == "xywh")
        return formats::BoxNotation::Xywh;
    if (text == "yolo" || text == "xcycwh")
        return formats::BoxNotation::YoloNormalized;
    return std::nullopt;
}

int error(const std::string& message) {
    std::cerr << "error: " << message << "\n";
    return 1;
}

int runEval(const Args& args) {
    formats::EvalReadOptions options;
    const auto notation = notationFrom(args.str("box"));
    if (!notation)
        return error("box=" + args.str("box") + ": expected xyxy, xywh or yolo");
    options.notation = *notation;
    if (args.has("gtbox")) {
        const auto truthNotation = notationFrom(args.str("gtbox"));
        if (!truthNotation)
            return error("gtbox=" + args.str("gtbox") + ": expected xyxy, xywh or yolo");
        options.truthNotationSet = true;
        options.truthNotation = *truthNotation;
    }
    if (args.has("names")) {
        auto names = formats::readClassNames(args.str("names"));
        if (!names)
            return error(names.message());
        options.classNames = std::move(*names);
    }
    options.imagesDir = args.str("images");
    if (args.has("imgsize")) {
        const auto parts = split(args.str("imgsize"), ',');
        const auto width = parts.size() == 2 ? parseInt(parts[0]) : std::nullopt;
        const auto height = parts.size() == 2 ? parseInt(parts[1]) : std::nullopt;
        if (!width || !height || *width <= 0 || *height <= 0)
            return error("imgsize=" + args.str("imgsize") +
                         ": expected WIDTH,HEIGHT in pixels, e.g. 640,480");
        options.imageWidthPx = static_cast<int>(*width);
        options.imageHeightPx = static_cast<int>(*height);
    }
    options.roundNormalizedToPixels = args.flag("round");

    auto set = formats::readEvalSet(args.str("gt"), args.str("pred"), options);
    if (!set)
        return error(set.message());
    const bool json = args.flag("json");
    const std::string style = args.str("style");
    if (style == "coco") {
        auto result = metrics::evaluateCoco(*set);
        if (!result)
            return error(result.message());
        std::cout << (json ? metrics::cocoReportJson(*result) + "\n" : metrics::formatCocoSummary(*result));
        return 0;
    }
    if (style == "voc") {
        metrics::VocParams params;
        params.iouThreshold = args.number("iou");
        params.pixels =
            args.flag("plus1") ? metrics::PixelConvention::PlusOne : metrics::PixelConvention::Continuous;
        const std::string interp = args.str("interp");
        if (interp != "all" && interp != "11")
            return error("interp=" + interp + ": expected all or 11");
        params.interpolation =
            interp == "11" ? metrics::VocInterpolation::ElevenPoints : metrics::VocInterpolation::AllPoints;
        auto result = metrics::evaluateVoc(*set, params);
        if (!result)
            return error(result.message());
        std::cout << (json ? metrics::vocReportJson(*result, set->classNames) + "\n"
                           : metrics::vocReportText(*result, set->classNames));
        return 0;
    }
    if (style == "ultralytics") {
        auto result = metrics::evaluateUltralytics(*set);
        if (!result)
            return error(result.message());
        std::cout << (json ? metrics::ultralyticsReportJson(*result, set->classNames) + "\n"
                           : metrics::ultralyticsReportText(*result, set->classNames));
        return 0;
    }
    return error("style=" + style + ": expected coco, voc or ultralytics");
}

} // namespace

OSPREY_REGISTER_VERB(Verb{"eval", "Score detections against ground truth (COCO, VOC or Ultralytics style)",
                          [] { return formats::evalOptions(); }, runEval});

} // namespace osprey::cli
