#pragma once
// Shared by the auto-label dialog tests: the yolo-fastest model, a project of the five shared photos,
// the database as another process sees it, and small widget helpers.

#include "assist/auto_labeler.h"
#include "fixtures.h"
#include "imaging/image.h"
#include "project/project.h"
#include "ui/assist/auto_label_dialog.h"

#include <QDir>
#include <QFile>
#include <QPushButton>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace osprey::test {

inline const char kWeights[] = "models/yolo-fastest-1.1/yolo-fastest-1.1.weights";
inline const char kPhotos[] = "models/fastestdet/images/2.jpg";
inline const std::string kModelKey = "yolo-fastest-1.1.cfg";

inline assist::ModelSource fastest() {
    const auto dir = test::fixture("models/yolo-fastest-1.1");
    return {dir / "yolo-fastest-1.1.cfg", dir / "yolo-fastest-1.1.weights", dir / "coco.names", "cpu"};
}

/// A project with the five shared photos (2.jpg, the three persons, first) and `classes`.
inline QString makeProject(const QTemporaryDir& dir, const std::vector<std::string>& classes) {
    const QString folder = dir.filePath("project");
    auto project = project::Project::create(folder.toStdString());
    if (!project)
        return {};
    for (const auto& name : classes)
        if (!(*project)->classes().add(name))
            return {};
    for (const char* name : {"2.jpg", "0.jpg", "1.jpg", "3.jpg", "4.jpg"}) {
        const auto source = test::fixture(std::string("models/fastestdet/images/") + name);
        const QString target = QDir(folder).filePath(name);
        if (!QFile::copy(QString::fromStdString(source.string()), target))
            return {};
        const auto size = imaging::readImageSize(target.toStdString());
        if (!size)
            return {};
        project::NewImage image;
        image.path = name;
        image.width = size->width;
        image.height = size->height;
        image.hash = name;
        if (!(*project)->images().add(image))
            return {};
    }
    return folder;
}

/// The database as another process would see it.
struct Stored {
    std::vector<project::ImageRecord> images; ///< in id order
    std::map<std::int64_t, std::vector<project::BoxRecord>> boxes;
    std::map<std::int64_t, std::string> classNames;
    int totalBoxes = 0;
    int imagesWithBoxes = 0;

    explicit Stored(const QString& folder) {
        auto project = project::Project::open(folder.toStdString());
        project::ImageQuery all;
        all.limit = 0;
        images = (*project)->images().list(all).value();
        std::sort(images.begin(), images.end(), [](const auto& a, const auto& b) { return a.id < b.id; });
        for (const auto& image : images) {
            boxes[image.id] = (*project)->boxes().ofImage(image.id).value();
            totalBoxes += static_cast<int>(boxes[image.id].size());
            imagesWithBoxes += boxes[image.id].empty() ? 0 : 1;
        }
        for (const auto& info : (*project)->classes().list().value())
            classNames[info.id] = info.name;
    }
    int count(std::int64_t imageId, const std::string& className) const {
        return static_cast<int>(
            std::count_if(boxes.at(imageId).begin(), boxes.at(imageId).end(),
                          [&](const auto& box) { return classNames.at(box.classId) == className; }));
    }
};

inline QPushButton* button(QWidget* dialog, const char* name) {
    return dialog->findChild<QPushButton*>(QString::fromLatin1(name));
}

/// With OSPREY_SCREENSHOT_DIR set, saves `widget` there as NAME.png for a person to look at.
inline void shoot(QWidget* widget, const QString& name) {
    const QString folder = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR");
    if (!folder.isEmpty())
        widget->grab().save(QDir(folder).filePath(name + ".png"));
}

inline bool waitForRun(ui::AutoLabelDialog& dialog) {
    return QTest::qWaitFor([&] { return !dialog.isRunning(); }, 120000);
}

} // namespace osprey::test
