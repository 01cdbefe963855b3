#pragma once
// A synthetic project for dataset-snapshot tests and the snapshot benchmark: `images` images with
// `boxesPerImage` boxes each over four classes, seeded coordinates (arbitrary doubles, as YOLO imports
// give), 80/10/10 train/val/test plus every 50th image left out of the splits. No image files: a snapshot
// reads the database only. Inserted in two transactions, so 100,000 images take seconds.

#include "project/project.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace osprey::test {

struct SyntheticProject {
    std::unique_ptr<project::Project> project;
    std::vector<std::int64_t> classIds;
    std::vector<std::int64_t> imageIds;
};

inline SyntheticProject makeSyntheticProject(const std::filesystem::path& folder, int images,
                                             int boxesPerImage, std::uint32_t seed = 7) {
    SyntheticProject out;
    auto created = project::Project::create(folder);
    if (!created)
        throw std::runtime_error(created.message());
    out.project = std::move(created.value());
    for (const char* name : {"circle", "square", "triangle", "star"}) {
        auto id = out.project->classes().add(name);
        if (!id)
            throw std::runtime_error(id.message());
        out.classIds.push_back(*id);
    }
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<project::NewImage> newImages;
    newImages.reserve(static_cast<size_t>(images));
    for (int i = 0; i < images; ++i) {
        project::NewImage image;
        image.path = "images/batch" + std::to_string(i / 1000) + "/img_" + std::to_string(i) + ".jpg";
        image.width = 640;
        image.height = 480;
        char hash[17];
        std::snprintf(hash, sizeof hash, "%016llx",
                      static_cast<unsigned long long>(rng()) * 2654435761ULL + i);
        image.hash = hash;
        image.status = project::ImageStatus::Labeled;
        const int bucket = i % 50 == 49 ? -1 : i % 10;
        image.split = bucket < 0    ? project::Split::None
                      : bucket < 8  ? project::Split::Train
                      : bucket == 8 ? project::Split::Val
                                    : project::Split::Test;
        newImages.push_back(std::move(image));
    }
    auto ids = out.project->images().addAll(newImages);
    if (!ids)
        throw std::runtime_error(ids.message());
    out.imageIds = std::move(*ids);
    std::vector<project::NewBox> boxes;
    boxes.reserve(static_cast<size_t>(images) * static_cast<size_t>(boxesPerImage));
    for (const std::int64_t imageId : out.imageIds)
        for (int b = 0; b < boxesPerImage; ++b) {
            project::NewBox box;
            box.imageId = imageId;
            box.classId = out.classIds[rng() % out.classIds.size()];
            const double cx = unit(rng), cy = unit(rng), w = 0.05 + 0.3 * unit(rng),
                         h = 0.05 + 0.3 * unit(rng);
            box.x1 = std::max(0.0, cx - w / 2) * 640;
            box.y1 = std::max(0.0, cy - h / 2) * 480;
            box.x2 = std::min(1.0, cx + w / 2) * 640;
            box.y2 = std::min(1.0, cy + h / 2) * 480;
            box.source = project::BoxSource::Import;
            boxes.push_back(box);
        }
    if (auto added = out.project->boxes().addAll(boxes); !added)
        throw std::runtime_error(added.message());
    return out;
}

} // namespace osprey::test
