#include "quality/dataset_splitter.h"

#include "common/hash.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <system_error>
#include <unordered_map>

namespace osprey::quality {

namespace {

constexpr std::array<project::Split, 3> kSplits = {project::Split::Train, project::Split::Val,
                                                   project::Split::Test};

int slot(project::Split split) {
    return split == project::Split::Train  ? 0
           : split == project::Split::Val  ? 1
           : split == project::Split::Test ? 2
                                           : -1;
}

/// Images that must share a split (identical content, or frames of one video), with their class counts.
struct Group {
    std::vector<std::size_t> images;
    std::map<int, std::int64_t> classBoxes;
    int lockedSlot = -1;
    std::uint64_t order = 0; ///< seeded tie-break
};

} // namespace

Expected<SplitPlan> planSplit(const formats::Dataset& dataset, const SplitOptions& options) {
    std::array<double, 3> ratio = {options.train, options.val, options.test};
    for (double r : ratio)
        if (r < 0)
            return fail("split fractions must not be negative");
    const double sum = ratio[0] + ratio[1] + ratio[2];
    if (sum <= 0)
        return fail("split fractions sum to 0; give train=, val= or test=");
    for (double& r : ratio)
        r /= sum;

    const std::size_t n = dataset.images.size();
    SplitPlan plan;
    plan.splits.resize(n, project::Split::None);
    std::vector<Group> groups;
    std::unordered_map<std::string, std::size_t> groupOfHash;
    std::unordered_map<std::string, std::size_t> groupOfVideo;
    for (std::size_t i = 0; i < n; ++i) {
        const auto& image = dataset.images[i];
        std::string hash = image.hash;
        std::error_code ec;
        if (hash.empty() && std::filesystem::is_regular_file(image.path, ec))
            if (auto h = hashFileHex(image.path))
                hash = *h;
        const auto byHash = hash.empty() ? groupOfHash.end() : groupOfHash.find(hash);
        const auto byVideo = image.video.empty() ? groupOfVideo.end() : groupOfVideo.find(image.video);
        std::size_t g;
        if (byHash != groupOfHash.end()) {
            g = byHash->second;
            ++plan.groupedDuplicates;
        } else if (byVideo != groupOfVideo.end()) {
            g = byVideo->second;
            ++plan.groupedFrames;
        } else {
            g = groups.size();
            groups.emplace_back();
        }
        // A frame identical to an image of another video's group: that video's frames join this group.
        if (byVideo != groupOfVideo.end() && byVideo->second != g) {
            const std::size_t other = byVideo->second;
            for (std::size_t j : groups[other].images)
                groups[g].images.push_back(j);
            for (const auto& [cls, count] : groups[other].classBoxes)
                groups[g].classBoxes[cls] += count;
            if (groups[g].lockedSlot < 0)
                groups[g].lockedSlot = groups[other].lockedSlot;
            groups[other] = Group{};
            for (auto& [key, value] : groupOfHash)
                if (value == other)
                    value = g;
            for (auto& [key, value] : groupOfVideo)
                if (value == other)
                    value = g;
            ++plan.groupedFrames;
        }
        if (!hash.empty())
            groupOfHash.emplace(hash, g);
        if (!image.video.empty())
            groupOfVideo.emplace(image.video, g);
        Group& group = groups[g];
        group.images.push_back(i);
        for (const auto& box : image.boxes)
            ++group.classBoxes[box.classIndex];
        if (image.splitLocked && slot(image.split) >= 0 && group.lockedSlot < 0)
            group.lockedSlot = slot(image.split);
    }
    // Groups emptied by a merge take no part.
    std::erase_if(groups, [](const Group& group) { return group.images.empty(); });

    // Portable seeded order: mt19937_64 output is specified by the standard, distributions are not.
    std::mt19937_64 rng(options.seed);
    for (auto& group : groups)
        group.order = rng();

    std::map<int, std::int64_t> classTotal;
    for (const auto& group : groups)
        for (const auto& [cls, count] : group.classBoxes)
            classTotal[cls] += count;
    std::map<int, std::array<double, 3>> classHave;
    std::array<double, 3> imagesHave = {0, 0, 0};
    const auto assign = [&](const Group& group, int s) {
        for (const auto& [cls, count] : group.classBoxes)
            classHave[cls][static_cast<std::size_t>(s)] += static_cast<double>(count);
        imagesHave[static_cast<std::size_t>(s)] += static_cast<double>(group.images.size());
        for (std::size_t i : group.images)
            plan.splits[i] = kSplits[static_cast<std::size_t>(s)];
    };
    std::vector<std::size_t> free;
    for (std::size_t g = 0; g < groups.size(); ++g) {
        if (groups[g].lockedSlot >= 0)
            assign(groups[g], groups[g].lockedSlot);
        else
            free.push_back(g);
    }
    // Rarest classes first, so that each rare class is spread before common ones fill the splits.
    const auto rarity = [&](const Group& group) {
        std::int64_t rarest = std::numeric_limits<std::int64_t>::max();
        for (const auto& [cls, count] : group.classBoxes)
            rarest = std::min(rarest, classTotal[cls]);
        return rarest;
    };
    std::sort(free.begin(), free.end(), [&](std::size_t a, std::size_t b) {
        const auto ra = rarity(groups[a]), rb = rarity(groups[b]);
        return ra != rb ? ra < rb : groups[a].order < groups[b].order;
    });
    const double totalImages = static_cast<double>(n);
    for (std::size_t g : free) {
        const Group& group = groups[g];
        int best = -1;
        double bestScore = -1e300;
        for (int s = 0; s < 3; ++s) {
            if (ratio[static_cast<std::size_t>(s)] <= 0)
                continue;
            // Deficit of the group's rarest class in this split first (so rare classes spread), then of
            // all its classes, then of images overall.
            const std::size_t k = static_cast<std::size_t>(s);
            double rarestDeficit = 0, meanDeficit = 0;
            std::int64_t rarestTotal = std::numeric_limits<std::int64_t>::max();
            for (const auto& [cls, count] : group.classBoxes) {
                const double total = static_cast<double>(classTotal[cls]);
                const double deficit = (ratio[k] * total - classHave[cls][k]) / total;
                meanDeficit += deficit / static_cast<double>(group.classBoxes.size());
                if (classTotal[cls] < rarestTotal) {
                    rarestTotal = classTotal[cls];
                    rarestDeficit = deficit;
                }
            }
            const double imageTerm = (ratio[k] * totalImages - imagesHave[k]) / std::max(1.0, totalImages);
            const double score = group.classBoxes.empty()
                                     ? imageTerm
                                     : rarestDeficit + 0.01 * meanDeficit + 0.0001 * imageTerm;
            if (score > bestScore) {
                bestScore = score;
                best = s;
            }
        }
        assign(group, best);
    }
    for (std::size_t i = 0; i < n; ++i) {
        const auto& image = dataset.images[i];
        if (image.splitLocked && slot(image.split) >= 0) {
            plan.splits[i] = image.split; // locked images never move, even when a twin is locked elsewhere
            ++plan.locked;
        }
        plan.changed += plan.splits[i] != image.split ? 1 : 0;
    }
    return plan;
}

Status applySplit(project::Project& project, const formats::Dataset& dataset, const SplitPlan& plan) {
    if (plan.splits.size() != dataset.images.size())
        return fail("split plan does not match the dataset");
    return project.transaction([&]() -> Status {
        for (std::size_t i = 0; i < dataset.images.size(); ++i) {
            const auto& image = dataset.images[i];
            if (image.splitLocked || plan.splits[i] == image.split)
                continue;
            if (auto status = project.images().setSplit(image.id, plan.splits[i], false); !status)
                return status;
        }
        return {};
    });
}

} // namespace osprey::quality
