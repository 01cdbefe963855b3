#include "assist/auto_labeler.h"

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace osprey::assist {
namespace {

struct Decoded {
    size_t index = 0;
    Expected<imaging::Image> image = fail("not decoded");
};

// A bounded queue filled by one decode thread, drained in order by the calling thread.
class DecodeAhead {
public:
    DecodeAhead(const project::Project& project, const std::vector<project::ImageRecord>& images,
                size_t depth)
        : m_depth(depth) {
        std::vector<std::filesystem::path> paths;
        for (const auto& record : images)
            paths.push_back(project.resolve(record.path));
        m_thread = std::thread([this, paths = std::move(paths)] {
            for (size_t i = 0; i < paths.size(); ++i) {
                Decoded item{i, imaging::decodeImage(paths[i])};
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return m_stop || m_queue.size() < m_depth; });
                if (m_stop)
                    return;
                m_queue.push_back(std::move(item));
                m_changed.notify_all();
            }
        });
    }
    ~DecodeAhead() {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }
    Decoded next() {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return !m_queue.empty(); });
        Decoded item = std::move(m_queue.front());
        m_queue.pop_front();
        m_changed.notify_all();
        return item;
    }

private:
    size_t m_depth;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Decoded> m_queue;
    bool m_stop = false;
    std::thread m_thread;
};

struct Labelled {
    std::int64_t imageId = 0;
    std::vector<project::NewBox> boxes;
    bool reopen = false; ///< a reviewed image that gets model boxes goes back to labeled (needs review)
};

Status store(project::Project& project, const std::vector<Labelled>& batch, WriteMode mode) {
    return project.transaction([&]() -> Status {
        for (const auto& item : batch) {
            if (mode == WriteMode::Replace) {
                auto existing = project.boxes(item.imageId);
                if (!existing)
                    return fail(existing.error());
                for (const auto& box : *existing)
                    if (box.source == project::BoxSource::Model)
                        if (auto deleted = project.deleteBox(box.id); !deleted)
                            return deleted;
            }
            if (!item.boxes.empty())
                if (auto added = project.addBoxes(item.boxes); !added)
                    return fail(added.error());
            if (item.reopen)
                if (auto reopened = project.setImageStatus(item.imageId, project::ImageStatus::Labeled);
                    !reopened)
                    return reopened;
        }
        return {};
    });
}

} // namespace

Status parseImageSelection(const std::string& text, AutoLabelOptions& options) {
    if (text == "unlabeled") {
        options.images = ImageSelection::Unlabeled;
    } else if (text == "all") {
        options.images = ImageSelection::All;
    } else if (text.rfind("split:", 0) == 0) {
        const auto split = project::splitFromString(text.substr(6));
        if (!split)
            return fail("images=" + text + ": unknown split (use split:train, split:val or split:test)",
                        "invalid");
        options.images = ImageSelection::Split;
        options.split = *split;
    } else {
        return fail("images=" + text + ": use unlabeled, all or split:NAME", "invalid");
    }
    return {};
}

Expected<AutoLabelReport> autoLabel(project::Project& project, BoxPredictor& predictor,
                                    const AutoLabelOptions& options, const AutoLabelProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    auto mapping = mapClassesByName(project, predictor.names(), options.addClasses, options.mappingKey);
    if (!mapping)
        return fail(mapping.error());
    if (mapping->mappedCount() == 0)
        return fail("none of the model's " + std::to_string(predictor.names().size()) +
                        " classes matches a project class by name; pass add_classes=true to add them",
                    "classes");
    project::ImageQuery query;
    query.limit = 0;
    if (options.images == ImageSelection::Unlabeled)
        query.status = project::ImageStatus::New;
    else if (options.images == ImageSelection::Split)
        query.split = options.split;
    auto images = project.listImages(query);
    if (!images)
        return fail(images.error());

    AutoLabelReport report;
    const int total = static_cast<int>(images->size());
    std::unique_ptr<DecodeAhead> ahead;
    if (options.pipelining == Pipelining::Pipelined)
        ahead = std::make_unique<DecodeAhead>(project, *images,
                                              static_cast<size_t>(std::max(2, options.batchSize)));
    std::vector<Labelled> batch;
    for (size_t i = 0; i < images->size(); ++i) {
        const auto& record = (*images)[i];
        auto image = ahead ? ahead->next().image : imaging::decodeImage(project.resolve(record.path));
        ++report.images;
        if (!image) {
            ++report.failed;
            report.warnings.push_back("skipped " + image.message());
        } else {
            auto proposals = predictor.predict(*image, options.suggest);
            if (!proposals)
                return fail(record.path + ": " + proposals.message());
            Labelled item{record.id, {}, false};
            for (const auto& p : *proposals) {
                if (p.classIndex < 0 || static_cast<size_t>(p.classIndex) >= mapping->projectClassIds.size())
                    continue;
                const auto& classId = mapping->projectClassIds[static_cast<size_t>(p.classIndex)];
                if (!classId)
                    continue;
                project::NewBox box;
                box.imageId = record.id;
                box.classId = *classId;
                box.x1 = p.x1, box.y1 = p.y1, box.x2 = p.x2, box.y2 = p.y2;
                box.source = project::BoxSource::Model;
                box.score = p.score;
                item.boxes.push_back(box);
            }
            item.reopen = !item.boxes.empty() && record.status == project::ImageStatus::Reviewed;
            report.reopened += item.reopen ? 1 : 0;
            report.boxes += static_cast<int>(item.boxes.size());
            report.labeled += item.boxes.empty() ? 0 : 1;
            batch.push_back(std::move(item));
        }
        const bool last = i + 1 == images->size();
        if (static_cast<int>(batch.size()) >= options.batchSize || last) {
            if (auto stored = store(project, batch, options.mode); !stored)
                return fail(stored.error());
            batch.clear();
            if (progress && !progress(report.images, total) && !last) {
                report.cancelled = true;
                break;
            }
        }
    }
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

} // namespace osprey::assist
