#pragma once
// Helpers shared by the editor GUI tests: a demo project, mouse drags in image pixels, and reading the
// database through a second Project.

#include "demo/demo_dataset.h"
#include "project/project.h"
#include "ui/annotate/box_canvas.h"

#include <QtTest>

namespace editor_test {

inline QString makeDemo(const QTemporaryDir& dir, int images = 8, int sizePx = 320) {
    const QString folder = dir.filePath("demo");
    osprey::demo::DemoOptions options;
    options.images = images;
    options.imageSizePx = sizePx;
    if (!osprey::demo::createDemoProject(folder.toStdString(), options))
        return {};
    return folder;
}

inline QPoint at(const osprey::ui::BoxCanvas* canvas, double x, double y) {
    return canvas->toWidget({x, y}).toPoint();
}

/// Presses at image point `from`, moves in a few steps to `to` and releases, like a hand would.
inline void drag(osprey::ui::BoxCanvas* canvas, QPointF from, QPointF to,
                 Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    const QPoint start = at(canvas, from.x(), from.y());
    const QPoint end = at(canvas, to.x(), to.y());
    QTest::mouseMove(canvas, start);
    QTest::mousePress(canvas, Qt::LeftButton, modifiers, start);
    for (int step = 1; step <= 4; ++step)
        QTest::mouseMove(canvas, start + (end - start) * step / 4);
    QTest::mouseRelease(canvas, Qt::LeftButton, modifiers, end);
}

/// The boxes of an image as stored, read through a second connection to the database.
inline std::vector<osprey::project::BoxRecord> storedBoxes(const QString& folder, std::int64_t imageId) {
    auto project = osprey::project::Project::open(folder.toStdString());
    return project ? (*project)->boxes().ofImage(imageId).value() : std::vector<osprey::project::BoxRecord>{};
}

inline osprey::project::ImageStatus storedStatus(const QString& folder, std::int64_t imageId) {
    auto project = osprey::project::Project::open(folder.toStdString());
    return (*project)->images().get(imageId)->status;
}

} // namespace editor_test
