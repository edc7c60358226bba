// 8-bit PNG images for the command line (libpng's simplified API): gray,
// gray + alpha, RGB or RGBA, channels interleaved, rows packed. Palette
// images are expanded to RGB / RGBA, 16-bit images converted to 8 bits.
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
  std::size_t channels = 0;          // 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
  std::vector<std::uint8_t> values;  // rows * cols * channels
};

// Reads a PNG file; throws cli::usage_error naming the file when it cannot:
// a bad signature or chunk structure (a chunk longer than the rest of the
// file, no IHDR first, no IDAT, no IEND), an IHDR declaring more pixel data
// than its IDAT chunks can inflate to (zlib: at most 1032 bytes per
// compressed byte), a critical chunk with a bad CRC, a palette index beyond
// the PLTE chunk, bad compressed data. As libpng does by default, an
// ancillary chunk with a bad CRC is ignored and bytes after IEND are not
// read. Pixels that would need more than io::memory_limit() are refused
// (io::format_error: "needs N GiB, more than this machine can give").
png_pixels read_png(const std::string& file);

// The same from a whole file's bytes in memory; `name` names it in errors.
png_pixels decode_png(std::span<const std::uint8_t> file, const std::string& name);

// Writes `image` as an 8-bit PNG of its channels; throws std::runtime_error
// naming the file when it cannot (and removes what it wrote).
void write_png(const std::string& file, const png_pixels& image);

}  // namespace gpuprim::cli
