// 8-bit PNG reading and writing through libpng's simplified API. The
// reader checks the file's chunk structure and the sizes its header
// declares before libpng allocates anything.
#include "png_image.hpp"

#include <png.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "commands.hpp"
#include "gpuprim/io/memory_limit.hpp"
#include "input_file.hpp"

namespace gpuprim::cli {

namespace {

constexpr unsigned char png_signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
// The most a deflate stream inflates to per compressed byte (258-byte
// matches coded in about 2 bits each).
constexpr std::uint64_t deflate_max_ratio = 1032;

std::uint32_t big_endian_u32(const std::uint8_t* p) {
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 |
         static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}

// What the chunks of a PNG file say, checked before libpng allocates.
struct png_layout {
  std::uint64_t width = 0;
  std::uint64_t height = 0;
  int bit_depth = 0;
  int color_type = 0;
  std::uint64_t compressed_bytes = 0;  // the IDAT chunks' data
};

// Walks the chunks from the signature to IEND: every length within the
// file (and the spec's 2^31 - 1), IHDR first with a valid size, depth and
// color type, and at least one IDAT. Bytes after IEND are not part of the
// image and are ignored, as libpng does.
png_layout check_png_chunks(std::span<const std::uint8_t> file, const std::string& name) {
  const auto bad = [&](const std::string& what) { throw usage_error(name + ": " + what); };
  if (file.size() < sizeof png_signature ||
      std::memcmp(file.data(), png_signature, sizeof png_signature) != 0) {
    bad("not a PNG image (it does not start with the PNG signature)");
  }
  png_layout layout;
  bool seen_header = false;
  std::size_t at = sizeof png_signature;
  for (;;) {
    if (file.size() - at < 12) {
      bad(std::string("truncated PNG image: it ends at byte ") + std::to_string(file.size()) +
          (seen_header ? " without an IEND chunk" : " before its IHDR chunk"));
    }
    const std::uint32_t length = big_endian_u32(file.data() + at);
    const std::string type(reinterpret_cast<const char*>(file.data() + at + 4), 4);
    const bool letters = std::all_of(type.begin(), type.end(), [](char c) {
      return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
    });
    if (!letters) bad("bad PNG chunk type at byte " + std::to_string(at + 4));
    const std::string where = "PNG chunk " + type + " at byte " + std::to_string(at);
    if (length > 0x7fffffffu) {
      bad(where + " declares " + std::to_string(length) + " bytes; a chunk holds at most 2^31 - 1");
    }
    if (length > file.size() - at - 12) {
      bad(where + " declares " + std::to_string(length) + " bytes, but the file has " +
          std::to_string(file.size() - at - 12) + " after its header");
    }
    const std::uint8_t* data = file.data() + at + 8;
    if (!seen_header) {
      if (type != "IHDR") bad("the first PNG chunk is " + type + ", not IHDR");
      if (length != 13) bad("the IHDR chunk has " + std::to_string(length) + " bytes, not 13");
      layout.width = big_endian_u32(data);
      layout.height = big_endian_u32(data + 4);
      layout.bit_depth = data[8];
      layout.color_type = data[9];
      if (layout.width == 0 || layout.height == 0 || layout.width > 0x7fffffffu ||
          layout.height > 0x7fffffffu) {
        bad("IHDR declares a " + std::to_string(layout.width) + " x " +
            std::to_string(layout.height) + " image (each side must be 1 to 2^31 - 1)");
      }
      seen_header = true;
    } else if (type == "IDAT") {
      layout.compressed_bytes += length;
    } else if (type == "IEND") {
      break;
    }
    at += 12 + static_cast<std::size_t>(length);
  }
  if (layout.compressed_bytes == 0) bad("the PNG image has no IDAT chunk (no pixel data)");
  return layout;
}

// Samples per pixel of a PNG color type, 0 for an invalid one.
int png_samples(int color_type) {
  switch (color_type) {
    case 0:  // gray
    case 3:  // palette
      return 1;
    case 4:  // gray + alpha
      return 2;
    case 2:  // RGB
      return 3;
    case 6:  // RGBA
      return 4;
    default:
      return 0;
  }
}

// The bytes the IDAT data must inflate to (each row: a filter byte and its
// packed samples; interlaced images take a few more), checked against what
// zlib can inflate from the compressed bytes there are.
void check_png_data_size(const png_layout& layout, const std::string& name) {
  const int samples = png_samples(layout.color_type);
  if (samples == 0 || layout.bit_depth == 0 || layout.bit_depth > 16) return;  // libpng says why
  const std::uint64_t row_bits = layout.width * static_cast<std::uint64_t>(samples) *
                                 static_cast<std::uint64_t>(layout.bit_depth);  // < 2^37
  const std::uint64_t row_bytes = 1 + (row_bits + 7) / 8;
  const std::uint64_t raw = row_bytes * layout.height;  // < 2^66 / 2^3: fits
  if (raw / deflate_max_ratio > layout.compressed_bytes) {
    throw usage_error(name + ": IHDR declares a " + std::to_string(layout.width) + " x " +
                      std::to_string(layout.height) + " image (" + std::to_string(raw) +
                      " bytes of pixel data), more than its " +
                      std::to_string(layout.compressed_bytes) +
                      " compressed bytes can hold (zlib inflates at most 1032 bytes per byte)");
  }
}

[[noreturn]] void libpng_failed(png_image& image, const std::string& name) {
  const std::string message = image.message;
  png_image_free(&image);
  throw usage_error(name + ": cannot read PNG image (" + message + ")");
}

}  // namespace

png_pixels decode_png(std::span<const std::uint8_t> file, const std::string& name) {
  const png_layout layout = check_png_chunks(file, name);
  check_png_data_size(layout, name);

  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, file.data(), file.size())) {
    libpng_failed(image, name);
  }
  // The image's own channels, 8 bits each, palettes expanded.
  image.format &= ~(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLORMAP);
  png_pixels pixels;
  pixels.rows = image.height;
  pixels.cols = image.width;
  pixels.channels = PNG_IMAGE_SAMPLE_CHANNELS(image.format);
  const std::string what = "the pixels of a " + std::to_string(pixels.cols) + " x " +
                           std::to_string(pixels.rows) + " image";
  try {
    const std::uint64_t count = pixels.rows * pixels.cols;  // both < 2^31
    io::resize_checked(pixels.values, count * pixels.channels, name, what);
    if (layout.color_type != 3) {
      if (!png_image_finish_read(&image, nullptr, pixels.values.data(), 0, nullptr)) {
        libpng_failed(image, name);
      }
      return pixels;
    }
    // A palette image is read as its indices and the palette (libpng's
    // colormap), so that an index beyond the palette is an error, as the
    // PNG specification says, rather than a black pixel.
    const std::uint32_t channels = PNG_IMAGE_SAMPLE_CHANNELS(image.format);
    image.format |= PNG_FORMAT_FLAG_COLORMAP;
    std::vector<std::uint8_t> indices;
    io::resize_checked(indices, count, name, what);
    std::vector<std::uint8_t> colormap(PNG_IMAGE_COLORMAP_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, indices.data(), 0, colormap.data())) {
      libpng_failed(image, name);
    }
    const std::size_t entries = image.colormap_entries;
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t index = indices[k];
      if (index >= entries) {
        throw usage_error(name + ": pixel (" + std::to_string(k / pixels.cols) + ", " +
                          std::to_string(k % pixels.cols) + ") has palette index " +
                          std::to_string(index) + ", but the palette (PLTE) has " +
                          std::to_string(entries) + " colors");
      }
      std::memcpy(pixels.values.data() + k * channels, colormap.data() + index * channels,
                  channels);
    }
    return pixels;
  } catch (...) {
    png_image_free(&image);
    throw;
  }
}

png_pixels read_png(const std::string& file) {
  return decode_png(read_file<std::vector<std::uint8_t>>(file), file);
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
