// The fast baseline Huffman decoder (jpeg_entropy_impl.h). Where libjpeg-turbo looks a code up in an 8-bit
// table and then fetches its extra bits and extends their sign as a second step, this looks up 10 bits
// and, for the short codes that carry most coefficients (98 % of them in 640x480 photos at quality 95),
// finds in the same entry the coefficient's value, its zero run and the bits they took, and where the next
// step's code and bits fit in the same 10 bits, that step too. Its bit buffer takes eight bytes at once
// where none is 0xFF, without a branch on how many bits it holds, and once for two lookups, so the chain
// from one lookup to the next is a shift, a load and a shift; BMI2's shifts where the CPU has them. The
// Huffman decoding alone: 0.60 against libjpeg-turbo's 1.17 ms for a 640x480 photo at quality 95 (one
// step a lookup: 0.70).
// Its rows (installFastRows) decode sixteen MCUs at a time into groups of four blocks for the AVX-512 IDCT:
// the whole decode of those photos 1.07 -> 1.02 ms, 0.85 -> 0.81 ms for VOC photos (medians of 30 rounds,
// one Intel Xeon core; the IDCT 34 -> about 19 ns a block).
#include "imaging/jpeg_entropy_impl.h"
#include "imaging/jpeg_idct_impl.h"

#include <jpegint.h> // the entropy decoder's decode_mcu, the coefficient controller's decompress_data

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>

namespace osprey::imaging::jpeg {

namespace {

constexpr int kLookBits = 10; // the code prefix one lookup resolves
constexpr int kLookSize = 1 << kLookBits;
constexpr int kEndOfBlock = 0x80; // an AC entry's advance for the end of a block

// Where each coefficient of the zig-zag order the stream has goes.
using Order = std::array<std::uint8_t, 64>;

// The position in the 8x8 block (row-major) of each coefficient in the zig-zag order the stream has.
constexpr Order kNaturalOrder = {0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
                                 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
                                 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
                                 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

// The same positions where four blocks lie side by side for the IDCT (jpeg_idct_impl.h): row r of a block
// at r * 32 from its start.
constexpr Order kGroupOrder = [] {
    Order order{};
    for (int k = 0; k < 64; ++k)
        order[k] = static_cast<std::uint8_t>(kNaturalOrder[k] / 8 * 32 + kNaturalOrder[k] % 8);
    return order;
}();

// The signed value of `bits` read as a JPEG magnitude category of `size` bits (F.12).
constexpr int extend(unsigned bits, int size) {
    return bits < (1u << (size - 1)) ? static_cast<int>(bits) - (1 << size) + 1 : static_cast<int>(bits);
}

struct Table {
    JHUFF_TBL source; // what it was built from (a table repeated from the last image is not rebuilt)
    bool valid = false;
    // lookup[prefix]: (code length << 8) | symbol for codes of at most kLookBits bits, 0 for longer ones.
    std::array<std::uint16_t, kLookSize> lookup;
    // ac[prefix]: a whole AC step within kLookBits bits (a code and its extra bits, a zero run, an end of
    // block): the value << 16 | the positions it advances << 8 | the bits it takes; 0 where none fits.
    std::array<std::int32_t, kLookSize> ac;
    // pair[prefix]: one AC step or two within kLookBits bits: both steps' bits | the first's << 8 | the
    // advances << 16 and << 24 | the values << 32 and << 48 (a single step: advance 0, its value again).
    std::array<std::uint64_t, kLookSize> pair;
    // Codes longer than kLookBits, canonically (F.16): the largest code of each length (-1 for none) and
    // the offset from a code to its symbol's index.
    std::array<std::int32_t, 18> maxCode;
    std::array<std::int32_t, 17> valueOffset;
};

// Builds `table` from libjpeg's (its AC steps only for an AC table); false for a table that is not a
// complete, valid code (libjpeg has refused those already, but a table is never trusted).
bool build(Table& table, const JHUFF_TBL& source, bool acTable) {
    if (table.valid && std::memcmp(table.source.bits, source.bits, sizeof source.bits) == 0 &&
        std::memcmp(table.source.huffval, source.huffval, sizeof source.huffval) == 0)
        return true;
    table.valid = false;
    table.source = source;
    table.lookup.fill(0);
    table.ac.fill(0);
    int count = 0;
    for (int length = 1; length <= 16; ++length)
        count += source.bits[length];
    if (count > 256)
        return false;
    std::int32_t code = 0;
    int index = 0;
    for (int length = 1; length <= 16; ++length) {
        table.valueOffset[length] = index - code;
        for (int i = 0; i < source.bits[length]; ++i, ++index, ++code) {
            if (code >= (1 << length))
                return false;
            if (length > kLookBits)
                continue;
            const int symbol = source.huffval[index];
            const int first = code << (kLookBits - length), span = 1 << (kLookBits - length);
            const int run = symbol >> 4, size = symbol & 15;
            for (int j = 0; j < span; ++j) {
                table.lookup[first + j] = static_cast<std::uint16_t>(length << 8 | symbol);
                if (!acTable)
                    continue;
                std::int32_t step = 0;
                if (size == 0) // (run 15, size 0) is sixteen zeros; any other size-0 symbol ends the block
                    step = (run == 15 ? 16 : kEndOfBlock) << 8 | length;
                else if (length + size <= kLookBits) {
                    const unsigned extra =
                        static_cast<unsigned>(j >> (kLookBits - length - size)) & ((1u << size) - 1);
                    step = static_cast<std::int32_t>(static_cast<std::uint32_t>(extend(extra, size)) << 16) |
                           (run + 1) << 8 | (length + size);
                }
                table.ac[first + j] = step;
            }
        }
        table.maxCode[length] = source.bits[length] ? code - 1 : -1;
        code <<= 1;
    }
    table.maxCode[17] = 0x7fffffff; // the sentinel that stops the search past 16 bits
    for (int index = 0; acTable && index < kLookSize; ++index) {
        const std::int32_t first = table.ac[static_cast<size_t>(index)];
        std::uint64_t entry = 0;
        if (first != 0) {
            const int firstBits = first & 0xFF, firstAdvance = (first >> 8) & 0xFF;
            int bits = firstBits, secondAdvance = 0;
            std::int32_t secondValue = first >> 16;
            if (firstAdvance != kEndOfBlock) { // a second step whose bits are all in this prefix too
                const std::int32_t second =
                    table.ac[static_cast<size_t>((index << firstBits) & (kLookSize - 1))];
                if (second != 0 && (second & 0xFF) <= kLookBits - firstBits) {
                    bits += second & 0xFF;
                    secondAdvance = (second >> 8) & 0xFF;
                    secondValue = second >> 16;
                }
            }
            entry = static_cast<std::uint64_t>(bits) | static_cast<std::uint64_t>(firstBits) << 8 |
                    static_cast<std::uint64_t>(firstAdvance) << 16 |
                    static_cast<std::uint64_t>(secondAdvance) << 24 |
                    static_cast<std::uint64_t>(static_cast<std::uint16_t>(first >> 16)) << 32 |
                    static_cast<std::uint64_t>(static_cast<std::uint16_t>(secondValue)) << 48;
        }
        table.pair[static_cast<size_t>(index)] = entry;
    }
    table.valid = true;
    return true;
}

// The bit reader: the next bits at the top of `buffer`, `count` of them valid (below them the stream's next
// bits again, or zeros). A value copied into locals for an MCU, so that the compiler keeps it in registers.
struct Bits {
    std::uint64_t buffer = 0;
    int count = 0;
    const std::uint8_t* next = nullptr; // the first byte not yet in the buffer
    const std::uint8_t* end = nullptr;
    bool atMarker = false; // `next` is at a marker: no more data bytes in this segment

    // Fills the buffer to at least 56 bits, or up to the marker that ends the data. Where the next eight
    // bytes hold no 0xFF, without a branch on the count: the bits below `count` are the stream's next
    // bits too (or zeros), so or-ing the same bits over them again changes nothing.
    [[gnu::always_inline]] void fill() {
        if (end - next >= 8) {
            std::uint64_t word;
            std::memcpy(&word, next, 8);
            if constexpr (std::endian::native == std::endian::little)
                word = __builtin_bswap64(word);
            // No byte 0xFF among the eight (a byte's "has zero" test on the complement).
            if (((~word - 0x0101010101010101ull) & word & 0x8080808080808080ull) == 0) {
                buffer |= word >> count;
                next += (63 - count) >> 3;
                count |= 56;
                return;
            }
        }
        fillBytes();
    }

    // One byte at a time: FF 00 is a data byte FF, FF followed by anything else a marker.
    [[gnu::always_inline]] void fillBytes() {
        while (count < 56 && !atMarker) {
            if (next >= end) { // the data ends without a marker: as at one
                atMarker = true;
                break;
            }
            const std::uint8_t byte = *next;
            if (byte == 0xFF) {
                if (end - next < 2 || next[1] != 0) {
                    atMarker = true;
                    break;
                }
                ++next;
            }
            ++next;
            buffer |= static_cast<std::uint64_t>(byte) << (56 - count);
            count += 8;
        }
    }

    [[gnu::always_inline]] void skip(int bits) {
        buffer <<= bits;
        count -= bits;
    }

    [[gnu::always_inline]] unsigned take(int bits) { // 1 <= bits <= 16
        const auto value = static_cast<unsigned>(buffer >> (64 - bits));
        skip(bits);
        return value;
    }

    // A symbol whose code may be longer than kLookBits bits; -1 for a code no table holds.
    [[gnu::always_inline]] int symbol(const Table& table) {
        const unsigned entry = table.lookup[buffer >> (64 - kLookBits)];
        if (entry != 0) {
            skip(static_cast<int>(entry >> 8));
            return static_cast<int>(entry & 0xFF);
        }
        int length = kLookBits + 1;
        auto code = static_cast<std::int32_t>(buffer >> (64 - length));
        while (code > table.maxCode[length]) {
            ++length;
            code = static_cast<std::int32_t>(buffer >> (64 - length));
        }
        if (length > 16)
            return -1;
        skip(length);
        return table.source.huffval[(code + table.valueOffset[length]) & 0xFF];
    }

    // What an AC step left: more of the block to decode, its end, or data that is not clean.
    enum class Next { More, Done, Unclean };

    // Where a step took k past the block's last coefficient: its value in the last place, or the block's
    // end, or data that is not clean.
    template <const Order& kOrder>
    static Next pastTheEnd(int k, int advance, JCOEF value, JCOEF* coefficients) {
        if (k == 64) { // the block's last coefficient
            coefficients[kOrder[63]] = value;
            return Next::Done;
        }
        // Past the end: an end of block, or sixteen zeros running over it (libjpeg stops there too; a
        // coefficient after a run of 15 has the same advance but a value, and libjpeg writes it).
        return advance == kEndOfBlock || (advance == 16 && value == 0) ? Next::Done : Next::Unclean;
    }

    // One or two steps found whole in the table: at most kLookBits bits. A single step stores its value
    // twice in the same place, so that no branch asks which.
    template <const Order& kOrder>
    [[gnu::always_inline]] Next tableStep(std::uint64_t entry, JCOEF* coefficients, int& k) {
        const int firstAdvance = static_cast<int>(entry >> 16) & 0xFF;
        const auto firstValue = static_cast<JCOEF>(entry >> 32);
        k += firstAdvance;
        if (k >= 64) [[unlikely]] {
            skip(static_cast<int>(entry >> 8) & 0xFF); // the first step's bits only
            return pastTheEnd<kOrder>(k, firstAdvance, firstValue, coefficients);
        }
        coefficients[kOrder[k - 1]] = firstValue;
        skip(static_cast<int>(entry & 63)); // as `buffer << entry`: a shift takes its count's low six bits
        const int secondAdvance = static_cast<int>(entry >> 24) & 0xFF;
        const auto secondValue = static_cast<JCOEF>(entry >> 48);
        k += secondAdvance;
        if (k >= 64) [[unlikely]]
            return pastTheEnd<kOrder>(k, secondAdvance, secondValue, coefficients);
        coefficients[kOrder[k - 1]] = secondValue;
        return Next::More;
    }

    // A step decoded symbol by symbol: a code longer than the table's or extra bits past it (up to 31).
    template <const Order& kOrder>
    [[gnu::always_inline]] Next symbolStep(const Table& ac, JCOEF* coefficients, int& k) {
        const int value = symbol(ac);
        if (value < 0)
            return Next::Unclean;
        const int run = value >> 4, extra = value & 15;
        if (extra == 0) {
            if (run != 15)
                return Next::Done;
            k += 16;
            return k >= 64 ? Next::Done : Next::More;
        }
        k += run;
        if (k > 63)
            return Next::Unclean;
        coefficients[kOrder[k]] = static_cast<JCOEF>(extend(take(extra), extra));
        return ++k == 64 ? Next::Done : Next::More;
    }

    // One block's coefficients (the block zeroed before) at kOrder's places; false where the data is not
    // clean.
    template <const Order& kOrder>
    [[gnu::always_inline]] bool block(JCOEF* coefficients, const Table& dc, const Table& ac,
                                      int& prediction) {
        fill();
        const int size = symbol(dc);
        if (size < 0 || size > 15)
            return false;
        const int difference = size ? extend(take(size), size) : 0;
        // As libjpeg: the sum wraps (a damaged file's repeated differences may overflow an int).
        prediction = static_cast<int>(static_cast<unsigned>(prediction) + static_cast<unsigned>(difference));
        coefficients[0] = static_cast<JCOEF>(prediction);
        // Two steps a fill (56 bits at least): two table steps take at most 20 bits, a table step and a
        // symbol step 41. Filling once for two keeps the fill off every other step's critical path.
        for (int k = 1;;) {
            fill();
            Next next;
            std::uint64_t entry = ac.pair[buffer >> (64 - kLookBits)];
            if (entry == 0) {
                next = symbolStep<kOrder>(ac, coefficients, k);
            } else {
                next = tableStep<kOrder>(entry, coefficients, k);
                if (next == Next::More) {
                    entry = ac.pair[buffer >> (64 - kLookBits)];
                    next = entry != 0 ? tableStep<kOrder>(entry, coefficients, k)
                                      : symbolStep<kOrder>(ac, coefficients, k);
                }
            }
            if (next != Next::More)
                return next == Next::Done;
        }
    }
};

inline JCOEF* coefficientsOf(JBLOCKROW row) {
    return row[0];
}
inline JCOEF* coefficientsOf(JCOEF* start) {
    return start;
}

// Where the rows' decoder (installFastRows) puts a chunk of MCUs' coefficients: each component's blocks
// in groups of four side by side (jpeg_idct_impl.h), one row of groups for each block row of its MCUs, so
// that four neighbouring blocks of a block row go through one IDCT call and their output rows are 32
// contiguous bytes.
struct Rows {
    static constexpr int kChunk = 16; // MCUs decoded before their IDCT: at most 20 kB of coefficients
    alignas(64) std::array<JCOEF, kChunk * D_MAX_BLOCKS_IN_MCU * 64> coefficients;
    int used = 0; // the coefficients a chunk spans
    // Of each block of an MCU: where the chunk's first MCU puts it (its component's groups, its block
    // row), its column in the MCU and the MCU's width in blocks.
    int base[D_MAX_BLOCKS_IN_MCU], column[D_MAX_BLOCKS_IN_MCU], mcuWidth[D_MAX_BLOCKS_IN_MCU];
    int componentBase[MAX_COMPS_IN_SCAN], groupsAcross[MAX_COMPS_IN_SCAN];
    alignas(16) std::int16_t limits[MAX_COMPS_IN_SCAN][64];

    JCOEF* block(int b, int mcu) {
        const int across = mcu * mcuWidth[b] + column[b];
        return coefficients.data() + base[b] + across / kIdctBlocks * kIdctGroupSize +
               across % kIdctBlocks * 8;
    }
};

struct FastEntropy {
    Table dc[NUM_HUFF_TBLS], ac[NUM_HUFF_TBLS];
    const Table* blockDc[D_MAX_BLOCKS_IN_MCU];
    const Table* blockAc[D_MAX_BLOCKS_IN_MCU];
    int blockComponent[D_MAX_BLOCKS_IN_MCU];
    int blocks = 0;
    int predictor[MAX_COMPS_IN_SCAN];
    Bits bits;
    unsigned restartInterval = 0, restartsLeft = 0;
    int nextRestart = 0;
    long long mcusLeft = 0;
    bool gaveUp = false;
    Rows rows;

    // At an interval's end the data must stop at the restart marker due next (after at most the bits
    // that pad its last byte); then the predictions restart from zero.
    bool restart() {
        bits.fillBytes();
        if (!bits.atMarker || bits.count >= 8 || bits.end - bits.next < 2 ||
            bits.next[1] != 0xD0 + nextRestart)
            return false;
        bits.next += 2;
        bits.atMarker = false;
        bits.buffer = 0;
        bits.count = 0;
        nextRestart = (nextRestart + 1) & 7;
        restartsLeft = restartInterval;
        for (int& value : predictor)
            value = 0;
        return true;
    }

    template <const Order& kOrder, typename Blocks> [[gnu::always_inline]] bool mcu(const Blocks& out) {
        if (restartInterval) {
            if (restartsLeft == 0 && !restart())
                return false;
            --restartsLeft;
        }
        Bits local = bits;
        for (int b = 0; b < blocks; ++b)
            if (!local.block<kOrder>(coefficientsOf(out[b]), *blockDc[b], *blockAc[b],
                                     predictor[blockComponent[b]]))
                return false;
        bits = local;
        // Bits taken past the data's end are libjpeg's "insufficient data": its own decoder's to handle.
        return bits.count >= 0;
    }
};

// Each thread's decoder state (about 135 kB: tables and a chunk's coefficients), made on its first JPEG: a
// thread that decodes none pays 8 bytes of thread-local storage, not the tables.
thread_local std::unique_ptr<FastEntropy> tState;
thread_local FastEntropyCounts tCounts;

template <const Order& kOrder, typename Blocks>
[[gnu::always_inline]] inline boolean decodeMcuBody(j_decompress_ptr info, const Blocks& blocks) {
    auto& state = *static_cast<FastEntropy*>(info->client_data);
    if (state.gaveUp)
        return FALSE;
    if (!state.mcu<kOrder>(blocks)) {
        state.gaveUp = true;
        ++tCounts.gaveUp;
        return FALSE;
    }
    if (--state.mcusLeft == 0) { // the scan's end: the marker reader goes on where the data stopped
        ++tCounts.finished;
        info->src->next_input_byte = state.bits.next;
        info->src->bytes_in_buffer = static_cast<size_t>(state.bits.end - state.bits.next);
    }
    return TRUE;
}

boolean decodeMcu(j_decompress_ptr info, JBLOCKROW* blocks) {
    return decodeMcuBody<kNaturalOrder>(info, blocks);
}

// A block libjpeg-turbo's own IDCT transforms (one of a group idctGroup leaves, or past the last whole
// group of a block row): copied out of its group first.
void transformBlock(j_decompress_ptr info, jpeg_component_info* component, const JCOEF* group, int lane,
                    JSAMPARRAY out, JDIMENSION column) {
    alignas(64) JBLOCK block;
    for (int r = 0; r < 8; ++r)
        std::memcpy(block + 8 * r, group + 32 * r + 8 * lane, 8 * sizeof(JCOEF));
    info->idct->inverse_DCT[component->component_index](info, component, block, out, column);
}

// The IDCT of a chunk's blocks (`count` MCUs from MCU column `first`) into the iMCU row's sample rows, the
// blocks libjpeg's decompress_onepass transforms (not those past the image's right or bottom edge).
void transformChunk(j_decompress_ptr info, Rows& rows, JSAMPIMAGE output, int yoffset, JDIMENSION first,
                    JDIMENSION count) {
    const bool lastColumn = first + count == info->MCUs_per_row;
    const bool lastRow = info->input_iMCU_row + 1 == info->total_iMCU_rows;
    for (int ci = 0; ci < info->comps_in_scan; ++ci) {
        jpeg_component_info* component = info->cur_comp_info[ci];
        if (!component->component_needed)
            continue;
        const auto* quant = static_cast<const std::int16_t*>(component->dct_table);
        const int across = static_cast<int>(count - 1) * component->MCU_width +
                           (lastColumn ? component->last_col_width : component->MCU_width);
        const JDIMENSION column = first * static_cast<JDIMENSION>(component->MCU_sample_width);
        for (int y = 0; y < component->MCU_height; ++y) {
            if (lastRow && yoffset + y >= component->last_row_height)
                continue;
            JSAMPARRAY out = output[component->component_index] + (yoffset + y) * DCTSIZE;
            const JCOEF* group = rows.coefficients.data() + rows.componentBase[ci] +
                                 y * rows.groupsAcross[ci] * kIdctGroupSize;
            int b = 0;
            for (; b + kIdctBlocks <= across; b += kIdctBlocks, group += kIdctGroupSize) {
                const JDIMENSION at = column + static_cast<JDIMENSION>(b * DCTSIZE);
                if (idctGroup(group, quant, rows.limits[ci], out, at)) {
                    ++tCounts.idctGroups;
                    continue;
                }
                ++tCounts.idctFallbacks;
                for (int lane = 0; lane < kIdctBlocks; ++lane)
                    transformBlock(info, component, group, lane, out,
                                   at + static_cast<JDIMENSION>(lane * DCTSIZE));
            }
            for (; b < across; ++b)
                transformBlock(info, component, group, b % kIdctBlocks, out,
                               column + static_cast<JDIMENSION>(b * DCTSIZE));
        }
    }
}

// In libjpeg-turbo's decompress_onepass's place (jdcoefct.c): one iMCU row, decoded a chunk of MCUs at a
// time into groups, then transformed. The same counters advance, the same blocks are transformed; where the
// decoder gives up, a suspension (as decode_mcu's FALSE makes libjpeg's).
[[gnu::always_inline]] inline int decompressRowsBody(j_decompress_ptr info, JSAMPIMAGE output) {
    auto& state = *static_cast<FastEntropy*>(info->client_data);
    Rows& rows = state.rows;
    const JDIMENSION lastRow = info->total_iMCU_rows - 1;
    const jpeg_component_info* only = info->cur_comp_info[0];
    const int mcuRows = info->comps_in_scan > 1          ? 1
                        : info->input_iMCU_row < lastRow ? only->v_samp_factor
                                                         : only->last_row_height;
    info->master->last_good_iMCU_row = info->input_iMCU_row;
    for (int yoffset = 0; yoffset < mcuRows; ++yoffset)
        for (JDIMENSION first = 0; first < info->MCUs_per_row; first += Rows::kChunk) {
            const JDIMENSION count = std::min<JDIMENSION>(Rows::kChunk, info->MCUs_per_row - first);
            std::memset(rows.coefficients.data(), 0, sizeof(JCOEF) * static_cast<size_t>(rows.used));
            JCOEF* blocks[D_MAX_BLOCKS_IN_MCU];
            for (int mcu = 0; mcu < static_cast<int>(count); ++mcu) {
                for (int b = 0; b < state.blocks; ++b)
                    blocks[b] = rows.block(b, mcu);
                if (!decodeMcuBody<kGroupOrder>(info, blocks))
                    return JPEG_SUSPENDED;
            }
            transformChunk(info, rows, output, yoffset, first, count);
        }
    ++info->output_iMCU_row;
    if (++info->input_iMCU_row < info->total_iMCU_rows)
        return JPEG_ROW_COMPLETED;
    (*info->inputctl->finish_input_pass)(info);
    return JPEG_SCAN_COMPLETED;
}

int decompressRows(j_decompress_ptr info, JSAMPIMAGE output) {
    return decompressRowsBody(info, output);
}

// The same compiled with BMI2's shifts (one instruction each, where a shift by a register is three): the
// bit buffer's shifts are most of the decoder's work. Chosen where the CPU has them (Haswell, Zen on).
#if defined(__x86_64__) && defined(__GNUC__)
#define OSPREY_BMI2 [[gnu::target("bmi2")]]
bool hasBmi2() {
    static const bool has = __builtin_cpu_supports("bmi2");
    return has;
}
#else
#define OSPREY_BMI2
bool hasBmi2() {
    return false;
}
#endif

OSPREY_BMI2 boolean decodeMcuBmi2(j_decompress_ptr info, JBLOCKROW* blocks) {
    return decodeMcuBody<kNaturalOrder>(info, blocks);
}

OSPREY_BMI2 int decompressRowsBmi2(j_decompress_ptr info, JSAMPIMAGE output) {
    return decompressRowsBody(info, output);
}

} // namespace

bool installFastEntropy(j_decompress_ptr info) {
    if (info->progressive_mode || info->arith_code || info->data_precision != 8 || !info->entropy ||
        !info->src || info->comps_in_scan < 1 || info->blocks_in_MCU > D_MAX_BLOCKS_IN_MCU ||
        info->inputctl->has_multiple_scans || info->buffered_image)
        return false;
    if (!tState)
        tState = std::make_unique<FastEntropy>();
    FastEntropy& state = *tState;
    for (int b = 0; b < info->blocks_in_MCU; ++b) {
        const int component = info->MCU_membership[b];
        if (component < 0 || component >= info->comps_in_scan)
            return false;
        const jpeg_component_info* scanned = info->cur_comp_info[component];
        const int dcNo = scanned->dc_tbl_no, acNo = scanned->ac_tbl_no;
        if (dcNo < 0 || dcNo >= NUM_HUFF_TBLS || acNo < 0 || acNo >= NUM_HUFF_TBLS ||
            !info->dc_huff_tbl_ptrs[dcNo] || !info->ac_huff_tbl_ptrs[acNo] ||
            !build(state.dc[dcNo], *info->dc_huff_tbl_ptrs[dcNo], false) ||
            !build(state.ac[acNo], *info->ac_huff_tbl_ptrs[acNo], true))
            return false;
        state.blockDc[b] = &state.dc[dcNo];
        state.blockAc[b] = &state.ac[acNo];
        state.blockComponent[b] = component;
    }
    state.blocks = info->blocks_in_MCU;
    for (int& value : state.predictor)
        value = 0;
    state.bits = Bits{};
    state.bits.next = info->src->next_input_byte;
    state.bits.end = state.bits.next + info->src->bytes_in_buffer;
    state.restartInterval = state.restartsLeft = info->restart_interval;
    state.nextRestart = 0;
    state.mcusLeft = static_cast<long long>(info->MCUs_per_row) * info->MCU_rows_in_scan;
    state.gaveUp = false;
    info->client_data = &state;
    info->entropy->decode_mcu = hasBmi2() ? decodeMcuBmi2 : decodeMcu;
    return true;
}

bool installFastRows(j_decompress_ptr info) {
    if (!idctGroupAvailable() || !tState || info->client_data != tState.get() || !info->coef || !info->idct ||
        !info->master || info->dct_method != JDCT_ISLOW || info->comps_in_scan < 1 ||
        info->comps_in_scan > MAX_COMPS_IN_SCAN || info->master->first_iMCU_col != 0 ||
        info->master->last_iMCU_col + 1 != info->MCUs_per_row)
        return false;
    Rows& rows = tState->rows;
    int base = 0, b = 0;
    for (int ci = 0; ci < info->comps_in_scan; ++ci) {
        const jpeg_component_info* component = info->cur_comp_info[ci];
        if (component->DCT_scaled_size != DCTSIZE || !component->dct_table || component->MCU_width < 1 ||
            component->MCU_height < 1)
            return false;
        rows.componentBase[ci] = base;
        rows.groupsAcross[ci] = (Rows::kChunk * component->MCU_width + kIdctBlocks - 1) / kIdctBlocks;
        base += component->MCU_height * rows.groupsAcross[ci] * kIdctGroupSize;
        idctLimits(static_cast<const std::int16_t*>(component->dct_table), rows.limits[ci]);
        // libjpeg's order of an MCU's blocks: component by component, each block row left to right.
        for (int y = 0; y < component->MCU_height; ++y)
            for (int x = 0; x < component->MCU_width; ++x, ++b) {
                if (b >= info->blocks_in_MCU || info->MCU_membership[b] != ci)
                    return false;
                rows.base[b] = rows.componentBase[ci] + y * rows.groupsAcross[ci] * kIdctGroupSize;
                rows.column[b] = x;
                rows.mcuWidth[b] = component->MCU_width;
            }
    }
    if (b != info->blocks_in_MCU || base > static_cast<int>(rows.coefficients.size()))
        return false;
    rows.used = base;
    info->coef->decompress_data = hasBmi2() ? decompressRowsBmi2 : decompressRows;
    return true;
}

FastEntropyCounts fastEntropyCounts() {
    return tCounts;
}

bool fastEntropyGaveUp(j_decompress_ptr info) {
    return tState && info->client_data == tState.get() && tState->gaveUp;
}

} // namespace osprey::imaging::jpeg
