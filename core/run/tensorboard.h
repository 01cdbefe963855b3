#pragma once
// TensorBoard event files for a run folder (`<run>/tensorboard/events.out.tfevents.<time>.<host>.<pid>.0`),
// so that `tensorboard --logdir runs` shows every run without a server. The format is TensorFlow's: TFRecord
// framing (the length as uint64, its masked CRC-32C, the data, the data's masked CRC-32C) around Event
// protos, the first carrying file_version "brain.Event:2", then one Event per scalar (wall_time, step, a
// Summary with one Value{tag, simple_value}), as torch's SummaryWriter writes them. The protos are encoded
// here by hand (a few fields), no protobuf library. No torch, no Qt. A writer belongs to one thread.

#include "common/expected.h"
#include "run/train_events.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace osprey::run {

/// CRC-32C (Castagnoli), as TFRecord uses it.
std::uint32_t crc32c(std::string_view data);
/// TFRecord's masked CRC: ((crc >> 15) | (crc << 17)) + 0xa282ead8.
std::uint32_t maskedCrc32c(std::string_view data);
/// One TFRecord: length, masked CRC of the length, data, masked CRC of the data.
std::string tfRecord(std::string_view data);
/// An Event proto with one scalar.
std::string scalarEvent(double wallTime, std::int64_t step, std::string_view tag, float value);

/// Appends scalars to a new event file in a folder.
class TensorBoardWriter {
public:
    /// Creates `folder` and a new event file in it (a resumed run adds a file; TensorBoard reads them in
    /// order). The error names the file.
    static Expected<std::unique_ptr<TensorBoardWriter>> open(const std::filesystem::path& folder);
    ~TensorBoardWriter();
    TensorBoardWriter(const TensorBoardWriter&) = delete;
    TensorBoardWriter& operator=(const TensorBoardWriter&) = delete;

    /// Writes one Event per value at `step` and flushes, so TensorBoard sees the epoch at once.
    Status scalars(std::int64_t step, const std::vector<std::pair<std::string, double>>& values);
    /// An epoch's results.csv values (metricColumns(), without `time`) at step = epoch, as Ultralytics'
    /// TensorBoard callback logs them.
    Status epoch(const EpochMetrics& metrics);
    const std::filesystem::path& path() const { return m_path; }

private:
    TensorBoardWriter(std::FILE* file, std::filesystem::path path) : m_file(file), m_path(std::move(path)) {}
    Status write(std::string_view record);

    std::FILE* m_file;
    std::filesystem::path m_path;
};

} // namespace osprey::run
