#pragma once
// Private to core/model: the writing side of pickle_impl.h. An emitter of the Python pickle protocol 2 that
// `torch.save` writes, restricted to what a checkpoint holds: None, bools, integers, floats, strings,
// tuples, lists, dicts, `collections.OrderedDict`, an empty `set`, objects rebuilt from their class and state
// (NEWOBJ + BUILD, as pickle does for an nn.Module), and tensors as views of storage records
// (`torch._utils._rebuild_tensor_v2` / `_rebuild_parameter` on a persistent id). It has no way to write any
// other call, so what it writes cannot run code beyond rebuilding those objects. The caller emits values
// in order, as pickle's stack machine consumes them; `finish()` checks that every container was closed.
// Not thread-safe; one per pickle.

#include "model/pickle_impl.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace osprey::model::pickle {

class Writer {
public:
    Writer();

    void none();
    void boolean(bool value);
    void integer(std::int64_t value);
    void real(double value);
    void string(std::string_view text);

    /// A tuple of the values emitted between beginTuple() and endTuple().
    void beginTuple();
    void endTuple();
    void beginList();
    void endList();
    /// A dict: emit key, value, key, value, ... then endDict().
    void beginDict();
    void endDict();
    /// A `collections.OrderedDict`, filled as a dict.
    void beginOrderedDict();
    void endOrderedDict();
    /// `set()` (every nn.Module's `_non_persistent_buffers_set`).
    void emptySet();
    /// An instance of `module.name` made without arguments, then given a state dict: emit key, value, ...
    /// then endObject().
    void beginObject(std::string_view module, std::string_view name);
    void endObject();
    /// A tensor viewing storage record `ref.storageKey` (class `ref.storageClass`, `ref.storageNumel`
    /// elements) with `ref`'s offset, sizes and strides; wrapped in an `nn.Parameter` when `parameter`.
    void tensor(const TensorRef& ref, bool parameter, bool requiresGrad);

    /// The pickle (ends in STOP). Fails when a container is still open or more than one value was emitted.
    Expected<std::string> finish();

private:
    enum class Open { Tuple, List, Dict, OrderedDict, Object };
    void op(char code);
    void global(std::string_view module, std::string_view name);
    void mark();
    void open(Open kind);
    void close(Open kind);
    void intTuple(const std::vector<std::int64_t>& values);
    void countValue();

    std::string m_out;
    std::vector<Open> m_open;
    std::vector<std::size_t> m_counts; ///< values emitted in each open container, and at the top (index 0)
    std::string m_error;
};

} // namespace osprey::model::pickle
