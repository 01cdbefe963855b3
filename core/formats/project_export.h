#pragma once
// Exporting a project: read it into a Dataset (classes by position, images with their boxes), then hand
// that to a format's writer. Runs on the calling thread; see Progress for cancel and progress.

#include "common/expected.h"
#include "formats/format.h"
#include "project/project.h"

#include <string>

namespace osprey::formats {

/// The whole project as a Dataset: class index = position, image paths resolved to absolute paths,
/// `found` set from the file system, project ids kept in `id`.
Expected<Dataset> readProject(const project::Project& project, const Progress& progress = {});

/// readProject + the named format's write().
Expected<WriteReport> exportProject(const project::Project& project, const std::string& format,
                                    const WriteOptions& options);

} // namespace osprey::formats
