#include "model/predictor.h"

#include "model/inference_torch_impl.h"
#include "model/weights_torch_impl.h"

#include <chrono>

#include <dlfcn.h>

namespace osprey::model {

struct Predictor::Impl {
    std::shared_ptr<DetectionModel> model;
    torch::Device device{torch::kCPU};
    std::vector<std::string> names;
    int imgsz = 640;
};

namespace {

double elapsedMs(std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

void synchronise(const torch::Device& device) {
    if (device.is_cuda())
        torch::cuda::synchronize(device.index());
}

Expected<std::unique_ptr<Predictor::Impl>> prepare(std::shared_ptr<DetectionModel> model,
                                                   std::vector<std::string> names, int imgsz,
                                                   const PredictorOptions& options) {
    const auto device = parseDevice(options.device);
    if (!device)
        return fail(device.error());
    try {
        auto impl = std::make_unique<Predictor::Impl>();
        if (options.fuse)
            model->fuse();
        model->eval();
        model->to(*device);
        impl->model = std::move(model);
        impl->device = *device;
        for (int i = static_cast<int>(names.size()); i < impl->model->numClasses(); ++i)
            names.push_back("class" + std::to_string(i));
        impl->names = std::move(names);
        impl->imgsz = imgsz;
        return impl;
    } catch (const std::exception& e) {
        return fail(std::string("could not move the model to ") + options.device + ": " + e.what(), "torch");
    }
}

} // namespace

namespace {

using SetBlasThreads = void (*)(int);

// Looked up at run time: the symbol exists only when the BLAS that LibTorch loaded is OpenBLAS.
SetBlasThreads openBlasSetThreads() {
    return reinterpret_cast<SetBlasThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
}

} // namespace

void setComputeThreads(int threads) {
    if (threads < 1)
        return;
    torch::set_num_threads(threads);
    if (const auto set = openBlasSetThreads())
        set(1);
}

bool openBlasLoaded() {
    return openBlasSetThreads() != nullptr;
}

int computeThreads() {
    return torch::get_num_threads();
}

Predictor::Predictor(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Predictor::Predictor(Predictor&&) noexcept = default;
Predictor& Predictor::operator=(Predictor&&) noexcept = default;
Predictor::~Predictor() = default;

Expected<Predictor> Predictor::load(const std::filesystem::path& weights, const PredictorOptions& options) {
    auto checkpoint = loadCheckpoint(weights);
    if (!checkpoint)
        return fail(checkpoint.error());
    auto model = modelFromCheckpoint(*checkpoint, true);
    if (!model)
        return fail(weights.string() + ": " + model.message(), model.error().code);
    auto impl = prepare(std::move(*model), checkpoint->meta.names, checkpoint->meta.imgsz, options);
    if (!impl)
        return fail(impl.error());
    return Predictor(std::move(*impl));
}

Expected<Predictor> Predictor::fromDetector(Detector detector, std::vector<std::string> names,
                                            const PredictorOptions& options) {
    auto impl = prepare(detector.impl().model, std::move(names), 640, options);
    if (!impl)
        return fail(impl.error());
    return Predictor(std::move(*impl));
}

const ModelSpec& Predictor::spec() const {
    return m_impl->model->spec();
}
const std::vector<std::string>& Predictor::names() const {
    return m_impl->names;
}
int Predictor::imgsz() const {
    return m_impl->imgsz;
}

Expected<std::vector<std::vector<Detection>>> Predictor::predictLetterboxed(
    const std::vector<ImageView>& images, const std::vector<LetterboxInfo>& letterboxes,
    const std::vector<std::pair<int, int>>& originalSizes, const NmsOptions& nms, PredictTiming* timing) {
    if (!letterboxes.empty() &&
        (letterboxes.size() != images.size() || originalSizes.size() != images.size()))
        return fail("predict: give one letterbox and one original size per image, or none", "invalid");
    if (!images.empty() && (images[0].width % 32 != 0 || images[0].height % 32 != 0))
        return fail("predict: input " + std::to_string(images[0].width) + "x" +
                        std::to_string(images[0].height) +
                        " is not a multiple of the stride 32; letterbox it first",
                    "invalid");
    auto start = std::chrono::steady_clock::now();
    PredictTiming local;
    const auto input = imagesToTensor(images, m_impl->device);
    if (!input)
        return fail(input.error());
    synchronise(m_impl->device);
    local.preprocessMs = elapsedMs(start);
    try {
        start = std::chrono::steady_clock::now();
        torch::NoGradGuard noGrad;
        auto& model = *m_impl->model;
        const bool endToEnd = nms.branch == HeadBranch::OneToOne;
        if (endToEnd && !model.head().endToEnd())
            return fail(
                model.spec().name() +
                    " has no NMS-free (one-to-one) head: nms=false is for YOLO26 models; leave nms unset",
                "invalid");
        // YOLO26 read end to end: the one-to-one head's top-k, no NMS; otherwise NMS over the one-to-many
        // head.
        const auto output =
            endToEnd ? model.forwardEndToEnd(*input, nms.maxDetections) : model.forwardDecoded(*input);
        synchronise(m_impl->device);
        local.inferenceMs = elapsedMs(start);
        start = std::chrono::steady_clock::now();
        auto results = endToEnd ? endToEndDetections(output, nms) : nonMaxSuppression(output, nms);
        for (size_t i = 0; i < results.size() && !letterboxes.empty(); ++i)
            mapToOriginal(results[i], letterboxes[i], originalSizes[i].first, originalSizes[i].second);
        local.postprocessMs = elapsedMs(start);
        if (timing)
            *timing = local;
        return results;
    } catch (const std::exception& e) {
        return fail(std::string("inference failed: ") + std::string(e.what()).substr(0, 300), "torch");
    }
}

Expected<std::vector<std::vector<Detection>>> Predictor::predict(const std::vector<ImageView>& images,
                                                                 int imgsz, const NmsOptions& nms,
                                                                 PredictTiming* timing) {
    if (images.empty())
        return std::vector<std::vector<Detection>>{};
    if (imgsz < 32 || imgsz % 32 != 0)
        return fail("imgsz " + std::to_string(imgsz) + " must be a positive multiple of 32", "invalid");
    const auto start = std::chrono::steady_clock::now();
    std::vector<torch::Tensor> inputs;
    std::vector<LetterboxInfo> letterboxes(images.size());
    std::vector<std::pair<int, int>> sizes;
    for (size_t i = 0; i < images.size(); ++i) {
        auto tensor = letterboxToTensor(images[i], imgsz, 32, false, &letterboxes[i]);
        if (!tensor)
            return fail("image " + std::to_string(i) + ": " + tensor.message(), tensor.error().code);
        inputs.push_back(std::move(*tensor));
        sizes.emplace_back(images[i].width, images[i].height);
    }
    try {
        const double letterboxMs = elapsedMs(start);
        auto batch =
            torch::stack(inputs).mul_(255.0f).round_().to(torch::kUInt8).permute({0, 2, 3, 1}).contiguous();
        std::vector<ImageView> views;
        for (size_t i = 0; i < images.size(); ++i)
            views.push_back(ImageView{batch[static_cast<long>(i)].data_ptr<std::uint8_t>(), imgsz, imgsz});
        auto results = predictLetterboxed(views, letterboxes, sizes, nms, timing);
        if (timing)
            timing->preprocessMs += letterboxMs;
        return results;
    } catch (const std::exception& e) {
        return fail(std::string("preprocessing failed: ") + e.what(), "torch");
    }
}

Expected<std::vector<float>> Predictor::rawOutput(const std::vector<ImageView>& letterboxed,
                                                  std::vector<long>* shape) {
    const auto input = imagesToTensor(letterboxed, m_impl->device);
    if (!input)
        return fail(input.error());
    try {
        torch::NoGradGuard noGrad;
        const auto decoded = m_impl->model->forwardDecoded(*input).to(torch::kCPU).contiguous();
        if (shape)
            *shape = {decoded.size(0), decoded.size(1), decoded.size(2)};
        const float* data = decoded.data_ptr<float>();
        return std::vector<float>(data, data + decoded.numel());
    } catch (const std::exception& e) {
        return fail(std::string("inference failed: ") + e.what(), "torch");
    }
}

} // namespace osprey::model
