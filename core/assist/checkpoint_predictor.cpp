// Osprey checkpoints (best.pt / last.pt) through core/model.
#include "assist/predictors_impl.h"
#include "model/predictor.h"

namespace osprey::assist {
namespace {

class CheckpointPredictor final : public BoxPredictor {
public:
    explicit CheckpointPredictor(model::Predictor predictor) : m_predictor(std::move(predictor)) {}

    ModelKind kind() const override { return ModelKind::Checkpoint; }
    const std::vector<std::string>& names() const override { return m_predictor.names(); }
    int inputSize() const override { return m_predictor.imgsz(); }

    Expected<std::vector<Proposal>> predict(const imaging::Image& image,
                                            const SuggestOptions& options) override {
        if (image.channels != 3 || image.empty())
            return fail("predict: need a decoded RGB image", "invalid");
        int size = options.imgsz > 0 ? options.imgsz : m_predictor.imgsz();
        size = std::max(32, (size + 31) / 32 * 32);
        model::NmsOptions nms;
        nms.confThreshold = options.confThreshold;
        nms.iouThreshold = options.iouThreshold;
        nms.maxDetections = options.maxDetections;
        auto results = m_predictor.predict({model::ImageView{image.pixels.data(), image.width, image.height}},
                                           size, nms);
        if (!results)
            return fail(results.error());
        std::vector<Proposal> out;
        for (const auto& d : (*results)[0])
            out.push_back(Proposal{d.x1, d.y1, d.x2, d.y2, d.score, d.classId});
        return out;
    }

private:
    model::Predictor m_predictor;
};

} // namespace

Expected<std::unique_ptr<BoxPredictor>> openCheckpointPredictor(const ModelSource& source) {
    auto predictor = model::Predictor::load(source.model, model::PredictorOptions{source.device, true});
    if (!predictor)
        return fail(predictor.error());
    if (predictor->names().empty())
        return fail(source.model.string() + ": the checkpoint has no class names", "names");
    return std::unique_ptr<BoxPredictor>(new CheckpointPredictor(std::move(*predictor)));
}

} // namespace osprey::assist
