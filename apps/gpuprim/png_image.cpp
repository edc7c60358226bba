// 8-bit PNG reading and writing through libpng's simplified API.
#include "png_image.hpp"

#include <png.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <stdexcept>

#include "commands.hpp"

namespace gpuprim::cli {

bool has_png_extension(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name.size() >= 4 && name.compare(name.size() - 4, 4, ".png") == 0;
}

png_pixels read_png(const std::string& file) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&image, file.c_str())) {
    throw usage_error(file + ": cannot read PNG image (" + image.message + ")");
  }
  // The image's own channels, 8 bits each, palettes expanded.
  image.format &= ~(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLORMAP);
  png_pixels pixels;
  pixels.rows = image.height;
  pixels.cols = image.width;
  pixels.channels = PNG_IMAGE_SAMPLE_CHANNELS(image.format);
  pixels.values.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, pixels.values.data(), 0, nullptr)) {
    const std::string message = image.message;
    png_image_free(&image);
    throw usage_error(file + ": cannot read PNG image (" + message + ")");
  }
  return pixels;
}

void write_png(const std::string& file, const png_pixels& pixels) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(pixels.cols);
  image.height = static_cast<png_uint_32>(pixels.rows);
  switch (pixels.channels) {
    case 1:
      image.format = PNG_FORMAT_GRAY;
      break;
    case 2:
      image.format = PNG_FORMAT_GA;
      break;
    case 3:
      image.format = PNG_FORMAT_RGB;
      break;
    case 4:
      image.format = PNG_FORMAT_RGBA;
      break;
    default:
      throw std::invalid_argument(file + ": a PNG image has 1 to 4 channels, not " +
                                  std::to_string(pixels.channels));
  }
  if (!png_image_write_to_file(&image, file.c_str(), 0, pixels.values.data(), 0, nullptr)) {
    const std::string message = image.message;
    png_image_free(&image);
    std::remove(file.c_str());
    throw std::runtime_error(file + ": cannot write PNG image (" + message + ")");
  }
}

}  // namespace gpuprim::cli
