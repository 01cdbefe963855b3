// osprey: the GUI. `osprey [PROJECT]` opens the main window, and the project when one is given.
#include "common/version.h"
#include "ui/main/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Osprey");
    QApplication::setApplicationName("Osprey");
    QApplication::setApplicationVersion(osprey::kVersion);

    QTranslator translator;
    if (translator.load(QLocale(), "osprey", "_", ":/i18n"))
        QApplication::installTranslator(&translator);

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Label images and train object detectors."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("project", QApplication::translate("main", "Project folder to open."));
    parser.process(app);

    osprey::ui::applyTheme();
    osprey::ui::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openProject(parser.positionalArguments().first());
    return QApplication::exec();
}
