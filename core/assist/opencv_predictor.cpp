// ONNX and Darknet detectors through OpenCV DNN.
#include "assist/darknet_cfg_impl.h"
#include "assist/letterbox_impl.h"
#include "assist/onnx_info_impl.h"
#include "assist/output_layout.h"
#include "assist/predictors_impl.h"
#include "common/strings.h"

#include <opencv2/dnn.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace osprey::assist {
namespace {

namespace fs = std::filesystem;

cv::Mat wrap(const imaging::Image& image) {
    return cv::Mat(image.height, image.width, CV_8UC3, const_cast<std::uint8_t*>(image.pixels.data()));
}

std::vector<std::int64_t> shapeOf(const cv::Mat& mat) {
    std::vector<std::int64_t> shape;
    for (int i = 0; i < mat.dims; ++i)
        shape.push_back(mat.size[i]);
    return shape;
}

class OnnxPredictor final : public BoxPredictor {
public:
    OnnxPredictor(cv::dnn::Net net, std::vector<std::string> names, int inputSize)
        : m_net(std::move(net)), m_names(std::move(names)), m_inputSize(inputSize) {}

    ModelKind kind() const override { return ModelKind::Onnx; }
    const std::vector<std::string>& names() const override { return m_names; }
    int inputSize() const override { return m_inputSize; }

    Expected<std::vector<Proposal>> predict(const imaging::Image& image,
                                            const SuggestOptions& options) override {
        if (image.channels != 3 || image.empty())
            return fail("predict: need a decoded RGB image", "invalid");
        const int size = options.imgsz > 0 ? options.imgsz : m_inputSize;
        try {
            Letterbox letterbox;
            auto planes = letterboxPlanar(image, size, &letterbox);
            const int sizes[] = {1, 3, size, size};
            m_net.setInput(cv::Mat(4, sizes, CV_32F, planes.data()));
            cv::Mat output = m_net.forward();
            if (!output.isContinuous() || output.type() != CV_32F)
                output = output.clone();
            return detectionsFromOutput(output.ptr<float>(), shapeOf(output), letterbox, options,
                                        static_cast<int>(m_names.size()));
        } catch (const cv::Exception& error) {
            return fail(std::string("ONNX inference failed: ") + error.what(), "inference");
        }
    }

private:
    cv::dnn::Net m_net;
    std::vector<std::string> m_names;
    int m_inputSize;
};

class DarknetPredictor final : public BoxPredictor {
public:
    DarknetPredictor(cv::dnn::Net net, std::vector<std::string> names, int width, int height)
        : m_net(std::move(net)), m_names(std::move(names)), m_width(width), m_height(height),
          m_outputs(m_net.getUnconnectedOutLayersNames()) {}

    ModelKind kind() const override { return ModelKind::Darknet; }
    const std::vector<std::string>& names() const override { return m_names; }
    int inputSize() const override { return m_width; }

    Expected<std::vector<Proposal>> predict(const imaging::Image& image,
                                            const SuggestOptions& options) override {
        if (image.channels != 3 || image.empty())
            return fail("predict: need a decoded RGB image", "invalid");
        const int width = options.imgsz > 0 ? options.imgsz : m_width;
        const int height = options.imgsz > 0 ? options.imgsz : m_height;
        try {
            // Darknet stretches the image to the input size (no letterbox); the image is already RGB.
            m_net.setInput(cv::dnn::blobFromImage(wrap(image), 1.0 / 255.0, cv::Size(width, height),
                                                  cv::Scalar(), false, false));
            std::vector<cv::Mat> outputs;
            m_net.forward(outputs, m_outputs);
            std::vector<Proposal> candidates;
            for (const cv::Mat& output : outputs) {
                if (output.dims != 2 || output.cols != 5 + static_cast<int>(m_names.size()))
                    return fail("Darknet output " + shapeText(shapeOf(output)) + " does not match " +
                                    std::to_string(m_names.size()) + " class names (expected rows of 5 + nc)",
                                "layout");
                const auto rows = decodeDarknetRows(output.ptr<float>(), output.rows, output.cols,
                                                    options.confThreshold, image.width, image.height);
                candidates.insert(candidates.end(), rows.begin(), rows.end());
            }
            for (auto& p : candidates) {
                p.x1 = std::clamp(p.x1, 0.0f, float(image.width));
                p.x2 = std::clamp(p.x2, 0.0f, float(image.width));
                p.y1 = std::clamp(p.y1, 0.0f, float(image.height));
                p.y2 = std::clamp(p.y2, 0.0f, float(image.height));
            }
            return suppressOverlaps(candidates, options);
        } catch (const cv::Exception& error) {
            return fail(std::string("Darknet inference failed: ") + error.what(), "inference");
        }
    }

private:
    cv::dnn::Net m_net;
    std::vector<std::string> m_names;
    int m_width, m_height;
    std::vector<std::string> m_outputs;
};

// Why OpenCV DNN cannot import an Ultralytics-style ONNX file, and which export to use instead.
std::string importAdvice(const std::string& what, bool endToEnd) {
    const std::string osprey = "osprey-cli model export weights=X.pt (nms=true, the default)";
    if (endToEnd || what.find("TopK") != std::string::npos)
        return "it is an end-to-end export (metadata end2end=True, output [1, 300, 6]: Ultralytics' "
               "nms=False, Osprey's nms=false), whose top-k (TopK) OpenCV " CV_VERSION
               "'s DNN cannot run. Export the one-to-many layout [1, 4+nc, anchors] instead: " +
               osprey + ", or yolo export model=X.pt format=onnx opset=12 simplify=True (nms unset)";
    if (what.find("parseBias") != std::string::npos)
        return "OpenCV " CV_VERSION " cannot import its unsimplified box-decoding Shape -> Gather -> Add "
               "chain (parseBias). Re-export it with simplify=True (Ultralytics' default; needs onnxslim): "
               "yolo export model=X.pt format=onnx simplify=True opset=12, or " +
               osprey;
    if (what.find("splits > 0") != std::string::npos)
        return "OpenCV " CV_VERSION " splits evenly where the file's Split (opset 13 and later) gives "
               "uneven sizes, as in YOLO11's and YOLO26's attention. Re-export it with opset=12: yolo export "
               "model=X.pt format=onnx opset=12, or " +
               osprey;
    return {};
}

} // namespace

std::vector<float> letterboxPlanar(const imaging::Image& image, int side, Letterbox* letterbox) {
    const Letterbox box = letterboxFor(image.width, image.height, side);
    cv::Mat canvas(side, side, CV_8UC3, cv::Scalar(114, 114, 114));
    cv::resize(wrap(image), canvas(cv::Rect(box.padX, box.padY, box.resizedWidth, box.resizedHeight)),
               cv::Size(box.resizedWidth, box.resizedHeight), 0, 0, cv::INTER_LINEAR);
    const cv::Mat blob = cv::dnn::blobFromImage(canvas, 1.0 / 255.0, cv::Size(), cv::Scalar(), false, false);
    if (letterbox)
        *letterbox = box;
    return std::vector<float>(blob.ptr<float>(), blob.ptr<float>() + blob.total());
}

Expected<std::unique_ptr<BoxPredictor>> openOnnxPredictor(const ModelSource& source) {
    auto info = readOnnxInfo(source.model);
    if (!info)
        return fail(info.error());
    std::vector<std::string> names;
    if (auto it = info->metadata.find("names"); it != info->metadata.end())
        names = parseNamesMetadata(it->second);
    if (names.empty() && !source.names.empty()) {
        auto read = readNamesFile(source.names);
        if (!read)
            return fail(read.error());
        names = std::move(*read);
    }
    if (names.empty())
        return fail(source.model.string() +
                        ": no class names in the ONNX metadata; give names=FILE (one per line)",
                    "names");
    int inputSize = 640;
    if (info->inputShape.size() == 4 && info->inputShape[3] > 0)
        inputSize = static_cast<int>(info->inputShape[3]);
    else if (auto it = info->metadata.find("imgsz"); it != info->metadata.end()) {
        // Ultralytics writes "[640, 640]".
        const size_t digit = it->second.find_first_of("0123456789");
        if (digit != std::string::npos)
            inputSize = std::atoi(it->second.c_str() + digit);
    }
    try {
        cv::dnn::Net net = cv::dnn::readNetFromONNX(source.model.string());
        if (net.empty())
            return fail(source.model.string() + ": OpenCV DNN read an empty network", "corrupt");
        return std::unique_ptr<BoxPredictor>(new OnnxPredictor(std::move(net), std::move(names), inputSize));
    } catch (const std::exception& error) { // cv::Exception, and the importers' standard exceptions
        const std::string what = error.what();
        const auto it = info->metadata.find("end2end");
        const std::string advice = importAdvice(what, it != info->metadata.end() && it->second == "True");
        if (!advice.empty())
            return fail(source.model.string() + ": OpenCV DNN cannot run this ONNX file: " + advice,
                        "unsupported");
        return fail(source.model.string() + ": OpenCV DNN cannot import this ONNX file: " + what,
                    "unsupported");
    }
}

Expected<std::unique_ptr<BoxPredictor>> openDarknetPredictor(const ModelSource& source) {
    fs::path weights =
        source.weights.empty() ? fs::path(source.model).replace_extension(".weights") : source.weights;
    std::error_code error;
    if (!fs::exists(weights, error))
        return fail(weights.string() + ": Darknet weights not found; give weights=X.weights", "missing");
    if (source.names.empty())
        return fail(source.model.string() + ": a Darknet model needs names=FILE (one class per line)",
                    "names");
    auto names = readNamesFile(source.names);
    if (!names)
        return fail(names.error());
    // OpenCV's importer trusts the file (a zero `groups` divides by zero): check it first.
    const auto cfg = readDarknetCfg(source.model);
    if (!cfg)
        return fail(cfg.error());
    const int width = cfg->width, height = cfg->height;
    try {
        cv::dnn::Net net = cv::dnn::readNetFromDarknet(source.model.string(), weights.string());
        if (net.empty())
            return fail(source.model.string() + ": OpenCV DNN read an empty network", "corrupt");
        return std::unique_ptr<BoxPredictor>(
            new DarknetPredictor(std::move(net), std::move(*names), width, height));
    } catch (const std::exception& e) {
        // Not only cv::Exception: the Darknet importer also throws std::out_of_range on a hostile .cfg
        // (fuzz_darknet_cfg), which escaped and terminated the process.
        return fail(source.model.string() + ": OpenCV DNN cannot read this Darknet model: " + e.what(),
                    "unsupported");
    }
}

} // namespace osprey::assist
