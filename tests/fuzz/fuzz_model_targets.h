#pragma once
// The fuzzed entry points of the model readers (issue 22), beside fuzz_targets.h: the Ultralytics pickle
// reader, the torch.save zip reader with the checkpoint description on top, and a Darknet .cfg as
// autolabel model=X.cfg opens it (our [net] size scan, then OpenCV DNN's Darknet importer). The libFuzzer
// mains and tst_fuzz_regressions call the same functions.

#include "assist/predictors_impl.h"
#include "model/pickle_impl.h"
#include "model/ultralytics_impl.h"
#include "model/zip_records_impl.h"

#include "fuzz_input.h"

#include <string_view>

namespace osprey::fuzz {

inline std::string_view view(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

/// A data.pkl: the strict pickle reader, then (when it parses) the Ultralytics checkpoint description.
inline void pickle(const std::uint8_t* data, std::size_t size) {
    auto value = model::pickle::read(view(data, size), "fuzz.pkl");
    if (value)
        (void)model::pickle::toText(value->get());
    (void)model::describeUltralytics(view(data, size), "fuzz.pt");
}

/// A whole .pt file: the zip reader (central directory and the truncated-download scan), then the
/// checkpoint it holds.
inline void torchZip(const std::uint8_t* data, std::size_t size) {
    (void)model::scanLocalRecords(view(data, size));
    auto archive = model::ZipArchive::fromBytes(std::string(view(data, size)), "fuzz.pt");
    if (!archive)
        return;
    for (const auto& record : archive->records())
        (void)archive->verify(record);
    if (model::isTorchSaveArchive(*archive))
        (void)model::readUltralytics(*archive);
}

/// A Darknet .cfg with a small weights file and a names file beside it, opened as autolabel does.
inline void darknetCfg(const std::uint8_t* data, std::size_t size) {
    static const bool ready = [] {
        // Header (major 0, minor 2, revision 0, seen as uint64) and 64 KiB of zero weights.
        std::string weights("\0\0\0\0\2\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 20);
        weights.append(65536, '\0');
        write(scratch() / "darknet" / "m.weights", weights);
        write(scratch() / "darknet" / "m.names", "a\nb\n");
        return true;
    }();
    (void)ready;
    write(scratch() / "darknet" / "m.cfg", data, size);
    (void)assist::openDarknetPredictor({scratch() / "darknet" / "m.cfg", scratch() / "darknet" / "m.weights",
                                        scratch() / "darknet" / "m.names", "cpu"});
}

} // namespace osprey::fuzz
