// The fast baseline Huffman decoder behind decodeJpeg (imaging/jpeg_entropy_impl.h), its IDCT of four
// blocks at once (imaging/jpeg_idct_impl.h) and its colour conversion (imaging/jpeg_colour_impl.h) against
// libjpeg-turbo's own decoder, called directly here: the
// same pixels for every kind of clean scan it takes, every file it does not take (progressive, arithmetic)
// left to libjpeg-turbo, damaged data handed back to libjpeg-turbo, which then gives its own pixels or its
// own error, and coefficients past the IDCT's range transformed by libjpeg-turbo's own IDCT.
#include "imaging/image.h"
#include "imaging/jpeg_colour_impl.h"
#include "imaging/jpeg_entropy_impl.h"
#include "imaging/jpeg_idct_impl.h"
#include "libjpeg_reference.h"

#include <jpegint.h> // the colour deconverter, called directly

#include <opencv2/core.hpp>

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <array>
#include <csetjmp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>

using namespace osprey::imaging;
namespace testing = osprey::testing;

namespace {

using testing::detail::JumpingErrors;

[[noreturn]] void jumpOut(j_common_ptr info) {
    std::longjmp(reinterpret_cast<JumpingErrors*>(info->err)->jump, 1);
}

struct Encoding {
    int quality = 90;
    int h = 2, v = 2; // the luma's sampling factors (chroma 1x1): 2x2 is 4:2:0, 2x1 4:2:2, 1x1 4:4:4
    bool grey = false;
    bool optimize = false; // Huffman tables made for the image, not the standard ones
    bool progressive = false;
    bool arithmetic = false;
    unsigned restartInterval = 0; // in MCUs
    int restartRows = 0;          // in MCU rows
};

// Encodes RGB pixels with libjpeg-turbo; empty where it fails.
std::vector<std::uint8_t> encode(const cv::Mat& rgb, const Encoding& e) {
    jpeg_compress_struct info{};
    JumpingErrors errors{};
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = jumpOut;
    unsigned char* out = nullptr;
    unsigned long size = 0;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&info);
        std::free(out);
        return {};
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &out, &size);
    info.image_width = static_cast<JDIMENSION>(rgb.cols);
    info.image_height = static_cast<JDIMENSION>(rgb.rows);
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    if (e.grey)
        jpeg_set_colorspace(&info, JCS_GRAYSCALE);
    jpeg_set_quality(&info, e.quality, TRUE);
    info.comp_info[0].h_samp_factor = e.h;
    info.comp_info[0].v_samp_factor = e.v;
    info.optimize_coding = e.optimize ? TRUE : FALSE;
    info.arith_code = e.arithmetic ? TRUE : FALSE;
    info.restart_interval = e.restartInterval;
    info.restart_in_rows = e.restartRows;
    if (e.progressive)
        jpeg_simple_progression(&info);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        auto* row = const_cast<JSAMPLE*>(rgb.ptr<JSAMPLE>(static_cast<int>(info.next_scanline)));
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    std::vector<std::uint8_t> bytes(out, out + size);
    std::free(out);
    return bytes;
}

// A gradient under noise: every magnitude category and long Huffman codes at high quality.
cv::Mat noisyRgb(int width, int height, std::uint64_t seed) {
    cv::Mat noise(height, width, CV_8UC3);
    cv::RNG rng(seed);
    rng.fill(noise, cv::RNG::UNIFORM, 0, 256);
    cv::Mat image(height, width, CV_8UC3);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            const auto& n = noise.at<cv::Vec3b>(y, x);
            image.at<cv::Vec3b>(y, x) = {
                static_cast<std::uint8_t>((x * 255 / std::max(1, width - 1) + n[0] / 2) / 2),
                static_cast<std::uint8_t>((y * 3 + n[1]) % 256),
                static_cast<std::uint8_t>(x < width / 3 ? n[2] : 128)};
        }
    return image;
}

// `clean` with its coefficients changed by `change` (component, block row, block column, the block's 64
// quantised coefficients in natural order) and, where `quant` > 0, every quantisation value set to it:
// jpegtran's way (read, changed, written again). Empty where libjpeg refuses.
std::vector<std::uint8_t>
withCoefficients(const std::vector<std::uint8_t>& clean, int quant,
                 const std::function<void(int, JDIMENSION, JDIMENSION, JCOEF*)>& change) {
    jpeg_decompress_struct source{};
    jpeg_compress_struct target{};
    JumpingErrors errors{};
    source.err = target.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = jumpOut;
    unsigned char* out = nullptr;
    unsigned long size = 0;
    if (setjmp(errors.jump)) {
        jpeg_destroy_compress(&target);
        jpeg_destroy_decompress(&source);
        std::free(out);
        return {};
    }
    jpeg_create_decompress(&source);
    jpeg_create_compress(&target);
    jpeg_mem_src(&source, clean.data(), static_cast<unsigned long>(clean.size()));
    jpeg_read_header(&source, TRUE);
    jvirt_barray_ptr* arrays = jpeg_read_coefficients(&source);
    jpeg_copy_critical_parameters(&source, &target);
    if (quant > 0)
        for (JQUANT_TBL* table : target.quant_tbl_ptrs)
            if (table)
                std::fill(std::begin(table->quantval), std::end(table->quantval), static_cast<UINT16>(quant));
    for (int c = 0; c < source.num_components; ++c) {
        const jpeg_component_info& component = source.comp_info[c];
        for (JDIMENSION row = 0; row < component.height_in_blocks; ++row) {
            JBLOCKARRAY blocks = (*source.mem->access_virt_barray)(reinterpret_cast<j_common_ptr>(&source),
                                                                   arrays[c], row, 1, TRUE);
            for (JDIMENSION column = 0; column < component.width_in_blocks; ++column)
                change(c, row, column, blocks[0][column]);
        }
    }
    jpeg_mem_dest(&target, &out, &size);
    jpeg_write_coefficients(&target, arrays);
    jpeg_finish_compress(&target);
    jpeg_destroy_compress(&target);
    jpeg_finish_decompress(&source);
    jpeg_destroy_decompress(&source);
    std::vector<std::uint8_t> bytes(out, out + size);
    std::free(out);
    return bytes;
}

void writeBytes(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// Where the entropy-coded data of the first scan starts (after the SOS segment) and where EOI stands.
std::pair<size_t, size_t> scanSpan(const std::vector<std::uint8_t>& bytes) {
    size_t start = 0, end = bytes.size();
    for (size_t i = 2; i + 3 < bytes.size(); ++i)
        if (bytes[i] == 0xFF && bytes[i + 1] == 0xDA) {
            start = i + 2 + (static_cast<size_t>(bytes[i + 2]) << 8 | bytes[i + 3]);
            break;
        }
    for (size_t i = bytes.size() - 2; i > start; --i)
        if (bytes[i] == 0xFF && bytes[i + 1] == 0xD9) {
            end = i;
            break;
        }
    return {start, end};
}

// A greyscale 8x8 JPEG written by hand: quantisation 1, a DC table with the one code "0" (difference 0),
// the AC table given (its code lengths' counts and symbols), and the scan's bits as '0'/'1' characters
// (padded with ones, FF stuffed).
std::vector<std::uint8_t> handMadeJpeg(const std::array<std::uint8_t, 16>& acCounts,
                                       const std::vector<std::uint8_t>& acSymbols,
                                       const std::string& scanBits) {
    std::vector<std::uint8_t> out;
    const auto append = [&out](std::initializer_list<std::uint8_t> bytes) {
        for (const auto byte : bytes)
            out.push_back(byte);
    };
    append({0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00});
    for (int k = 0; k < 64; ++k)
        out.push_back(1);
    append({0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00});
    append({0xFF, 0xC4, 0x00, 0x14, 0x00, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x00});
    const auto acLength = static_cast<int>(2 + 1 + 16 + acSymbols.size());
    append({0xFF, 0xC4, static_cast<std::uint8_t>(acLength >> 8), static_cast<std::uint8_t>(acLength & 0xFF),
            0x10});
    for (const auto count : acCounts)
        out.push_back(count);
    for (const auto symbol : acSymbols)
        out.push_back(symbol);
    append({0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00});
    std::string bits = scanBits;
    while (bits.size() % 8)
        bits += '1';
    for (size_t i = 0; i < bits.size(); i += 8) {
        const auto byte = static_cast<std::uint8_t>(std::stoi(bits.substr(i, 8), nullptr, 2));
        out.push_back(byte);
        if (byte == 0xFF)
            out.push_back(0x00);
    }
    append({0xFF, 0xD9});
    return out;
}

} // namespace

class TestJpegEntropy : public QObject {
    Q_OBJECT

    // decodeJpeg on `bytes` against libjpeg-turbo's own decode: the same pixels, or both refusing.
    static void compareWithLibjpeg(const std::filesystem::path& path, const std::vector<std::uint8_t>& bytes,
                                   int minLongSide = 0, unsigned denominator = 1) {
        writeBytes(path, bytes);
        const auto expected = testing::libjpegDecode(bytes, denominator);
        const auto decoded = decodeJpeg(path, minLongSide);
        QCOMPARE(decoded.hasValue(), expected.ok);
        if (!expected.ok) {
            QCOMPARE(QString::fromStdString(decoded.error().code), QString("corrupt"));
            return;
        }
        QCOMPARE(decoded->width, expected.width);
        QCOMPARE(decoded->height, expected.height);
        QVERIFY(decoded->pixels == expected.pixels);
    }

private slots:
    void everyCleanBaselineScanDecodesFastToLibjpegsPixels() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "clean.jpg";
        const struct {
            int width, height;
        } sizes[] = {{1, 1}, {8, 8}, {17, 9}, {203, 117}, {64, 301}, {517, 43}};
        const struct {
            int h, v;
            bool grey;
        } samplings[] = {{2, 2, false}, {2, 1, false}, {1, 1, false}, {1, 2, false}, {1, 1, true}};
        const struct {
            int quality;
            bool optimize;
            unsigned restartInterval;
            int restartRows;
        } codings[] = {{75, false, 0, 0}, {95, true, 0, 0}, {100, false, 0, 0},
                       {30, false, 1, 0}, {90, true, 5, 0}, {100, true, 0, 1}};
        int files = 0;
        const auto countsAtStart = jpeg::fastEntropyCounts();
        for (const auto& size : sizes)
            for (const auto& sampling : samplings)
                for (const auto& coding : codings) {
                    Encoding e;
                    e.h = sampling.h, e.v = sampling.v, e.grey = sampling.grey;
                    e.quality = coding.quality, e.optimize = coding.optimize;
                    e.restartInterval = coding.restartInterval, e.restartRows = coding.restartRows;
                    const auto bytes = encode(noisyRgb(size.width, size.height, 7u + files), e);
                    QVERIFY(!bytes.empty());
                    const auto before = jpeg::fastEntropyCounts();
                    compareWithLibjpeg(path, bytes);
                    const auto after = jpeg::fastEntropyCounts();
                    // Through the fast decoder, to the scan's end.
                    QCOMPARE(after.finished, before.finished + 1);
                    QCOMPARE(after.gaveUp, before.gaveUp);
                    ++files;
                }
        QCOMPARE(files, 180);
        // Where the CPU has AVX-512, through the IDCT of four blocks at once too (widths of more than one
        // chunk of MCUs among them), none of it out of its range.
        const auto counts = jpeg::fastEntropyCounts();
        QCOMPARE(counts.idctGroups > countsAtStart.idctGroups, jpeg::idctGroupAvailable());
        QCOMPARE(counts.idctFallbacks, countsAtStart.idctFallbacks);
    }

    void reducedDctScalesDecodeFastToLibjpegsPixels() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "large.jpg";
        Encoding e;
        e.quality = 95;
        const auto bytes = encode(noisyRgb(640, 480, 3), e);
        for (const unsigned denominator : {1u, 2u, 4u, 8u}) {
            const auto before = jpeg::fastEntropyCounts();
            const auto colourBefore = jpeg::fastColourRows();
            compareWithLibjpeg(path, bytes, static_cast<int>(640 / denominator), denominator);
            const auto after = jpeg::fastEntropyCounts();
            QCOMPARE(after.finished, before.finished + 1);
            // At full scale every block in a group of four (4:2:0: 80x60 luma and twice 40x30 chroma blocks,
            // 1800 groups); the reduced scales' IDCTs are libjpeg-turbo's.
            const bool groups = denominator == 1 && jpeg::idctGroupAvailable();
            QCOMPARE(after.idctGroups - before.idctGroups, groups ? 1800ull : 0ull);
            // Every row's colour through the fast conversion, at every scale, where the CPU has it.
            QCOMPARE(jpeg::fastColourRows() - colourBefore,
                     jpeg::fastColourAvailable() ? 480ull / denominator : 0ull);
        }
    }

    void progressiveAndArithmeticFilesAreLibjpegsOwn() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "other.jpg";
        for (const bool progressive : {true, false}) {
            Encoding e;
            e.progressive = progressive;
            e.arithmetic = !progressive;
            const auto bytes = encode(noisyRgb(203, 117, 11), e);
            QVERIFY(!bytes.empty());
            const auto before = jpeg::fastEntropyCounts();
            compareWithLibjpeg(path, bytes);
            const auto after = jpeg::fastEntropyCounts();
            QCOMPARE(after.finished, before.finished);
            QCOMPARE(after.gaveUp, before.gaveUp);
        }
    }

    void damagedDataGoesBackToLibjpegWithItsPixelsOrItsError() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "damaged.jpg";
        const auto countsAtStart = jpeg::fastEntropyCounts();
        int variants = 0, refused = 0;
        for (const unsigned restartInterval : {0u, 2u}) {
            Encoding e;
            e.quality = 95;
            e.restartInterval = restartInterval;
            const auto clean = encode(noisyRgb(203, 117, 5), e);
            const auto [start, end] = scanSpan(clean);
            QVERIFY(start > 0 && end > start + 1000);
            // Cut short inside the scan: libjpeg fills the rest with grey.
            for (const double fraction : {0.1, 0.5, 0.9, 0.999}) {
                const auto cutAt = start + static_cast<size_t>(fraction * static_cast<double>(end - start));
                const auto before = jpeg::fastEntropyCounts();
                compareWithLibjpeg(path, {clean.begin(), clean.begin() + static_cast<std::ptrdiff_t>(cutAt)});
                QCOMPARE(jpeg::fastEntropyCounts().gaveUp, before.gaveUp + 1);
                ++variants;
            }
            // Bytes changed inside the scan: codes no table has, runs past the block, markers where data was.
            cv::RNG rng(1234 + restartInterval);
            for (int k = 0; k < 60; ++k) {
                auto bytes = clean;
                const int changes = 1 + k % 3;
                for (int c = 0; c < changes; ++c)
                    bytes[start + static_cast<size_t>(rng.uniform(0, static_cast<int>(end - start)))] =
                        static_cast<std::uint8_t>(k % 4 == 0 ? 0xFF : rng.uniform(0, 256));
                if (!testing::libjpegDecode(bytes).ok)
                    ++refused;
                compareWithLibjpeg(path, bytes);
                ++variants;
            }
            // Bytes after the scan's data, before EOI: libjpeg skips them, so does the fast decoder.
            auto padded = clean;
            padded.insert(padded.begin() + static_cast<std::ptrdiff_t>(end), {0x12, 0x34, 0x56});
            const auto before = jpeg::fastEntropyCounts();
            compareWithLibjpeg(path, padded);
            QCOMPARE(jpeg::fastEntropyCounts().finished, before.finished + 1);
            ++variants;
            if (restartInterval) { // a restart marker out of sequence: libjpeg's resynchronisation decides
                auto renumbered = clean;
                for (size_t i = start; i + 1 < end; ++i)
                    if (renumbered[i] == 0xFF && renumbered[i + 1] == 0xD0) {
                        renumbered[i + 1] = 0xD3;
                        break;
                    }
                const auto beforeRestart = jpeg::fastEntropyCounts();
                compareWithLibjpeg(path, renumbered);
                QCOMPARE(jpeg::fastEntropyCounts().gaveUp, beforeRestart.gaveUp + 1);
                ++variants;
            }
        }
        const auto counts = jpeg::fastEntropyCounts();
        qInfo("%d damaged files, %d refused by libjpeg; the fast decoder gave up on %llu, finished %llu",
              variants, refused, counts.gaveUp - countsAtStart.gaveUp,
              counts.finished - countsAtStart.finished);
        QVERIFY(counts.gaveUp - countsAtStart.gaveUp >= 9);
    }

    void aRunPastTheBlocksEndIsLibjpegs() {
        // Four coefficients (run 15, value 1): the fourth lands past the 64th position, where libjpeg writes
        // it into the last coefficient and ends the block. Once with the symbol's code and bit in the fast
        // table ("0" and "1"), once with a code too long for it (ten bits).
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "run.jpg";
        const struct {
            std::array<std::uint8_t, 16> counts;
            std::vector<std::uint8_t> symbols;
            std::string code; // of symbol 0xF1
        } tables[] = {{{1, 1}, {0xF1, 0x00}, "0"},
                      {{1, 0, 0, 0, 0, 0, 0, 0, 0, 1}, {0x00, 0xF1}, "1000000000"}};
        for (const auto& table : tables) {
            std::string bits = "0"; // the DC difference: 0
            for (int k = 0; k < 4; ++k)
                bits += table.code + "1";
            bits += table.symbols[0] == 0x00 ? "0" : "10"; // an end of block after it, which libjpeg ignores
            const auto bytes = handMadeJpeg(table.counts, table.symbols, bits);
            const auto before = jpeg::fastEntropyCounts();
            compareWithLibjpeg(path, bytes);
            QCOMPARE(jpeg::fastEntropyCounts().gaveUp, before.gaveUp + 1);
            // Three of them fit (the last at position 48), then the end of block: decoded fast.
            std::string three = "0";
            for (int k = 0; k < 3; ++k)
                three += table.code + "1";
            three += table.symbols[0] == 0x00 ? "0" : "10";
            const auto fits = handMadeJpeg(table.counts, table.symbols, three);
            const auto beforeFit = jpeg::fastEntropyCounts();
            compareWithLibjpeg(path, fits);
            QCOMPARE(jpeg::fastEntropyCounts().finished, beforeFit.finished + 1);
        }
    }
    void coefficientsPastTheIdctsRangeAreLibjpegs() {
        if (!jpeg::idctGroupAvailable())
            QSKIP("this CPU has no AVX-512: every IDCT is libjpeg-turbo's");
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "coefficients.jpg";
        Encoding grey;
        grey.grey = true;
        grey.h = grey.v = 1;
        // A row of eight blocks: two groups. Quantisation 1: a DC of 2047 makes the column pass's values
        // 4 * 2047 = 8188, the largest within range, and pixels past 255 (saturated); 2048 makes 8192, one
        // past it; -2047 pixels below 0. AC coefficients with a DC of 1000 stay in range. (Neighbouring DCs
        // differ by at most 2047, the most a baseline scan codes.)
        const struct {
            int dc[8];
            int fast, fallbacks;
        } rows[] = {{{2047, 2047, 2047, 2047, 2048, 2047, 2047, 2047}, 1, 1},
                    {{-250, 0, 250, -250, 1000, 1000, -1000, 3}, 2, 0},
                    {{-2047, -2047, -2047, -2047, -2048, -1500, -500, 0}, 1, 1}};
        for (const auto& row : rows) {
            const auto bytes = withCoefficients(
                encode(noisyRgb(64, 8, 11), grey), 1, [&](int, JDIMENSION, JDIMENSION column, JCOEF* block) {
                    std::fill(block, block + 64, JCOEF{0});
                    block[0] = static_cast<JCOEF>(row.dc[column]);
                    if (column == 5)
                        block[1] = block[8] = block[9] = 200; // within range with the DC of 1000
                });
            QVERIFY(!bytes.empty());
            const auto before = jpeg::fastEntropyCounts();
            compareWithLibjpeg(path, bytes);
            const auto after = jpeg::fastEntropyCounts();
            QCOMPARE(after.finished, before.finished + 1);
            QCOMPARE(after.idctGroups - before.idctGroups, static_cast<unsigned long long>(row.fast));
            QCOMPARE(after.idctFallbacks - before.idctFallbacks,
                     static_cast<unsigned long long>(row.fallbacks));
        }
        // Colour, 4:2:0, quantisation 255: an AC coefficient of 1023 dequantises to 260865, past 16 bits
        // (libjpeg-turbo's SIMD IDCT multiplies in 16 bits); its group, and only its, goes to libjpeg.
        Encoding colour;
        const auto clean = encode(noisyRgb(128, 16, 5), colour);
        const auto bytes =
            withCoefficients(clean, 255, [](int component, JDIMENSION row, JDIMENSION column, JCOEF* block) {
                std::fill(block, block + 64, JCOEF{0});
                block[0] = static_cast<JCOEF>((row + column) % 3 - 1);
                if (component == 0 && row == 1 && column == 6)
                    block[9] = 1023;
            });
        QVERIFY(!bytes.empty());
        const auto before = jpeg::fastEntropyCounts();
        compareWithLibjpeg(path, bytes);
        const auto after = jpeg::fastEntropyCounts();
        // Luma 16x2 blocks (eight groups), chroma 8x1 each (two groups each).
        QCOMPARE(after.idctGroups - before.idctGroups, 11ull);
        QCOMPARE(after.idctFallbacks - before.idctFallbacks, 1ull);
    }
    // The fast colour conversion called directly beside libjpeg-turbo's own: every (Y, Cb, Cr) of 8 bits, a
    // row of 256 pixels at a time; then rows whose width leaves a partial step of 32 pixels.
    void colourConversionIsLibjpegsForEveryInput() {
        if (!jpeg::fastColourAvailable())
            QSKIP("this CPU has no AVX-512 VBMI: the conversion is libjpeg-turbo's");
        Encoding full;
        full.h = full.v = 1;
        long long compared = 0, differing = 0;
        for (const int width : {256, 77}) {
            const auto bytes = encode(noisyRgb(width, 1, 13), full);
            jpeg_decompress_struct info{};
            JumpingErrors errors{};
            info.err = jpeg_std_error(&errors.base);
            errors.base.error_exit = jumpOut;
            if (setjmp(errors.jump)) {
                jpeg_destroy_decompress(&info);
                QFAIL("libjpeg refused the encoding");
            }
            jpeg_create_decompress(&info);
            jpeg_mem_src(&info, bytes.data(), static_cast<unsigned long>(bytes.size()));
            jpeg_read_header(&info, TRUE);
            info.out_color_space = JCS_EXT_RGB;
            jpeg_start_decompress(&info);
            const auto reference = info.cconvert->color_convert;
            QVERIFY(jpeg::installFastColour(&info));
            const auto fast = info.cconvert->color_convert;
            QVERIFY(fast != reference);
            const auto n = static_cast<size_t>(width);
            // The fast row followed by 128 bytes it must not touch.
            std::vector<JSAMPLE> y(n), cb(n), cr(n), expected(3 * n), actual(3 * n + 128);
            JSAMPROW planeRows[3] = {y.data(), cb.data(), cr.data()};
            JSAMPARRAY planes[3] = {&planeRows[0], &planeRows[1], &planeRows[2]};
            JSAMPROW expectedRow = expected.data(), actualRow = actual.data();
            const auto convert = [&] {
                (*reference)(&info, planes, 0, &expectedRow, 1);
                std::fill(actual.begin(), actual.end(), JSAMPLE{0x5A});
                const auto rowsBefore = jpeg::fastColourRows();
                (*fast)(&info, planes, 0, &actualRow, 1);
                QCOMPARE(jpeg::fastColourRows(), rowsBefore + 1);
                compared += width;
                differing += !std::equal(expected.begin(), expected.end(), actual.begin()) ||
                             std::any_of(actual.begin() + static_cast<std::ptrdiff_t>(3 * n), actual.end(),
                                         [](JSAMPLE v) { return v != 0x5A; });
            };
            if (width == 256) {
                for (int luma = 0; luma < 256; ++luma)
                    for (int blue = 0; blue < 256; ++blue) {
                        for (size_t i = 0; i < n; ++i) {
                            y[i] = static_cast<JSAMPLE>(luma);
                            cb[i] = static_cast<JSAMPLE>(blue);
                            cr[i] = static_cast<JSAMPLE>(i);
                        }
                        convert();
                    }
            } else {
                cv::RNG rng(17);
                for (int row = 0; row < 2000; ++row) {
                    for (size_t i = 0; i < n; ++i) {
                        y[i] = static_cast<JSAMPLE>(rng.uniform(0, 256));
                        cb[i] = static_cast<JSAMPLE>(rng.uniform(0, 256));
                        cr[i] = static_cast<JSAMPLE>(rng.uniform(0, 256));
                    }
                    convert();
                }
            }
            jpeg_abort_decompress(&info);
            jpeg_destroy_decompress(&info);
        }
        QCOMPARE(compared, 256LL * 256 * 256 + 77LL * 2000);
        QCOMPARE(differing, 0LL);
    }
};

QTEST_GUILESS_MAIN(TestJpegEntropy)
#include "tst_jpeg_entropy.moc"
