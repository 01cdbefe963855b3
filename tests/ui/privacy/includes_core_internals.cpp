// Must NOT compile: ui/ sees only the public headers of core modules, not their *_impl.h.
// tst_ui_cannot_include_core_internals builds this file with osprey_ui_train's real include flags.
#include "ui/train/train_settings.h"

#include "project/project_impl.h"
