#include "train/dataset_info.h"

namespace osprey::train {

DatasetInfo datasetInfoOf(const ProjectData& data) {
    DatasetInfo info;
    info.classNames = data.classNames;
    info.trainImages = static_cast<std::int64_t>(data.train.samples.size());
    info.valImages = static_cast<std::int64_t>(data.val.samples.size());
    info.trainBoxes = data.train.boxes;
    info.valBoxes = data.val.boxes;
    info.negatives = data.train.negatives + data.val.negatives;
    return info;
}

} // namespace osprey::train
