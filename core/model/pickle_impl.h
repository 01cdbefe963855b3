#pragma once
// Private to core/model: a strict reader of the Python pickles `torch.save` writes (protocol 2, plus the
// protocol 3-4 opcodes for bytes, frames and memoize). It builds a tree of plain values and never executes
// anything: classes become records (`Object`: class name, constructor arguments, state), tensors become
// references to their storage records, and a call (REDUCE) is only understood for the few torch and
// collections functions checkpoints use; any other callable from a module outside an allow-list (os,
// subprocess, builtins.eval, ...) is refused. Sizes are checked against the bytes present before anything
// is allocated; cycles and excessive nesting are refused. Thread-safe for distinct inputs.

#include "common/expected.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace osprey::model::pickle {

struct Value;
using ValuePtr = std::shared_ptr<Value>;

enum class Kind {
    None,
    Bool,
    Int,
    Float,
    String,
    Bytes,
    List,
    Tuple,
    Dict,
    Set,
    Global,
    Object,
    Tensor,
    Storage,
    Call
};

/// A tensor as pickled: a view of a storage record.
struct TensorRef {
    std::string storageKey;   ///< the record name under data/, e.g. "17"
    std::string storageClass; ///< e.g. "HalfStorage", "FloatStorage"
    std::int64_t storageNumel = 0;
    std::int64_t offset = 0;
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides;
};

/// One node of the tree.
struct Value {
    Kind kind = Kind::None;
    bool boolean = false;
    std::int64_t integer = 0;
    double real = 0;
    std::string text;                                   ///< String, Bytes; Storage: the record key
    std::string module, name;                           ///< Global; the class of an Object; a Call's callable
    std::vector<ValuePtr> items;                        ///< List, Tuple, Set; Object/Call arguments
    std::vector<std::pair<ValuePtr, ValuePtr>> entries; ///< Dict, in insertion order
    ValuePtr state;                                     ///< Object: what BUILD set (usually a Dict)
    TensorRef tensor;                                   ///< Tensor; Storage: class, key and numel
    mutable std::uint32_t visit = 0;                    ///< scratch for cycle checks

    bool is(Kind k) const { return kind == k; }
    /// "module.name" for Global, Object and Call.
    std::string qualifiedName() const { return module + "." + name; }
};

/// Limits that bound the work a hostile file can cause.
struct Limits {
    std::size_t maxStack = 1 << 20; ///< values on the stack and marks together
    std::size_t maxDepth = 256;     ///< nesting of containers in the result
    std::size_t maxMemo = 1 << 24;  ///< highest memo index
};

/// Parses `bytes`; `source` names the file (and record) in errors, e.g. "yolov8n.pt: data.pkl".
Expected<ValuePtr> read(std::string_view bytes, const std::string& source, const Limits& limits = {});

/// The value of string key `key` in a Dict, or null.
const Value* get(const Value* dict, std::string_view key);
/// The value of integer key `key` in a Dict, or null.
const Value* get(const Value* dict, std::int64_t key);
/// An Object's attribute (a key of its state dict), or null.
const Value* attr(const Value* object, std::string_view key);

/// Scalars as text ("True", "0.01", "yolov8n.yaml", "None"); containers as "[...]" / "{...}".
std::string toText(const Value* value);

} // namespace osprey::model::pickle
