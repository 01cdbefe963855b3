#include "assist/box_cut_impl.h"

#include <opencv2/core.hpp>
#include <opencv2/imgproc/detail/gcgraph.hpp>

#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace osprey::assist::detail {
namespace {

// GrabCut's constants: the smoothness weight, and a t-link large enough that a fixed pixel never flips
// (it exceeds the sum of a pixel's eight n-links).
constexpr double kGamma = 50;
constexpr double kFixedCost = 9 * kGamma;
// The four neighbours (dy, dx) that precede a pixel in raster order; with their mirrors, eight.
constexpr std::array<std::pair<int, int>, 4> kNeighbours{{{0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};

// A Gaussian mixture over RGB, re-estimated GrabCut's way: each sample goes to its most likely
// component, then each component takes the mean and covariance of its samples.
class Mixture {
public:
    bool initialise(const std::vector<cv::Vec3f>& samples, int count) {
        if (samples.size() < static_cast<size_t>(count) * 2)
            return false;
        std::vector<int> assignment(samples.size(), 0);
        if (count > 1) {
            cv::Mat labels;
            const cv::Mat data(static_cast<int>(samples.size()), 3, CV_32F,
                               const_cast<cv::Vec3f*>(samples.data()));
            cv::kmeans(data, count, labels, cv::TermCriteria(cv::TermCriteria::MAX_ITER, 10, 0), 0,
                       cv::KMEANS_PP_CENTERS);
            assignment.assign(labels.begin<int>(), labels.end<int>());
        }
        estimate(samples, assignment, count);
        return true;
    }

    void refit(const std::vector<cv::Vec3f>& samples) {
        std::vector<int> assignment(samples.size());
        for (size_t i = 0; i < samples.size(); ++i)
            assignment[i] = mostLikely(samples[i]);
        estimate(samples, assignment, static_cast<int>(m_components.size()));
    }

    double logLikelihood(const cv::Vec3d& colour) const {
        double sum = 0;
        for (const auto& c : m_components)
            if (c.weight > 0)
                sum += c.weight * std::exp(c.logNorm - 0.5 * mahalanobis(c, colour));
        return std::log(std::max(sum, 1e-300));
    }

private:
    struct Component {
        double weight = 0;
        cv::Vec3d mean;
        cv::Matx33d inverse;
        double logNorm = 0; ///< log of the Gaussian's normalising constant
    };

    static double mahalanobis(const Component& c, const cv::Vec3d& colour) {
        const cv::Vec3d d = colour - c.mean;
        return d.dot(c.inverse * d);
    }

    int mostLikely(const cv::Vec3d& colour) const {
        int best = 0;
        double bestLog = -1e300;
        for (size_t k = 0; k < m_components.size(); ++k) {
            const auto& c = m_components[k];
            if (c.weight <= 0)
                continue;
            if (const double l = std::log(c.weight) + c.logNorm - 0.5 * mahalanobis(c, colour); l > bestLog) {
                bestLog = l;
                best = static_cast<int>(k);
            }
        }
        return best;
    }

    void estimate(const std::vector<cv::Vec3f>& samples, const std::vector<int>& assignment, int count) {
        std::vector<cv::Vec3d> sums(static_cast<size_t>(count));
        std::vector<cv::Matx33d> products(static_cast<size_t>(count), cv::Matx33d::zeros());
        std::vector<int> counts(static_cast<size_t>(count), 0);
        for (size_t i = 0; i < samples.size(); ++i) {
            const auto k = static_cast<size_t>(assignment[i]);
            const cv::Vec3d s = samples[i];
            sums[k] += s;
            products[k] += s * s.t();
            ++counts[k];
        }
        m_components.assign(static_cast<size_t>(count), {});
        for (size_t k = 0; k < m_components.size(); ++k) {
            if (counts[k] == 0)
                continue;
            auto& c = m_components[k];
            c.weight = static_cast<double>(counts[k]) / static_cast<double>(samples.size());
            c.mean = sums[k] / counts[k];
            cv::Matx33d covariance = products[k] * (1.0 / counts[k]) - c.mean * c.mean.t();
            // A flat-coloured object has almost no spread; keep the covariance invertible.
            for (int a = 0; a < 3; ++a)
                covariance(a, a) += 0.01;
            double det = cv::determinant(covariance);
            if (det <= 1e-6) {
                for (int a = 0; a < 3; ++a)
                    covariance(a, a) += 1;
                det = cv::determinant(covariance);
            }
            c.inverse = covariance.inv();
            c.logNorm = -0.5 * std::log(det) - 1.5 * std::log(2 * CV_PI);
        }
    }

    std::vector<Component> m_components;
};

void collect(const cv::Mat& image, const cv::Mat& labels, std::vector<cv::Vec3f>& foreground,
             std::vector<cv::Vec3f>& background) {
    foreground.clear();
    background.clear();
    for (int y = 0; y < image.rows; ++y)
        for (int x = 0; x < image.cols; ++x) {
            const auto& c = image.at<cv::Vec3b>(y, x);
            (labels.at<unsigned char>(y, x) == kProbableForeground ? foreground : background)
                .emplace_back(c[0], c[1], c[2]);
        }
}

// GrabCut's contrast scale: 1 / (2 * mean squared colour difference between neighbours).
double contrastBeta(const cv::Mat& image) {
    double total = 0;
    long count = 0;
    for (int y = 0; y < image.rows; ++y)
        for (int x = 0; x < image.cols; ++x) {
            const cv::Vec3d c = image.at<cv::Vec3b>(y, x);
            for (const auto& [dy, dx] : kNeighbours) {
                if (y + dy < 0 || x + dx < 0 || x + dx >= image.cols)
                    continue;
                const cv::Vec3d d = c - cv::Vec3d(image.at<cv::Vec3b>(y + dy, x + dx));
                total += d.dot(d);
                ++count;
            }
        }
    return total > 0 ? static_cast<double>(count) / (2 * total) : 0;
}

} // namespace

bool segmentSingleColour(const cv::Mat& image, cv::Mat& labels, int iterations, int backgroundComponents) {
    CV_Assert(image.type() == CV_8UC3 && labels.type() == CV_8UC1 && image.size() == labels.size());
    std::vector<cv::Vec3f> foregroundSamples, backgroundSamples;
    collect(image, labels, foregroundSamples, backgroundSamples);
    Mixture foreground, background;
    if (!foreground.initialise(foregroundSamples, 1) ||
        !background.initialise(backgroundSamples, backgroundComponents))
        return false;
    const double beta = contrastBeta(image);
    const int width = image.cols, height = image.rows;
    for (int iteration = 0; iteration < iterations; ++iteration) {
        if (iteration > 0) {
            collect(image, labels, foregroundSamples, backgroundSamples);
            if (foregroundSamples.size() < 2 || backgroundSamples.size() < 2)
                return true; // one side vanished: the last cut stands
            foreground.refit(foregroundSamples);
            background.refit(backgroundSamples);
        }
        cv::detail::GCGraph<double> graph(width * height, 8 * width * height);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const int vertex = graph.addVtx();
                const cv::Vec3d colour = image.at<cv::Vec3b>(y, x);
                if (labels.at<unsigned char>(y, x) == kBackground)
                    graph.addTermWeights(vertex, 0, kFixedCost);
                else
                    graph.addTermWeights(vertex, -background.logLikelihood(colour),
                                         -foreground.logLikelihood(colour));
                for (const auto& [dy, dx] : kNeighbours) {
                    if (y + dy < 0 || x + dx < 0 || x + dx >= width)
                        continue;
                    const cv::Vec3d d = colour - cv::Vec3d(image.at<cv::Vec3b>(y + dy, x + dx));
                    const double weight = kGamma / std::hypot(dx, dy) * std::exp(-beta * d.dot(d));
                    graph.addEdges(vertex, (y + dy) * width + x + dx, weight, weight);
                }
            }
        graph.maxFlow();
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                if (auto& label = labels.at<unsigned char>(y, x); label != kBackground)
                    label = graph.inSourceSegment(y * width + x) ? kProbableForeground : kProbableBackground;
    }
    return true;
}

} // namespace osprey::assist::detail
