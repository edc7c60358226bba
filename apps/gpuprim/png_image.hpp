// 8-bit PNG images for the command line (libpng's simplified API): gray,
// gray + alpha, RGB or RGBA, channels interleaved, rows packed. Palette
// images are expanded to RGB / RGBA, 16-bit images converted to 8 bits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gpuprim::cli {

struct png_pixels {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::size_t channels = 0;          // 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
  std::vector<std::uint8_t> values;  // rows * cols * channels
};

// Whether `name` ends in ".png" (any case).
bool has_png_extension(std::string name);

// Reads a PNG file; throws cli::usage_error naming the file when it cannot.
png_pixels read_png(const std::string& file);

// Writes `image` as an 8-bit PNG of its channels; throws std::runtime_error
// naming the file when it cannot (and removes what it wrote).
void write_png(const std::string& file, const png_pixels& image);

}  // namespace gpuprim::cli
