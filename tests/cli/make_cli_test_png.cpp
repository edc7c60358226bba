// Writes the small PNG images the histogram and convolve CLI tests read into
// the directory given as the only argument (8-bit ones with libpng's
// simplified API, 16-bit ones with its row API), and the expected 16-bit
// outputs of convolve, computed here.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "support/generator.hpp"
#include "support/png_write.hpp"

using gpuprim::test::write_png;
using gpuprim::test::write_png16;

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;
  // 2 x 2 RGBA: 16 channel values; in 4 bins of [0, 256): 9, 1, 0, 6.
  const std::vector<std::uint8_t> rgba = {0,  0,  0,  255, 255, 255, 255, 255,
                                          10, 20, 30, 40,  200, 100, 50,  0};
  // 3 x 1 gray: 7, 7, 250.
  const std::vector<std::uint8_t> gray = {7, 7, 250};
  // 16-bit images, read as their samples: 2685 stays 2685 (libpng's
  // simplified API would make it 59 of 255).
  // 3 x 1 gray: 2685, 2685, 65535.
  const std::vector<std::uint16_t> gray16 = {2685, 2685, 65535};
  // 2 x 1 RGBA: 8 samples; with 2 bins over [0, 65536): 5 below 32768, 3 above.
  const std::vector<std::uint16_t> rgba16 = {0, 300, 40000, 65535, 1, 2, 3, 50000};
  // 4 x 3 gray of 1000s, one 64000 in the middle: its box:1 (nearest)
  // average and its saturated Laplacian, both 16-bit.
  std::vector<std::uint16_t> field(12, 1000);
  field[1 * 4 + 1] = 64000;
  std::vector<std::uint16_t> field_box(12), field_laplace(12);
  const auto at = [&](long y, long x) {
    return static_cast<double>(field[std::clamp(y, 0L, 2L) * 4 + std::clamp(x, 0L, 3L)]);
  };
  for (long y = 0; y < 3; ++y) {
    for (long x = 0; x < 4; ++x) {
      double sum = 0;
      for (long dy = -1; dy <= 1; ++dy)
        for (long dx = -1; dx <= 1; ++dx)
          sum += at(y + dy, x + dx);
      field_box[y * 4 + x] = static_cast<std::uint16_t>(std::nearbyint(sum / 9));
      const double laplace =
          at(y - 1, x) + at(y + 1, x) + at(y, x - 1) + at(y, x + 1) - 4 * at(y, x);
      field_laplace[y * 4 + x] =
          static_cast<std::uint16_t>(std::min(std::nearbyint(std::fabs(laplace)), 65535.0));
    }
  }
  const bool ok = write_png(dir / "rgba_2x2.png", 2, 2, PNG_FORMAT_RGBA, rgba) &&
                  write_png(dir / "gray_3x1.png", 3, 1, PNG_FORMAT_GRAY, gray) &&
                  write_png16(dir / "gray16_3x1.png", 3, 1, 1, gray16) &&
                  write_png16(dir / "rgba16_2x1.png", 2, 1, 4, rgba16) &&
                  write_png16(dir / "field16.png", 4, 3, 1, field) &&
                  write_png16(dir / "field16_box1_nearest.png", 4, 3, 1, field_box) &&
                  write_png16(dir / "field16_laplace_nearest.png", 4, 3, 1, field_laplace);
  std::FILE* junk = std::fopen((dir / "not_a_png.png").c_str(), "wb");
  if (junk) {
    std::fputs("this is not a PNG image\n", junk);
    std::fclose(junk);
  }
  return ok && junk ? 0 : 1;
}
