#include "train/sync_batch_norm_impl.h"

#include "model/blocks_torch_impl.h"

#include <algorithm>

namespace osprey::train {

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Per-channel view for broadcasting over [N, C, H, W].
torch::Tensor channels(const torch::Tensor& perChannel) {
    return perChannel.view({1, -1, 1, 1});
}

// Sums over the images and pixels of each channel, accumulated in float32 (AMP inputs are half).
torch::Tensor channelSum(const torch::Tensor& x) {
    return x.sum({0, 2, 3}, false, torch::kFloat);
}

struct SyncBatchNormFunction : public torch::autograd::Function<SyncBatchNormFunction> {
    // `statistics`: [2C] mean then inverse standard deviation over all ranks, `count` the images x pixels
    // of all ranks; both computed (under no_grad) by syncBatchNorm. The whole gradient is written out in
    // backward, so autograd does not see through them.
    static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& x, const torch::Tensor& weight,
                                 const torch::Tensor& bias, const torch::Tensor& statistics, double count,
                                 DistributedContext::Impl* group) {
        const auto c = x.size(1);
        const auto mean = statistics.narrow(0, 0, c);
        const auto invstd = statistics.narrow(0, c, c);
        const auto scale = invstd * weight.to(torch::kFloat);
        const auto y =
            (x.to(torch::kFloat) - channels(mean)) * channels(scale) + channels(bias.to(torch::kFloat));
        ctx->save_for_backward({x, weight, mean, invstd});
        ctx->saved_data["count"] = count;
        ctx->saved_data["group"] = reinterpret_cast<std::int64_t>(group);
        return y.to(x.scalar_type());
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const auto& x = saved[0];
        const auto& weight = saved[1];
        const auto& mean = saved[2];
        const auto& invstd = saved[3];
        const double count = ctx->saved_data["count"].toDouble();
        auto* group = reinterpret_cast<DistributedContext::Impl*>(ctx->saved_data["group"].toInt());
        const auto dy = gradOutputs[0].to(torch::kFloat);
        const auto xhat = (x.to(torch::kFloat) - channels(mean)) * channels(invstd);
        const auto sumDy = channelSum(dy);
        const auto sumDyXhat = channelSum(dy * xhat);
        // This rank's share of the weight and bias gradients: the gradient all-reduce adds the others'.
        const auto gradWeight = sumDyXhat.to(weight.scalar_type());
        const auto gradBias = sumDy.to(weight.scalar_type());
        std::vector<torch::Tensor> sums{torch::cat({sumDy, sumDyXhat})};
        group->allreduceSum(sums);
        const auto c = x.size(1);
        const auto meanDy = sums.front().narrow(0, 0, c) / count;
        const auto meanDyXhat = sums.front().narrow(0, c, c) / count;
        const auto gradX = (dy - channels(meanDy) - xhat * channels(meanDyXhat)) *
                           channels(invstd * weight.to(torch::kFloat));
        return {gradX.to(x.scalar_type()), gradWeight,      gradBias,
                torch::Tensor(),           torch::Tensor(), torch::Tensor()};
    }
};

} // namespace

torch::Tensor syncBatchNorm(const torch::Tensor& x, torch::nn::BatchNorm2dImpl& bn,
                            DistributedContext::Impl& group) {
    if (!bn.is_training())
        return bn.forward(x);
    const auto c = x.size(1);
    const double eps = bn.options.eps();
    const double momentum = bn.options.momentum().value_or(0.1);
    torch::Tensor statistics;
    double count = 0;
    {
        torch::NoGradGuard noGrad;
        const auto xf = x.detach();
        // One all-reduce of [sum, sum of squares, count]: float32 sums per channel over all ranks.
        std::vector<torch::Tensor> sums{
            torch::cat({channelSum(xf), channelSum(xf.to(torch::kFloat).square()),
                        torch::full({1}, static_cast<double>(x.numel() / std::max<std::int64_t>(c, 1)),
                                    torch::TensorOptions().dtype(torch::kFloat).device(x.device()))})};
        group.allreduceSum(sums);
        count = sums.front()[2 * c].item<double>();
        const auto mean = sums.front().narrow(0, 0, c) / count;
        const auto var = (sums.front().narrow(0, c, c) / count - mean.square()).clamp_min(0);
        statistics = torch::cat({mean, (var + eps).rsqrt()});
        // As torch's BatchNorm: the running variance is the unbiased one.
        const double unbiased = count > 1 ? count / (count - 1) : 1.0;
        bn.running_mean.mul_(1 - momentum).add_(mean.to(bn.running_mean.scalar_type()), momentum);
        bn.running_var.mul_(1 - momentum).add_((var * unbiased).to(bn.running_var.scalar_type()), momentum);
        bn.num_batches_tracked.add_(1);
    }
    return SyncBatchNormFunction::apply(x, bn.weight, bn.bias, statistics, count, &group);
}

int enableSyncBatchNorm(torch::nn::Module& model, DistributedContext& context) {
    int count = 0;
    auto* group = &context.impl();
    for (const auto& module : model.modules(/*include_self=*/true)) {
        auto* conv = dynamic_cast<model::Conv*>(module.get());
        if (!conv || conv->fused() || !conv->bn)
            continue;
        conv->normalize = [group](torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& x) {
            return syncBatchNorm(x, bn, *group);
        };
        ++count;
    }
    return count;
}

} // namespace osprey::train
