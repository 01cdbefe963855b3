#include "formats/image_folder_format.h"

#include "formats/format_util.h"
#include "formats/image_locator.h"

#include <system_error>

namespace fs = std::filesystem;

namespace osprey::formats {

int ImageFolderFormat::detect(const fs::path& source) const {
    std::error_code ec;
    if (!fs::is_directory(source, ec))
        return 0;
    // The weakest claim: any labelled format that recognises the folder wins over this one.
    return listImageFiles(source, true).empty() ? 0 : 10;
}

Expected<ReadResult> ImageFolderFormat::read(const ReadOptions& options) const {
    std::error_code ec;
    if (!fs::is_directory(options.source, ec))
        return fail(options.source.string() + ": not a folder");
    ReadResult result;
    ProblemList problems;
    const auto files = listImageFiles(options.source, true);
    const std::int64_t total = static_cast<std::int64_t>(files.size());
    for (std::int64_t i = 0; i < total; ++i) {
        if (options.progress.cancelled())
            return fail("import cancelled", "cancelled");
        if (i % 64 == 0)
            options.progress.report(i, total, "reading images");
        const auto& file = files[static_cast<std::size_t>(i)];
        DatasetImage image;
        image.path = file;
        image.found = true;
        image.name = file.filename().string();
        image.split = util::splitFromPath(file, options.source);
        const ImageProbe probe = options.probe == ImageProbe::None ? ImageProbe::SizeOnly : options.probe;
        if (!probeImage(image, probe, displayPath(file, options.source), problems))
            continue;
        result.dataset.images.push_back(std::move(image));
    }
    options.progress.report(total, total, "reading images");
    result.problems = problems.take();
    return result;
}

} // namespace osprey::formats
