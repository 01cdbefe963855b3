#pragma once
// Batched inference with a trained detector: preprocessing, the network, NMS and the mapping back to
// original image coordinates. No torch types (pimpl). A Predictor is not thread-safe; give each worker
// thread its own, or serialise calls. Not for the GUI thread: a call takes milliseconds to seconds.

#include "common/expected.h"
#include "model/detection.h"
#include "model/weights.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace osprey::model {

class Detector;

/// Sets the number of CPU threads torch uses for intra-op parallelism, process-wide, and pins OpenBLAS
/// (when it is the BLAS LibTorch loaded) to one thread: Debian's LibTorch calls OpenBLAS inside its own
/// parallel loops, and OpenBLAS's separate pool, sized to all cores, would oversubscribe them. Debian's
/// LibTorch starts with one thread; call this at startup or between runs, not while a network runs on
/// another thread. Values below 1 are ignored.
void setComputeThreads(int threads);
int computeThreads();
/// Whether the loaded BLAS is OpenBLAS (its pool is then pinned by setComputeThreads).
bool openBlasLoaded();

/// How a Predictor runs.
struct PredictorOptions {
    std::string device = "cpu"; ///< "cpu", "0", "cuda:1", ...
    bool fuse = true;           ///< fold BatchNorm into the convolutions (faster, same outputs)
};

/// Where the time of one call went, in milliseconds for the whole batch.
struct PredictTiming {
    double preprocessMs = 0;
    double inferenceMs = 0;
    double postprocessMs = 0;
};

class Predictor {
public:
    /// Loads a weights file (see weights.h) onto the device.
    static Expected<Predictor> load(const std::filesystem::path& weights,
                                    const PredictorOptions& options = {});
    /// Takes over a detector (e.g. one just trained); `names` may be empty.
    static Expected<Predictor> fromDetector(Detector detector, std::vector<std::string> names,
                                            const PredictorOptions& options = {});

    Predictor(Predictor&&) noexcept;
    Predictor& operator=(Predictor&&) noexcept;
    ~Predictor();

    const ModelSpec& spec() const;
    const std::vector<std::string>& names() const;
    /// The training image size from the weights' metadata (640 when unknown).
    int imgsz() const;
    int stride() const { return 32; }

    /// Runs already letterboxed images (same size, sides multiples of 32). `letterboxes[i]` and
    /// `originalSizes[i]` ({width, height}) map image i's boxes back to its original; pass empty vectors
    /// to get boxes in input pixels.
    Expected<std::vector<std::vector<Detection>>>
    predictLetterboxed(const std::vector<ImageView>& images, const std::vector<LetterboxInfo>& letterboxes,
                       const std::vector<std::pair<int, int>>& originalSizes, const NmsOptions& nms,
                       PredictTiming* timing = nullptr);

    /// Letterboxes original images (square `imgsz`, with torch's bilinear resize) and runs them as one
    /// batch. Boxes come back in original pixels.
    Expected<std::vector<std::vector<Detection>>> predict(const std::vector<ImageView>& images, int imgsz,
                                                          const NmsOptions& nms,
                                                          PredictTiming* timing = nullptr);

    /// Decoded network output [N, 4 + nc, A] flattened, for checks against other backends. `shape`
    /// receives {N, 4 + nc, A}.
    Expected<std::vector<float>> rawOutput(const std::vector<ImageView>& letterboxed,
                                           std::vector<long>* shape);

    struct Impl;

private:
    explicit Predictor(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace osprey::model
