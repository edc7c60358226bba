// Writes the malformed input files the CLI's reader tests feed to every
// command that reads their format (tests/cli/cases.txt), into
// the directory given as the only argument. Each file is a few bytes that
// declare far more than they hold, or break one rule of its format; the
// commands must refuse each with exit 2 and one line, writing nothing.
// Beside them: the small valid files the commands need (a vector, an
// identity filter) and PNG images that are read as libpng reads them,
// with the image libpng writes for their pixels (the expected output of an
// identity convolution).
#include <zlib.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gpuprim/io/npy.hpp"
#include "support/generator.hpp"
#include "support/png_write.hpp"

namespace {

using bytes = std::vector<unsigned char>;

void put_u32(bytes& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<unsigned char>(v >> shift));
}

// One PNG chunk: length, type, data, CRC over type and data (plus `crc_xor`,
// to write a wrong one). `length` overrides the length field.
void put_chunk(bytes& out, const char* type, const bytes& data, std::uint32_t crc_xor = 0,
               long long length = -1) {
  put_u32(out, length < 0 ? static_cast<std::uint32_t>(data.size())
                          : static_cast<std::uint32_t>(length));
  bytes typed(type, type + 4);
  typed.insert(typed.end(), data.begin(), data.end());
  out.insert(out.end(), typed.begin(), typed.end());
  put_u32(out, static_cast<std::uint32_t>(crc32(0, typed.data(), typed.size())) ^ crc_xor);
}

bytes ihdr(std::uint32_t width, std::uint32_t height, int bit_depth, int color_type) {
  bytes d;
  put_u32(d, width);
  put_u32(d, height);
  d.push_back(static_cast<unsigned char>(bit_depth));
  d.push_back(static_cast<unsigned char>(color_type));
  d.push_back(0);  // compression
  d.push_back(0);  // filter
  d.push_back(0);  // interlace
  return d;
}

bytes deflated(const bytes& raw) {
  uLongf size = compressBound(raw.size());
  bytes out(size);
  compress2(out.data(), &size, raw.data(), raw.size(), 9);
  out.resize(size);
  return out;
}

bytes signature() {
  return {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
}

// The PNG file libpng's simplified API writes for these pixels (as
// `gpuprim convolve` writes its output).
bytes libpng_written(std::uint32_t width, std::uint32_t height, std::uint32_t format,
                     const bytes& pixels) {
  return gpuprim::test::png_file_bytes(width, height, format, pixels);
}

// A valid 2 x 1 gray image (values 10, 200) as libpng writes it, with
// `before_iend` inserted before its IEND chunk (the last 12 bytes).
bytes gray_2x1(const bytes& before_iend = {}) {
  bytes png = libpng_written(2, 1, PNG_FORMAT_GRAY, {10, 200});
  png.insert(png.end() - 12, before_iend.begin(), before_iend.end());
  return png;
}

bool write(const std::filesystem::path& path, const bytes& data) {
  return gpuprim::test::write_file(path, data);
}

bool write(const std::filesystem::path& path, const std::string& text) {
  return write(path, bytes(text.begin(), text.end()));
}

}  // namespace

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;
  bool ok = true;

  // ---- valid companions ----
  const std::vector<double> four = {1, 2, 3, 4};
  gpuprim::io::write_npy(dir / "vector_4.npy", four);
  const std::vector<float> one = {1.0f};
  gpuprim::io::write_npy<float>(dir / "identity_filter.npy", one, {1, 1});
  ok &= write(dir / "gray_2x1.png", gray_2x1());
  ok &= write(dir / "identity_2x2.mtx",
              "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1\n");

  // ---- Matrix Market ----
  const std::string dense = "%%MatrixMarket matrix array real general\n";
  // rows * cols is 2^64 (and 2^64 again): 0 in 64-bit arithmetic.
  ok &= write(dir / "dense_2p32_squared.mtx", dense + "4294967296 4294967296\n");
  ok &= write(dir / "dense_2p33_by_2p31.mtx", dense + "8589934592 2147483648\n");
  // A dense size whose value count fits 64 bits but not the file.
  ok &= write(dir / "dense_values_missing.mtx", dense + "100000 100000\n1\n2\n");
  // 2^40 rows (square, so `solve` takes it too) and one entry: CSR row
  // offsets alone would take 8 TiB.
  ok &= write(dir / "rows_2p40.mtx",
              "%%MatrixMarket matrix coordinate real general\n"
              "1099511627776 1099511627776 1\n1 1 1\n");
  // 2^27 rows, 4 columns, one entry: plausible, but y = A x takes 1 GiB
  // (the out-of-memory test runs it under ulimit -d).
  ok &= write(dir / "rows_2p27.mtx",
              "%%MatrixMarket matrix coordinate real general\n134217728 4 1\n1 1 1\n");
  // Symmetric, 2^62 rows, no entries.
  ok &= write(dir / "symmetric_2p62.mtx",
              "%%MatrixMarket matrix coordinate real symmetric\n"
              "4611686018427387904 4611686018427387904 0\n");
  // Many more entries announced than the file can hold.
  ok &= write(dir / "entries_missing.mtx",
              "%%MatrixMarket matrix coordinate real general\n3 3 1000000000000\n1 1 1\n");
  // What SciPy's mmread refuses, refused the same way.
  const std::string coordinate = "%%MatrixMarket matrix coordinate real general\n2 2 2\n";
  ok &= write(dir / "comment_between_entries.mtx", coordinate + "1 1 1\n% a comment\n2 2 1\n");
  ok &= write(dir / "lower_case_banner.mtx",
              "%%matrixmarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1\n");
  ok &= write(dir / "plus_sign_value.mtx", coordinate + "1 1 +1\n2 2 1\n");

  // ---- PNG ----
  // 65535 x 65535 RGBA (17 GB of pixels) declared in 68 bytes.
  {
    bytes png = signature();
    put_chunk(png, "IHDR", ihdr(65535, 65535, 8, 6));
    put_chunk(png, "IDAT", deflated({0, 0, 0, 0, 0}));
    put_chunk(png, "IEND", {});
    ok &= write(dir / "ihdr_65535_squared.png", png);
  }
  // A tEXt chunk whose length field says 2^31 - 1 bytes.
  {
    bytes text;
    put_chunk(text, "tEXt", {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 'x'}, 0, 0x7fffffff);
    ok &= write(dir / "text_length_2p31.png", gray_2x1(text));
  }
  // A palette of 2 colors and pixels of index 1, 0 (read as RGB, white
  // and black); then a pixel of index 5 (the PNG spec: an error).
  for (const unsigned char second : {0, 5}) {
    bytes png = signature();
    put_chunk(png, "IHDR", ihdr(2, 1, 8, 3));
    put_chunk(png, "PLTE", {0, 0, 0, 255, 255, 255});
    put_chunk(png, "IDAT", deflated({0, 1, second}));
    put_chunk(png, "IEND", {});
    ok &= write(dir / (second ? "palette_index_beyond_plte.png" : "palette_2x1.png"), png);
  }
  ok &= write(dir / "palette_2x1_as_rgb.png",
              libpng_written(2, 1, PNG_FORMAT_RGB, {255, 255, 255, 0, 0, 0}));
  // Kept as libpng keeps them: an ancillary chunk with a bad CRC (ignored)
  // and bytes after IEND (not part of the image).
  {
    bytes text;
    put_chunk(text, "tEXt", {'C', 'o', 'm', 'm', 'e', 'n', 't', 0, 'x'}, 0x1234);
    ok &= write(dir / "ancillary_bad_crc.png", gray_2x1(text));
    bytes after = gray_2x1();
    const std::string junk = "junk after the end";
    after.insert(after.end(), junk.begin(), junk.end());
    ok &= write(dir / "data_after_iend.png", after);
  }
  // A critical chunk with a bad CRC: refused.
  {
    bytes png = signature();
    put_chunk(png, "IHDR", ihdr(2, 1, 8, 0));
    put_chunk(png, "IDAT", deflated({0, 10, 200}), 1);
    put_chunk(png, "IEND", {});
    ok &= write(dir / "critical_bad_crc.png", png);
  }
  // The file cut short inside its IDAT chunk.
  {
    const bytes whole = gray_2x1();
    ok &= write(dir / "truncated.png", bytes(whole.begin(), whole.begin() + 40));
  }

  // ---- .npy ----
  // Version 2.0, header length 2^32 - 1, and nothing after: 12 bytes.
  ok &= write(dir / "header_length_2p32.npy",
              bytes{0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0xff, 0xff, 0xff, 0xff});

  // ---- CSV points ----
  ok &= write(dir / "points_bad_number.csv", "x,y\n1,2\n3,4e\n");

  if (!ok) std::fprintf(stderr, "cannot write the files under %s\n", dir.c_str());
  return ok ? 0 : 1;
}
