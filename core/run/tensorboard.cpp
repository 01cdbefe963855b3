#include "run/tensorboard.h"

#include <array>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <unistd.h>

namespace osprey::run {

namespace {

constexpr std::array<std::uint32_t, 256> makeCrcTable() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t crc = i;
        for (int bit = 0; bit < 8; ++bit)
            crc = (crc & 1) ? (crc >> 1) ^ 0x82f63b78U : crc >> 1; // the Castagnoli polynomial, reflected
        table[i] = crc;
    }
    return table;
}

constexpr auto kCrcTable = makeCrcTable();

void littleEndian(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

// ---- protobuf wire format: the few field kinds an Event needs
// ----------------------------------------------

void varint(std::string& out, std::uint64_t value) {
    while (value >= 0x80) {
        out.push_back(static_cast<char>((value & 0x7f) | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<char>(value));
}

void key(std::string& out, int field, int wireType) {
    varint(out, static_cast<std::uint64_t>(field << 3 | wireType));
}

void bytesField(std::string& out, int field, std::string_view data) {
    key(out, field, 2);
    varint(out, data.size());
    out.append(data);
}

/// An Event: wall_time (1, double), step (2, int64), then `payload` already encoded.
std::string event(double wallTime, std::int64_t step, std::string_view payload) {
    std::string out;
    key(out, 1, 1);
    littleEndian(out, std::bit_cast<std::uint64_t>(wallTime), 8);
    if (step != 0) {
        key(out, 2, 0);
        varint(out, static_cast<std::uint64_t>(step));
    }
    out.append(payload);
    return out;
}

double nowSeconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

} // namespace

std::uint32_t crc32c(std::string_view data) {
    std::uint32_t crc = 0xffffffffU;
    for (const char c : data)
        crc = kCrcTable[(crc ^ static_cast<std::uint8_t>(c)) & 0xff] ^ (crc >> 8);
    return crc ^ 0xffffffffU;
}

std::uint32_t maskedCrc32c(std::string_view data) {
    const std::uint32_t crc = crc32c(data);
    return ((crc >> 15) | (crc << 17)) + 0xa282ead8U;
}

std::string tfRecord(std::string_view data) {
    std::string length;
    littleEndian(length, data.size(), 8);
    std::string out = length;
    littleEndian(out, maskedCrc32c(length), 4);
    out.append(data);
    littleEndian(out, maskedCrc32c(data), 4);
    return out;
}

std::string scalarEvent(double wallTime, std::int64_t step, std::string_view tag, float value) {
    std::string scalar; // Summary.Value: tag (1), simple_value (2, float)
    bytesField(scalar, 1, tag);
    key(scalar, 2, 5);
    littleEndian(scalar, std::bit_cast<std::uint32_t>(value), 4);
    std::string summary; // Summary: repeated Value value = 1
    bytesField(summary, 1, scalar);
    std::string payload; // Event.summary = 5
    bytesField(payload, 5, summary);
    return event(wallTime, step, payload);
}

Expected<std::unique_ptr<TensorBoardWriter>> TensorBoardWriter::open(const std::filesystem::path& folder) {
    std::error_code error;
    std::filesystem::create_directories(folder, error);
    if (error)
        return fail(folder.string() + ": cannot create the TensorBoard folder: " + error.message(), "io");
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0)
        std::strcpy(host, "localhost");
    const double now = nowSeconds();
    const auto path = folder / ("events.out.tfevents." + std::to_string(static_cast<long long>(now)) + "." +
                                host + "." + std::to_string(::getpid()) + ".0");
    std::FILE* file = std::fopen(path.c_str(), "wbx");
    if (file == nullptr)
        return fail(path.string() + ": cannot create the TensorBoard event file: " + std::strerror(errno),
                    "io");
    std::unique_ptr<TensorBoardWriter> writer(new TensorBoardWriter(file, path));
    std::string version; // Event.file_version = 3
    bytesField(version, 3, "brain.Event:2");
    if (Status ok = writer->write(tfRecord(event(now, 0, version))); !ok)
        return fail(ok.error());
    return writer;
}

TensorBoardWriter::~TensorBoardWriter() {
    std::fclose(m_file);
}

Status TensorBoardWriter::write(std::string_view record) {
    if (std::fwrite(record.data(), 1, record.size(), m_file) != record.size() || std::fflush(m_file) != 0)
        return fail(m_path.string() + ": cannot write the TensorBoard event file: " + std::strerror(errno),
                    "io");
    return {};
}

Status TensorBoardWriter::scalars(std::int64_t step,
                                  const std::vector<std::pair<std::string, double>>& values) {
    const double now = nowSeconds();
    std::string records;
    for (const auto& [tag, value] : values)
        records += tfRecord(scalarEvent(now, step, tag, static_cast<float>(value)));
    return write(records);
}

Status TensorBoardWriter::epoch(const EpochMetrics& metrics) {
    std::vector<std::pair<std::string, double>> values;
    for (const MetricColumn& column : metricColumns())
        if (column.inResultsCsv && std::string_view(column.key) != "time")
            values.emplace_back(column.key, metrics.*column.value);
    return scalars(metrics.epoch, values);
}

} // namespace osprey::run
