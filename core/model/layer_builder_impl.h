#pragma once
// Private to core/model: appends Ultralytics-style layers to a DetectionModel while tracking each layer's
// output channels and applying the scale's width and depth rules, so the family files read like the
// Ultralytics model YAMLs.

#include "model/detector_torch_impl.h"

#include <sstream>
#include <string>
#include <vector>

namespace osprey::model {

class LayerBuilder {
public:
    explicit LayerBuilder(DetectionModel& model)
        : m_model(model), m_factors(scaleFactors(model.spec().family, model.spec().scale)) {}

    const ScaleFactors& factors() const { return m_factors; }

    /// Conv(c, k, s) on the previous layer.
    int conv(int channels, int kernel, int stride) {
        const int c1 = last(), c2 = width(channels);
        return row(block(1, c2, "Conv", args({c1, c2, kernel, stride}),
                         std::make_shared<Conv>(c1, c2, kernel, stride)),
                   1, args({channels, kernel, stride}));
    }
    /// C2f(c, shortcut) repeated n (before the depth multiplier) times.
    int c2f(int channels, int repeats, bool shortcut) {
        const int c1 = last(), c2 = width(channels), n = depth(repeats);
        std::string text = args({c1, c2, n});
        if (shortcut)
            text.insert(text.size() - 1, ", True");
        return row(
            block(n, c2, "C2f", text, std::make_shared<C2f>(c1, c2, n, shortcut, 0.5, C2fInner::Bottleneck)),
            repeats, shortcut ? yamlRow(channels, ", True]") : yamlRow(channels, "]"));
    }
    /// C3k2(c, c3k, e[, attn]); c3k is forced on at scales m, l and x; attn (YOLO26's last block) makes each
    /// inner block a Bottleneck followed by a PSABlock.
    int c3k2(int channels, int repeats, bool c3k, double expansion, bool attn = false) {
        const Scale scale = m_model.spec().scale;
        const bool useC3k = c3k || scale == Scale::M || scale == Scale::L || scale == Scale::X;
        const int c1 = last(), c2 = width(channels), n = depth(repeats);
        const char* attnText = attn ? ", True" : "";
        std::ostringstream tail;
        tail << ", " << (useC3k ? "True" : "False") << ", " << expansion << attnText << "]";
        std::string text = args({c1, c2, n});
        text.pop_back();
        std::ostringstream yaml;
        // The row as yolo11.yaml / yolo26.yaml write it: e = 0.5 (C3k2's default) only before attn.
        yaml << "[" << channels << ", " << (c3k ? "True" : "False");
        if (expansion != 0.5 || attn)
            yaml << ", " << expansion;
        yaml << attnText << "]";
        const C2fInner inner = attn     ? C2fInner::AttnBottleneck
                               : useC3k ? C2fInner::C3k
                                        : C2fInner::HalfBottleneck;
        return row(
            block(n, c2, "C3k2", text + tail.str(), std::make_shared<C2f>(c1, c2, n, true, expansion, inner)),
            repeats, yaml.str());
    }
    /// SPPF(c, k); with `shortcut` (YOLO26: SPPF(c, 5, 3, True)) the input is added to the output and cv1
    /// has no activation.
    int sppf(int channels, int kernel, bool shortcut = false) {
        const int c1 = last(), c2 = width(channels);
        const bool act = m_model.spec().sppfActivation;
        std::string text = args({c1, c2, kernel});
        if (shortcut)
            text.insert(text.size() - 1, ", 3, True");
        else if (!act)
            text.insert(text.size() - 1, ", cv1 act=None");
        std::string yaml = args({channels, kernel, 3});
        if (shortcut)
            yaml.insert(yaml.size() - 1, ", True");
        return row(block(1, c2, "SPPF", text,
                         std::make_shared<Sppf>(c1, c2, kernel, act ? Activation::SiLU : Activation::None,
                                                shortcut)),
                   // Ultralytics 8.4.190 gives a row of <= 3 arguments SiLU and builds a longer one (n=3
                   // pools) without: the row says which this network is.
                   1, act ? args({channels, kernel}) : yaml);
    }
    int c2psa(int channels, int repeats) {
        const int c1 = last(), c2 = width(channels), n = depth(repeats);
        return row(block(n, c2, "C2PSA", args({c1, c2, n}), std::make_shared<C2Psa>(c1, c2, n, 0.5)), repeats,
                   args({channels}));
    }
    int upsample() {
        m_channels.push_back(last());
        return row(m_model.addUpsample(), 1, "['None', 2, 'nearest']");
    }
    int concat(std::vector<int> from) {
        int sum = 0;
        for (const int index : from)
            sum += index < 0 ? last() : m_channels[static_cast<size_t>(index)];
        m_channels.push_back(sum);
        return row(m_model.addConcat(std::move(from)), 1, "[1]");
    }
    /// Detect(nc) on the `from` layers; YOLO26's head is Detect(nc) with reg_max 1 and end2end.
    int detect(std::vector<int> from, HeadStyle style, int regMax = kRegMax, bool endToEnd = false) {
        std::vector<int> channels;
        for (const int index : from)
            channels.push_back(m_channels[static_cast<size_t>(index)]);
        m_channels.push_back(0);
        auto head = std::make_shared<Detect>(m_model.spec().numClasses, channels, std::vector<int>{8, 16, 32},
                                             style, regMax, endToEnd);
        return row(m_model.addDetect(std::move(from), head), 1, "['nc']");
    }

private:
    int last() const { return m_channels.empty() ? 3 : m_channels.back(); }
    int width(int channels) const { return scaledChannels(channels, m_factors); }
    int depth(int repeats) const { return scaledRepeats(repeats, m_factors); }
    static std::string args(std::initializer_list<int> values) {
        std::string text = "[";
        for (const int value : values)
            text += (text.size() > 1 ? ", " : "") + std::to_string(value);
        return text + "]";
    }
    static std::string yamlRow(int channels, const char* tail) {
        std::string text = "[";
        text += std::to_string(channels);
        text += tail;
        return text;
    }
    int row(int index, int repeats, std::string yamlArgs) {
        m_model.setYamlRow(index, repeats, std::move(yamlArgs));
        return index;
    }
    int block(int repeats, int outChannels, std::string type, std::string arguments,
              std::shared_ptr<UnaryModule> module) {
        m_channels.push_back(outChannels);
        return m_model.addBlock({-1}, repeats, std::move(type), std::move(arguments), std::move(module));
    }

    DetectionModel& m_model;
    ScaleFactors m_factors;
    std::vector<int> m_channels;
};

/// Layers 0-8 of yolo11.yaml (also YOLO26's): the stem and the P3-P5 stages up to SPPF.
void buildYolo11Stem(LayerBuilder& b);

} // namespace osprey::model
