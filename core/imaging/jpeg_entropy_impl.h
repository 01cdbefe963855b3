#pragma once
// Internal to core/imaging: a faster decoder of baseline JPEG's Huffman-coded coefficients, put in
// libjpeg-turbo's place for the one step that dominates a decode (its entropy decoding: about 60 % of a
// 640x480 photo's decode), and where the CPU has AVX-512 its IDCT of four blocks at once
// (jpeg_idct_impl.h: about a fifth), while libjpeg-turbo keeps everything else (markers, upsampling,
// colour), so the pixels are libjpeg-turbo's own.
//
// It decodes the clean case only: a baseline (sequential, Huffman) 8-bit scan with every component,
// restart markers, if any, where they belong. At anything else (data cut short, a code no table holds,
// a coefficient past the 64th, a restart marker out of place) it gives up and the caller decodes the
// file again with libjpeg-turbo's own decoder, which has its own ways with damaged data; so a file
// decodes to the same pixels either way.

#include <cstdio> // jpeglib.h needs size_t and FILE declared first

#include <jpeglib.h>

namespace osprey::imaging::jpeg {

/// Puts the fast decoder in place of libjpeg-turbo's on `info`, after jpeg_start_decompress. False (and
/// libjpeg-turbo's decoder left in place) where the scan is not one it decodes.
bool installFastEntropy(j_decompress_ptr info);

/// After installFastEntropy: where this CPU has AVX-512 and every component takes libjpeg's 8x8 islow
/// IDCT, puts the fast decoder's own coefficient controller in libjpeg-turbo's: it decodes sixteen MCUs at
/// a time into groups of four blocks and transforms each group at once (jpeg_idct_impl.h), the same
/// pixels. False (libjpeg-turbo's controller left in place) otherwise.
bool installFastRows(j_decompress_ptr info);

/// The scans the fast decoder finished, and those it gave up on, on this thread so far; the groups of four
/// blocks its IDCT transformed, and those it left to libjpeg-turbo's (values out of its range). For tests
/// and benchmarks: which code a file went through.
struct FastEntropyCounts {
    unsigned long long finished = 0, gaveUp = 0;
    unsigned long long idctGroups = 0, idctFallbacks = 0;
};
FastEntropyCounts fastEntropyCounts();

/// After jpeg_read_scanlines returned short: whether the fast decoder gave up (then abort and decode again
/// without it).
bool fastEntropyGaveUp(j_decompress_ptr info);

} // namespace osprey::imaging::jpeg
