// The GUI in Simplified Chinese, offscreen: the catalogue built from translations/osprey_zh_CN.ts loads for
// zh_CN, the main menus and the train panel show Chinese, and at the window's minimum size no label or
// button is narrower than its text needs (its sizeHint). Settings ▸ Language stores the choice.
// With OSPREY_SCREENSHOT_DIR set, the windows and menus are also saved there as PNGs for a person to look
// at (zh_*.png, and en_*.png in English; packaging/screenshots/ holds two of them for AppStream).
#include "demo/demo_dataset.h"
#include "ui/main/language.h"
#include "ui/main/main_window.h"
#include "ui/project/image_list_panel.h"
#include "ui/train/train_actions.h"
#include "ui/train/train_panel.h"

#include <QAbstractButton>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QFontDatabase>
#include <QGroupBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

using namespace osprey;

namespace {

bool hasChinese(const QString& text) {
    return std::any_of(text.begin(), text.end(),
                       [](QChar c) { return c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff; });
}

/// Text a person reads as English: a word of three or more letters that is not a name or a unit.
bool looksEnglish(const QString& text) {
    static const QStringList names = {"Osprey", "English", "GPU",  "CPU",  "NVIDIA",  "IoU",  "NMS",  "mAP",
                                      "SGD",    "AdamW",   "CUDA", "ONNX", "Darknet", "YOLO", "COCO", "VOC",
                                      "PNG",    "API",     "URL",  "MB",   "BCE",     "DFL",  "CIoU", "RAM"};
    QString rest = text;
    rest.remove(QRegularExpression("<[^>]*>"));
    for (const QString& name : names)
        rest.remove(QRegularExpression("\\b" + QRegularExpression::escape(name) + "[0-9-]*\\b"));
    rest.remove(QRegularExpression("\\b(yolo|mAP|pg|lr)[0-9a-z.-]*\\b"));
    return QRegularExpression("[A-Za-z]{3,}").match(rest).hasMatch();
}

QStringList englishTexts(QWidget* root) {
    QStringList found;
    auto check = [&](QWidget* widget, const QString& text) {
        if (widget->isVisibleTo(root) && looksEnglish(text) && !hasChinese(text))
            found.append(QStringLiteral("%1 \"%2\"").arg(widget->metaObject()->className(), text));
    };
    for (QLabel* label : root->findChildren<QLabel*>())
        check(label, label->text());
    for (QAbstractButton* button : root->findChildren<QAbstractButton*>())
        check(button, button->text());
    for (QGroupBox* box : root->findChildren<QGroupBox*>())
        check(box, box->title());
    for (QTabWidget* tabs : root->findChildren<QTabWidget*>())
        for (int i = 0; i < tabs->count(); ++i)
            check(tabs, tabs->tabText(i));
    return found;
}

/// Labels and buttons whose width is less than their text needs.
QStringList clipped(QWidget* root) {
    QStringList found;
    for (QWidget* widget : root->findChildren<QWidget*>()) {
        if (!widget->isVisible() || widget->width() <= 0)
            continue;
        QString text;
        if (auto* label = qobject_cast<QLabel*>(widget);
            label && !label->wordWrap() && label->pixmap().isNull())
            text = label->text();
        else if (auto* button = qobject_cast<QAbstractButton*>(widget))
            text = button->text();
        if (text.isEmpty())
            continue;
        if (widget->width() < widget->sizeHint().width())
            found.append(QStringLiteral("%1 \"%2\": %3 px wide, needs %4")
                             .arg(widget->metaObject()->className(), text)
                             .arg(widget->width())
                             .arg(widget->sizeHint().width()));
    }
    return found;
}

void saveShot(QWidget* widget, const QString& name) {
    const QString folder = qEnvironmentVariable("OSPREY_SCREENSHOT_DIR");
    if (folder.isEmpty())
        return;
    QDir().mkpath(folder);
    QVERIFY(widget->grab().save(QDir(folder).filePath(name + ".png")));
}

/// Shows `menu` as a popup, saves it, and closes it.
void saveMenuShot(QMainWindow* window, QMenu* menu, const QString& name) {
    if (qEnvironmentVariable("OSPREY_SCREENSHOT_DIR").isEmpty())
        return;
    menu->popup(window->mapToGlobal(QPoint(40, 30)));
    QVERIFY(QTest::qWaitForWindowExposed(menu));
    saveShot(menu, name);
    menu->close();
}

} // namespace

class TestChineseUi : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QVERIFY2(!QFontDatabase::families(QFontDatabase::SimplifiedChinese).isEmpty(),
                 "no font covers Simplified Chinese: install fonts-noto-cjk (packaging/install-deps.sh)");
        QCOMPARE(ui::installTranslations(qApp, QLocale(QLocale::Chinese, QLocale::China), {OSPREY_QM_DIR}),
                 QString("osprey_zh_CN"));
        m_folder = m_dir.filePath("demo");
        demo::DemoOptions options;
        options.images = 12;
        options.imageSizePx = 160;
        QVERIFY(demo::createDemoProject(m_folder.toStdString(), options).hasValue());
    }

    void englishLocaleLoadsNoCatalogue() {
        auto* app = qApp;
        const int before = app->findChildren<QTranslator*>().size();
        QCOMPARE(
            ui::installTranslations(app, QLocale(QLocale::English, QLocale::UnitedStates), {OSPREY_QM_DIR}),
            QString());
        QCOMPARE(app->findChildren<QTranslator*>().size(), before);
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    }

    void qtStandardButtonsAreChinese() {
        // Qt's own strings come from qtbase_zh_CN.qm (qt6-translations-l10n, in install-deps.sh).
        QDialogButtonBox box(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
        QVERIFY2(hasChinese(box.button(QDialogButtonBox::Cancel)->text()),
                 qPrintable(box.button(QDialogButtonBox::Cancel)->text()));
    }

    void languageSettingIsStored() {
        QCOMPARE(ui::languageSetting(), ui::Language::System);
        QCOMPARE(ui::languageLocale(ui::Language::Chinese).name(), QString("zh_CN"));
        ui::MainWindow window;
        QMenu* menu = window.findChild<QMenu*>("LanguageMenu");
        QVERIFY(menu);
        QCOMPARE(menu->title(), QString("语言(&L)"));
        const QList<QAction*> actions = menu->actions();
        QCOMPARE(actions.size(), 3);
        QVERIFY(actions[0]->isChecked());
        QCOMPARE(actions[2]->text(), QString("中文"));
        actions[2]->trigger();
        QCOMPARE(QSettings().value("ui/language").toString(), QString("zh_CN"));
        QCOMPARE(ui::languageSetting(), ui::Language::Chinese);
        QVERIFY(hasChinese(window.statusBar()->currentMessage()));
        actions[1]->trigger();
        QCOMPARE(ui::languageSetting(), ui::Language::English);
        QCOMPARE(ui::languageLocale(ui::languageSetting()).language(), QLocale::English);
        actions[0]->trigger();
        QCOMPARE(ui::languageSetting(), ui::Language::System);
        QVERIFY(!QSettings().contains("ui/language"));
    }

    void menusAreChinese() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(m_folder, true));
        QVERIFY(!window.windowIcon().isNull());
        QStringList english;
        int checked = 0;
        std::function<void(QMenu*)> walk = [&](QMenu* menu) {
            if (menu->objectName() == "LanguageMenu") // the languages are named in themselves
                return;
            for (QAction* action : menu->actions()) {
                if (action->isSeparator() || action->text().startsWith('/')) // recent project folders
                    continue;
                ++checked;
                if (!hasChinese(action->text()))
                    english.append(menu->title() + " ▸ " + action->text());
                if (action->menu())
                    walk(action->menu());
            }
        };
        const QList<QAction*> top = window.menuBar()->actions();
        QVERIFY(top.size() >= 8);
        for (QAction* action : top) {
            QVERIFY2(hasChinese(action->text()), qPrintable(action->text()));
            QVERIFY2(QRegularExpression("\\(&[A-Z]\\)$").match(action->text()).hasMatch(),
                     qPrintable(action->text()));
            walk(action->menu());
        }
        QCOMPARE(top.first()->text(), QString("文件(&F)"));
        QVERIFY(checked > 60);
        QVERIFY2(english.isEmpty(), qPrintable(english.join('\n')));
        saveMenuShot(&window, top[0]->menu(), "zh_menu_file");
        saveMenuShot(&window, window.trainActions()->menu(), "zh_menu_train");
    }

    void trainPanelIsChinese() {
        ui::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(m_folder, true));
        window.trainActions()->showDashboard();
        ui::TrainPanel* panel = window.trainActions()->panel();
        QVERIFY(panel);
        QTest::qWait(100);
        QCOMPARE(window.trainActions()->dock()->windowTitle(), QString("训练"));
        QStringList labels;
        for (QLabel* label : panel->findChildren<QLabel*>())
            if (hasChinese(label->text()))
                labels.append(label->text());
        // The form's rows, drawn from core/run's option table, with their units ("批大小 (张图像)").
        for (const QString expected :
             {"模型", "预训练权重", "轮次", "批大小 (张图像)", "早停耐心值 (轮)", "初始学习率"})
            QVERIFY2(labels.contains(expected), qPrintable(expected + " not in: " + labels.join(", ")));
        const QStringList english = englishTexts(panel);
        QVERIFY2(english.isEmpty(), qPrintable(english.join('\n')));
        saveShot(&window, "zh_main_window_training");
    }

    void nothingClippedAtMinimumSize() {
        ui::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.openProject(m_folder, true));
        window.trainActions()->showDashboard();
        QTest::qWait(100);
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        window.resize(minimum);
        QTRY_COMPARE(window.size(), minimum);
        QTest::qWait(100);
        const QStringList problems = clipped(&window);
        saveShot(&window, "zh_main_window_minimum");
        QVERIFY2(problems.isEmpty(),
                 qPrintable(QStringLiteral("at %1 x %2:\n").arg(minimum.width()).arg(minimum.height()) +
                            problems.join('\n')));
    }

    void clippingCheckFindsANarrowLabel() {
        QWidget root;
        auto* label = new QLabel(QStringLiteral("这是一段很长的中文标签文本"), &root);
        label->setGeometry(0, 0, 20, 20);
        root.show();
        QVERIFY(QTest::qWaitForWindowExposed(&root));
        QCOMPARE(clipped(&root).size(), 1);
        label->resize(label->sizeHint());
        QVERIFY(clipped(&root).isEmpty());
    }

    // packaging/screenshots/ holds these, in the dark theme the application uses.
    void screenshotsForTheMetadata() {
        if (qEnvironmentVariable("OSPREY_SCREENSHOT_DIR").isEmpty())
            QSKIP("screenshots only with OSPREY_SCREENSHOT_DIR");
        ui::applyTheme();
        // A project where a user keeps one: the status bar shows it as ~/Projects/shapes.
        const QByteArray home = qgetenv("HOME");
        qputenv("HOME", m_dir.filePath("home").toUtf8());
        const auto restoreHome = qScopeGuard([&] { qputenv("HOME", home); });
        const QString folder = m_dir.filePath("home/Projects/shapes");
        demo::DemoOptions options;
        options.images = 24;
        options.imageSizePx = 480;
        QVERIFY(QDir().mkpath(m_dir.filePath("home/Projects")));
        QVERIFY(demo::createDemoProject(folder.toStdString(), options).hasValue());
        for (const QString language : {"zh", "en"}) {
            if (language == QLatin1String("en"))
                for (QTranslator* translator : qApp->findChildren<QTranslator*>())
                    QCoreApplication::removeTranslator(translator);
            ui::MainWindow window;
            window.resize(1280, 800);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.openProject(folder, true));
            QVERIFY2(window.statusBar()->currentMessage().startsWith(QStringLiteral("~/Projects/shapes ")),
                     qPrintable(window.statusBar()->currentMessage()));
            window.imageList()->selectRow(1); // five boxes
            QTest::qWait(500);
            saveShot(&window, language + "_main_window");
            window.trainActions()->showDashboard();
            QTest::qWait(300);
            saveShot(&window, language + "_main_window_training");
        }
    }

private:
    QTemporaryDir m_dir;
    QString m_folder;
};

QTEST_MAIN(TestChineseUi)
#include "tst_chinese_ui.moc"
