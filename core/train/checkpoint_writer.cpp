#include "train/checkpoint_writer_impl.h"

#include "model/weights_torch_impl.h"

#include <cstdio>
#include <system_error>

namespace osprey::train::detail {

CheckpointWriter::CheckpointWriter(const run::RunFolder& folder, const run::TrainConfig& config,
                                   const std::vector<std::string>& classNames, Emitter& emitter)
    : m_config(config), m_classNames(classNames), m_emit(emitter), m_lastPath(folder.lastWeights()),
      m_bestPath(folder.bestWeights()) {}

Status CheckpointWriter::write(const TrainingState& state, const run::EpochMetrics& metrics, int epoch,
                               bool best) {
    if (auto status = saveTrainingCheckpoint(state, m_config, m_classNames, metrics, m_lastPath); !status)
        return status;
    run::TrainEvent saved;
    saved.type = run::TrainEvent::Type::Checkpoint;
    saved.epoch = epoch + 1;
    saved.kind = "last";
    saved.path = m_lastPath.string();
    m_emit.emit(saved);
    if (!best)
        return {};
    std::error_code error;
    const auto temporary = m_bestPath.string() + ".tmp";
    std::filesystem::copy_file(m_lastPath, temporary, std::filesystem::copy_options::overwrite_existing,
                               error);
    if (!error)
        std::filesystem::rename(temporary, m_bestPath, error);
    if (error) {
        std::error_code ignored; // a partial copy (disk full) must not stay behind
        std::filesystem::remove(temporary, ignored);
        return fail(m_bestPath.string() + ": cannot write best weights: " + error.message());
    }
    saved.kind = "best";
    saved.path = m_bestPath.string();
    m_emit.emit(saved);
    return {};
}

void CheckpointWriter::stripBest() {
    // best.pt shrinks to about 1/8 of its size; last.pt keeps everything for resume.
    if (!std::filesystem::exists(m_bestPath))
        return;
    const auto stripped = model::stripWeights(m_bestPath, m_bestPath, true);
    if (!stripped) {
        m_emit.log("warning: best.pt was left as a full training checkpoint: " + stripped.message());
        return;
    }
    char line[200];
    std::snprintf(line, sizeof line, "Stripped best.pt to %.1f MB (EMA weights in float16, from %.1f MB)",
                  static_cast<double>(stripped->bytesAfter) / 1e6,
                  static_cast<double>(stripped->bytesBefore) / 1e6);
    m_emit.log(line);
}

} // namespace osprey::train::detail
