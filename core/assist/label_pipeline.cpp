#include "assist/label_pipeline_impl.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

namespace osprey::assist::detail {
namespace {

ImageOutcome infer(Expected<imaging::Image> image, BoxPredictor* predictor, const ImageWork& work) {
    if (!image)
        return {true, fail(image.error())};
    return {false, work(*image, predictor)};
}

class Sequential final : public LabelPipeline {
public:
    Sequential(std::vector<std::filesystem::path> paths, BoxPredictor* predictor, ImageWork work)
        : m_paths(std::move(paths)), m_predictor(predictor), m_work(std::move(work)) {}

    ImageOutcome next() override {
        return infer(imaging::decodeImage(m_paths[m_next++]), m_predictor, m_work);
    }

private:
    std::vector<std::filesystem::path> m_paths;
    BoxPredictor* m_predictor;
    ImageWork m_work;
    size_t m_next = 0;
};

// A bounded queue filled by one decode thread, drained in order by the calling thread, which infers.
class DecodeAhead final : public LabelPipeline {
public:
    DecodeAhead(std::vector<std::filesystem::path> paths, BoxPredictor* predictor, ImageWork work,
                size_t depth)
        : m_predictor(predictor), m_work(std::move(work)), m_depth(std::max<size_t>(1, depth)) {
        m_thread = std::thread([this, paths = std::move(paths)] {
            for (const auto& path : paths) {
                auto image = imaging::decodeImage(path);
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] { return m_stop || m_queue.size() < m_depth; });
                if (m_stop)
                    return;
                m_queue.push_back(std::move(image));
                m_changed.notify_all();
            }
        });
    }
    ~DecodeAhead() override {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        m_thread.join();
    }

    ImageOutcome next() override {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return !m_queue.empty(); });
        auto image = std::move(m_queue.front());
        m_queue.pop_front();
        lock.unlock();
        m_changed.notify_all();
        return infer(std::move(image), m_predictor, m_work);
    }

private:
    BoxPredictor* m_predictor;
    ImageWork m_work;
    size_t m_depth;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Expected<imaging::Image>> m_queue;
    bool m_stop = false;
    std::thread m_thread;
};

// Workers take the next image index, decode and infer it with their own predictor, and file the outcome
// under its index; the caller takes outcomes in index order.
class Parallel final : public LabelPipeline {
public:
    Parallel(std::vector<std::filesystem::path> paths, std::vector<BoxPredictor*> predictors, ImageWork work,
             size_t window)
        : m_paths(std::move(paths)), m_work(std::move(work)), m_window(std::max(window, predictors.size())) {
        for (BoxPredictor* predictor : predictors)
            m_workers.emplace_back([this, predictor] { run(predictor); });
    }
    ~Parallel() override {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_changed.notify_all();
        for (auto& worker : m_workers)
            worker.join();
    }

    ImageOutcome next() override {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_finished.count(m_taken) != 0; });
        auto node = m_finished.extract(m_taken);
        ++m_taken;
        lock.unlock();
        m_changed.notify_all();
        return std::move(node.mapped());
    }

private:
    void run(BoxPredictor* predictor) {
        while (true) {
            size_t index = 0;
            {
                std::unique_lock lock(m_mutex);
                m_changed.wait(lock, [&] {
                    return m_stop || m_started >= m_paths.size() || m_started < m_taken + m_window;
                });
                if (m_stop || m_started >= m_paths.size())
                    return;
                index = m_started++;
            }
            ImageOutcome outcome = infer(imaging::decodeImage(m_paths[index]), predictor, m_work);
            {
                std::lock_guard lock(m_mutex);
                m_finished.emplace(index, std::move(outcome));
            }
            m_changed.notify_all();
        }
    }

    const std::vector<std::filesystem::path> m_paths;
    const ImageWork m_work;
    const size_t m_window;
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::map<size_t, ImageOutcome> m_finished;
    size_t m_started = 0; ///< images handed to a worker
    size_t m_taken = 0;   ///< outcomes handed to the caller
    bool m_stop = false;
    std::vector<std::thread> m_workers;
};

} // namespace

ImageWork proposalWork(const SuggestOptions& options) {
    return [options](const imaging::Image& image, BoxPredictor* predictor) -> Expected<ImageAnalysis> {
        if (!predictor)
            return fail("auto-label: no model", "invalid");
        auto proposals = predictor->predict(image, options);
        if (!proposals)
            return fail(proposals.error());
        return ImageAnalysis{std::move(*proposals), {}, {}};
    };
}

std::unique_ptr<LabelPipeline> makeSequentialPipeline(std::vector<std::filesystem::path> paths,
                                                      BoxPredictor* predictor, ImageWork work) {
    return std::make_unique<Sequential>(std::move(paths), predictor, std::move(work));
}

std::unique_ptr<LabelPipeline> makeDecodeAheadPipeline(std::vector<std::filesystem::path> paths,
                                                       BoxPredictor* predictor, ImageWork work,
                                                       size_t depth) {
    return std::make_unique<DecodeAhead>(std::move(paths), predictor, std::move(work), depth);
}

std::unique_ptr<LabelPipeline> makeParallelPipeline(std::vector<std::filesystem::path> paths,
                                                    std::vector<BoxPredictor*> predictors, ImageWork work,
                                                    size_t window) {
    return std::make_unique<Parallel>(std::move(paths), std::move(predictors), std::move(work), window);
}

} // namespace osprey::assist::detail
