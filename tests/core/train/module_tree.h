#pragma once
// Test helper: builds a LibTorch module tree with Ultralytics-style dotted names ("model.23.cv3.0.conv")
// from leaf modules, so that parameter groups can be checked by name without a whole network.

#include <torch/torch.h>

#include <memory>
#include <sstream>
#include <string>

namespace osprey::train::test {

/// Registers `leaf` at the dotted `path` under `root`, creating plain modules for the missing levels.
template <typename Leaf> void placeModule(torch::nn::Module& root, const std::string& path, Leaf leaf) {
    std::istringstream parts(path);
    std::string part, next;
    std::getline(parts, part, '.');
    torch::nn::Module* parent = &root;
    while (std::getline(parts, next, '.')) {
        auto children = parent->named_children();
        std::shared_ptr<torch::nn::Module> child;
        if (const auto* found = children.find(part))
            child = *found;
        else
            child = parent->register_module(part, std::make_shared<torch::nn::Module>());
        parent = child.get();
        part = next;
    }
    parent->register_module(part, leaf);
}

} // namespace osprey::train::test
