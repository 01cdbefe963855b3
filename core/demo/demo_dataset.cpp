#include "demo/demo_dataset.h"

#include "common/hash.h"
#include "imaging/image.h"
#include "project/project.h"

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numbers>

namespace osprey::demo {

namespace fs = std::filesystem;

namespace {

// A small PRNG with its own distributions, so that the files are identical on every standard library.
class Random {
public:
    explicit Random(std::uint64_t seed) : m_state(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double uniform(double low, double high) { return low + (high - low) * uniform(); }
    int integer(int low, int high) {
        return low + static_cast<int>(next() % static_cast<std::uint64_t>(high - low + 1));
    }
    cv::Scalar colour() { return cv::Scalar(integer(0, 255), integer(0, 255), integer(0, 255)); }

private:
    std::uint64_t m_state;
};

void paintBackground(cv::Mat& image, Random& random) {
    const int size = image.cols;
    // A smooth two-colour gradient, then texture: blobs, lines and per-pixel noise.
    const cv::Scalar a = random.colour(), b = random.colour();
    const double angle = random.uniform(0, 2 * std::numbers::pi);
    const double dx = std::cos(angle), dy = std::sin(angle);
    for (int y = 0; y < image.rows; ++y) {
        auto* row = image.ptr<cv::Vec3b>(y);
        for (int x = 0; x < image.cols; ++x) {
            const double t =
                std::clamp(0.5 + ((x - size / 2.0) * dx + (y - size / 2.0) * dy) / size, 0.0, 1.0);
            for (int c = 0; c < 3; ++c)
                row[x][c] = static_cast<std::uint8_t>(a[c] * (1 - t) + b[c] * t);
        }
    }
    const int blobs = random.integer(3, 10);
    for (int i = 0; i < blobs; ++i) {
        const cv::Point centre(random.integer(0, size), random.integer(0, size));
        const cv::Size axes(random.integer(size / 20, size / 4), random.integer(size / 20, size / 4));
        cv::Mat overlay = image.clone();
        cv::ellipse(overlay, centre, axes, random.uniform(0, 180), 0, 360, random.colour(), cv::FILLED,
                    cv::LINE_AA);
        cv::addWeighted(overlay, 0.35, image, 0.65, 0, image);
    }
    const int lines = random.integer(2, 8);
    for (int i = 0; i < lines; ++i)
        cv::line(image, cv::Point(random.integer(0, size), random.integer(0, size)),
                 cv::Point(random.integer(0, size), random.integer(0, size)), random.colour(),
                 random.integer(1, 3), cv::LINE_AA);
    cv::Mat noise(image.size(), CV_16SC3);
    // OpenCV's global RNG would make the files depend on what ran before; use a seeded one.
    cv::RNG noiseRng(random.next());
    noiseRng.fill(noise, cv::RNG::NORMAL, 0, random.uniform(4, 18));
    cv::Mat widened;
    image.convertTo(widened, CV_16SC3);
    widened += noise;
    widened.convertTo(image, CV_8UC3);
}

std::vector<cv::Point2d> shapeOutline(int classIndex, cv::Point2d centre, double radius, double rotation) {
    std::vector<cv::Point2d> points;
    auto polygon = [&](int corners, double startAngle, const std::vector<double>& radii) {
        for (int i = 0; i < corners; ++i) {
            const double angle = rotation + startAngle + 2 * std::numbers::pi * i / corners;
            const double r = radii[static_cast<size_t>(i) % radii.size()];
            points.emplace_back(centre.x + r * std::cos(angle), centre.y + r * std::sin(angle));
        }
    };
    switch (classIndex) {
    case 1:
        polygon(4, std::numbers::pi / 4, {radius});
        break;
    case 2:
        polygon(3, -std::numbers::pi / 2, {radius});
        break;
    case 3:
        polygon(10, -std::numbers::pi / 2, {radius, radius * 0.45});
        break;
    default:
        break;
    }
    return points;
}

} // namespace

DemoImage renderDemoImage(const DemoOptions& options, int index) {
    Random random(options.seed * 1000003ull + static_cast<std::uint64_t>(index) * 7919ull + 17);
    const int size = options.imageSizePx;
    cv::Mat image(size, size, CV_8UC3);
    paintBackground(image, random);

    DemoImage result;
    result.width = size;
    result.height = size;
    const int count = random.integer(1, 6);
    for (int attempt = 0; attempt < count * 20 && static_cast<int>(result.objects.size()) < count;
         ++attempt) {
        const int classIndex = random.integer(0, 3);
        // The object's extent is 6% to 40% of the image side.
        const double extent = random.uniform(0.06, 0.40) * size;
        const double radius = extent / 2;
        const double rotation = random.uniform(0, 2 * std::numbers::pi);
        const cv::Point2d centre(random.uniform(radius, size - radius),
                                 random.uniform(radius, size - radius));
        std::vector<cv::Point2d> outline = shapeOutline(classIndex, centre, radius, rotation);
        DemoObject object;
        object.classIndex = classIndex;
        if (outline.empty()) {
            object.x1 = centre.x - radius;
            object.y1 = centre.y - radius;
            object.x2 = centre.x + radius;
            object.y2 = centre.y + radius;
        } else {
            object.x1 = object.y1 = size;
            object.x2 = object.y2 = 0;
            for (const auto& p : outline) {
                object.x1 = std::min(object.x1, p.x);
                object.y1 = std::min(object.y1, p.y);
                object.x2 = std::max(object.x2, p.x);
                object.y2 = std::max(object.y2, p.y);
            }
        }
        // Partial overlap is fine; near-total occlusion would make unfair labels.
        bool hidden = false;
        for (const auto& other : result.objects) {
            const double iw = std::min(object.x2, other.x2) - std::max(object.x1, other.x1);
            const double ih = std::min(object.y2, other.y2) - std::max(object.y1, other.y1);
            if (iw <= 0 || ih <= 0)
                continue;
            const double inter = iw * ih;
            const double areaA = (object.x2 - object.x1) * (object.y2 - object.y1);
            const double areaB = (other.x2 - other.x1) * (other.y2 - other.y1);
            if (inter / std::min(areaA, areaB) > 0.35)
                hidden = true;
        }
        if (hidden)
            continue;
        cv::Scalar colour = random.colour();
        // Sub-pixel drawing with 4 fractional bits keeps the drawn edges where the box says.
        constexpr int kShift = 4;
        constexpr double kScale = 1 << kShift;
        if (outline.empty()) {
            cv::circle(image, cv::Point(cvRound(centre.x * kScale), cvRound(centre.y * kScale)),
                       cvRound(radius * kScale), colour, cv::FILLED, cv::LINE_AA, kShift);
        } else {
            std::vector<cv::Point> fixed;
            for (const auto& p : outline)
                fixed.emplace_back(cvRound(p.x * kScale), cvRound(p.y * kScale));
            cv::fillPoly(image, std::vector<std::vector<cv::Point>>{fixed}, colour, cv::LINE_AA, kShift);
        }
        result.objects.push_back(object);
    }
    cv::Mat rgb;
    cv::cvtColor(image, rgb, cv::COLOR_BGR2RGB);
    result.rgb.assign(rgb.data, rgb.data + rgb.total() * 3);
    return result;
}

Status createDemoProject(const fs::path& folder, const DemoOptions& options, const Progress& progress) {
    if (options.images <= 0)
        return fail("images: must be at least 1");
    if (options.imageSizePx < 32 || options.imageSizePx > 4096)
        return fail("imgsz: must be between 32 and 4096");
    std::error_code ec;
    if (fs::exists(folder / project::kDatabaseFileName, ec))
        return fail((folder / project::kDatabaseFileName).string() + ": a project already exists here",
                    "exists");
    const fs::path imageFolder = folder / "images";
    fs::create_directories(imageFolder, ec);
    if (ec)
        return fail(imageFolder.string() + ": cannot create folder: " + ec.message());

    // The split is a seeded shuffle, so exactly round(train * N) images are in train.
    std::vector<int> order(static_cast<size_t>(options.images));
    for (int i = 0; i < options.images; ++i)
        order[static_cast<size_t>(i)] = i;
    Random shuffle(options.seed ^ 0x5EED5EEDull);
    for (int i = options.images - 1; i > 0; --i)
        std::swap(order[static_cast<size_t>(i)], order[static_cast<size_t>(shuffle.integer(0, i))]);
    const int trainCount = static_cast<int>(std::lround(options.trainFraction * options.images));
    std::vector<bool> isTrain(static_cast<size_t>(options.images), false);
    for (int i = 0; i < trainCount; ++i)
        isTrain[static_cast<size_t>(order[static_cast<size_t>(i)])] = true;

    struct Pending {
        project::NewImage image;
        std::vector<DemoObject> objects;
    };
    std::vector<Pending> pending;
    pending.reserve(static_cast<size_t>(options.images));
    for (int i = 0; i < options.images; ++i) {
        if (progress && !progress(i, options.images))
            return fail("demo generation cancelled", "cancelled");
        DemoImage rendered = renderDemoImage(options, i);
        char name[32];
        std::snprintf(name, sizeof(name), "shapes_%05d.jpg", i);
        imaging::Image image{rendered.width, rendered.height, 3, std::move(rendered.rgb)};
        if (auto written = imaging::encodeImage(image, imageFolder / name, options.jpegQuality); !written)
            return written;
        auto hash = hashFileHex(imageFolder / name);
        if (!hash)
            return fail(hash.error());
        project::NewImage record;
        record.path = std::string("images/") + name;
        record.width = rendered.width;
        record.height = rendered.height;
        record.hash = *hash;
        record.split = isTrain[static_cast<size_t>(i)] ? project::Split::Train : project::Split::Val;
        pending.push_back({record, std::move(rendered.objects)});
    }
    // The database is written last and in one transaction: a cancelled or failed run leaves no project.
    auto created = project::Project::create(folder);
    if (!created)
        return fail(created.error());
    auto& project = **created;
    auto status = project.transaction([&]() -> Status {
        std::vector<std::int64_t> classIds;
        for (const auto& name : demoClassNames()) {
            auto id = project.classes().add(name);
            if (!id)
                return fail(id.error());
            classIds.push_back(*id);
        }
        for (const auto& item : pending) {
            auto imageId = project.images().add(item.image);
            if (!imageId)
                return fail(imageId.error());
            std::vector<project::NewBox> boxes;
            for (const auto& object : item.objects) {
                project::NewBox box;
                box.imageId = *imageId;
                box.classId = classIds[static_cast<size_t>(object.classIndex)];
                box.x1 = object.x1;
                box.y1 = object.y1;
                box.x2 = object.x2;
                box.y2 = object.y2;
                box.source = project::BoxSource::Import;
                boxes.push_back(box);
            }
            if (auto added = project.boxes().addAll(boxes); !added)
                return fail(added.error());
        }
        return {};
    });
    if (!status) {
        created->reset();
        fs::remove(folder / project::kDatabaseFileName, ec);
        fs::remove(folder / (std::string(project::kDatabaseFileName) + "-wal"), ec);
        fs::remove(folder / (std::string(project::kDatabaseFileName) + "-shm"), ec);
        return status;
    }
    if (progress)
        progress(options.images, options.images);
    return {};
}

} // namespace osprey::demo
