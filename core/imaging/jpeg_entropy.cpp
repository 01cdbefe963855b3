// The fast baseline Huffman decoder (jpeg_entropy_impl.h). Where libjpeg-turbo looks a code up in an 8-bit
// table and then fetches its extra bits and extends their sign as a second step, this looks up 10 bits
// and, for the short codes that carry most coefficients (98 % of them in 640x480 photos at quality 95),
// finds in the same entry the coefficient's value, its zero run and the bits they took, and where the next
// step's code and bits fit in the same 10 bits, that step too. Its bit buffer takes eight bytes at once
// where none is 0xFF, without a branch on how many bits it holds, and once for two lookups, so the chain
// from one lookup to the next is a shift, a load and a shift; BMI2's shifts where the CPU has them. The
// Huffman decoding alone: 0.60 against libjpeg-turbo's 1.17 ms for a 640x480 photo at quality 95 (one
// step a lookup: 0.70).
#include "imaging/jpeg_entropy_impl.h"

#include <jpegint.h> // struct jpeg_entropy_decoder: where decode_mcu is set

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

// The position in the 8x8 block (row-major) of each coefficient in the zig-zag order the stream has.
constexpr std::array<std::uint8_t, 64> kNaturalOrder = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,  12, 19, 26, 33, 40, 48,
    41, 34, 27, 20, 13, 6,  7,  14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23,
    30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63};

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
    static Next pastTheEnd(int k, int advance, JCOEF value, JCOEF* coefficients) {
        if (k == 64) { // the block's last coefficient
            coefficients[63] = value;
            return Next::Done;
        }
        // Past the end: an end of block, or sixteen zeros running over it (libjpeg stops there too; a
        // coefficient after a run of 15 has the same advance but a value, and libjpeg writes it).
        return advance == kEndOfBlock || (advance == 16 && value == 0) ? Next::Done : Next::Unclean;
    }

    // One or two steps found whole in the table: at most kLookBits bits. A single step stores its value
    // twice in the same place, so that no branch asks which.
    [[gnu::always_inline]] Next tableStep(std::uint64_t entry, JCOEF* coefficients, int& k) {
        const int firstAdvance = static_cast<int>(entry >> 16) & 0xFF;
        const auto firstValue = static_cast<JCOEF>(entry >> 32);
        k += firstAdvance;
        if (k >= 64) [[unlikely]] {
            skip(static_cast<int>(entry >> 8) & 0xFF); // the first step's bits only
            return pastTheEnd(k, firstAdvance, firstValue, coefficients);
        }
        coefficients[kNaturalOrder[k - 1]] = firstValue;
        skip(static_cast<int>(entry & 63)); // as `buffer << entry`: a shift takes its count's low six bits
        const int secondAdvance = static_cast<int>(entry >> 24) & 0xFF;
        const auto secondValue = static_cast<JCOEF>(entry >> 48);
        k += secondAdvance;
        if (k >= 64) [[unlikely]]
            return pastTheEnd(k, secondAdvance, secondValue, coefficients);
        coefficients[kNaturalOrder[k - 1]] = secondValue;
        return Next::More;
    }

    // A step decoded symbol by symbol: a code longer than the table's or extra bits past it (up to 31).
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
        coefficients[kNaturalOrder[k]] = static_cast<JCOEF>(extend(take(extra), extra));
        return ++k == 64 ? Next::Done : Next::More;
    }

    // One block's coefficients (the block zeroed before); false where the data is not clean.
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
                next = symbolStep(ac, coefficients, k);
            } else {
                next = tableStep(entry, coefficients, k);
                if (next == Next::More) {
                    entry = ac.pair[buffer >> (64 - kLookBits)];
                    next = entry != 0 ? tableStep(entry, coefficients, k) : symbolStep(ac, coefficients, k);
                }
            }
            if (next != Next::More)
                return next == Next::Done;
        }
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

    [[gnu::always_inline]] bool mcu(JBLOCKROW* out) {
        if (restartInterval) {
            if (restartsLeft == 0 && !restart())
                return false;
            --restartsLeft;
        }
        Bits local = bits;
        for (int b = 0; b < blocks; ++b)
            if (!local.block(out[b][0], *blockDc[b], *blockAc[b], predictor[blockComponent[b]]))
                return false;
        bits = local;
        // Bits taken past the data's end are libjpeg's "insufficient data": its own decoder's to handle.
        return bits.count >= 0;
    }
};

// Each thread's decoder state (about 115 kB of tables), made on its first JPEG: a thread that decodes none
// pays 8 bytes of thread-local storage, not the tables.
thread_local std::unique_ptr<FastEntropy> tState;
thread_local FastEntropyCounts tCounts;

[[gnu::always_inline]] inline boolean decodeMcuBody(j_decompress_ptr info, JBLOCKROW* blocks) {
    auto& state = *static_cast<FastEntropy*>(info->client_data);
    if (state.gaveUp)
        return FALSE;
    if (!state.mcu(blocks)) {
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
    return decodeMcuBody(info, blocks);
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same compiled with BMI2's shifts (one instruction each, where a shift by a register is three): the
// bit buffer's shifts are most of the decoder's work. Chosen where the CPU has them (Haswell, Zen on).
[[gnu::target("bmi2")]] boolean decodeMcuBmi2(j_decompress_ptr info, JBLOCKROW* blocks) {
    return decodeMcuBody(info, blocks);
}
#endif

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
#if defined(__x86_64__) && defined(__GNUC__)
    info->entropy->decode_mcu = __builtin_cpu_supports("bmi2") ? decodeMcuBmi2 : decodeMcu;
#else
    info->entropy->decode_mcu = decodeMcu;
#endif
    return true;
}

FastEntropyCounts fastEntropyCounts() {
    return tCounts;
}

bool fastEntropyGaveUp(j_decompress_ptr info) {
    return tState && info->client_data == tState.get() && tState->gaveUp;
}

} // namespace osprey::imaging::jpeg
