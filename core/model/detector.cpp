#include "model/detector_torch_impl.h"

#include <cstdio>
#include <sstream>

namespace osprey::model {

Detector::Detector(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
Detector::Detector(Detector&&) noexcept = default;
Detector& Detector::operator=(Detector&&) noexcept = default;
Detector::~Detector() = default;

Expected<Detector> Detector::create(const ModelSpec& spec) {
    if (spec.numClasses < 1)
        return fail("invalid number of classes " + std::to_string(spec.numClasses) +
                        ": nc must be at least 1",
                    "invalid");
    try {
        auto impl = std::make_unique<Impl>();
        impl->model = std::make_shared<DetectionModel>(spec);
        return Detector(std::move(impl));
    } catch (const std::exception& e) {
        return fail("could not build " + spec.name() + ": " + e.what(), "torch");
    }
}

const ModelSpec& Detector::spec() const {
    return m_impl->model->spec();
}

std::vector<LayerInfo> Detector::layers() const {
    return m_impl->model->layers();
}

std::int64_t Detector::parameterCount() const {
    std::int64_t count = 0;
    for (const auto& parameter : m_impl->model->parameters())
        count += parameter.numel();
    return count;
}

std::int64_t Detector::gradientCount() const {
    std::int64_t count = 0;
    for (const auto& parameter : m_impl->model->parameters())
        if (parameter.requires_grad())
            count += parameter.numel();
    return count;
}

Expected<double> Detector::gflops(int imgsz) const {
    if (imgsz < 32 || imgsz % 32 != 0)
        return fail("imgsz " + std::to_string(imgsz) + " must be a positive multiple of 32", "invalid");
    // Every layer's output size is proportional to the input area when the side is a multiple of 32, so
    // a 32x32 pass scaled by the area ratio counts the same MACs as a full-size pass, at 1/400 the cost.
    try {
        auto& model = *m_impl->model;
        const bool wasTraining = model.is_training();
        model.eval();
        torch::NoGradGuard noGrad;
        OpCounterScope counter;
        // Every branch the head still has, as Ultralytics' eval pass runs them.
        model.forwardHeads(torch::zeros({1, 3, 32, 32}));
        model.train(wasTraining);
        const double ratio = (imgsz / 32.0) * (imgsz / 32.0);
        return counter.ops() * 2.0 * ratio / 1e9;
    } catch (const std::exception& e) {
        return fail(std::string("FLOP count failed: ") + e.what(), "torch");
    }
}

std::vector<TensorEntry> Detector::stateDictEntries() const {
    std::vector<TensorEntry> entries;
    for (const auto& [name, tensor] : m_impl->model->stateDict())
        entries.push_back({name, tensor.sizes().vec()});
    return entries;
}

void Detector::fuse(HeadBranch branch) {
    m_impl->model->fuse(branch);
}
bool Detector::fused() const {
    return m_impl->model->fused();
}

std::string formatLayerTable(const Detector& detector, int imgsz) {
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%4s %18s %3s %10s  %-8s %s\n", "", "from", "n", "params", "module",
                  "arguments");
    out << line;
    for (const auto& layer : detector.layers()) {
        std::string from;
        if (layer.from.size() == 1) {
            from = std::to_string(layer.from[0]);
        } else {
            from = "[";
            for (size_t i = 0; i < layer.from.size(); ++i)
                from += (i ? ", " : "") + std::to_string(layer.from[i]);
            from += "]";
        }
        std::snprintf(line, sizeof line, "%4d %18s %3d %10lld  %-8s %s\n", layer.index, from.c_str(),
                      layer.repeats, static_cast<long long>(layer.params), layer.type.c_str(),
                      layer.arguments.c_str());
        out << line;
    }
    const auto gflops = detector.gflops(imgsz);
    out << detector.spec().name() << " summary: " << detector.layers().size() << " layers, "
        << detector.parameterCount() << " parameters, " << detector.gradientCount() << " gradients";
    if (gflops) {
        std::snprintf(line, sizeof line, ", %.1f GFLOPs at %d", *gflops, imgsz);
        out << line;
    }
    out << "\n";
    return out.str();
}

} // namespace osprey::model
