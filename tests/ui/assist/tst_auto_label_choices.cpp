// AutoLabelChoices: the auto-label dialog's remembered choices, written to a real project and read back;
// a damaged setting keeps what makes sense value by value, and the enum numbers of older settings read as
// the CLI's words.
#include "ui/assist/auto_label_choices.h"

#include "project/project.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace osprey;

class TestAutoLabelChoices : public QObject {
    Q_OBJECT

private slots:
    void writtenChoicesReadBack() {
        QTemporaryDir dir;
        auto project = project::Project::create(dir.filePath("p").toStdString());
        QVERIFY2(project, project ? "" : project.message().c_str());
        QVERIFY(ui::AutoLabelChoices::read(**project).images.isEmpty());
        QVERIFY(ui::AutoLabelChoices::read(**project).options.isEmpty());

        ui::AutoLabelChoices{"split:val", {"conf=0.35", "iou=0.6", "mode=replace", "add_classes=false"}}
            .write(**project);
        QCOMPARE(QString::fromStdString((*project)->settings().get("autolabel.dialog").value()),
                 QString("images=split:val;conf=0.35;iou=0.6;mode=replace;add_classes=false"));
        const auto read = ui::AutoLabelChoices::read(**project);
        QCOMPARE(read.images, QString("split:val"));
        QCOMPARE(read.options, QStringList({"conf=0.35", "iou=0.6", "mode=replace", "add_classes=false"}));
    }

    void damagedValuesAreDroppedOneByOne() {
        QTemporaryDir dir;
        auto project = project::Project::create(dir.filePath("p").toStdString());
        QVERIFY(project);
        QVERIFY(
            (*project)->settings().set("autolabel.dialog", "images=bogus;conf=7;iou=0.5;mode=x;junk;size=3"));
        const auto read = ui::AutoLabelChoices::read(**project);
        QCOMPARE(read.images, QString("bogus")); // the dialog checks it against its list
        QCOMPARE(read.options, QStringList({"iou=0.5"}));
    }

    void enumNumbersOfOlderSettingsReadAsWords() {
        QTemporaryDir dir;
        auto project = project::Project::create(dir.filePath("p").toStdString());
        QVERIFY(project);
        QVERIFY((*project)->settings().set("autolabel.dialog", "conf=0.4;mode=1;add_classes=2"));
        const auto read = ui::AutoLabelChoices::read(**project);
        QVERIFY(read.images.isEmpty());
        QCOMPARE(read.options, QStringList({"conf=0.4", "mode=replace", "add_classes=false"}));
    }
};

QTEST_APPLESS_MAIN(TestAutoLabelChoices)
#include "tst_auto_label_choices.moc"
