// The command line's PNG reader (apps/gpuprim/png_image.hpp) on files built
// here chunk by chunk: what it reads as libpng does, what it refuses before
// libpng allocates (sizes beyond the file or zlib's ratio), and the rules
// of docs/families/io.md's "Readers" (palette index beyond PLTE refused; an
// ancillary chunk with a bad CRC and bytes after IEND ignored, as libpng
// does by default).
#include <gtest/gtest.h>
#include <png.h>
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "apps/gpuprim/commands.hpp"
#include "apps/gpuprim/png_image.hpp"
#include "gpuprim/io/memory_limit.hpp"

namespace cli = gpuprim::cli;
namespace io = gpuprim::io;

namespace {

using bytes = std::vector<std::uint8_t>;

void put_u32(bytes& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<std::uint8_t>(v >> shift));
}

// A chunk with its CRC (xor `crc_xor`, to break it); `length` overrides the
// length field.
bytes chunk(const char* type, const bytes& data, std::uint32_t crc_xor = 0,
            std::int64_t length = -1) {
  bytes out;
  put_u32(out, length < 0 ? static_cast<std::uint32_t>(data.size())
                          : static_cast<std::uint32_t>(length));
  bytes typed(type, type + 4);
  typed.insert(typed.end(), data.begin(), data.end());
  out.insert(out.end(), typed.begin(), typed.end());
  put_u32(out, static_cast<std::uint32_t>(crc32(0, typed.data(), static_cast<uInt>(typed.size()))) ^
                   crc_xor);
  return out;
}

bytes ihdr(std::uint32_t width, std::uint32_t height, int depth, int color_type) {
  bytes d;
  put_u32(d, width);
  put_u32(d, height);
  d.insert(d.end(),
           {static_cast<std::uint8_t>(depth), static_cast<std::uint8_t>(color_type), 0, 0, 0});
  return chunk("IHDR", d);
}

bytes deflated(const bytes& raw) {
  uLongf size = compressBound(static_cast<uLong>(raw.size()));
  bytes out(size);
  compress2(out.data(), &size, raw.data(), static_cast<uLong>(raw.size()), 9);
  out.resize(size);
  return out;
}

bytes idat(const bytes& raw) {
  return chunk("IDAT", deflated(raw));
}

bytes png_of(std::initializer_list<bytes> chunks) {
  bytes out = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  for (const bytes& c : chunks)
    out.insert(out.end(), c.begin(), c.end());
  return out;
}

// What libpng's simplified API reads directly (8-bit, the image's channels),
// the reader's reference.
bytes libpng_direct(const bytes& file) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, file.data(), file.size())) return {};
  image.format &= ~(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLORMAP);
  bytes out(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, out.data(), 0, nullptr)) return {};
  return out;
}

std::string error_of(const bytes& file) {
  try {
    cli::decode_png(file, "x.png");
  } catch (const cli::usage_error& e) {
    return e.what();
  } catch (const io::format_error& e) {
    return e.what();
  }
  return "no error";
}

const bytes gray_2x1 = png_of({ihdr(2, 1, 8, 0), idat({0, 10, 200}), chunk("IEND", {})});

}  // namespace

TEST(png_reader, reads_gray_and_rgba_images_as_libpng_does) {
  const cli::png_pixels gray = cli::decode_png(gray_2x1, "gray.png");
  EXPECT_EQ(gray.rows, 1u);
  EXPECT_EQ(gray.cols, 2u);
  EXPECT_EQ(gray.channels, 1u);
  EXPECT_EQ(gray.values, (bytes{10, 200}));
  const bytes rgba =
      png_of({ihdr(2, 2, 8, 6), idat({0, 1, 2, 3, 4, 5, 6, 7, 8, 2, 1, 1, 1, 1, 1, 1, 1, 1}),
              chunk("IEND", {})});
  EXPECT_EQ(cli::decode_png(rgba, "rgba.png").values, libpng_direct(rgba));
}

TEST(png_reader, sixteen_bit_images_are_read_as_their_samples) {
  // libpng's simplified API would take these as linear light and give 8-bit
  // sRGB (2685 -> 59); the reader keeps the stored integers.
  const bytes gray16 =
      png_of({ihdr(3, 1, 16, 0), idat({0, 0x12, 0x34, 0x0a, 0x7d, 0xff, 0xff}), chunk("IEND", {})});
  const cli::png_pixels gray = cli::decode_png(gray16, "g16.png");
  EXPECT_EQ(gray.bit_depth, 16);
  EXPECT_EQ(gray.channels, 1u);
  EXPECT_TRUE(gray.values.empty());
  EXPECT_EQ(gray.values16, (std::vector<std::uint16_t>{0x1234, 2685, 0xffff}));
  // A gAMA chunk changes nothing: no gamma conversion.
  const bytes gama = png_of({ihdr(1, 1, 16, 0), chunk("gAMA", {0, 0, 0xaf, 0xc8}),
                             idat({0, 0x0a, 0x7d}), chunk("IEND", {})});
  EXPECT_EQ(cli::decode_png(gama, "gama.png").values16, (std::vector<std::uint16_t>{2685}));
  // RGBA: every channel as stored, alpha not premultiplied.
  const bytes rgba16 =
      png_of({ihdr(1, 1, 16, 6), idat({0, 0x01, 0x00, 0x02, 0x00, 0x03, 0x00, 0x00, 0x10}),
              chunk("IEND", {})});
  const cli::png_pixels rgba = cli::decode_png(rgba16, "rgba16.png");
  EXPECT_EQ(rgba.channels, 4u);
  EXPECT_EQ(rgba.values16, (std::vector<std::uint16_t>{256, 512, 768, 16}));
  // Interlaced (Adam7): the passes combine into the image's rows.
  bytes ihdr_interlaced = ihdr(2, 2, 16, 0);
  ihdr_interlaced[8 + 12] = 1;  // the interlace byte of the IHDR data
  const bytes crc_fixed =
      chunk("IHDR", bytes(ihdr_interlaced.begin() + 8, ihdr_interlaced.end() - 4));
  const bytes interlaced =
      png_of({crc_fixed, idat({0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 4}), chunk("IEND", {})});
  EXPECT_EQ(cli::decode_png(interlaced, "adam7.png").values16,
            (std::vector<std::uint16_t>{1, 2, 3, 4}));
  // A tRNS chunk becomes an alpha channel, as it does for 8-bit images.
  const bytes trns = png_of({ihdr(2, 1, 16, 0), chunk("tRNS", {0x00, 0x05}),
                             idat({0, 0x00, 0x05, 0x00, 0x06}), chunk("IEND", {})});
  const cli::png_pixels keyed = cli::decode_png(trns, "trns16.png");
  EXPECT_EQ(keyed.channels, 2u);
  EXPECT_EQ(keyed.values16, (std::vector<std::uint16_t>{5, 0, 6, 65535}));
  // Broken pixel data is an error naming the file, as at 8 bits: the IDAT
  // chunk's CRC no longer matches its data.
  const bytes broken = png_of({ihdr(3, 1, 16, 0),
                               chunk("IDAT", deflated({0, 0x12, 0x34, 0x0a, 0x7d, 0xff, 0xff}), 1),
                               chunk("IEND", {})});
  try {
    cli::decode_png(broken, "broken16.png");
    ADD_FAILURE() << "no error";
  } catch (const cli::usage_error& e) {
    EXPECT_NE(std::string(e.what()).find("broken16.png: cannot read PNG image"), std::string::npos)
        << e.what();
  }
}

TEST(png_reader, sixteen_bit_images_are_written_as_sixteen_bit_images) {
  cli::png_pixels image;
  image.rows = 2;
  image.cols = 2;
  image.channels = 2;
  image.bit_depth = 16;
  image.values16 = {0, 65535, 2685, 1, 40000, 7, 300, 65534};
  const std::string path = ::testing::TempDir() + "png_reader_written16.png";
  cli::write_png(path, image);
  const cli::png_pixels back = cli::read_png(path);
  std::remove(path.c_str());
  EXPECT_EQ(back.bit_depth, 16);
  EXPECT_EQ(back.channels, 2u);
  EXPECT_EQ(back.values16, image.values16);
}

TEST(png_reader, palette_images_read_as_libpng_expands_them) {
  const bytes plte = chunk("PLTE", {255, 0, 0, 0, 255, 0, 0, 0, 255});
  // 8-bit indices; 4-bit indices with tRNS (alpha); with a gAMA chunk.
  const bytes plain = png_of({ihdr(3, 1, 8, 3), plte, idat({0, 2, 0, 1}), chunk("IEND", {})});
  const bytes packed = png_of(
      {ihdr(3, 1, 4, 3), plte, chunk("tRNS", {128}), idat({0, 0x01, 0x20}), chunk("IEND", {})});
  const bytes gamma = png_of({ihdr(3, 1, 8, 3), chunk("gAMA", {0, 1, 0x86, 0xa0}), plte,
                              idat({0, 2, 0, 1}), chunk("IEND", {})});
  for (const bytes& file : {plain, packed, gamma}) {
    const bytes direct = libpng_direct(file);
    ASSERT_FALSE(direct.empty());
    EXPECT_EQ(cli::decode_png(file, "p.png").values, direct);
  }
  EXPECT_EQ(cli::decode_png(plain, "p.png").values, (bytes{0, 0, 255, 255, 0, 0, 0, 255, 0}));
  EXPECT_EQ(cli::decode_png(packed, "p.png").channels, 4u);
}

TEST(png_reader, a_palette_index_beyond_plte_is_refused) {
  const bytes file = png_of({ihdr(2, 1, 8, 3), chunk("PLTE", {0, 0, 0, 255, 255, 255}),
                             idat({0, 1, 5}), chunk("IEND", {})});
  EXPECT_EQ(error_of(file),
            "x.png: pixel (0, 1) has palette index 5, but the palette (PLTE) has 2 colors");
}

TEST(png_reader, an_ihdr_beyond_what_the_idat_can_inflate_to_is_refused) {
  const bytes huge = png_of({ihdr(65535, 65535, 8, 6), idat({0, 0, 0, 0, 0}), chunk("IEND", {})});
  EXPECT_NE(error_of(huge).find("x.png: IHDR declares a 65535 x 65535 image (17179410435 bytes of "
                                "pixel data), more than its"),
            std::string::npos)
      << error_of(huge);
  // A highly compressible image that zlib's ratio allows is read.
  bytes raw;
  for (int row = 0; row < 300; ++row) {
    raw.push_back(0);
    raw.insert(raw.end(), 3000, 7);
  }
  const cli::png_pixels flat =
      cli::decode_png(png_of({ihdr(3000, 300, 8, 0), idat(raw), chunk("IEND", {})}), "flat.png");
  EXPECT_EQ(flat.values, bytes(900000, 7));
}

TEST(png_reader, chunk_lengths_beyond_the_file_are_refused) {
  bytes text = chunk("tEXt", {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 'x'}, 0, 0x7fffffff);
  const bytes file = png_of({ihdr(2, 1, 8, 0), idat({0, 10, 200}), text, chunk("IEND", {})});
  EXPECT_NE(error_of(file).find("x.png: PNG chunk tEXt at byte"), std::string::npos);
  EXPECT_NE(error_of(file).find("declares 2147483647 bytes, but the file has 21 after its header"),
            std::string::npos)
      << error_of(file);
  const bytes over = png_of({ihdr(2, 1, 8, 0), chunk("tEXt", {}, 0, 0x80000000u)});
  EXPECT_NE(error_of(over).find("a chunk holds at most 2^31 - 1"), std::string::npos);
}

TEST(png_reader, broken_structure_is_refused_with_what_is_wrong) {
  EXPECT_NE(error_of({1, 2, 3}).find("x.png: not a PNG image"), std::string::npos);
  EXPECT_NE(error_of(png_of({idat({0, 1}), chunk("IEND", {})})).find("the first PNG chunk is IDAT"),
            std::string::npos);
  EXPECT_NE(error_of(png_of({ihdr(2, 1, 8, 0), chunk("IEND", {})})).find("no IDAT chunk"),
            std::string::npos);
  EXPECT_NE(error_of(png_of({ihdr(2, 1, 8, 0), idat({0, 10, 200})})).find("without an IEND chunk"),
            std::string::npos);
  EXPECT_NE(error_of(png_of({ihdr(0, 1, 8, 0), idat({0}), chunk("IEND", {})}))
                .find("IHDR declares a 0 x 1 image"),
            std::string::npos);
  // A critical chunk with a bad CRC: libpng's error.
  bytes bad_crc =
      png_of({ihdr(2, 1, 8, 0), chunk("IDAT", deflated({0, 10, 200}), 1), chunk("IEND", {})});
  EXPECT_NE(error_of(bad_crc).find("x.png: cannot read PNG image (IDAT: CRC error)"),
            std::string::npos)
      << error_of(bad_crc);
  // Compressed data that is not zlib.
  const bytes garbage = png_of({ihdr(2, 1, 8, 0), chunk("IDAT", {1, 2, 3}), chunk("IEND", {})});
  EXPECT_NE(error_of(garbage).find("x.png: cannot read PNG image"), std::string::npos);
}

TEST(png_reader, an_ancillary_chunk_with_a_bad_crc_and_bytes_after_iend_are_ignored) {
  const bytes text = chunk("tEXt", {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 'x'}, 0x1234);
  const bytes file = png_of({ihdr(2, 1, 8, 0), idat({0, 10, 200}), text, chunk("IEND", {})});
  EXPECT_EQ(cli::decode_png(file, "crc.png").values, (bytes{10, 200}));
  bytes after = gray_2x1;
  after.insert(after.end(), {'j', 'u', 'n', 'k'});
  EXPECT_EQ(cli::decode_png(after, "after.png").values, (bytes{10, 200}));
}

TEST(png_reader, pixels_beyond_the_memory_limit_are_refused_with_their_size) {
  bytes raw;
  for (int row = 0; row < 1024; ++row) {
    raw.push_back(0);
    raw.insert(raw.end(), 1024, 0);
  }
  const bytes file = png_of({ihdr(1024, 1024, 8, 0), idat(raw), chunk("IEND", {})});
  io::set_memory_limit(1 << 19);
  EXPECT_EQ(error_of(file),
            "x.png: the pixels of a 1024 x 1024 image needs 0.1 GiB, more than this machine can "
            "give");
  io::set_memory_limit(0);
  EXPECT_EQ(cli::decode_png(file, "x.png").values.size(), 1024u * 1024u);
}
