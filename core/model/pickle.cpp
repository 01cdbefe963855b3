#include "model/pickle_impl.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <sstream>
#include <unordered_map>

namespace osprey::model::pickle {

namespace {

/// Module roots whose callables a checkpoint may REDUCE; they only ever become records.
constexpr std::array kAllowedRoots = {"torch", "ultralytics", "numpy",    "collections", "argparse",
                                      "types", "pathlib",     "datetime", "enum",        "copyreg"};

bool allowedCallable(const Value& global) {
    const std::string& module = global.module;
    const std::string root = module.substr(0, module.find('.'));
    if (module == "builtins" || module == "__builtin__")
        return global.name == "set" || global.name == "frozenset";
    return std::find(kAllowedRoots.begin(), kAllowedRoots.end(), root) != kAllowedRoots.end();
}

ValuePtr make(Kind kind) {
    auto value = std::make_shared<Value>();
    value->kind = kind;
    return value;
}

bool isContainer(Kind kind) {
    return kind == Kind::List || kind == Kind::Tuple || kind == Kind::Dict || kind == Kind::Set ||
           kind == Kind::Object || kind == Kind::Call;
}

class Reader {
public:
    Reader(std::string_view bytes, const std::string& source, const Limits& limits)
        : m_data(bytes), m_source(source), m_limits(limits) {}

    Expected<ValuePtr> run() {
        while (true) {
            if (m_at >= m_data.size())
                return error("truncated: the pickle ends without STOP");
            const size_t opAt = m_at;
            const auto op = static_cast<unsigned char>(m_data[m_at++]);
            if (op == '.') {
                if (m_stack.size() != 1 || !m_marks.empty())
                    return error("malformed: STOP with " + std::to_string(m_stack.size()) + " values left");
                return m_stack.back();
            }
            if (Status ok = step(op); !ok)
                return fail(m_source + ": pickle byte " + std::to_string(opAt) + ": " + ok.message(),
                            ok.error().code);
            if (m_stack.size() + m_marks.size() > m_limits.maxStack)
                return error("refused: more than " + std::to_string(m_limits.maxStack) +
                             " values on the stack");
        }
    }

private:
    Unexpected error(const std::string& what) const { return fail(m_source + ": " + what, "corrupt"); }

    static Unexpected bad(const std::string& what, const std::string& code = "corrupt") {
        return fail(what, code);
    }

    Status need(size_t count) const {
        if (count > m_data.size() - m_at)
            return bad("truncated: " + std::to_string(count) + " bytes needed, " +
                           std::to_string(m_data.size() - m_at) + " left",
                       "truncated");
        return {};
    }
    std::uint64_t le(int bytes) {
        std::uint64_t value = 0;
        for (int i = bytes - 1; i >= 0; --i)
            value = (value << 8) | static_cast<unsigned char>(m_data[m_at + static_cast<size_t>(i)]);
        m_at += static_cast<size_t>(bytes);
        return value;
    }
    Expected<std::uint64_t> readLe(int bytes) {
        if (Status ok = need(static_cast<size_t>(bytes)); !ok)
            return fail(ok.error());
        return le(bytes);
    }
    Status pushText(Kind kind, int lengthBytes) {
        auto length = readLe(lengthBytes);
        if (!length)
            return fail(length.error());
        if (Status ok = need(*length); !ok)
            return bad("refused: a string of " + std::to_string(*length) + " bytes runs past the end",
                       "truncated");
        auto value = make(kind);
        value->text.assign(m_data.substr(m_at, *length));
        m_at += *length;
        return push(value);
    }
    Status pushInt(std::int64_t v) {
        auto value = make(Kind::Int);
        value->integer = v;
        return push(value);
    }
    Status push(ValuePtr value) {
        m_stack.push_back(std::move(value));
        return {};
    }
    Expected<ValuePtr> pop() {
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() <= m_marks.back()))
            return bad("malformed: stack underflow");
        ValuePtr value = std::move(m_stack.back());
        m_stack.pop_back();
        return value;
    }
    Expected<std::vector<ValuePtr>> popMark() {
        if (m_marks.empty())
            return bad("malformed: no MARK");
        const size_t mark = m_marks.back();
        m_marks.pop_back();
        std::vector<ValuePtr> items(std::make_move_iterator(m_stack.begin() + static_cast<long>(mark)),
                                    std::make_move_iterator(m_stack.end()));
        m_stack.resize(mark);
        return items;
    }
    Expected<Value*> top() {
        if (m_stack.empty() || (!m_marks.empty() && m_stack.size() <= m_marks.back()))
            return bad("malformed: stack underflow");
        return m_stack.back().get();
    }

    /// Refuses adding `item` into `container` when that would make a cycle or nest too deep.
    Status checkInsert(const Value& container, const ValuePtr& item) {
        if (!item || !isContainer(item->kind))
            return {};
        ++m_generation;
        if (reaches(*item, &container, 0))
            return bad("refused: a container that contains itself (recursive reference)");
        return {};
    }
    bool reaches(const Value& from, const Value* target, size_t depth) {
        if (&from == target)
            return true;
        if (from.visit == m_generation)
            return false;
        from.visit = m_generation;
        if (depth > m_limits.maxDepth || ++m_visits > kMaxVisits) {
            m_tooDeep = true;
            return true;
        }
        for (const auto& item : from.items)
            if (item && isContainer(item->kind) && reaches(*item, target, depth + 1))
                return true;
        for (const auto& [key, item] : from.entries)
            if ((key && isContainer(key->kind) && reaches(*key, target, depth + 1)) ||
                (item && isContainer(item->kind) && reaches(*item, target, depth + 1)))
                return true;
        return from.state && isContainer(from.state->kind) && reaches(*from.state, target, depth + 1);
    }
    Status insertChecked(Value& container, const ValuePtr& item) {
        if (Status ok = checkInsert(container, item); !ok) {
            if (m_tooDeep)
                return bad(m_visits > kMaxVisits
                               ? "refused: the pickle's structure is too complex to check"
                               : "refused: values nested deeper than " + std::to_string(m_limits.maxDepth));
            return ok;
        }
        return {};
    }

    Status setItems(std::vector<ValuePtr> pairs) {
        auto target = top();
        if (!target)
            return fail(target.error());
        Value& dict = **target;
        if (pairs.size() % 2 != 0)
            return bad("malformed: SETITEMS with an odd number of values");
        if (!dict.is(Kind::Dict))
            return bad("malformed: SETITEM(S) on a non-dict");
        for (size_t i = 0; i < pairs.size(); i += 2) {
            // Keys too: a tuple key holding the dict itself made a cycle of shared pointers (fuzz_pickle).
            if (Status ok = insertChecked(dict, pairs[i]); !ok)
                return ok;
            if (Status ok = insertChecked(dict, pairs[i + 1]); !ok)
                return ok;
            dict.entries.emplace_back(std::move(pairs[i]), std::move(pairs[i + 1]));
        }
        return {};
    }
    Status appendItems(std::vector<ValuePtr> items) {
        auto target = top();
        if (!target)
            return fail(target.error());
        Value& list = **target;
        if (!list.is(Kind::List) && !list.is(Kind::Set))
            return bad("malformed: APPEND(S)/ADDITEMS on a non-list");
        for (auto& item : items) {
            if (Status ok = insertChecked(list, item); !ok)
                return ok;
            list.items.push_back(std::move(item));
        }
        return {};
    }
    Status tuple(std::vector<ValuePtr> items) {
        auto value = make(Kind::Tuple);
        value->items = std::move(items);
        return push(value);
    }
    Status tupleOf(size_t count) {
        if (m_stack.size() < count || (!m_marks.empty() && m_stack.size() - count < m_marks.back()))
            return bad("malformed: stack underflow");
        std::vector<ValuePtr> items(m_stack.end() - static_cast<long>(count), m_stack.end());
        m_stack.resize(m_stack.size() - count);
        return tuple(std::move(items));
    }
    Status memoPut(std::uint64_t index) {
        if (m_stack.empty())
            return bad("malformed: memo store with an empty stack");
        if (index > m_limits.maxMemo)
            return bad("refused: memo index " + std::to_string(index) + " is too large");
        m_memo[index] = m_stack.back();
        return {};
    }
    Status memoGet(std::uint64_t index) {
        const auto it = m_memo.find(index);
        if (it == m_memo.end())
            return bad("malformed: memo entry " + std::to_string(index) + " was never stored");
        return push(it->second);
    }
    Status global(std::string module, std::string name) {
        auto value = make(Kind::Global);
        value->module = std::move(module);
        value->name = std::move(name);
        return push(value);
    }
    Expected<std::string> line() {
        const size_t end = m_data.find('\n', m_at);
        if (end == std::string_view::npos || end - m_at > 1024)
            return bad("malformed: GLOBAL without an end of line", "truncated");
        std::string text(m_data.substr(m_at, end - m_at));
        m_at = end + 1;
        return text;
    }

    Status reduce();
    Status build();
    Status persistentId();
    Status step(unsigned char op);

    std::string_view m_data;
    const std::string& m_source;
    Limits m_limits;
    size_t m_at = 0;
    std::vector<ValuePtr> m_stack;
    std::vector<size_t> m_marks;
    std::unordered_map<std::uint64_t, ValuePtr> m_memo;
    std::uint32_t m_generation = 0;
    bool m_tooDeep = false;
    /// Cycle checks visit at most this many nodes in all (a real checkpoint needs well under 1 %).
    static constexpr std::uint64_t kMaxVisits = 50'000'000;
    std::uint64_t m_visits = 0;
};

Expected<std::vector<std::int64_t>> intTuple(const Value* value, const char* what) {
    if (value == nullptr || (!value->is(Kind::Tuple) && !value->is(Kind::List)))
        return fail(std::string("malformed tensor: ") + what + " is not a tuple", "corrupt");
    std::vector<std::int64_t> out;
    for (const auto& item : value->items) {
        if (!item || !item->is(Kind::Int) || item->integer < 0)
            return fail(std::string("malformed tensor: ") + what + " holds a non-integer", "corrupt");
        out.push_back(item->integer);
    }
    return out;
}

Status Reader::reduce() {
    auto args = pop();
    if (!args)
        return fail(args.error());
    auto callable = pop();
    if (!callable)
        return fail(callable.error());
    const Value& f = **callable;
    const Value& a = **args;
    if (!f.is(Kind::Global))
        return bad("malformed: REDUCE of a non-global");
    if (!a.is(Kind::Tuple))
        return bad("malformed: REDUCE arguments are not a tuple");
    const std::string name = f.qualifiedName();
    if (!allowedCallable(f))
        return bad("refused: the pickle calls " + name + " (not a checkpoint's function; nothing was run)",
                   "unsafe");
    if (name == "collections.OrderedDict") {
        auto dict = make(Kind::Dict);
        return push(dict);
    }
    if (f.name == "set" || f.name == "frozenset") {
        auto set = make(Kind::Set);
        if (!a.items.empty() && a.items[0] && (a.items[0]->is(Kind::List) || a.items[0]->is(Kind::Tuple)))
            set->items = a.items[0]->items;
        return push(set);
    }
    if (name == "torch.Size") {
        if (a.items.size() != 1 || !a.items[0] || !a.items[0]->is(Kind::Tuple))
            return bad("malformed: torch.Size without a tuple");
        return push(a.items[0]);
    }
    if (name == "torch._utils._rebuild_tensor_v2") {
        if (a.items.size() < 4 || !a.items[0] || !a.items[0]->is(Kind::Storage) || !a.items[1] ||
            !a.items[1]->is(Kind::Int))
            return bad("malformed: _rebuild_tensor_v2 arguments (a storage, an offset, sizes, strides)");
        auto sizes = intTuple(a.items[2].get(), "size");
        if (!sizes)
            return fail(sizes.error());
        auto strides = intTuple(a.items[3].get(), "stride");
        if (!strides)
            return fail(strides.error());
        if (sizes->size() != strides->size())
            return bad("malformed tensor: size and stride differ in length");
        auto tensor = make(Kind::Tensor);
        tensor->tensor = a.items[0]->tensor;
        tensor->tensor.offset = a.items[1]->integer;
        tensor->tensor.sizes = std::move(*sizes);
        tensor->tensor.strides = std::move(*strides);
        return push(tensor);
    }
    if (name == "torch._utils._rebuild_parameter" || name == "torch._utils._rebuild_parameter_with_state") {
        if (a.items.empty() || !a.items[0])
            return bad("malformed: " + name + " without arguments");
        return push(a.items[0]); // the data; a reader that wants a tensor checks it is one
    }
    auto call = make(Kind::Call);
    call->module = f.module;
    call->name = f.name;
    call->items = a.items;
    return push(call);
}

Status Reader::build() {
    auto state = pop();
    if (!state)
        return fail(state.error());
    auto target = top();
    if (!target)
        return fail(target.error());
    Value& object = **target;
    if (object.is(Kind::Object) || object.is(Kind::Call)) {
        if (Status ok = insertChecked(object, *state); !ok)
            return ok;
        object.state = std::move(*state);
        return {};
    }
    if (object.is(Kind::Tensor) || object.is(Kind::Dict))
        return {}; // tensor hooks/state and OrderedDict attributes carry nothing Osprey reads
    return bad("malformed: BUILD on a value that is not an object");
}

Status Reader::persistentId() {
    auto id = pop();
    if (!id)
        return fail(id.error());
    const Value& pid = **id;
    // ('storage', <StorageClass>, '<key>', '<location>', numel)
    if (!pid.is(Kind::Tuple) || pid.items.size() < 5 || !pid.items[0] || !pid.items[0]->is(Kind::String) ||
        pid.items[0]->text != "storage" || !pid.items[1] || !pid.items[1]->is(Kind::Global) ||
        !pid.items[2] || !pid.items[2]->is(Kind::String) || !pid.items[4] || !pid.items[4]->is(Kind::Int) ||
        pid.items[4]->integer < 0)
        return bad("unsupported persistent id (expected a torch storage)");
    auto storage = make(Kind::Storage);
    storage->tensor.storageClass = pid.items[1]->name;
    storage->tensor.storageKey = pid.items[2]->text;
    storage->tensor.storageNumel = pid.items[4]->integer;
    storage->text = pid.items[2]->text;
    return push(storage);
}

Status Reader::step(unsigned char op) {
    switch (op) {
    case 0x80: // PROTO
        if (Status ok = need(1); !ok)
            return ok;
        if (static_cast<unsigned char>(m_data[m_at]) > 5)
            return bad("unsupported pickle protocol " +
                       std::to_string(static_cast<unsigned char>(m_data[m_at])));
        ++m_at;
        return {};
    case 0x95: // FRAME: a length hint only
        if (Status ok = need(8); !ok)
            return ok;
        m_at += 8;
        return {};
    case '(':
        m_marks.push_back(m_stack.size());
        return {};
    case '0':
        return pop() ? Status{} : bad("malformed: POP on an empty stack");
    case '1': {
        auto items = popMark();
        return items ? Status{} : fail(items.error());
    }
    case '2': {
        auto value = top();
        if (!value)
            return fail(value.error());
        return push(m_stack.back());
    }
    case 'N':
        return push(make(Kind::None));
    case 0x88:
    case 0x89: {
        auto value = make(Kind::Bool);
        value->boolean = op == 0x88;
        return push(value);
    }
    case 'J': {
        auto v = readLe(4);
        return v ? pushInt(static_cast<std::int32_t>(static_cast<std::uint32_t>(*v))) : fail(v.error());
    }
    case 'K': {
        auto v = readLe(1);
        return v ? pushInt(static_cast<std::int64_t>(*v)) : fail(v.error());
    }
    case 'M': {
        auto v = readLe(2);
        return v ? pushInt(static_cast<std::int64_t>(*v)) : fail(v.error());
    }
    case 0x8a: { // LONG1
        auto n = readLe(1);
        if (!n)
            return fail(n.error());
        if (*n > 8)
            return bad("unsupported: an integer of " + std::to_string(*n) + " bytes");
        if (Status ok = need(*n); !ok)
            return ok;
        std::uint64_t raw = *n == 0 ? 0 : le(static_cast<int>(*n));
        if (*n > 0 && *n < 8 && (raw >> (8 * *n - 1)) != 0)
            raw |= ~std::uint64_t{0} << (8 * *n); // sign-extend
        return pushInt(static_cast<std::int64_t>(raw));
    }
    case 'G': { // BINFLOAT, big-endian
        if (Status ok = need(8); !ok)
            return ok;
        std::uint64_t raw = 0;
        for (int i = 0; i < 8; ++i)
            raw = (raw << 8) | static_cast<unsigned char>(m_data[m_at++]);
        auto value = make(Kind::Float);
        value->real = std::bit_cast<double>(raw);
        return push(value);
    }
    case 'X':
        return pushText(Kind::String, 4);
    case 0x8c:
        return pushText(Kind::String, 1);
    case 0x8d:
        return pushText(Kind::String, 8);
    case 'T':
        return pushText(Kind::String, 4);
    case 'U':
        return pushText(Kind::String, 1);
    case 'B':
        return pushText(Kind::Bytes, 4);
    case 'C':
        return pushText(Kind::Bytes, 1);
    case 0x8e:
        return pushText(Kind::Bytes, 8);
    case ']':
        return push(make(Kind::List));
    case ')':
        return tuple({});
    case '}':
        return push(make(Kind::Dict));
    case 0x8f:
        return push(make(Kind::Set));
    case 'a': {
        auto item = pop();
        return item ? appendItems({std::move(*item)}) : fail(item.error());
    }
    case 'e':
    case 0x90: { // APPENDS, ADDITEMS
        auto items = popMark();
        return items ? appendItems(std::move(*items)) : fail(items.error());
    }
    case 'l': {
        auto items = popMark();
        if (!items)
            return fail(items.error());
        auto list = make(Kind::List);
        list->items = std::move(*items);
        return push(list);
    }
    case 0x91: { // FROZENSET
        auto items = popMark();
        if (!items)
            return fail(items.error());
        auto set = make(Kind::Set);
        set->items = std::move(*items);
        return push(set);
    }
    case 't': {
        auto items = popMark();
        return items ? tuple(std::move(*items)) : fail(items.error());
    }
    case 0x85:
        return tupleOf(1);
    case 0x86:
        return tupleOf(2);
    case 0x87:
        return tupleOf(3);
    case 'd': {
        auto items = popMark();
        if (!items)
            return fail(items.error());
        if (Status ok = push(make(Kind::Dict)); !ok)
            return ok;
        return setItems(std::move(*items));
    }
    case 's': {
        auto value = pop();
        if (!value)
            return fail(value.error());
        auto key = pop();
        if (!key)
            return fail(key.error());
        return setItems({std::move(*key), std::move(*value)});
    }
    case 'u': {
        auto items = popMark();
        return items ? setItems(std::move(*items)) : fail(items.error());
    }
    case 'c': {
        auto module = line();
        if (!module)
            return fail(module.error());
        auto name = line();
        if (!name)
            return fail(name.error());
        return global(std::move(*module), std::move(*name));
    }
    case 0x93: { // STACK_GLOBAL
        auto name = pop();
        if (!name)
            return fail(name.error());
        auto module = pop();
        if (!module)
            return fail(module.error());
        if (!(*module)->is(Kind::String) || !(*name)->is(Kind::String))
            return bad("malformed: STACK_GLOBAL of non-strings");
        return global((*module)->text, (*name)->text);
    }
    case 'R':
        return reduce();
    case 'b':
        return build();
    case 0x81: { // NEWOBJ: cls.__new__(cls, *args); recorded, never run
        auto args = pop();
        if (!args)
            return fail(args.error());
        auto cls = pop();
        if (!cls)
            return fail(cls.error());
        if (!(*cls)->is(Kind::Global) || !(*args)->is(Kind::Tuple))
            return bad("malformed: NEWOBJ needs a class and a tuple");
        auto object = make(Kind::Object);
        object->module = (*cls)->module;
        object->name = (*cls)->name;
        object->items = (*args)->items;
        return push(object);
    }
    case 'Q':
        return persistentId();
    case 'h': {
        auto index = readLe(1);
        return index ? memoGet(*index) : fail(index.error());
    }
    case 'j': {
        auto index = readLe(4);
        return index ? memoGet(*index) : fail(index.error());
    }
    case 'q': {
        auto index = readLe(1);
        return index ? memoPut(*index) : fail(index.error());
    }
    case 'r': {
        auto index = readLe(4);
        return index ? memoPut(*index) : fail(index.error());
    }
    case 0x94: // MEMOIZE
        return memoPut(m_memo.size());
    default: {
        std::ostringstream text;
        text << "unsupported pickle opcode 0x" << std::hex << static_cast<int>(op)
             << " (Osprey reads the binary protocols torch.save writes)";
        return bad(text.str(), "unsupported");
    }
    }
}

} // namespace

Expected<ValuePtr> read(std::string_view bytes, const std::string& source, const Limits& limits) {
    Reader reader(bytes, source, limits);
    return reader.run();
}

const Value* get(const Value* dict, std::string_view key) {
    if (dict == nullptr || !dict->is(Kind::Dict))
        return nullptr;
    for (const auto& [k, v] : dict->entries)
        if (k && k->is(Kind::String) && k->text == key)
            return v.get();
    return nullptr;
}

const Value* get(const Value* dict, std::int64_t key) {
    if (dict == nullptr || !dict->is(Kind::Dict))
        return nullptr;
    for (const auto& [k, v] : dict->entries)
        if (k && k->is(Kind::Int) && k->integer == key)
            return v.get();
    return nullptr;
}

const Value* attr(const Value* object, std::string_view key) {
    if (object == nullptr || !object->is(Kind::Object))
        return nullptr;
    return get(object->state.get(), key);
}

namespace {

std::string toText(const Value* value, int depth) {
    if (value == nullptr)
        return "";
    if (depth > 32)
        return "...";
    std::ostringstream out;
    switch (value->kind) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return value->boolean ? "True" : "False";
    case Kind::Int:
        return std::to_string(value->integer);
    case Kind::Float:
        out.precision(12);
        out << value->real;
        return out.str();
    case Kind::String:
    case Kind::Bytes:
        return value->text;
    case Kind::List:
    case Kind::Tuple:
    case Kind::Set: {
        out << '[';
        for (size_t i = 0; i < value->items.size() && i < 64; ++i)
            out << (i > 0 ? ", " : "") << toText(value->items[i].get(), depth + 1);
        out << ']';
        return out.str();
    }
    case Kind::Dict:
        return "{...}";
    default:
        return "<" + value->qualifiedName() + ">";
    }
}

} // namespace

std::string toText(const Value* value) {
    return toText(value, 0);
}

} // namespace osprey::model::pickle
