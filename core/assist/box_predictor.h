#pragma once
// BoxPredictor: the one interface behind AI-assisted boxes, with three sources: an Osprey checkpoint
// (core/model, CPU or CUDA), an ONNX detector and a Darknet cfg + weights (both through OpenCV DNN).
//
// Thread affinity: a BoxPredictor is not thread-safe; use it from one thread at a time (never the GUI
// thread: a call takes milliseconds to seconds). Loading may take a second.

#include "assist/proposal.h"
#include "common/expected.h"
#include "imaging/image.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace osprey::assist {

/// Where a model comes from. The kind follows `model`'s extension: .pt (Osprey checkpoint), .onnx, or
/// .cfg (Darknet, with `weights`).
struct ModelSource {
    std::filesystem::path model;   ///< best.pt / last.pt, X.onnx or X.cfg
    std::filesystem::path weights; ///< Darknet .weights (default: the .cfg path with .weights)
    std::filesystem::path names;   ///< one class name per line; needed by Darknet, optional for ONNX
    std::string device = "cpu";    ///< checkpoints only: "cpu", "0", "cuda:1"
};

enum class ModelKind { Checkpoint, Onnx, Darknet };

class BoxPredictor {
public:
    virtual ~BoxPredictor() = default;

    /// Opens a model. Errors name the file and say what to do (e.g. re-export an ONNX file).
    static Expected<std::unique_ptr<BoxPredictor>> open(const ModelSource& source);

    virtual ModelKind kind() const = 0;
    /// Class names, indexed by Proposal::classIndex.
    virtual const std::vector<std::string>& names() const = 0;
    /// The model's own input size (square side, pixels).
    virtual int inputSize() const = 0;
    /// Proposes boxes on an RGB image; boxes in its pixels, after NMS, by descending score.
    virtual Expected<std::vector<Proposal>> predict(const imaging::Image& image,
                                                    const SuggestOptions& options) = 0;
};

/// Reads a names file: one class per line, blank lines and surrounding spaces ignored.
Expected<std::vector<std::string>> readNamesFile(const std::filesystem::path& path);

/// Parses Ultralytics' ONNX metadata `names` value, "{0: 'person', 1: 'bicycle'}". Empty on failure.
std::vector<std::string> parseNamesMetadata(const std::string& text);

} // namespace osprey::assist
