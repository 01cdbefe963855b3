#pragma once
// The GUI language and the application's look outside the widgets: the translators and the window icon.
// The language follows the system locale unless Settings ▸ Language chose English or Chinese; the choice is
// stored in QSettings (key "ui/language") and applies when Osprey starts. GUI thread only.

#include <QLocale>
#include <QStringList>

class QCoreApplication;
class QIcon;

namespace osprey::ui {

enum class Language { System, English, Chinese };

/// The language chosen in Settings ▸ Language (System when none was chosen).
Language languageSetting();
void setLanguageSetting(Language language);
/// The locale the GUI uses for `language`: the system's for System.
QLocale languageLocale(Language language);

/// Where Osprey's .qm files are looked for: share/osprey/translations beside the executable's bin/ (the
/// installed package), then the copies compiled into the executable (:/i18n).
QStringList translationFolders();
/// Installs Osprey's and Qt's own translators for `locale` into `app` (owned by it) and makes `locale` the
/// default. Returns the name of the Osprey catalogue loaded (e.g. "osprey_zh_CN"), or an empty string
/// when the GUI stays in English.
QString installTranslations(QCoreApplication* app, const QLocale& locale, const QStringList& folders);

/// The application icon (an osprey in a detection box), from the resources compiled into ui/main.
QIcon applicationIcon();

} // namespace osprey::ui
