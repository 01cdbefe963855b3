// The canvas as the annotator sees it, on a light and on a dark photo: boxes of six classes with their
// labels, one selected (8 handles) and one hovered, the crosshair in draw mode, a box being drawn, a
// rubber band and a zoomed-in view. The pixels are checked (handles, crosshair, outline halo, label text
// contrast); with OSPREY_SCREENSHOT_DIR set, each frame is also saved there as a PNG for a person to look at,
// e.g.
//   xvfb-run -a env QT_QPA_PLATFORM=xcb OSPREY_SCREENSHOT_DIR=/tmp/shots tst_editor_screenshots
#include "editor_test_util.h"
#include "project/project.h"
#include "ui/annotate/annotation_editor.h"
#include "ui/annotate/annotation_session.h"
#include "ui/annotate/box_canvas.h"
#include "ui/annotate/box_painter.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_model.h"
#include "ui/project/image_list_panel.h"
#include "ui/project/project_document.h"

#include <QPainter>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cmath>

using namespace osprey;
using editor_test::drag;

namespace {

enum class Tone { Light, Dark };

/// A 640x480 photo-like image: a soft gradient, large blurred shapes and fine noise.
QImage makePhoto(Tone tone) {
    QImage image(640, 480, QImage::Format_RGB32);
    QPainter painter(&image);
    QLinearGradient sky(0, 0, 0, 480);
    if (tone == Tone::Light) {
        sky.setColorAt(0, QColor(0xfb, 0xfb, 0xf8));
        sky.setColorAt(1, QColor(0xe2, 0xe5, 0xe8));
    } else {
        sky.setColorAt(0, QColor(0x06, 0x07, 0x0a));
        sky.setColorAt(1, QColor(0x1c, 0x1e, 0x24));
    }
    painter.fillRect(image.rect(), sky);
    QRandomGenerator random(tone == Tone::Light ? 7 : 11);
    painter.setPen(Qt::NoPen);
    for (int i = 0; i < 14; ++i) {
        const int value = tone == Tone::Light ? 200 + random.bounded(55) : random.bounded(60);
        painter.setBrush(QColor(value, value, std::min(255, value + 8)));
        painter.drawEllipse(QPointF(random.bounded(640), random.bounded(480)), 30 + random.bounded(120),
                            20 + random.bounded(80));
    }
    painter.end();
    for (int y = 0; y < image.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(y));
        for (int x = 0; x < image.width(); ++x) {
            const int noise = random.bounded(9) - 4;
            const QColor c(line[x]);
            line[x] = qRgb(std::clamp(c.red() + noise, 0, 255), std::clamp(c.green() + noise, 0, 255),
                           std::clamp(c.blue() + noise, 0, 255));
        }
    }
    return image;
}

/// WCAG contrast ratio of two colours.
double contrast(const QColor& a, const QColor& b) {
    auto relative = [](const QColor& c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = relative(a), lb = relative(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

bool near(const QColor& a, const QColor& b, int tolerance = 24) {
    return std::abs(a.red() - b.red()) <= tolerance && std::abs(a.green() - b.green()) <= tolerance &&
           std::abs(a.blue() - b.blue()) <= tolerance;
}

struct BoxSpec {
    double x1, y1, x2, y2;
};

// One box per class, in image pixels: one touches the top edge, one is small, two overlap, and the last
// has a dark class colour.
const BoxSpec kBoxes[] = {{40, 0, 200, 150},  {240, 60, 420, 250},  {330, 180, 520, 400}, {80, 250, 180, 420},
                          {560, 40, 590, 75}, {440, 300, 620, 470}, {210, 415, 300, 470}};

} // namespace

class TestEditorScreenshots : public QObject {
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString m_folder;
    QString m_shots;

    void save(const QImage& shot, const QString& name) {
        if (!m_shots.isEmpty())
            QVERIFY(shot.save(QDir(m_shots).filePath(name + ".png")));
    }

private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        m_shots = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR");
        if (!m_shots.isEmpty())
            QVERIFY(QDir().mkpath(m_shots));
        m_folder = m_dir.filePath("shots");
        auto project = std::move(project::Project::create(m_folder.toStdString()).value());
        for (const char* name : {"person", "car", "bicycle", "traffic light", "dog", "stop sign"})
            QVERIFY(project->classes().add(name).hasValue());
        // A dark class colour, the hardest case on a dark photo.
        QVERIFY(project->classes().add("boat", "#0018ec").hasValue());
        QVERIFY(QDir(m_folder).mkpath("images"));
        QVERIFY(makePhoto(Tone::Light).save(QDir(m_folder).filePath("images/light.png")));
        QVERIFY(makePhoto(Tone::Dark).save(QDir(m_folder).filePath("images/dark.png")));
        std::vector<project::NewImage> images{{"images/light.png", 640, 480}, {"images/dark.png", 640, 480}};
        QVERIFY(project->images().addAll(images).hasValue());
    }

    void canvas_data() {
        QTest::addColumn<int>("row");
        QTest::addColumn<QString>("tone");
        QTest::newRow("light") << 0 << "light";
        QTest::newRow("dark") << 1 << "dark";
    }

    void canvas() {
        QFETCH(int, row);
        QFETCH(QString, tone);
        ui::MainWindow window;
        window.resize(1280, 860);
        window.show();
        window.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.openProject(m_folder, true));
        ui::BoxCanvas* canvas = window.editor()->canvas();
        ui::AnnotationSession* session = window.editor()->session();
        window.imageList()->selectRow(row);
        QVERIFY(QTest::qWaitFor(
            [&] { return session->imageId() == window.imageModel()->imageIdAt(row) && canvas->hasImage(); },
            5000));
        canvas->setFocus();
        const auto classes = window.document()->classes();

        // Draw one box per class (keys 1-6 set the class of the box just drawn).
        for (size_t i = 0; i < std::size(kBoxes); ++i) {
            const BoxSpec& b = kBoxes[i];
            QTest::keyClick(canvas, Qt::Key_W);
            drag(canvas, {b.x1, b.y1}, {b.x2, b.y2});
            QTest::keyClick(canvas, Qt::Key(Qt::Key_1 + int(i)));
        }
        QCOMPARE(session->boxes().size(), std::size(kBoxes));
        // Select the car by a click on its body, hover the bicycle.
        QTest::mouseClick(canvas, Qt::LeftButton, {}, editor_test::at(canvas, 300, 100));
        QCOMPARE(canvas->selection().size(), size_t(1));
        QTest::mouseMove(canvas, editor_test::at(canvas, 480, 350));
        QImage shot = canvas->grab().toImage().convertToFormat(QImage::Format_RGB32);
        save(shot, tone + "_selected");

        // The 8 handles of the selected box: a white square with a centre in the class colour.
        const QColor carColor = window.document()->classColor(classes[1].id);
        const QRectF car =
            ui::BoxPainter::snapped(QRectF(canvas->toWidget({240, 60}), canvas->toWidget({420, 250})), 3);
        for (int handle = 0; handle < 8; ++handle) {
            const QPointF c = ui::BoxPainter::handleCenter(car, handle);
            const int left = static_cast<int>(std::round(c.x() - ui::BoxPainter::kHandleRadius));
            const int top = static_cast<int>(std::round(c.y() - ui::BoxPainter::kHandleRadius));
            const QColor centre = shot.pixelColor(left + 4, top + 4);
            const QColor ring = shot.pixelColor(left, top + 4);
            QVERIFY2(near(centre, carColor), qPrintable(QStringLiteral("handle %1 centre").arg(handle)));
            QVERIFY2(near(ring, Qt::white), qPrintable(QStringLiteral("handle %1 ring").arg(handle)));
        }

        // Every outline stands out from the photo, and every label's text is black or white, whichever
        // contrasts most with the tag colour.
        for (size_t i = 0; i < std::size(kBoxes); ++i) {
            const BoxSpec& b = kBoxes[i];
            const QColor color = window.document()->classColor(classes[i].id);
            const QPoint edge = canvas->toWidget({b.x1, (b.y1 + b.y2) / 2}).toPoint();
            int line = -100;
            for (int dx = 4; dx >= -4; --dx)
                if (near(shot.pixelColor(edge.x() + dx, edge.y()), color))
                    line = dx;
            QVERIFY2(line > -100, qPrintable(QStringLiteral("box %1: no line in its colour").arg(i)));
            // The outline stands out from the photo if its line or its halo does (3:1).
            const QColor halo = shot.pixelColor(edge.x() + line - 1, edge.y());
            const QColor photo = shot.pixelColor(edge.x() + line - 4, edge.y());
            const double standsOut = std::max(contrast(color, photo), contrast(halo, photo));
            QVERIFY2(standsOut >= 3.0, qPrintable(QStringLiteral("box %1 (%2): halo %3 on %4, contrast %5")
                                                      .arg(i)
                                                      .arg(color.name(), halo.name(), photo.name())
                                                      .arg(standsOut)));
            const QColor text = ui::BoxPainter::textOn(color);
            QVERIFY2(
                contrast(text, color) >= 4.5,
                qPrintable(
                    QStringLiteral("label of %1: contrast %2").arg(color.name()).arg(contrast(text, color))));
        }

        // Draw mode: the crosshair spans the image through the cursor; its column differs from the
        // frame without it in about half of the pixels (black with white dashes reads on any photo).
        QTest::keyClick(canvas, Qt::Key_Escape);
        QTest::keyClick(canvas, Qt::Key_Escape);
        const QPoint cursor = editor_test::at(canvas, 300, 330);
        QTest::mouseMove(canvas, cursor);
        const QImage plain = canvas->grab().toImage().convertToFormat(QImage::Format_RGB32);
        QTest::keyClick(canvas, Qt::Key_W);
        QTest::mouseMove(canvas, cursor + QPoint(1, 0));
        QTest::mouseMove(canvas, cursor);
        shot = canvas->grab().toImage().convertToFormat(QImage::Format_RGB32);
        save(shot, tone + "_crosshair");
        const int top = canvas->toWidget({0, 0}).toPoint().y() + 2;
        const int bottom = canvas->toWidget({0, 480}).toPoint().y() - 2;
        int differ = 0;
        for (int y = top; y < bottom; ++y)
            differ += shot.pixel(cursor.x(), y) != plain.pixel(cursor.x(), y);
        const double fraction = double(differ) / (bottom - top);
        QVERIFY2(fraction > 0.35, qPrintable(QStringLiteral("crosshair column differs in %1").arg(fraction)));

        // A box being drawn: dashed outline in the current class colour, with the crosshair.
        QTest::mousePress(canvas, Qt::LeftButton, {}, cursor);
        for (int step = 1; step <= 4; ++step)
            QTest::mouseMove(canvas, cursor + QPoint(30, 22) * step);
        save(canvas->grab().toImage(), tone + "_drawing");
        QTest::keyClick(canvas, Qt::Key_Escape); // cancels the box
        QTest::mouseRelease(canvas, Qt::LeftButton, {}, cursor + QPoint(120, 88));
        QTest::keyClick(canvas, Qt::Key_Escape); // leaves draw mode
        QCOMPARE(session->boxes().size(), std::size(kBoxes));

        // A rubber band (Shift+drag on empty space) half way.
        const QPoint bandStart = editor_test::at(canvas, 225, 160);
        QTest::mousePress(canvas, Qt::LeftButton, Qt::ShiftModifier, bandStart);
        for (int step = 1; step <= 4; ++step)
            QTest::mouseMove(canvas, bandStart + QPoint(60, 70) * step);
        save(canvas->grab().toImage(), tone + "_rubberband");
        QTest::mouseRelease(canvas, Qt::LeftButton, Qt::ShiftModifier, bandStart + QPoint(240, 280));
        QCOMPARE(session->boxes().size(), std::size(kBoxes));

        // Zoomed in around the selected box: lines stay one crisp colour, labels the same size.
        QTest::mouseClick(canvas, Qt::LeftButton, {}, editor_test::at(canvas, 300, 100));
        for (int i = 0; i < 4; ++i)
            QTest::keyClick(canvas, Qt::Key_Equal, Qt::ControlModifier);
        save(canvas->grab().toImage(), tone + "_zoomed");
    }
};

QTEST_MAIN(TestEditorScreenshots)
#include "tst_editor_screenshots.moc"
