#pragma once
// Dataset trees built on the fly for the layout and hostile-file tests: small real JPEG/PNG files and label
// files in the layouts users bring (VOC XML in annots/ beside images/, YOLO labels/ parallel to images/,
// COCO JSON in an odd folder).

#include "imaging/image.h"

#include <QtGlobal>

#include <filesystem>
#include <fstream>
#include <string>

namespace osprey::test {

inline void writeText(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
}

/// A real image file (format by extension) of width x height.
inline void writeImage(const std::filesystem::path& path, int width, int height) {
    std::filesystem::create_directories(path.parent_path());
    imaging::Image image;
    image.width = width;
    image.height = height;
    image.pixels.assign(static_cast<std::size_t>(width) * height * 3, 90);
    if (auto status = imaging::encodeImage(image, path); !status)
        qFatal("%s", status.message().c_str());
}

/// A VOC XML whose <path> points at the annotator's machine (as in the reported dataset).
inline std::string vocXml(const std::string& fileName, int width, int height, const std::string& objects) {
    return "<annotation>\n  <folder>images</folder>\n  <filename>" + fileName +
           "</filename>\n  <path>C:\\Users\\author\\Desktop\\dataset\\images\\" + fileName +
           "</path>\n  <size><width>" + std::to_string(width) + "</width><height>" + std::to_string(height) +
           "</height><depth>3</depth></size>\n" + objects + "</annotation>\n";
}

inline std::string vocObject(const std::string& name, double x1, double y1, double x2, double y2) {
    auto n = [](double v) { return std::to_string(static_cast<long long>(v)); };
    return "  <object><name>" + name + "</name><bndbox><xmin>" + n(x1) + "</xmin><ymin>" + n(y1) +
           "</ymin><xmax>" + n(x2) + "</xmax><ymax>" + n(y2) + "</ymax></bndbox></object>\n";
}

/// The reported case: 4 images in images/, their XML in annots/ (7 boxes), <path> elsewhere.
inline void makeAnnotsBesideImages(const std::filesystem::path& root) {
    const char* stems[] = {"a", "b", "c", "d"};
    for (int i = 0; i < 4; ++i) {
        const std::string stem = stems[i];
        writeImage(root / "images" / (stem + ".jpg"), 40, 30);
        std::string objects = vocObject("cat", 2, 3, 20, 25);
        if (i < 3)
            objects += vocObject(i == 0 ? "dog" : "cat", 21, 1, 39, 29);
        writeText(root / "annots" / (stem + ".xml"), vocXml(stem + ".jpg", 40, 30, objects));
    }
}

} // namespace osprey::test
