#include "assist/label_selector.h"

#include "assist/label_pipeline_impl.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <random>

namespace osprey::assist {
namespace {

constexpr const char* kQueueSetting = "assist.label_next";
constexpr int kThumbSide = 8;

float boxIou(const Proposal& a, const Proposal& b) {
    const float w = std::min(a.x2, b.x2) - std::max(a.x1, b.x1);
    const float h = std::min(a.y2, b.y2) - std::max(a.y1, b.y1);
    if (w <= 0 || h <= 0)
        return 0;
    const float inter = w * h;
    const float areaA = (a.x2 - a.x1) * (a.y2 - a.y1);
    const float areaB = (b.x2 - b.x1) * (b.y2 - b.y1);
    return inter / std::max(1e-9f, areaA + areaB - inter);
}

double squaredDistance(const std::vector<float>& a, const std::vector<float>& b) {
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        const double d = static_cast<double>(a[i]) - b[i];
        sum += d * d;
    }
    return sum;
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof(text), pattern, value);
    return text;
}

std::string uncertaintyReason(const ImageSignals& s) {
    std::string reason = format("uncertain %.2f: ", s.uncertainty());
    reason += format("mirror disagreement %.2f", s.mirrorDisagreement);
    reason += format(", ambiguous boxes %.2f", s.ambiguity);
    if (s.boxes > 0)
        reason += format(" (closest to 0.5: %.2f)", s.mostAmbiguousScore);
    reason += format(", class confusion %.2f", s.classConfusion);
    if (s.boxes == 0)
        reason += ", no box above the floor";
    return reason;
}

std::string groupText(int group, int groups, int size) {
    return "scene group " + std::to_string(group + 1) + " of " + std::to_string(groups) + " (" +
           std::to_string(size) + (size == 1 ? " image)" : " images)");
}

// Picks for the uncertainty strategy: the 3n most uncertain, grouped into n scenes, the most uncertain of
// each group, then (when groups ran out) the next most uncertain overall.
std::vector<SelectedImage> rankByUncertainty(const std::vector<Candidate>& candidates, int count,
                                             std::uint64_t seed) {
    std::vector<size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        const double ua = candidates[a].evidence.uncertainty(), ub = candidates[b].evidence.uncertainty();
        if (ua != ub)
            return ua > ub;
        return candidates[a].imageId < candidates[b].imageId;
    });
    const size_t shortlist = std::min(order.size(), static_cast<size_t>(count) * 3);
    std::vector<std::vector<float>> points;
    for (size_t i = 0; i < shortlist; ++i)
        points.push_back(candidates[order[i]].embedding);
    const bool embedded = std::all_of(points.begin(), points.end(), [](const auto& p) { return !p.empty(); });
    std::vector<int> groups(shortlist, 0);
    if (embedded && !points.empty())
        groups = groupPoints(points, count, seed);
    const int groupCount = groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end()) + 1;
    std::vector<int> groupSizes(static_cast<size_t>(groupCount), 0);
    for (int g : groups)
        ++groupSizes[static_cast<size_t>(g)];

    std::vector<SelectedImage> picked;
    std::vector<bool> taken(shortlist, false);
    std::vector<bool> groupUsed(static_cast<size_t>(groupCount), false);
    const auto take = [&](size_t i, bool groupBest) {
        const Candidate& c = candidates[order[i]];
        SelectedImage item{c.imageId, c.path, c.evidence.uncertainty(), c.evidence, -1, 0, {}};
        item.reason = uncertaintyReason(c.evidence);
        if (embedded) {
            item.group = groups[i];
            item.groupSize = groupSizes[static_cast<size_t>(groups[i])];
            item.reason += "; " + groupText(item.group, groupCount, item.groupSize) +
                           (groupBest ? ", its most uncertain" : ", a second pick");
        }
        taken[i] = true;
        picked.push_back(std::move(item));
    };
    // Shortlist order is uncertainty order, so the first image met of each group is its most uncertain.
    for (size_t i = 0; i < shortlist && static_cast<int>(picked.size()) < count; ++i) {
        if (!embedded || groupUsed[static_cast<size_t>(groups[i])])
            continue;
        groupUsed[static_cast<size_t>(groups[i])] = true;
        take(i, true);
    }
    for (size_t i = 0; i < shortlist && static_cast<int>(picked.size()) < count; ++i)
        if (!taken[i])
            take(i, !embedded);
    std::stable_sort(picked.begin(), picked.end(), [](const SelectedImage& a, const SelectedImage& b) {
        if (a.score != b.score)
            return a.score > b.score;
        return a.imageId < b.imageId;
    });
    return picked;
}

std::vector<SelectedImage> rankByDiversity(const std::vector<Candidate>& candidates, int count,
                                           std::uint64_t seed) {
    std::vector<std::vector<float>> points;
    for (const auto& c : candidates)
        points.push_back(c.embedding);
    const std::vector<int> groups = groupPoints(points, count, seed);
    const int groupCount = groups.empty() ? 0 : *std::max_element(groups.begin(), groups.end()) + 1;
    const size_t dim = points.empty() ? 0 : points.front().size();
    std::vector<std::vector<double>> centres(static_cast<size_t>(groupCount), std::vector<double>(dim, 0.0));
    std::vector<int> sizes(static_cast<size_t>(groupCount), 0);
    for (size_t i = 0; i < points.size(); ++i) {
        auto& centre = centres[static_cast<size_t>(groups[i])];
        for (size_t d = 0; d < dim; ++d)
            centre[d] += points[i][d];
        ++sizes[static_cast<size_t>(groups[i])];
    }
    std::vector<size_t> nearest(static_cast<size_t>(groupCount), std::numeric_limits<size_t>::max());
    std::vector<double> nearestDistance(static_cast<size_t>(groupCount), std::numeric_limits<double>::max());
    for (size_t i = 0; i < points.size(); ++i) {
        const auto g = static_cast<size_t>(groups[i]);
        double distance = 0;
        for (size_t d = 0; d < dim; ++d) {
            const double diff = points[i][d] - centres[g][d] / sizes[g];
            distance += diff * diff;
        }
        if (distance < nearestDistance[g]) {
            nearestDistance[g] = distance;
            nearest[g] = i;
        }
    }
    // Larger groups first: they stand for more of the unlabelled data.
    std::vector<size_t> groupOrder(static_cast<size_t>(groupCount));
    std::iota(groupOrder.begin(), groupOrder.end(), size_t{0});
    std::stable_sort(groupOrder.begin(), groupOrder.end(), [&](size_t a, size_t b) {
        if (sizes[a] != sizes[b])
            return sizes[a] > sizes[b];
        return candidates[nearest[a]].imageId < candidates[nearest[b]].imageId;
    });
    std::vector<SelectedImage> picked;
    for (size_t g : groupOrder) {
        if (static_cast<int>(picked.size()) >= count)
            break;
        const Candidate& c = candidates[nearest[g]];
        picked.push_back(SelectedImage{c.imageId, c.path, 0, c.evidence, static_cast<int>(g), sizes[g],
                                       groupText(static_cast<int>(g), groupCount, sizes[g]) +
                                           ", the image nearest its centre"});
    }
    return picked;
}

std::vector<SelectedImage> rankAtRandom(const std::vector<Candidate>& candidates, int count,
                                        std::uint64_t seed) {
    std::vector<size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), size_t{0});
    // Candidates come in image id order; the shuffle's result depends on the seed only.
    std::mt19937_64 random(seed);
    std::shuffle(order.begin(), order.end(), random);
    std::vector<SelectedImage> picked;
    for (size_t i = 0; i < order.size() && static_cast<int>(picked.size()) < count; ++i) {
        const Candidate& c = candidates[order[i]];
        picked.push_back(SelectedImage{c.imageId, c.path, 0, c.evidence, -1, 0,
                                       "random pick (seed " + std::to_string(seed) + ")"});
    }
    return picked;
}

} // namespace

std::optional<SelectStrategy> selectStrategyFromString(const std::string& text) {
    if (text == "uncertainty")
        return SelectStrategy::Uncertainty;
    if (text == "diversity")
        return SelectStrategy::Diversity;
    if (text == "random")
        return SelectStrategy::Random;
    return std::nullopt;
}

std::string toString(SelectStrategy strategy) {
    switch (strategy) {
    case SelectStrategy::Uncertainty:
        return "uncertainty";
    case SelectStrategy::Diversity:
        return "diversity";
    case SelectStrategy::Random:
        return "random";
    }
    return "uncertainty";
}

bool needsModel(SelectStrategy strategy) {
    return strategy == SelectStrategy::Uncertainty;
}

ImageSignals imageSignals(const std::vector<Proposal>& proposals, const std::vector<Proposal>& mirroredBoxes,
                          const SignalOptions& options) {
    const auto above = [&](const std::vector<Proposal>& boxes) {
        std::vector<Proposal> kept;
        for (const auto& p : boxes)
            if (p.score > options.lowConfidence)
                kept.push_back(p);
        std::stable_sort(kept.begin(), kept.end(),
                         [](const Proposal& a, const Proposal& b) { return a.score > b.score; });
        return kept;
    };
    const std::vector<Proposal> boxes = above(proposals);
    const std::vector<Proposal> mirror = above(mirroredBoxes);
    ImageSignals s;
    s.boxes = static_cast<int>(boxes.size());

    double ambiguousMass = 0, mass = 0, closest = 2;
    for (const auto& p : boxes) {
        ambiguousMass += (1.0 - std::abs(2.0 * p.score - 1.0)) * p.score;
        mass += p.score;
        if (std::abs(p.score - 0.5) < closest) {
            closest = std::abs(p.score - 0.5);
            s.mostAmbiguousScore = p.score;
        }
    }
    s.ambiguity = mass > 0 ? ambiguousMass / mass : 0.0;

    // Greedy matching by descending score, same class, the best IoU at or above matchIou.
    double massA = 0, massB = 0, agreed = 0;
    for (const auto& p : boxes)
        massA += p.score;
    for (const auto& p : mirror)
        massB += p.score;
    std::vector<bool> used(mirror.size(), false);
    for (const auto& p : boxes) {
        int best = -1;
        float bestIou = options.matchIou;
        for (size_t j = 0; j < mirror.size(); ++j) {
            if (used[j] || mirror[j].classIndex != p.classIndex)
                continue;
            const float iou = boxIou(p, mirror[j]);
            if (iou >= bestIou) {
                bestIou = iou;
                best = static_cast<int>(j);
            }
        }
        if (best >= 0) {
            used[static_cast<size_t>(best)] = true;
            agreed += std::min(p.score, mirror[static_cast<size_t>(best)].score) * bestIou;
        }
    }
    const double meanMass = (massA + massB) / 2;
    s.mirrorDisagreement = meanMass > 0 ? std::clamp(1.0 - agreed / meanMass, 0.0, 1.0) : 0.0;

    for (size_t i = 0; i < boxes.size(); ++i)
        for (size_t j = i + 1; j < boxes.size(); ++j) {
            const double high = std::max(boxes[i].score, boxes[j].score);
            if (boxes[i].classIndex == boxes[j].classIndex || high < options.shownConfidence ||
                boxIou(boxes[i], boxes[j]) < options.sameSpotIou)
                continue;
            s.classConfusion = std::max(s.classConfusion, std::min(boxes[i].score, boxes[j].score) / high);
        }
    return s;
}

std::vector<Proposal> mirrorBack(std::vector<Proposal> proposals, int width) {
    for (auto& p : proposals) {
        const float x1 = static_cast<float>(width) - p.x2;
        const float x2 = static_cast<float>(width) - p.x1;
        p.x1 = x1;
        p.x2 = x2;
    }
    return proposals;
}

imaging::Image mirrored(const imaging::Image& image) {
    imaging::Image out = image;
    const int c = image.channels;
    for (int y = 0; y < image.height; ++y) {
        const std::uint8_t* src = image.row(y);
        std::uint8_t* dst = out.row(y);
        for (int x = 0; x < image.width; ++x)
            std::copy_n(src + static_cast<size_t>(image.width - 1 - x) * c, c,
                        dst + static_cast<size_t>(x) * c);
    }
    return out;
}

std::vector<float> imageEmbedding(const imaging::Image& image) {
    const int channels = 3;
    std::vector<double> sums(static_cast<size_t>(kThumbSide * kThumbSide * channels), 0.0);
    std::vector<int> counts(static_cast<size_t>(kThumbSide * kThumbSide), 0);
    if (image.empty() || image.width <= 0 || image.height <= 0)
        return std::vector<float>(sums.size(), 0.0f);
    const int c = image.channels;
    for (int y = 0; y < image.height; ++y) {
        const int cellY = y * kThumbSide / image.height;
        const std::uint8_t* row = image.row(y);
        for (int x = 0; x < image.width; ++x) {
            const int cell = cellY * kThumbSide + x * kThumbSide / image.width;
            const std::uint8_t* px = row + static_cast<size_t>(x) * c;
            for (int k = 0; k < channels; ++k)
                sums[static_cast<size_t>(cell * channels + k)] += px[std::min(k, c - 1)];
            ++counts[static_cast<size_t>(cell)];
        }
    }
    std::vector<float> out(sums.size());
    double mean = 0;
    for (size_t i = 0; i < sums.size(); ++i) {
        sums[i] /= std::max(1, counts[i / channels]);
        mean += sums[i];
    }
    mean /= static_cast<double>(sums.size());
    double norm = 0;
    for (double& v : sums) {
        v -= mean;
        norm += v * v;
    }
    norm = std::sqrt(norm);
    for (size_t i = 0; i < sums.size(); ++i)
        out[i] = norm > 1e-9 ? static_cast<float>(sums[i] / norm) : 0.0f;
    return out;
}

std::vector<int> groupPoints(const std::vector<std::vector<float>>& points, int k, std::uint64_t seed) {
    const size_t n = points.size();
    std::vector<int> groups(n, 0);
    if (n == 0 || k <= 1)
        return groups;
    const size_t groupCount = std::min(n, static_cast<size_t>(k));
    // k-means++: each next centre drawn with probability proportional to the squared distance to the
    // nearest centre so far.
    std::mt19937_64 random(seed);
    std::vector<std::vector<float>> centres;
    centres.push_back(points[std::uniform_int_distribution<size_t>(0, n - 1)(random)]);
    std::vector<double> nearest(n);
    for (size_t i = 0; i < n; ++i)
        nearest[i] = squaredDistance(points[i], centres[0]);
    while (centres.size() < groupCount) {
        const double total = std::accumulate(nearest.begin(), nearest.end(), 0.0);
        size_t chosen = 0;
        if (total <= 0) {
            // Every point coincides with a centre: the extra centres stay empty and are numbered away below.
            chosen = centres.size() % n;
        } else {
            double draw = std::uniform_real_distribution<double>(0.0, total)(random);
            for (chosen = 0; chosen + 1 < n; ++chosen) {
                draw -= nearest[chosen];
                if (draw <= 0)
                    break;
            }
        }
        centres.push_back(points[chosen]);
        for (size_t i = 0; i < n; ++i)
            nearest[i] = std::min(nearest[i], squaredDistance(points[i], centres.back()));
    }
    const size_t dim = points.front().size();
    std::fill(groups.begin(), groups.end(), -1);
    for (int step = 0; step < 30; ++step) {
        bool moved = false;
        for (size_t i = 0; i < n; ++i) {
            int best = 0;
            double bestDistance = std::numeric_limits<double>::max();
            for (size_t g = 0; g < centres.size(); ++g) {
                const double d = squaredDistance(points[i], centres[g]);
                if (d < bestDistance) {
                    bestDistance = d;
                    best = static_cast<int>(g);
                }
            }
            moved = moved || groups[i] != best;
            groups[i] = best;
        }
        if (!moved)
            break;
        std::vector<std::vector<double>> sums(centres.size(), std::vector<double>(dim, 0.0));
        std::vector<int> sizes(centres.size(), 0);
        for (size_t i = 0; i < n; ++i) {
            for (size_t d = 0; d < dim; ++d)
                sums[static_cast<size_t>(groups[i])][d] += points[i][d];
            ++sizes[static_cast<size_t>(groups[i])];
        }
        for (size_t g = 0; g < centres.size(); ++g)
            if (sizes[g] > 0)
                for (size_t d = 0; d < dim; ++d)
                    centres[g][d] = static_cast<float>(sums[g][d] / sizes[g]);
    }
    // Number the groups that kept members 0..m-1, in order of first appearance.
    std::vector<int> renumber(centres.size(), -1);
    int next = 0;
    for (int& g : groups) {
        if (renumber[static_cast<size_t>(g)] < 0)
            renumber[static_cast<size_t>(g)] = next++;
        g = renumber[static_cast<size_t>(g)];
    }
    return groups;
}

std::vector<SelectedImage> rankCandidates(const std::vector<Candidate>& candidates, SelectStrategy strategy,
                                          int count, std::uint64_t seed) {
    if (count <= 0 || candidates.empty())
        return {};
    switch (strategy) {
    case SelectStrategy::Uncertainty:
        return rankByUncertainty(candidates, count, seed);
    case SelectStrategy::Diversity:
        return rankByDiversity(candidates, count, seed);
    case SelectStrategy::Random:
        return rankAtRandom(candidates, count, seed);
    }
    return {};
}

Expected<SelectReport> selectForLabelling(const project::Project& project, BoxPredictor* predictor,
                                          const SelectOptions& options, const SelectProgress& progress) {
    const auto start = std::chrono::steady_clock::now();
    if (options.count <= 0)
        return fail("select: n=" + std::to_string(options.count) + ": pick at least one image", "invalid");
    if (needsModel(options.strategy) && !predictor)
        return fail("select: strategy=" + toString(options.strategy) + " needs a model (model=best.pt)",
                    "invalid");
    project::ImageQuery query;
    query.limit = 0;
    if (options.unlabeledOnly)
        query.status = project::ImageStatus::New;
    auto images = project.images().list(query);
    if (!images)
        return fail(images.error());

    SelectReport report;
    report.candidates = static_cast<int>(images->size());
    std::vector<Candidate> candidates;
    if (options.strategy == SelectStrategy::Random) {
        for (const auto& record : *images)
            candidates.push_back(Candidate{record.id, record.path, {}, {}});
        report.measured = report.candidates;
        if (progress)
            progress(report.measured, report.candidates);
    } else {
        SuggestOptions suggest;
        suggest.confThreshold = options.signalOptions.lowConfidence;
        suggest.imgsz = options.imgsz;
        const bool withModel = needsModel(options.strategy);
        detail::ImageWork work = [suggest,
                                  withModel](const imaging::Image& image,
                                             BoxPredictor* model) -> Expected<detail::ImageAnalysis> {
            detail::ImageAnalysis analysis;
            analysis.embedding = imageEmbedding(image);
            if (!withModel)
                return analysis;
            auto direct = model->predict(image, suggest);
            if (!direct)
                return fail(direct.error());
            auto flipped = model->predict(mirrored(image), suggest);
            if (!flipped)
                return fail(flipped.error());
            analysis.proposals = std::move(*direct);
            analysis.mirrored = mirrorBack(std::move(*flipped), image.width);
            return analysis;
        };
        std::vector<std::filesystem::path> paths;
        for (const auto& record : *images)
            paths.push_back(project.resolve(record.path));
        std::vector<std::unique_ptr<BoxPredictor>> extraPredictors;
        std::unique_ptr<detail::LabelPipeline> pipeline;
        const int workers = std::max(1, options.workers);
        if (workers > 1) {
            std::vector<BoxPredictor*> predictors{withModel ? predictor : nullptr};
            for (int i = 1; i < workers; ++i) {
                if (!withModel) {
                    predictors.push_back(nullptr);
                    continue;
                }
                if (!options.openPredictor)
                    return fail("select: workers=" + std::to_string(workers) +
                                    " needs a way to open one predictor per worker",
                                "invalid");
                auto another = options.openPredictor();
                if (!another)
                    return fail(another.error());
                predictors.push_back(another->get());
                extraPredictors.push_back(std::move(*another));
            }
            pipeline = detail::makeParallelPipeline(std::move(paths), std::move(predictors), std::move(work),
                                                    static_cast<size_t>(workers) * 2);
        } else {
            pipeline = detail::makeDecodeAheadPipeline(std::move(paths), withModel ? predictor : nullptr,
                                                       std::move(work), 4);
        }
        for (const auto& record : *images) {
            auto outcome = pipeline->next();
            ++report.measured;
            if (outcome.decodeFailed) {
                ++report.failed;
                report.warnings.push_back("skipped " + outcome.analysis.message());
            } else {
                if (!outcome.analysis)
                    return fail(record.path + ": " + outcome.analysis.message());
                Candidate c{record.id, record.path, {}, std::move(outcome.analysis->embedding)};
                if (withModel)
                    c.evidence = imageSignals(outcome.analysis->proposals, outcome.analysis->mirrored,
                                              options.signalOptions);
                candidates.push_back(std::move(c));
            }
            if (progress && !progress(report.measured, report.candidates) &&
                report.measured < report.candidates) {
                report.cancelled = true;
                break;
            }
        }
    }
    report.picked = rankCandidates(candidates, options.strategy, options.count, options.seed);
    report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return report;
}

Status saveLabelNextQueue(project::Project& project, const std::vector<SelectedImage>& picked,
                          SelectStrategy strategy, const std::string& model) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& item : picked)
        items.push_back({{"image", item.imageId},
                         {"reason", item.reason},
                         {"score", item.score},
                         {"ambiguity", item.evidence.ambiguity},
                         {"ambiguous_score", item.evidence.mostAmbiguousScore},
                         {"mirror", item.evidence.mirrorDisagreement},
                         {"confusion", item.evidence.classConfusion},
                         {"boxes", item.evidence.boxes},
                         {"group", item.group},
                         {"group_size", item.groupSize}});
    const nlohmann::json queue{{"strategy", toString(strategy)}, {"model", model}, {"images", items}};
    return project.settings().set(kQueueSetting, queue.dump());
}

Expected<std::vector<LabelNextItem>> labelNextQueue(const project::Project& project) {
    auto text = project.settings().get(kQueueSetting);
    if (!text)
        return fail(text.error());
    std::vector<LabelNextItem> out;
    if (text->empty())
        return out;
    const nlohmann::json queue = nlohmann::json::parse(*text, nullptr, false);
    if (queue.is_discarded() || !queue.is_object() || !queue.contains("images") ||
        !queue["images"].is_array())
        return fail(std::string("project setting ") + kQueueSetting +
                        " is not a label-next queue; run select again",
                    "corrupt");
    const SelectStrategy strategy = selectStrategyFromString(queue.value("strategy", std::string()))
                                        .value_or(SelectStrategy::Uncertainty);
    for (const auto& item : queue["images"]) {
        if (!item.is_object() || !item.contains("image") || !item["image"].is_number_integer())
            continue;
        LabelNextItem entry;
        entry.imageId = item["image"].get<std::int64_t>();
        if (!project.images().get(entry.imageId))
            continue; // deleted since
        entry.reason = item.value("reason", std::string());
        entry.strategy = strategy;
        entry.score = item.value("score", 0.0);
        entry.evidence.ambiguity = item.value("ambiguity", 0.0);
        entry.evidence.mostAmbiguousScore = item.value("ambiguous_score", 0.0f);
        entry.evidence.mirrorDisagreement = item.value("mirror", 0.0);
        entry.evidence.classConfusion = item.value("confusion", 0.0);
        entry.evidence.boxes = item.value("boxes", 0);
        entry.group = item.value("group", -1);
        entry.groupSize = item.value("group_size", 0);
        out.push_back(std::move(entry));
    }
    return out;
}

} // namespace osprey::assist
