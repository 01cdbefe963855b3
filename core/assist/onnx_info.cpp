#include "assist/onnx_info_impl.h"

#include "common/atomic_file.h"

#include <string_view>

namespace osprey::assist {
namespace {

// A length-delimited protobuf message being walked field by field.
class Reader {
public:
    explicit Reader(std::string_view bytes) : m_bytes(bytes) {}

    bool atEnd() const { return m_pos >= m_bytes.size() || m_bad; }
    bool bad() const { return m_bad; }

    std::uint64_t varint() {
        std::uint64_t value = 0;
        for (int shift = 0; shift < 64 && m_pos < m_bytes.size(); shift += 7) {
            const auto byte = static_cast<unsigned char>(m_bytes[m_pos++]);
            value |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if ((byte & 0x80) == 0)
                return value;
        }
        m_bad = true;
        return 0;
    }

    /// Reads the next tag; returns the field number and sets `wireType`.
    int next(int& wireType) {
        const std::uint64_t tag = varint();
        wireType = static_cast<int>(tag & 7);
        return static_cast<int>(tag >> 3);
    }

    std::string_view bytes() {
        const std::uint64_t length = varint();
        if (length > m_bytes.size() - std::min(m_pos, m_bytes.size())) {
            m_bad = true;
            return {};
        }
        const std::string_view out = m_bytes.substr(m_pos, length);
        m_pos += length;
        return out;
    }

    void skip(int wireType) {
        switch (wireType) {
        case 0:
            varint();
            break;
        case 1:
            m_pos += 8;
            break;
        case 2:
            bytes();
            break;
        case 5:
            m_pos += 4;
            break;
        default:
            m_bad = true;
        }
    }

private:
    std::string_view m_bytes;
    size_t m_pos = 0;
    bool m_bad = false;
};

std::vector<std::int64_t> readShape(std::string_view valueInfo) {
    std::vector<std::int64_t> shape;
    // ValueInfoProto.type(2) -> TypeProto.tensor_type(1) -> Tensor.shape(2) -> dim(1) -> dim_value(1)
    const auto field = [](std::string_view message, int wanted) -> std::string_view {
        Reader reader(message);
        while (!reader.atEnd()) {
            int wire = 0;
            const int number = reader.next(wire);
            if (number == wanted && wire == 2)
                return reader.bytes();
            reader.skip(wire);
        }
        return {};
    };
    const std::string_view shapeProto = field(field(field(valueInfo, 2), 1), 2);
    Reader dims(shapeProto);
    while (!dims.atEnd()) {
        int wire = 0;
        const int number = dims.next(wire);
        if (number != 1 || wire != 2) {
            dims.skip(wire);
            continue;
        }
        Reader dim(dims.bytes());
        std::int64_t value = -1;
        while (!dim.atEnd()) {
            int dimWire = 0;
            if (dim.next(dimWire) == 1 && dimWire == 0)
                value = static_cast<std::int64_t>(dim.varint());
            else
                dim.skip(dimWire);
        }
        shape.push_back(value);
    }
    return shape;
}

} // namespace

Expected<OnnxInfo> readOnnxInfo(const std::filesystem::path& path) {
    const auto read = readFile(path);
    if (!read)
        return fail(path.string() + ": cannot open the ONNX file", "missing");
    const std::string& data = *read;
    OnnxInfo info;
    Reader model(data);
    while (!model.atEnd()) {
        int wire = 0;
        const int number = model.next(wire);
        if (number == 14 && wire == 2) { // metadata_props: key(1), value(2)
            Reader entry(model.bytes());
            std::string key, value;
            while (!entry.atEnd()) {
                int entryWire = 0;
                const int entryField = entry.next(entryWire);
                if (entryWire == 2 && (entryField == 1 || entryField == 2))
                    (entryField == 1 ? key : value) = std::string(entry.bytes());
                else
                    entry.skip(entryWire);
            }
            info.metadata[key] = value;
        } else if (number == 7 && wire == 2) { // graph: input(11)
            Reader graph(model.bytes());
            while (!graph.atEnd()) {
                int graphWire = 0;
                const int graphField = graph.next(graphWire);
                if (graphField == 11 && graphWire == 2 && info.inputShape.empty())
                    info.inputShape = readShape(graph.bytes());
                else
                    graph.skip(graphWire);
            }
        } else {
            model.skip(wire);
        }
    }
    if (model.bad())
        return fail(path.string() + ": not a valid ONNX file (protobuf parse failed)", "corrupt");
    return info;
}

} // namespace osprey::assist
