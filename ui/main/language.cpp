#include "ui/main/language.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QIcon>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>

// Q_INIT_RESOURCE must be used outside any namespace; ui/main is a static library, so its resources are
// registered explicitly rather than by a static initialiser the linker may drop.
static void initOspreyResources() {
    Q_INIT_RESOURCE(osprey);
}

namespace osprey::ui {

namespace {
constexpr auto kLanguageKey = "ui/language";

} // namespace

Language languageSetting() {
    const QString value = QSettings().value(kLanguageKey).toString();
    if (value == QLatin1String("en"))
        return Language::English;
    if (value == QLatin1String("zh_CN"))
        return Language::Chinese;
    return Language::System;
}

void setLanguageSetting(Language language) {
    QSettings settings;
    switch (language) {
    case Language::System:
        settings.remove(kLanguageKey);
        break;
    case Language::English:
        settings.setValue(kLanguageKey, "en");
        break;
    case Language::Chinese:
        settings.setValue(kLanguageKey, "zh_CN");
        break;
    }
}

QLocale languageLocale(Language language) {
    switch (language) {
    case Language::English:
        return QLocale(QLocale::English, QLocale::UnitedStates);
    case Language::Chinese:
        return QLocale(QLocale::Chinese, QLocale::China);
    case Language::System:
        break;
    }
    return QLocale::system();
}

QStringList translationFolders() {
    const QString installed =
        QDir(QCoreApplication::applicationDirPath()).filePath("../share/osprey/translations");
    return {QDir::cleanPath(installed), QStringLiteral(":/i18n")};
}

QString installTranslations(QCoreApplication* app, const QLocale& locale, const QStringList& folders) {
    QLocale::setDefault(locale);
    QString loaded;
    for (const QString& folder : folders) {
        auto* translator = new QTranslator(app);
        if (translator->load(locale, "osprey", "_", folder)) {
            QCoreApplication::installTranslator(translator);
            loaded = QFileInfo(translator->filePath()).completeBaseName();
            break;
        }
        delete translator;
    }
    // Qt's own strings (standard buttons, file dialogs), from Qt's translations when they are installed.
    if (!loaded.isEmpty()) {
        auto* qt = new QTranslator(app);
        if (qt->load(locale, "qtbase", "_", QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(qt);
        else
            delete qt;
    }
    return loaded;
}

QIcon applicationIcon() {
    initOspreyResources();
    return QIcon(QStringLiteral(":/icons/osprey.svg"));
}

} // namespace osprey::ui
