// The HSV jitter in one pass over the interleaved RGB pixels: what Ultralytics 8.4's RandomHSV computes with
// OpenCV (cv::cvtColor(RGB2HSV), a three-channel lookup table, cv::cvtColor(HSV2RGB)), without the two
// intermediate images, written so that the compiler vectorises it where the CPU has AVX2 or AVX-512 (the
// clone is chosen at load time; GCC 12 leaves the baseline x86-64 clone scalar, slower than OpenCV's, on the
// rare CPU without AVX2). Its table, as since Ultralytics 8.3.79: the hue shifted by r_h * 180 and wrapped at
// 180, saturation and value multiplied by 1 + r_s and 1 + r_v and clipped at 255, all three truncated to
// integers (numpy's astype(uint8)).
// Built with -fno-trapping-math (core/train/CMakeLists.txt), without which GCC keeps the selects as branches.
//
// Against Debian's OpenCV 4.6 on one core: 3.6 against 1.7 ms for a 640x640 image. The hue and saturation
// are OpenCV's 8-bit ones exactly (its fixed point with 12 fraction bits; its two tables of reciprocals,
// computed here in float, equal them for every 1..255); the jitter is Ultralytics' table exactly; the way
// back to RGB is OpenCV's float one: all but about 0.1 % of the channel values equal OpenCV's, those within
// one level, with no bias (tst_augment).
#include "train/augment_impl.h"

#include <algorithm>
#include <cstdint>

namespace osprey::train {

namespace {

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 11
#define OSPREY_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#elif defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define OSPREY_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define OSPREY_VECTOR_CLONES
#endif

// The jitter's three lookup tables, as the float factors the way back to RGB multiplies by: Ultralytics'
// table (hue shifted and wrapped into [0, 180): a shift of at most 180 wraps it at most once, and numpy's
// float % 180 is the same addition or subtraction; saturation and value scaled and clipped at 255; each
// truncated), then hue * 6 / 180, saturation / 255 and value / 255 in float, as OpenCV 4.6's 8-bit
// HSV2RGB computes them. A shifted hue that rounds up to 180.0 is 0: OpenCV's HSV2RGB takes 180 as 0.
struct HsvTables {
    float sector6[256], sat[256], val[256];
};

HsvTables jitterTables(double hueShift, double satFactor, double valFactor) {
    HsvTables tables{};
    for (int x = 0; x < 256; ++x) {
        double shifted = static_cast<double>(std::min(x, 179)) + hueShift;
        shifted = shifted < 0 ? shifted + 180.0 : shifted;
        shifted = shifted >= 180.0 ? shifted - 180.0 : shifted;
        int hue = static_cast<int>(shifted);
        hue = hue >= 180 ? hue - 180 : hue;
        const int sat = static_cast<int>(std::min(255.0, static_cast<double>(x) * satFactor));
        const int val = static_cast<int>(std::min(255.0, static_cast<double>(x) * valFactor));
        tables.sector6[x] = static_cast<float>(hue) * (6.0f / 180.0f);
        tables.sat[x] = static_cast<float>(sat) * (1.0f / 255.0f);
        tables.val[x] = static_cast<float>(val) * (1.0f / 255.0f);
    }
    return tables;
}

OSPREY_VECTOR_CLONES
void hsvRow(std::uint8_t* __restrict pixels, int count, const HsvTables& tables) {
    for (int i = 0; i < count; ++i) {
        const int r = pixels[3 * i], g = pixels[3 * i + 1], b = pixels[3 * i + 2];
        const int v = std::max(r, std::max(g, b)), diff = v - std::min(r, std::min(g, b));
        // RGB to HSV (hue in 0..179). A zero v or diff has its reciprocal multiplied by 0.
        const int satReciprocal = static_cast<int>(1044480.0f / static_cast<float>(std::max(v, 1)) + 0.5f);
        const int hueReciprocal = static_cast<int>(122880.0f / static_cast<float>(std::max(diff, 1)) + 0.5f);
        const int s = (diff * satReciprocal + 2048) >> 12;
        int hueNumerator = v == g ? b - r + 2 * diff : r - g + 4 * diff;
        hueNumerator = v == r ? g - b : hueNumerator;
        int h = (hueNumerator * hueReciprocal + 2048) >> 12;
        h = h < 0 ? h + 180 : h;
        // HSV to RGB: sector of 60 degrees and the fraction into it.
        // In units of 1 (value / 255) and truncated after * 255, as OpenCV 4.6's 8-bit HSV2RGB computes:
        // rounding to nearest instead made every channel 0.3 levels brighter on average than OpenCV's.
        const float S = tables.sat[s], V = tables.val[v];
        const float sector6 = tables.sector6[h];
        const int sector = static_cast<int>(sector6);
        const float f = sector6 - static_cast<float>(sector);
        const float p = V * (1.0f - S), q = V * (1.0f - S * f), t = V * (1.0f - S * (1.0f - f));
        // One select per sector and channel: chains of ?: with || stay branches.
        float outR = p, outG = p, outB = p;
        outR = sector == 0 ? V : outR;
        outG = sector == 0 ? t : outG;
        outR = sector == 1 ? q : outR;
        outG = sector == 1 ? V : outG;
        outG = sector == 2 ? V : outG;
        outB = sector == 2 ? t : outB;
        outG = sector == 3 ? q : outG;
        outB = sector == 3 ? V : outB;
        outR = sector == 4 ? t : outR;
        outB = sector == 4 ? V : outB;
        outR = sector == 5 ? V : outR;
        outB = sector == 5 ? q : outB;
        pixels[3 * i] = static_cast<std::uint8_t>(static_cast<int>(outR * 255.0f));
        pixels[3 * i + 1] = static_cast<std::uint8_t>(static_cast<int>(outG * 255.0f));
        pixels[3 * i + 2] = static_cast<std::uint8_t>(static_cast<int>(outB * 255.0f));
    }
}

} // namespace

void hsvApply(cv::Mat& rgb, double hueShift, double satFactor, double valFactor) {
    CV_Assert(rgb.type() == CV_8UC3);
    const HsvTables tables = jitterTables(hueShift, satFactor, valFactor);
    for (int y = 0; y < rgb.rows; ++y)
        hsvRow(rgb.ptr<std::uint8_t>(y), rgb.cols, tables);
}

} // namespace osprey::train
