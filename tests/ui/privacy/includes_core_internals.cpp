// Must NOT compile: ui/ sees only the public headers of core modules. tst_ui_cannot_include_core_internals
// builds this file with osprey_ui_train's real include flags and expects the missing-header error.
#include "ui/train/train_settings.h"

#include "model/detector_impl.h"
