// Must NOT compile: a core module reaches only the public headers of the others (core/formats, here,
// cannot include core/project's private state). tst_core_cannot_include_other_internals builds this file
// with osprey_formats' real include flags.
#include "formats/format.h"

#include "project/project_impl.h"
