#include "train/batch_pictures.h"

#include "plot/run_plots.h"
#include "run/run_folder.h"

namespace osprey::train {

BatchPictures::BatchPictures(BatchSource& source, std::filesystem::path runDir,
                             std::vector<std::string> classNames,
                             std::function<void(const std::string&)> warn)
    : m_source(source), m_runDir(std::move(runDir)), m_classNames(std::move(classNames)),
      m_warn(std::move(warn)) {}

void BatchPictures::startEpoch(const EpochPlan& plan) {
    m_epoch = plan.epoch;
    m_index = 0;
    m_source.startEpoch(plan);
}

std::optional<HostBatch> BatchPictures::next() {
    auto batch = m_source.next();
    const int index = m_index++;
    if (!batch || m_epoch != 0 || index >= kPictures || batch->count <= 0)
        return batch;
    std::vector<plot::BatchImage> images(static_cast<size_t>(batch->count));
    const size_t stride = static_cast<size_t>(batch->width) * static_cast<size_t>(batch->height) * 3;
    for (int i = 0; i < batch->count; ++i) {
        auto& image = images[size_t(i)];
        image.width = batch->width;
        image.height = batch->height;
        image.rgb = batch->pixels.data() + stride * size_t(i);
    }
    for (const TargetBox& box : batch->boxes)
        if (box.imageIndex >= 0 && box.imageIndex < batch->count)
            images[size_t(box.imageIndex)].boxes.push_back({box.classId, box.x1, box.y1, box.x2, box.y2});
    if (auto written =
            plot::writeBatchPicture(run::RunFolder(m_runDir).trainBatch(index), images, m_classNames);
        !written && m_warn)
        m_warn("train_batch" + std::to_string(index) + ".jpg: " + written.message());
    return batch;
}

} // namespace osprey::train
