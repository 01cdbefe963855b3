#pragma once
// BatchPictures: a BatchSource that hands on the training loader's batches unchanged and draws the first
// three of the first epoch as the run folder's train_batch0..2.jpg (core/plot), the augmented mosaics as
// the network saw them, with their boxes. Costs no decoding: the pictures come from batches the trainer
// takes anyway (about 0.1 s each). A picture that cannot be written is a warning; training goes on.
// Thread affinity: the trainer's thread, like any BatchSource.

#include "train/batch_source.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace osprey::train {

class BatchPictures : public BatchSource {
public:
    BatchPictures(BatchSource& source, std::filesystem::path runDir, std::vector<std::string> classNames,
                  std::function<void(const std::string&)> warn);
    int imageCount() const override { return m_source.imageCount(); }
    int batchesPerEpoch() const override { return m_source.batchesPerEpoch(); }
    void startEpoch(const EpochPlan& plan) override;
    std::optional<HostBatch> next() override;

    static constexpr int kPictures = 3;

private:
    BatchSource& m_source;
    std::filesystem::path m_runDir;
    std::vector<std::string> m_classNames;
    std::function<void(const std::string&)> m_warn;
    int m_epoch = -1, m_index = 0;
};

} // namespace osprey::train
