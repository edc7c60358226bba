// PNG images for the command line: gray, gray + alpha, RGB or RGBA, channels
// interleaved, rows packed. 8-bit images (and palettes, expanded to RGB /
// RGBA, and gray of 1, 2 or 4 bits, scaled to 8) are read through libpng's
// simplified API; 16-bit images as their integer samples, 0..65535, with
// no gamma or color conversion (the simplified API would take them as
// linear light and re-encode them as 8-bit sRGB).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gpuprim::cli {

struct png_pixels {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::size_t channels = 0;             // 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
  int bit_depth = 8;                    // 8, or 16: the samples are in values16
  std::vector<std::uint8_t> values;     // 8-bit: rows * cols * channels samples
  std::vector<std::uint16_t> values16;  // 16-bit: rows * cols * channels samples

  // rows * cols * channels.
  std::size_t samples() const noexcept { return rows * cols * channels; }
};

// Reads a PNG file; throws cli::usage_error naming the file when it cannot:
// a bad signature or chunk structure (a chunk longer than the rest of the
// file, no IHDR first, no IDAT, no IEND), an IHDR declaring more pixel data
// than its IDAT chunks can inflate to (zlib: at most 1032 bytes per
// compressed byte), a critical chunk with a bad CRC, a palette index beyond
// the PLTE chunk, bad compressed data. As libpng does by default, an
// ancillary chunk with a bad CRC is ignored and bytes after IEND are not
// read. A tRNS chunk becomes an alpha channel, at either depth. Pixels
// that would need more than io::memory_limit() are refused
// (io::format_error: "needs N GiB, more than this machine can give").
png_pixels read_png(const std::string& file);

// The same from a whole file's bytes in memory; `name` names it in errors.
png_pixels decode_png(std::span<const std::uint8_t> file, const std::string& name);

// Writes `image` as a PNG of its channels and bit depth (8 or 16); throws
// std::runtime_error naming the file when it cannot (and removes what it
// wrote).
void write_png(const std::string& file, const png_pixels& image);

}  // namespace gpuprim::cli
