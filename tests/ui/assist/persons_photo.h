#pragma once
// Shared by the model-proposal tests: the COCO photo with three persons (shared fixture
// models/fastestdet/images/2.jpg) copied into a project folder as persons.jpg and added as an image.

#include "fixtures.h"
#include "imaging/image.h"
#include "project/project.h"

#include <QDir>
#include <QFile>
#include <QString>

#include <cstdint>

namespace osprey::test {

/// Adds the photo to `project` (whose folder is `folder`); returns its image id, 0 when it failed.
inline std::int64_t addPersonsPhoto(project::Project& project, const QString& folder) {
    const QString photo = QDir(folder).filePath(QStringLiteral("persons.jpg"));
    if (!QFile::copy(QString::fromStdString(fixture("models/fastestdet/images/2.jpg").string()), photo))
        return 0;
    const auto size = imaging::readImageSize(photo.toStdString());
    if (!size)
        return 0;
    project::NewImage image;
    image.path = "persons.jpg";
    image.width = size->width;
    image.height = size->height;
    image.hash = "persons";
    auto id = project.images().add(image);
    return id ? *id : 0;
}

} // namespace osprey::test
