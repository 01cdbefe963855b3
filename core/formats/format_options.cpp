#include "formats/format_options.h"

#include "formats/format_registry.h"
#include "formats/video_import.h"

#include <string>

namespace osprey::formats {

using run::OptionSpec;
using run::OptionType;

const std::vector<OptionSpec>& datasetImportOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project",
         .type = OptionType::Path,
         .help = "project folder (created when missing)",
         .required = true},
        {.key = "source",
         .type = OptionType::Path,
         .help = "dataset folder or annotation file (data.yaml, obj.data, *.json, *.xml); required unless "
                 "videos= is given"},
        {.key = "format",
         .type = OptionType::Text,
         .defaultValue = "auto",
         .help = "auto|" + FormatRegistry::instance().names()},
        {.key = "images",
         .type = OptionType::Path,
         .help = "folder holding the images when they are not beside the labels"},
        {.key = "strict",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "abort on any problem, warnings included; the project stays unchanged"},
        {.key = "crowd",
         .type = OptionType::Text,
         .defaultValue = "keep",
         .help = "COCO iscrowd boxes: keep (flagged) or skip"},
        {.key = "hash",
         .type = OptionType::Flag,
         .defaultValue = "true",
         .help = "hash image files (duplicate detection, split grouping)"},
        {.key = "outside",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "follow paths outside source and images: a COCO file_name with ../ or an absolute path, a "
                 "data.yaml path: (a relative one to a dataset folder with images/ and labels/ is followed "
                 "without it)"},
        {.key = "videos",
         .type = OptionType::Path,
         .help = "a video file or a folder of videos (any container OpenCV reads: .mp4, .avi, .mov, .mkv, "
                 "...) to import as frames: JPEG files in the project's images/ folder, each with its video, "
                 "frame index and time"},
        {.key = "fps",
         .type = OptionType::Number,
         .defaultValue = "1",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Frames per second"),
         .help =
             OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                   "video frames kept per second of video (the first frame of each 1/fps s)"),
         .shownIn = run::FrontEnd::Both,
         .minimum = 0.001,
         .maximum = 1000},
        {.key = "every",
         .type = OptionType::Integer,
         .defaultValue = "0",
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Every Nth frame"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                       "keep every Nth video frame instead of fps= (0: use fps=)"),
         .shownIn = run::FrontEnd::Both,
         .minimum = 0},
        {.key = "start",
         .type = OptionType::Text,
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Start at"),
         .help = OSPREY_TRANSLATE_NOOP("osprey::run::Options",
                                       "video time to start at: seconds (12.5) or [h:]mm:ss (1:30)"),
         .shownIn = run::FrontEnd::Both,
         .placeholder = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "the beginning")},
        {.key = "end",
         .type = OptionType::Text,
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Stop before"),
         .help =
             OSPREY_TRANSLATE_NOOP("osprey::run::Options", "video time to stop before: seconds or [h:]mm:ss"),
         .shownIn = run::FrontEnd::Both,
         .placeholder = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "the end")},
        {.key = "dedup",
         .type = OptionType::Integer,
         .defaultValue = std::to_string(kDefaultDedupBits),
         .label = OSPREY_TRANSLATE_NOOP("osprey::run::Options", "Near-duplicate threshold"),
         .help = OSPREY_TRANSLATE_NOOP(
             "osprey::run::Options",
             "skip a video frame whose perceptual hash is within this many bits (of 64) of a "
             "frame kept or already in the project; 0: keep near-duplicates"),
         .shownIn = run::FrontEnd::Both,
         .minimum = 0,
         .maximum = 32},
        {.key = "watch",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "keep watching the folder of source= or videos=: take in new images and videos as they "
                 "arrive (once each, also across restarts) until Ctrl+C"},
        {.key = "interval",
         .type = OptionType::Number,
         .defaultValue = "2",
         .help = "watch=true: seconds between two looks at the folder; a file is taken once it has not "
                 "changed for that long",
         .minimum = 0.05,
         .maximum = 3600},
    };
    return options;
}

const std::vector<OptionSpec>& datasetExportOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "project", .type = OptionType::Path, .help = "project folder", .required = true},
        {.key = "format", .type = OptionType::Text, .defaultValue = "yolo", .help = "yolo|coco|voc"},
        {.key = "dest", .type = OptionType::Path, .help = "output folder", .required = true},
        {.key = "images",
         .type = OptionType::Text,
         .defaultValue = "link",
         .help = "link|copy|none: how images are placed"},
        {.key = "unlabeled",
         .type = OptionType::Text,
         .defaultValue = "skip",
         .help = "skip|keep images that are not labeled yet"},
    };
    return options;
}

const std::vector<OptionSpec>& evalOptions() {
    static const std::vector<OptionSpec> options = {
        {.key = "gt",
         .type = OptionType::Path,
         .help = "ground truth: COCO JSON, or a folder of VOC XML or text files",
         .required = true},
        {.key = "pred",
         .type = OptionType::Path,
         .help = "detections: COCO results JSON, or a folder of text files",
         .required = true},
        {.key = "style",
         .type = OptionType::Text,
         .defaultValue = "coco",
         .help = "coco | voc | ultralytics"},
        {.key = "box",
         .type = OptionType::Text,
         .defaultValue = "xyxy",
         .help = "text box notation: xyxy | xywh (pixels) | yolo (normalised cx cy w h)"},
        {.key = "gtbox",
         .type = OptionType::Text,
         .help = "box notation of ground truth text files when it differs from box"},
        {.key = "names",
         .type = OptionType::Path,
         .help = "class names file (one per line): integer classes index it"},
        {.key = "images",
         .type = OptionType::Path,
         .help = "folder with the images, for the sizes that normalised boxes need"},
        {.key = "imgsize",
         .type = OptionType::Text,
         .help = "WIDTH,HEIGHT of every image when no other size is known"},
        {.key = "round",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "round normalised boxes to whole pixels, as the mAP tools do"},
        {.key = "iou", .type = OptionType::Number, .defaultValue = "0.5", .help = "IoU threshold (voc)"},
        {.key = "plus1",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "VOC '+1 pixel' box sizes (voc)"},
        {.key = "interp",
         .type = OptionType::Text,
         .defaultValue = "all",
         .help = "all | 11: all-point or 11-point interpolation (voc)"},
        {.key = "json",
         .type = OptionType::Flag,
         .defaultValue = "false",
         .help = "print one JSON object instead of text"},
    };
    return options;
}

} // namespace osprey::formats
