// PNG reading and writing: 8-bit images through libpng's simplified API,
// 16-bit ones through its row API (png_read_row / png_write_row), which
// hands over the samples as stored. The reader checks the file's chunk
// structure and the sizes its header declares before libpng allocates
// anything.
#include "png_image.hpp"

#include <png.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "commands.hpp"
#include "gpuprim/io/memory_limit.hpp"
#include "input_file.hpp"
#include "progress.hpp"

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
  bool transparency = false;           // a tRNS chunk
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
    } else if (type == "tRNS") {
      layout.transparency = true;
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

// ---- 16-bit images: libpng's row API -----------------------------------
// libpng reports an error by longjmp, out of the function that called
// setjmp: those functions (begin_read_16, read_rows_16, write_rows_16)
// hold no object with a destructor, and leave the message in the state
// for the caller to throw.

struct png_row_reader {
  png_structp png = nullptr;
  png_infop info = nullptr;
  std::span<const std::uint8_t> file;
  std::size_t at = 0;
  int passes = 1;  // 7 for an interlaced image
  char message[256] = "";
  ~png_row_reader() { png_destroy_read_struct(&png, &info, nullptr); }
};

struct png_row_writer {
  png_structp png = nullptr;
  png_infop info = nullptr;
  std::FILE* out = nullptr;
  char message[256] = "";
  ~png_row_writer() {
    png_destroy_write_struct(&png, &info);
    if (out) std::fclose(out);
  }
};

template <class State>
void keep_libpng_error(png_structp png, png_const_charp text) {
  auto* state = static_cast<State*>(png_get_error_ptr(png));
  std::snprintf(state->message, sizeof state->message, "%s", text);
  png_longjmp(png, 1);
}

// Warnings (an ancillary chunk with a bad CRC, dropped) are not errors, as
// in the simplified API.
void ignore_libpng_warning(png_structp, png_const_charp) {}

void read_png_bytes(png_structp png, png_bytep out, png_size_t length) {
  auto* r = static_cast<png_row_reader*>(png_get_io_ptr(png));
  if (length > r->file.size() - r->at) png_error(png, "the file ends inside a chunk");
  std::memcpy(out, r->file.data() + r->at, length);
  r->at += length;
}

// Reads the header and sets the transformations: samples in this machine's
// byte order (PNG stores them big-endian), a tRNS chunk as an alpha
// channel, interlaced passes combined. Returns the channels, 0 on an error.
int begin_read_16(png_row_reader& r) {
  if (setjmp(png_jmpbuf(r.png))) return 0;
  png_set_read_fn(r.png, &r, read_png_bytes);
  png_read_info(r.png, r.info);
  if (png_get_valid(r.png, r.info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(r.png);
  if constexpr (std::endian::native == std::endian::little) png_set_swap(r.png);
  r.passes = png_set_interlace_handling(r.png);
  png_read_update_info(r.png, r.info);
  if (png_get_bit_depth(r.png, r.info) != 16) png_error(r.png, "not a 16-bit image after all");
  return png_get_channels(r.png, r.info);
}

// The rows into `samples` (rows x row_samples), each pass over all rows;
// false on an error.
bool read_rows_16(png_row_reader& r, std::uint16_t* samples, std::size_t rows,
                  std::size_t row_samples, progress_stage& stage) {
  if (setjmp(png_jmpbuf(r.png))) return false;
  const double steps = static_cast<double>(rows) * r.passes;
  for (int pass = 0; pass < r.passes; ++pass) {
    for (std::size_t y = 0; y < rows; ++y) {
      png_read_row(r.png, reinterpret_cast<png_bytep>(samples + y * row_samples), nullptr);
      if (y % 256 == 255) stage.fraction((static_cast<double>(pass) * rows + y) / steps);
    }
  }
  png_read_end(r.png, nullptr);
  return true;
}

png_pixels decode_png16(std::span<const std::uint8_t> file, const png_layout& layout,
                        const std::string& name) {
  progress_stage stage("decoding " + name);
  png_row_reader r;
  r.file = file;
  r.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &r, keep_libpng_error<png_row_reader>,
                                 ignore_libpng_warning);
  if (r.png) r.info = png_create_info_struct(r.png);
  if (!r.png || !r.info) throw std::bad_alloc();
  const int channels = begin_read_16(r);
  if (channels == 0) throw usage_error(name + ": cannot read PNG image (" + r.message + ")");
  png_pixels pixels;
  pixels.rows = layout.height;
  pixels.cols = layout.width;
  pixels.channels = static_cast<std::size_t>(channels);
  pixels.bit_depth = 16;
  io::resize_checked(pixels.values16, pixels.samples(), name,
                     "the pixels of a " + std::to_string(pixels.cols) + " x " +
                         std::to_string(pixels.rows) + " image");
  if (!read_rows_16(r, pixels.values16.data(), pixels.rows, pixels.cols * pixels.channels, stage)) {
    throw usage_error(name + ": cannot read PNG image (" + r.message + ")");
  }
  return pixels;
}

int png_color_type(std::size_t channels) {
  switch (channels) {
    case 1:
      return PNG_COLOR_TYPE_GRAY;
    case 2:
      return PNG_COLOR_TYPE_GRAY_ALPHA;
    case 3:
      return PNG_COLOR_TYPE_RGB;
    default:
      return PNG_COLOR_TYPE_RGB_ALPHA;
  }
}

// Writes the header and the rows of a 16-bit image; false on an error.
bool write_rows_16(png_row_writer& w, const png_pixels& pixels, progress_stage& stage) {
  if (setjmp(png_jmpbuf(w.png))) return false;
  png_init_io(w.png, w.out);
  png_set_IHDR(w.png, w.info, static_cast<png_uint_32>(pixels.cols),
               static_cast<png_uint_32>(pixels.rows), 16, png_color_type(pixels.channels),
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(w.png, w.info);
  if constexpr (std::endian::native == std::endian::little) png_set_swap(w.png);
  const std::size_t row_samples = pixels.cols * pixels.channels;
  for (std::size_t y = 0; y < pixels.rows; ++y) {
    png_write_row(w.png,
                  reinterpret_cast<png_const_bytep>(pixels.values16.data() + y * row_samples));
    if (y % 256 == 255) stage.fraction(static_cast<double>(y) / pixels.rows);
  }
  png_write_end(w.png, nullptr);
  return true;
}

void write_png16(const std::string& file, const png_pixels& pixels) {
  progress_stage stage("writing " + file);
  png_row_writer w;
  w.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &w, keep_libpng_error<png_row_writer>,
                                  ignore_libpng_warning);
  if (w.png) w.info = png_create_info_struct(w.png);
  if (!w.png || !w.info) throw std::bad_alloc();
  w.out = std::fopen(file.c_str(), "wb");
  if (!w.out) {
    throw std::runtime_error(file + ": cannot write PNG image (" + std::strerror(errno) + ")");
  }
  bool written = write_rows_16(w, pixels, stage);
  const int closed = std::fclose(w.out);
  w.out = nullptr;
  if (!written || closed != 0) {
    const std::string why = !written ? std::string(w.message) : std::strerror(errno);
    std::remove(file.c_str());
    throw std::runtime_error(file + ": cannot write PNG image (" + why + ")");
  }
}

}  // namespace

png_pixels decode_png(std::span<const std::uint8_t> file, const std::string& name) {
  const png_layout layout = check_png_chunks(file, name);
  check_png_data_size(layout, name);
  if (layout.bit_depth == 16) return decode_png16(file, layout, name);
  progress_stage stage("decoding " + name);

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
  if (pixels.channels < 1 || pixels.channels > 4) {
    throw std::invalid_argument(file + ": a PNG image has 1 to 4 channels, not " +
                                std::to_string(pixels.channels));
  }
  if (pixels.bit_depth == 16) return write_png16(file, pixels);
  progress_stage stage("writing " + file);
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
