// osprey: the GUI. `osprey [PROJECT]` opens the main window, and the project when one is given.
#include "common/version.h"
#include "ui/main/language.h"
#include "ui/main/main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QIcon>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName("Osprey");
    QApplication::setApplicationName("Osprey");
    QApplication::setApplicationVersion(osprey::kVersion);

    QApplication::setDesktopFileName("osprey");
    QApplication::setWindowIcon(osprey::ui::applicationIcon());
    // Settings ▸ Language, else the system locale.
    osprey::ui::installTranslations(&app, osprey::ui::languageLocale(osprey::ui::languageSetting()),
                                    osprey::ui::translationFolders());

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
    if (!parser.positionalArguments().isEmpty()) {
        // A file manager opens the project's database, project.osprey; the project is its folder.
        const QFileInfo target(parser.positionalArguments().first());
        window.openProject(target.isFile() ? target.absolutePath() : target.filePath());
    }
    return QApplication::exec();
}
