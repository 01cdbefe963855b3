#include "job/project_data.h"

#include "imaging/image.h"
#include "project/project.h"
#include "train/train_dataset.h"

#include <map>

namespace osprey::job {

using train::ProjectData;
using train::Sample;
using train::SplitSamples;

namespace {

Status readSplit(const project::Project& project, project::Split split,
                 const std::map<std::int64_t, int>& classIndex, bool checkFiles, SplitSamples& out,
                 std::vector<std::string>& warnings) {
    auto images = project.images().list({.split = split, .limit = 0});
    if (!images)
        return fail(images.error());
    for (const auto& image : images.value()) {
        if (image.status == project::ImageStatus::New)
            continue;
        Sample sample;
        sample.imageId = image.id;
        sample.path = project.resolve(image.path);
        if (checkFiles) {
            if (auto size = imaging::readImageSize(sample.path); !size) {
                warnings.push_back("skipping image " + sample.path.string() + ": " + size.message());
                continue;
            }
        }
        if (image.status != project::ImageStatus::VerifiedEmpty) {
            auto boxes = project.boxes().ofImage(image.id);
            if (!boxes)
                return fail(boxes.error());
            for (const auto& box : boxes.value()) {
                const auto found = classIndex.find(box.classId);
                if (found == classIndex.end() || box.flags.crowd || box.x2 <= box.x1 || box.y2 <= box.y1)
                    continue;
                sample.boxes.push_back({found->second, static_cast<float>(box.x1), static_cast<float>(box.y1),
                                        static_cast<float>(box.x2), static_cast<float>(box.y2)});
            }
        }
        if (sample.boxes.empty())
            ++out.negatives;
        out.boxes += static_cast<std::int64_t>(sample.boxes.size());
        out.samples.push_back(std::move(sample));
    }
    return {};
}

} // namespace

Expected<ProjectData> readProjectData(const project::Project& project, bool checkFiles) {
    auto classes = project.classes().list();
    if (!classes)
        return fail(classes.error());
    ProjectData data;
    std::map<std::int64_t, int> classIndex;
    for (const auto& info : classes.value()) {
        classIndex[info.id] = static_cast<int>(data.classNames.size());
        data.classNames.push_back(info.name);
    }
    if (auto status =
            readSplit(project, project::Split::Train, classIndex, checkFiles, data.train, data.warnings);
        !status)
        return fail(status.error());
    if (auto status =
            readSplit(project, project::Split::Val, classIndex, checkFiles, data.val, data.warnings);
        !status)
        return fail(status.error());
    return data;
}

Expected<ProjectData> readProjectData(const std::filesystem::path& projectFolder, bool checkFiles) {
    auto opened = project::Project::open(projectFolder);
    if (!opened)
        return fail(opened.error());
    auto& project = *opened.value();
    Expected<ProjectData> data = fail("the project was not read");
    // One read transaction: the classes and both splits as one consistent state of the database.
    if (auto status = project.readTransaction([&] {
            data = readProjectData(project, checkFiles);
            return data ? Status{} : Status(fail(data.error()));
        });
        !status)
        return fail(status.error());
    return data;
}

} // namespace osprey::job
