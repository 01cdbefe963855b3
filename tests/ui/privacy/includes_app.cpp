// Must NOT compile: ui/ cannot include app/ (the arrows point app -> ui -> core).
// tst_ui_cannot_include_app builds this file with osprey_ui_train's real include flags.
#include "ui/train/train_settings.h"

#include "cli/verb.h"
