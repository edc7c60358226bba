// Writes the small PNG images the histogram CLI tests read into the
// directory given as the only argument (libpng's simplified API).
#include <png.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace {

bool write_png(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
               std::uint32_t format, const std::uint8_t* pixels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = format;
  if (!png_image_write_to_file(&image, path.c_str(), 0, pixels, 0, nullptr)) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), image.message);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIRECTORY\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  // 2 x 2 RGBA: 16 channel values; in 4 bins of [0, 256): 9, 1, 0, 6.
  const std::uint8_t rgba[] = {0, 0, 0, 255, 255, 255, 255, 255, 10, 20, 30, 40, 200, 100, 50, 0};
  // 3 x 1 gray: 7, 7, 250.
  const std::uint8_t gray[] = {7, 7, 250};
  const bool ok = write_png(dir / "rgba_2x2.png", 2, 2, PNG_FORMAT_RGBA, rgba) &&
                  write_png(dir / "gray_3x1.png", 3, 1, PNG_FORMAT_GRAY, gray);
  std::FILE* junk = std::fopen((dir / "not_a_png.png").c_str(), "wb");
  if (junk) {
    std::fputs("this is not a PNG image\n", junk);
    std::fclose(junk);
  }
  return ok && junk ? 0 : 1;
}
