#pragma once
// The training data of a project, read from its database (train::ProjectData): per split the image files
// and their boxes with class indices in class-list order. Verified-empty images are kept as negatives;
// images still "new" (not labeled yet) and crowd boxes are left out; missing or unreadable files are
// skipped with a warning.
//
// Thread affinity: the calling thread (the Project's).

#include "common/expected.h"
#include "train/train_dataset.h"

#include <filesystem>

namespace osprey::project {
class Project;
}

namespace osprey::job {

/// Reads the train and val splits from `project` with its current connection; call it inside a read
/// transaction (Project::readTransaction) to read them as one state. `checkFiles` probes each file's header
/// (cheap) so that unreadable images are skipped up front.
Expected<train::ProjectData> readProjectData(const project::Project& project, bool checkFiles = true);

/// Opens the project at `projectFolder` and reads its train and val splits in one read transaction.
Expected<train::ProjectData> readProjectData(const std::filesystem::path& projectFolder,
                                             bool checkFiles = true);

} // namespace osprey::job
