// Writes the small PNG images the histogram CLI tests read into the
// directory given as the only argument (libpng's simplified API).
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>

#include "support/generator.hpp"
#include "support/png_write.hpp"

using gpuprim::test::write_png;

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;
  // 2 x 2 RGBA: 16 channel values; in 4 bins of [0, 256): 9, 1, 0, 6.
  const std::vector<std::uint8_t> rgba = {0,  0,  0,  255, 255, 255, 255, 255,
                                          10, 20, 30, 40,  200, 100, 50,  0};
  // 3 x 1 gray: 7, 7, 250.
  const std::vector<std::uint8_t> gray = {7, 7, 250};
  const bool ok = write_png(dir / "rgba_2x2.png", 2, 2, PNG_FORMAT_RGBA, rgba) &&
                  write_png(dir / "gray_3x1.png", 3, 1, PNG_FORMAT_GRAY, gray);
  std::FILE* junk = std::fopen((dir / "not_a_png.png").c_str(), "wb");
  if (junk) {
    std::fputs("this is not a PNG image\n", junk);
    std::fclose(junk);
  }
  return ok && junk ? 0 : 1;
}
