// PNG files as libpng's simplified API writes them (as `gpuprim` writes its
// images), for the programs that write the CLI tests' input images and
// expected outputs.
#pragma once

#include <png.h>

#include <bit>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace gpuprim::test {

// The bytes of the PNG file of these pixels (`format`: PNG_FORMAT_GRAY,
// PNG_FORMAT_RGB, PNG_FORMAT_RGBA ...); empty, with libpng's reason on
// stderr, where it cannot write them.
inline std::vector<unsigned char> png_file_bytes(std::uint32_t width, std::uint32_t height,
                                                 std::uint32_t format,
                                                 const std::vector<std::uint8_t>& pixels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = width;
  image.height = height;
  image.format = format;
  png_alloc_size_t size = 0;
  png_image_write_to_memory(&image, nullptr, &size, 0, pixels.data(), 0, nullptr);
  std::vector<unsigned char> out(size);
  if (size == 0 ||
      !png_image_write_to_memory(&image, out.data(), &size, 0, pixels.data(), 0, nullptr)) {
    std::fprintf(stderr, "cannot write a %ux%u PNG image: %s\n", width, height, image.message);
    return {};
  }
  out.resize(size);
  return out;
}

// Writes `data` to `path`; false, with the reason on stderr, where it cannot.
inline bool write_file(const std::filesystem::path& path, const std::vector<unsigned char>& data) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "%s: cannot open for writing\n", path.c_str());
    return false;
  }
  const bool ok = std::fwrite(data.data(), 1, data.size(), f) == data.size();
  return std::fclose(f) == 0 && ok;
}

// The PNG file of these pixels, written to `path` (false where it cannot be).
inline bool write_png(const std::filesystem::path& path, std::uint32_t width, std::uint32_t height,
                      std::uint32_t format, const std::vector<std::uint8_t>& pixels) {
  const std::vector<unsigned char> bytes = png_file_bytes(width, height, format, pixels);
  return !bytes.empty() && write_file(path, bytes);
}

// A 16-bit PNG file of these samples (rows x width x channels, 1 to 4
// channels, 0..65535 as they are stored: libpng's row API, no gamma chunk),
// written to `path`; false, with the reason on stderr, where it cannot be.
inline bool write_png16(const std::filesystem::path& path, std::uint32_t width,
                        std::uint32_t height, int channels,
                        const std::vector<std::uint16_t>& samples) {
  static constexpr int color_types[] = {PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA,
                                        PNG_COLOR_TYPE_RGB, PNG_COLOR_TYPE_RGB_ALPHA};
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::fprintf(stderr, "%s: cannot open for writing\n", path.c_str());
    return false;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  bool ok = false;
  if (png && info && !setjmp(png_jmpbuf(png))) {
    png_init_io(png, f);
    png_set_IHDR(png, info, width, height, 16, color_types[channels - 1], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    if constexpr (std::endian::native == std::endian::little) png_set_swap(png);
    for (std::uint32_t y = 0; y < height; ++y) {
      png_write_row(png, reinterpret_cast<png_const_bytep>(samples.data() +
                                                           std::size_t{y} * width * channels));
    }
    png_write_end(png, nullptr);
    ok = true;
  }
  png_destroy_write_struct(&png, &info);
  ok = std::fclose(f) == 0 && ok;
  if (!ok) std::fprintf(stderr, "%s: cannot write a 16-bit PNG image\n", path.c_str());
  return ok;
}

}  // namespace gpuprim::test
