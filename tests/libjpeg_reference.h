#pragma once
// libjpeg-turbo's own decode of a JPEG to RGB, with its own entropy decoder, for the tests, the fuzz target
// and the benchmark that hold decodeJpeg (and its Huffman decoder, imaging/jpeg_entropy_impl.h) to it: called
// as decodeJpeg calls it (the whole file in memory, 16 rows a call, warnings silent), with nothing of
// Osprey's in between.

#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <cstdio> // jpeglib.h needs FILE and size_t declared first
#include <vector>

#include <jpeglib.h>

namespace osprey::testing {

struct LibjpegDecoded {
    bool ok = false; // false where libjpeg reported an error
    int width = 0, height = 0;
    std::vector<std::uint8_t> pixels; // RGB, rows contiguous
};

namespace detail {
struct JumpingErrors {
    jpeg_error_mgr base;
    std::jmp_buf jump;
};
} // namespace detail

/// Decodes into `out` (its buffer reused); `denominator` the DCT scaling 1/1, 1/2, 1/4, 1/8.
inline bool libjpegDecode(const std::uint8_t* data, std::size_t size, LibjpegDecoded& out,
                          unsigned denominator = 1) {
    jpeg_decompress_struct info{};
    detail::JumpingErrors errors{};
    info.err = jpeg_std_error(&errors.base);
    errors.base.error_exit = [](j_common_ptr common) {
        std::longjmp(reinterpret_cast<detail::JumpingErrors*>(common->err)->jump, 1);
    };
    errors.base.output_message = [](j_common_ptr) {};
    out.ok = false;
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&info);
        return false;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, static_cast<unsigned long>(size));
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_EXT_RGB;
    info.scale_num = 1;
    info.scale_denom = denominator;
    jpeg_start_decompress(&info);
    out.width = static_cast<int>(info.output_width);
    out.height = static_cast<int>(info.output_height);
    const std::size_t stride = static_cast<std::size_t>(out.width) * 3;
    out.pixels.resize(stride * info.output_height);
    JSAMPROW rows[16];
    while (info.output_scanline < info.output_height) {
        const unsigned count = std::min(16u, info.output_height - info.output_scanline);
        for (unsigned k = 0; k < count; ++k)
            rows[k] = out.pixels.data() + stride * (info.output_scanline + k);
        jpeg_read_scanlines(&info, rows, count);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    out.ok = true;
    return true;
}

inline LibjpegDecoded libjpegDecode(const std::vector<std::uint8_t>& bytes, unsigned denominator = 1) {
    LibjpegDecoded out;
    libjpegDecode(bytes.data(), bytes.size(), out, denominator);
    return out;
}

} // namespace osprey::testing
