#pragma once
// The fuzzed entry points, one per target: each feeds bytes to a real reader. The libFuzzer mains
// (fuzz_<target>.cpp) and the regression test that replays the corpus and every kept crasher in the
// default build (tests/core/formats/tst_fuzz_regressions) call the same functions.

#include "formats/project_import.h"
#include "imaging/image.h"
#include "run/train_events.h"

#include "fuzz_input.h"
#include "libjpeg_reference.h"

#include <cstdlib>
#include <cstring>

#include <string_view>

namespace osprey::fuzz {

inline void prepareOnce() {
    static const bool ready = [] {
        const auto png = tinyPng();
        write(scratch() / "yolo" / "a.png", png);
        write(scratch() / "yolo" / "classes.txt", "cat\ndog\nbird\n");
        write(scratch() / "yaml" / "images" / "train" / "a.png", png);
        write(scratch() / "yaml" / "labels" / "train" / "a.txt", "0 0.5 0.5 0.5 0.5\n");
        write(scratch() / "coco" / "a.png", png);
        write(scratch() / "voc" / "a.png", png);
        return true;
    }();
    (void)ready;
}

inline void read(const std::filesystem::path& source, const char* format) {
    formats::ReadOptions options;
    options.source = source;
    options.probe = formats::ImageProbe::SizeOnly;
    (void)formats::readSource(options, format);
}

/// One YOLO label file, beside its image, with classes.txt.
inline void yoloLabels(const std::uint8_t* data, std::size_t size) {
    prepareOnce();
    write(scratch() / "yolo" / "a.txt", data, size);
    read(scratch() / "yolo", "yolo");
}

/// An Ultralytics data.yaml whose images/train holds one labelled image.
inline void dataYaml(const std::uint8_t* data, std::size_t size) {
    prepareOnce();
    write(scratch() / "yaml" / "data.yaml", data, size);
    read(scratch() / "yaml" / "data.yaml", "yolo");
}

/// A COCO instances JSON with an image beside it.
inline void cocoJson(const std::uint8_t* data, std::size_t size) {
    prepareOnce();
    write(scratch() / "coco" / "instances.json", data, size);
    read(scratch() / "coco" / "instances.json", "coco");
}

/// A Pascal VOC XML with its image beside it.
inline void vocXml(const std::uint8_t* data, std::size_t size) {
    prepareOnce();
    write(scratch() / "voc" / "a.xml", data, size);
    read(scratch() / "voc" / "a.xml", "voc");
}

/// One events.jsonl line.
inline void events(const std::uint8_t* data, std::size_t size) {
    (void)run::parseEvent(std::string_view(reinterpret_cast<const char*>(data), size));
}

/// A JPEG file decoded by decodeJpeg, whose Huffman decoding is Osprey's own (imaging/jpeg_entropy_impl.h),
/// against libjpeg-turbo's own decoder: the same pixels, or both refusing. A difference aborts (a finding),
/// except where decodeJpeg is meant to differ: an EXIF orientation it applies, a size it refuses.
inline void jpeg(const std::uint8_t* data, std::size_t size) {
    const auto path = scratch() / "jpeg" / "a.jpg";
    write(path, data, size);
    const auto ours = imaging::decodeJpeg(path);
    if (!ours && ours.error().code == "too_large")
        return;
    for (std::size_t i = 0; i + 4 <= size; ++i)
        if (std::memcmp(data + i, "Exif", 4) == 0)
            return;
    testing::LibjpegDecoded reference;
    testing::libjpegDecode(data, size, reference);
    if (ours.hasValue() != reference.ok || (ours && ours->pixels != reference.pixels))
        std::abort();
}

} // namespace osprey::fuzz
