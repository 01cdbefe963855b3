// Must NOT compile: LibTorch stays in core/model and core/train; ui/ cannot reach core/model's torch
// interface. tst_ui_cannot_include_torch builds this file with osprey_ui_train's real include flags.
#include "ui/train/train_settings.h"

#include "model/detector_torch_impl.h"
