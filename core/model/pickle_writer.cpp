#include "model/pickle_writer_impl.h"

#include <bit>
#include <cstring>
#include <limits>

namespace osprey::model::pickle {

namespace {

// Opcodes of protocol 2 (Python's Lib/pickle.py names them).
constexpr char kMark = '(';
constexpr char kStop = '.';
constexpr char kNone = 'N';
constexpr char kNewTrue = '\x88';
constexpr char kNewFalse = '\x89';
constexpr char kBinInt1 = 'K';
constexpr char kBinInt2 = 'M';
constexpr char kBinInt = 'J';
constexpr char kLong1 = '\x8a';
constexpr char kBinFloat = 'G';
constexpr char kBinUnicode = 'X';
constexpr char kEmptyTuple = ')';
constexpr char kTuple = 't';
constexpr char kTuple1 = '\x85';
constexpr char kEmptyList = ']';
constexpr char kAppends = 'e';
constexpr char kEmptyDict = '}';
constexpr char kSetItems = 'u';
constexpr char kGlobal = 'c';
constexpr char kReduce = 'R';
constexpr char kNewObj = '\x81';
constexpr char kBuild = 'b';
constexpr char kBinPersId = 'Q';

void littleEndian(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
}

} // namespace

Writer::Writer() : m_out("\x80\x02", 2), m_counts{0} {}

void Writer::op(char code) {
    m_out.push_back(code);
}

void Writer::countValue() {
    ++m_counts.back();
}

void Writer::global(std::string_view module, std::string_view name) {
    op(kGlobal);
    m_out.append(module);
    m_out.push_back('\n');
    m_out.append(name);
    m_out.push_back('\n');
}

void Writer::mark() {
    op(kMark);
}

void Writer::open(Open kind) {
    m_open.push_back(kind);
    m_counts.push_back(0);
}

void Writer::close(Open kind) {
    if (m_open.empty() || m_open.back() != kind) {
        if (m_error.empty())
            m_error = "a container was closed that is not the innermost open one";
        return;
    }
    const bool keyed = kind == Open::Dict || kind == Open::OrderedDict || kind == Open::Object;
    if (keyed && m_counts.back() % 2 != 0 && m_error.empty())
        m_error = "a dict ends with a key without its value";
    m_open.pop_back();
    m_counts.pop_back();
    countValue();
}

void Writer::none() {
    op(kNone);
    countValue();
}

void Writer::boolean(bool value) {
    op(value ? kNewTrue : kNewFalse);
    countValue();
}

void Writer::integer(std::int64_t value) {
    if (value >= 0 && value <= 0xff) {
        op(kBinInt1);
        littleEndian(m_out, static_cast<std::uint64_t>(value), 1);
    } else if (value >= 0 && value <= 0xffff) {
        op(kBinInt2);
        littleEndian(m_out, static_cast<std::uint64_t>(value), 2);
    } else if (value >= std::numeric_limits<std::int32_t>::min() &&
               value <= std::numeric_limits<std::int32_t>::max()) {
        op(kBinInt);
        littleEndian(m_out, static_cast<std::uint32_t>(static_cast<std::int32_t>(value)), 4);
    } else {
        // LONG1 with eight bytes of two's complement, little-endian.
        op(kLong1);
        m_out.push_back('\x08');
        littleEndian(m_out, static_cast<std::uint64_t>(value), 8);
    }
    countValue();
}

void Writer::real(double value) {
    op(kBinFloat);
    const auto bits = std::bit_cast<std::uint64_t>(value);
    for (int i = 7; i >= 0; --i)
        m_out.push_back(static_cast<char>((bits >> (8 * i)) & 0xff));
    countValue();
}

void Writer::string(std::string_view text) {
    op(kBinUnicode);
    littleEndian(m_out, text.size(), 4);
    m_out.append(text);
    countValue();
}

void Writer::beginTuple() {
    mark();
    open(Open::Tuple);
}

void Writer::endTuple() {
    op(kTuple);
    close(Open::Tuple);
}

void Writer::beginList() {
    op(kEmptyList);
    mark();
    open(Open::List);
}

void Writer::endList() {
    op(kAppends);
    close(Open::List);
}

void Writer::beginDict() {
    op(kEmptyDict);
    mark();
    open(Open::Dict);
}

void Writer::endDict() {
    op(kSetItems);
    close(Open::Dict);
}

void Writer::beginOrderedDict() {
    global("collections", "OrderedDict");
    op(kEmptyTuple);
    op(kReduce);
    mark();
    open(Open::OrderedDict);
}

void Writer::endOrderedDict() {
    op(kSetItems);
    close(Open::OrderedDict);
}

void Writer::emptySet() {
    global("builtins", "set");
    op(kEmptyList);
    op(kTuple1);
    op(kReduce);
    countValue();
}

void Writer::beginObject(std::string_view module, std::string_view name) {
    global(module, name);
    op(kEmptyTuple);
    op(kNewObj);
    op(kEmptyDict);
    mark();
    open(Open::Object);
}

void Writer::endObject() {
    op(kSetItems);
    op(kBuild);
    close(Open::Object);
}

void Writer::intTuple(const std::vector<std::int64_t>& values) {
    // Internal: a tuple of integers that is an argument, not a value of the caller's container.
    mark();
    open(Open::Tuple);
    for (const std::int64_t value : values)
        integer(value);
    op(kTuple);
    m_open.pop_back();
    m_counts.pop_back();
}

void Writer::tensor(const TensorRef& ref, bool parameter, bool requiresGrad) {
    if (parameter) {
        global("torch._utils", "_rebuild_parameter");
        mark();
    }
    global("torch._utils", "_rebuild_tensor_v2");
    mark();
    // The storage: persistent id ('storage', torch.<Class>, key, 'cpu', numel).
    open(Open::Tuple);
    mark();
    string("storage");
    global("torch", ref.storageClass);
    string(ref.storageKey);
    string("cpu");
    integer(ref.storageNumel);
    op(kTuple);
    op(kBinPersId);
    integer(ref.offset);
    intTuple(ref.sizes);
    intTuple(ref.strides);
    boolean(parameter ? false : requiresGrad);
    beginOrderedDict(); // backward hooks
    endOrderedDict();
    op(kTuple);
    op(kReduce);
    if (parameter) {
        boolean(requiresGrad);
        beginOrderedDict();
        endOrderedDict();
        op(kTuple);
        op(kReduce);
    }
    m_open.pop_back();
    m_counts.pop_back();
    countValue();
}

Expected<std::string> Writer::finish() {
    if (!m_error.empty())
        return fail("pickle writer: " + m_error, "internal");
    if (!m_open.empty())
        return fail("pickle writer: " + std::to_string(m_open.size()) + " container(s) left open",
                    "internal");
    if (m_counts.back() != 1)
        return fail("pickle writer: " + std::to_string(m_counts.back()) + " top-level values (expected one)",
                    "internal");
    std::string out = m_out;
    out.push_back(kStop);
    return out;
}

} // namespace osprey::model::pickle
