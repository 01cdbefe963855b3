#pragma once
// AutoLabelChoices: the auto-label dialog's remembered choices (the last run's images, confidence, IoU,
// mode and add-classes), kept as the project setting "autolabel.dialog" in the CLI's spelling
// (images=unlabeled;conf=0.3;mode=replace;...). Reading checks each option against the declared ones
// (assist::autoLabelOptions()) and drops, value by value, what makes no sense; settings written before they
// took the CLI's spelling (mode and add_classes as enum numbers) are read too. A plain value; it reads and
// writes through the caller's Project, on the caller's thread.

#include <QString>
#include <QStringList>

namespace osprey::project {
class Project;
} // namespace osprey::project

namespace osprey::ui {

class AutoLabelChoices {
public:
    /// The image selection as the CLI's images= spells it ("unlabeled", "all", "split:train", ...), not
    /// checked; empty when none was stored.
    QString images;
    /// `key=value` of declared auto-label options, each value normalised (run::normalizeOptionValue).
    QStringList options;

    /// The choices stored in `project`; empty when none are stored or the setting cannot be read.
    static AutoLabelChoices read(const project::Project& project);
    /// Stores the choices in `project`. Best effort: a refused write keeps the older choices.
    void write(project::Project& project) const;
};

} // namespace osprey::ui
