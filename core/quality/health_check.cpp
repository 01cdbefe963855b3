#include "quality/health_check.h"

#include "formats/project_export.h"

#include "common/hash.h"
#include "common/xyxy_iou.h"
#include "imaging/image.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <sstream>
#include <system_error>
#include <thread>
#include <unordered_map>

namespace fs = std::filesystem;

namespace osprey::quality {

namespace {

struct CheckInfo {
    Check check;
    const char* key;
    const char* title;
    Severity severity;
};

constexpr CheckInfo kChecks[] = {
    {Check::MissingImage, "missing_image", "missing image files", Severity::Error},
    {Check::CorruptImage, "corrupt_image", "unreadable or corrupt images", Severity::Error},
    {Check::LabelWithoutImage, "label_without_image", "label files with no image", Severity::Error},
    {Check::ImageWithoutLabel, "image_without_label", "images with no label file (unlabeled)",
     Severity::Warning},
    {Check::EmptyLabel, "empty_label", "images with an empty label file (verified empty)", Severity::Info},
    {Check::BoxOutOfBounds, "box_out_of_bounds", "boxes out of bounds", Severity::Error},
    {Check::BoxDegenerate, "box_degenerate", "boxes of zero or negative size", Severity::Error},
    {Check::BoxDuplicate, "box_duplicate", "duplicated boxes (same class, IoU > threshold)",
     Severity::Warning},
    {Check::DuplicateImage, "duplicate_image", "duplicate images (same content)", Severity::Warning},
    {Check::ClassOutOfRange, "class_out_of_range", "class ids outside the class list", Severity::Error},
    {Check::BoxTooSmall, "box_too_small", "boxes too small at the training imgsz", Severity::Warning},
    {Check::ExifRotated, "exif_rotated", "images whose EXIF orientation changes their size",
     Severity::Warning},
    {Check::SizeMismatch, "size_mismatch", "stored size differs from the file", Severity::Error},
};

const CheckInfo& info(Check check) {
    for (const auto& entry : kChecks)
        if (entry.check == check)
            return entry;
    return kChecks[0];
}

/// What the file system says about one image; filled in parallel.
struct FileFacts {
    bool exists = false;
    bool readable = true;
    std::string error;
    int width = 0, height = 0;
    bool exifRotated = false;
    std::string hash;
};

double iou(const formats::DatasetBox& a, const formats::DatasetBox& b) {
    return xyxyIou<double>(a, b);
}

std::string fmt(double value) {
    std::ostringstream out;
    out << value;
    return out.str();
}

} // namespace

std::string checkKey(Check check) {
    return info(check).key;
}
std::string checkTitle(Check check) {
    return info(check).title;
}
Severity checkSeverity(Check check) {
    return info(check).severity;
}

std::int64_t HealthReport::count(Check check) const {
    return std::count_if(issues.begin(), issues.end(),
                         [&](const HealthIssue& i) { return i.check == check; });
}

bool HealthReport::healthy() const {
    return std::none_of(issues.begin(), issues.end(),
                        [](const HealthIssue& i) { return checkSeverity(i.check) == Severity::Error; });
}

Expected<HealthReport> checkDataset(const formats::Dataset& dataset, const HealthOptions& options,
                                    const std::vector<formats::Problem>& readProblems) {
    HealthReport report;
    const std::size_t n = dataset.images.size();
    report.images = static_cast<std::int64_t>(n);
    std::vector<FileFacts> facts(n);
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> stop{false};
    const auto worker = [&](bool reporter) {
        for (std::size_t i; (i = next.fetch_add(1)) < n;) {
            if (stop.load() || options.progress.cancelled()) {
                stop = true;
                return;
            }
            const auto& image = dataset.images[i];
            FileFacts& f = facts[i];
            std::error_code ec;
            f.exists = fs::is_regular_file(image.path, ec);
            if (f.exists) {
                if (const auto size = imaging::readImageSize(image.path)) {
                    f.width = size->width;
                    f.height = size->height;
                    f.exifRotated = size->exifRotated;
                    if (options.decode) {
                        if (const auto decoded = imaging::decodeImage(image.path); !decoded) {
                            f.readable = false;
                            f.error = decoded.message();
                        }
                    }
                } else {
                    f.readable = false;
                    f.error = size.message();
                }
                f.hash = image.hash;
                if (f.hash.empty())
                    if (auto hash = hashFileHex(image.path))
                        f.hash = *hash;
            }
            const std::size_t finished = ++done;
            if (reporter && finished % 64 == 0)
                options.progress.report(static_cast<std::int64_t>(finished), static_cast<std::int64_t>(n),
                                        "checking images");
        }
    };
    const unsigned threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.emplace_back(worker, false);
    worker(true);
    for (auto& thread : pool)
        thread.join();
    if (stop || options.progress.cancelled())
        return fail("health check cancelled", "cancelled");

    for (const auto& problem : readProblems) {
        if (problem.kind == formats::ProblemKind::LabelWithoutImage)
            report.issues.push_back({Check::LabelWithoutImage, 0, 0, problem.file, problem.message});
        else if (problem.kind == formats::ProblemKind::ClassOutOfRange)
            report.issues.push_back(
                {Check::ClassOutOfRange, 0, 0, problem.file, problem.where + ": " + problem.message});
    }

    std::unordered_map<std::string, std::size_t> firstWithHash;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& image = dataset.images[i];
        const FileFacts& f = facts[i];
        const std::string path = image.path.string();
        const auto issue = [&](Check check, std::string detail, std::int64_t boxId = 0) {
            report.issues.push_back({check, image.id, boxId, path, std::move(detail)});
        };
        report.boxes += static_cast<std::int64_t>(image.boxes.size());
        if (!f.exists)
            issue(Check::MissingImage, "file not found");
        else if (!f.readable)
            issue(Check::CorruptImage, f.error);
        if (f.exists && f.readable) {
            if (f.exifRotated)
                issue(Check::ExifRotated, "EXIF orientation turns " + std::to_string(f.height) + "x" +
                                              std::to_string(f.width) + " into " + std::to_string(f.width) +
                                              "x" + std::to_string(f.height));
            if (image.width > 0 && (f.width != image.width || f.height != image.height))
                issue(Check::SizeMismatch, "stored " + std::to_string(image.width) + "x" +
                                               std::to_string(image.height) + ", file " +
                                               std::to_string(f.width) + "x" + std::to_string(f.height));
        }
        if (!f.hash.empty()) {
            const auto [it, inserted] = firstWithHash.emplace(f.hash, i);
            if (!inserted)
                issue(Check::DuplicateImage, "same content as " + dataset.images[it->second].path.string());
        }
        if (image.labels == formats::LabelState::Missing && image.boxes.empty())
            issue(Check::ImageWithoutLabel, "no label file; not labeled yet");
        else if (image.labels == formats::LabelState::Empty)
            issue(Check::EmptyLabel, "empty label file (a negative)");

        const double w = image.width > 0 ? image.width : f.width;
        const double h = image.height > 0 ? image.height : f.height;
        const double scale = std::max(w, h) > 0 ? options.imgsz / std::max(w, h) : 0;
        const double tolerance = 0.01; // px: YOLO labels round to 6 decimals
        for (std::size_t b = 0; b < image.boxes.size(); ++b) {
            const auto& box = image.boxes[b];
            const bool knownClass =
                box.classIndex >= 0 && box.classIndex < static_cast<int>(dataset.classes.size());
            const std::string name =
                "box " + std::to_string(b + 1) + " (" +
                (knownClass ? dataset.classes[static_cast<std::size_t>(box.classIndex)].name
                            : "class " + std::to_string(box.classIndex)) +
                ")";
            if (!knownClass)
                issue(Check::ClassOutOfRange,
                      name + ": class index outside the " + std::to_string(dataset.classes.size()) +
                          " classes",
                      box.id);
            const double bw = box.x2 - box.x1, bh = box.y2 - box.y1;
            if (bw <= 0 || bh <= 0) {
                issue(Check::BoxDegenerate, name + ": " + fmt(bw) + "x" + fmt(bh) + " px", box.id);
                continue;
            }
            if (w > 0 && h > 0 &&
                (box.x1 < -tolerance || box.y1 < -tolerance || box.x2 > w + tolerance ||
                 box.y2 > h + tolerance))
                issue(Check::BoxOutOfBounds,
                      name + ": (" + fmt(box.x1) + ", " + fmt(box.y1) + ", " + fmt(box.x2) + ", " +
                          fmt(box.y2) + ") outside " + fmt(w) + "x" + fmt(h),
                      box.id);
            if (scale > 0 && (bw * scale < options.minBoxPx || bh * scale < options.minBoxPx))
                issue(Check::BoxTooSmall,
                      name + ": " + fmt(bw * scale) + "x" + fmt(bh * scale) + " px at imgsz " +
                          std::to_string(options.imgsz) + " (minimum " + fmt(options.minBoxPx) + ")",
                      box.id);
            for (std::size_t o = 0; o < b; ++o) {
                const auto& other = image.boxes[o];
                if (other.classIndex == box.classIndex && iou(box, other) > options.duplicateIoU) {
                    issue(Check::BoxDuplicate,
                          name + " duplicates box " + std::to_string(o + 1) + " (IoU " +
                              fmt(iou(box, other)) + ")",
                          box.id);
                    break;
                }
            }
        }
    }
    std::stable_sort(report.issues.begin(), report.issues.end(),
                     [](const HealthIssue& a, const HealthIssue& b) {
                         return static_cast<int>(a.check) < static_cast<int>(b.check);
                     });
    return report;
}

Expected<HealthReport> checkProject(const project::Project& project, const HealthOptions& options) {
    auto dataset = formats::readProject(project, options.progress);
    if (!dataset)
        return fail(dataset.error());
    return checkDataset(*dataset, options);
}

std::string toTable(const HealthReport& report, int maxPerCheck) {
    std::ostringstream out;
    out << "Health check: " << report.images << " images, " << report.boxes << " boxes\n\n";
    for (const auto& entry : kChecks) {
        const auto count = report.count(entry.check);
        const char* mark = count == 0                            ? "ok  "
                           : entry.severity == Severity::Error   ? "FAIL"
                           : entry.severity == Severity::Warning ? "warn"
                                                                 : "info";
        out << "  " << mark << "  " << count << "  " << entry.title << "\n";
    }
    for (const auto& entry : kChecks) {
        int shown = 0;
        const auto count = report.count(entry.check);
        if (count == 0 || entry.check == Check::EmptyLabel)
            continue;
        out << "\n" << entry.title << " (" << count << "):\n";
        for (const auto& issue : report.issues) {
            if (issue.check != entry.check)
                continue;
            if (shown++ == maxPerCheck) {
                out << "  ... " << (count - maxPerCheck) << " more (json=true lists all)\n";
                break;
            }
            out << "  " << issue.path << ": " << issue.detail << "\n";
        }
    }
    out << "\n"
        << (report.healthy() ? "No errors found." : "Errors found: fix them before training.") << "\n";
    return out.str();
}

std::string toJson(const HealthReport& report) {
    nlohmann::json counts = nlohmann::json::object();
    for (const auto& entry : kChecks)
        counts[entry.key] = report.count(entry.check);
    nlohmann::json issues = nlohmann::json::array();
    for (const auto& issue : report.issues)
        issues.push_back({{"check", checkKey(issue.check)},
                          {"image_id", issue.imageId},
                          {"box_id", issue.boxId},
                          {"path", issue.path},
                          {"detail", issue.detail}});
    return nlohmann::json{{"images", report.images},
                          {"boxes", report.boxes},
                          {"healthy", report.healthy()},
                          {"counts", counts},
                          {"issues", issues}}
        .dump(2);
}

} // namespace osprey::quality
