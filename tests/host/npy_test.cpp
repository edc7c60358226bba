// NumPy .npy reading and writing: round trips for every dtype and shape,
// headers byte-identical to numpy.save's, and one test per malformed input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "gpuprim/io/memory_limit.hpp"
#include "gpuprim/io/npy.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
namespace io = gpuprim::io;

namespace {

// A fresh directory under the system's temporary directory, removed after.
class npy_files : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device entropy;
    dir_ = fs::temp_directory_path() /
           ("gpuprim_npy_test_" + std::to_string(entropy()) + "_" + std::to_string(entropy()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  fs::path file(const std::string& name) const { return dir_ / name; }

  fs::path write_raw(const std::string& name, const std::string& bytes) const {
    const fs::path path = file(name);
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
  }

  static std::string read_raw(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  // Expects read_npy(path) to throw format_error whose message names the
  // file and contains `phrase`.
  static void expect_format_error(const fs::path& path, const std::string& phrase) {
    try {
      io::read_npy(path);
      ADD_FAILURE() << "no error reading " << path;
    } catch (const io::format_error& e) {
      const std::string message = e.what();
      EXPECT_NE(message.find(path.string()), std::string::npos) << message;
      EXPECT_NE(message.find(phrase), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: " << message;
    }
  }

 private:
  fs::path dir_;
};

// A version 1.0 prefix for a header text (which the caller pads and ends
// with '\n' as it likes).
std::string v1_prefix(std::size_t header_length) {
  std::string out("\x93NUMPY\x01\x00", 8);
  out += static_cast<char>(header_length & 0xff);
  out += static_cast<char>(header_length >> 8);
  return out;
}

std::string v1_file(const std::string& header_text, const std::string& data = {}) {
  return v1_prefix(header_text.size()) + header_text + data;
}

// The dict numpy writes, padded (spaces + '\n') so prefix + header is a
// multiple of 64 bytes, as for a version 1.0 file.
std::string padded_v1_header(const std::string& dict) {
  std::string text = dict;
  while ((10 + text.size() + 1) % 64 != 0)
    text += ' ';
  return text + '\n';
}

template <class T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

// ---- headers, byte for byte as numpy 1.2x/2.x writes them -----------------

TEST_F(npy_files, header_of_float32_vector_matches_numpy) {
  // numpy.save(f, numpy.zeros(3, numpy.float32)); 20 spaces are numpy's room
  // for the first axis to grow, 40 pad to 128 bytes.
  const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                               "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }" +
                               std::string(20 + 40, ' ') + "\n";
  ASSERT_EQ(expected.size(), 128u);
  const std::vector<float> values = {1.5f, -2.0f, 0.25f};
  const fs::path path = file("f4.npy");
  io::write_npy(path, values);
  EXPECT_EQ(read_raw(path), expected + bytes_of(values));
  const std::uint64_t shape[] = {3};
  EXPECT_EQ(io::npy_header(io::dtype::float32, shape), expected);
}

TEST_F(npy_files, header_of_scalar_matches_numpy) {
  // numpy.save(f, numpy.uint8(7)): a 0-d array has no growth room.
  const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                               "{'descr': '|u1', 'fortran_order': False, 'shape': (), }" +
                               std::string(62, ' ') + "\n";
  ASSERT_EQ(expected.size(), 128u);
  const std::vector<std::uint8_t> value = {7};
  const fs::path path = file("u1.npy");
  io::write_npy<std::uint8_t>(path, value, {});
  EXPECT_EQ(read_raw(path), expected + "\x07");
}

TEST_F(npy_files, header_of_matrix_matches_numpy) {
  const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                               "{'descr': '<i8', 'fortran_order': False, 'shape': (2, 3), }" +
                               std::string(20 + 38, ' ') + "\n";
  ASSERT_EQ(expected.size(), 128u);
  const std::uint64_t shape[] = {2, 3};
  EXPECT_EQ(io::npy_header(io::dtype::int64, shape), expected);
}

TEST_F(npy_files, header_of_empty_bool_matches_numpy) {
  const std::string expected = std::string("\x93NUMPY\x01\x00\x76\x00", 10) +
                               "{'descr': '|b1', 'fortran_order': False, 'shape': (0,), }" +
                               std::string(20 + 40, ' ') + "\n";
  const fs::path path = file("b1.npy");
  io::write_npy(path, std::span<const bool>{});
  EXPECT_EQ(read_raw(path), expected);
}

TEST_F(npy_files, header_already_aligned_gets_64_more_spaces_like_numpy) {
  // The dict plus growth room plus '\n' is 118 bytes here, so 10 + 118 is
  // already a multiple of 64; numpy still appends 64 spaces (header 182).
  const std::uint64_t shape[] = {1, 1, 1000, 123456, 123456, 123456, 123456};
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1000, 123456, 123456, 123456, "
      "123456), }";
  const std::string expected = std::string("\x93NUMPY\x01\x00\xb6\x00", 10) + dict +
                               std::string(20, ' ') + std::string(64, ' ') + "\n";
  ASSERT_EQ(expected.size(), 192u);
  EXPECT_EQ(io::npy_header(io::dtype::float32, shape), expected);
}

TEST_F(npy_files, long_header_is_written_as_version_2) {
  // 22000 axes of length 1: the header no longer fits a 16-bit length.
  const std::vector<std::uint64_t> shape(22000, 1);
  const std::string header = io::npy_header(io::dtype::float32, shape);
  ASSERT_GE(header.size(), 12u);
  EXPECT_EQ(header.substr(0, 8), std::string("\x93NUMPY\x02\x00", 8));
  const std::uint32_t length =
      static_cast<unsigned char>(header[8]) | static_cast<unsigned char>(header[9]) << 8 |
      static_cast<unsigned char>(header[10]) << 16 | static_cast<unsigned char>(header[11]) << 24;
  EXPECT_EQ(length, 66100u);  // what numpy computes for this dict
  EXPECT_EQ(header.size(), 12u + length);
  EXPECT_EQ(header.size() % 64, 0u);
  EXPECT_EQ(header.back(), '\n');

  const std::vector<float> one = {4.0f};
  const fs::path path = file("v2.npy");
  io::write_npy(path, std::span<const float>(one), shape);
  const io::npy_array back = io::read_npy(path);
  EXPECT_EQ(back.shape, shape);
  EXPECT_EQ(back.values<float>()[0], 4.0f);
}

// ---- round trips --------------------------------------------------------

template <class T>
class npy_round_trip : public npy_files {};
using npy_types =
    ::testing::Types<bool, std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t,
                     std::int32_t, std::uint64_t, std::int64_t, float, double>;
TYPED_TEST_SUITE(npy_round_trip, npy_types);

// Held in a plain array: std::vector<bool> has no contiguous storage.
template <class T>
std::unique_ptr<T[]> sample_values(std::size_t n) {
  auto out = std::make_unique<T[]>(n);
  for (std::size_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<T, bool>) {
      out[i] = i % 3 == 1;
    } else if (i % 4 == 0) {
      out[i] = std::numeric_limits<T>::lowest();
    } else if (i % 4 == 1) {
      out[i] = std::numeric_limits<T>::max();
    } else {
      out[i] = static_cast<T>(static_cast<T>(i) / T(2));
    }
  }
  return out;
}

TYPED_TEST(npy_round_trip, every_shape_reads_back_identically) {
  using T = TypeParam;
  const std::vector<std::vector<std::uint64_t>> shapes = {{0}, {1},       {7},         {2, 3},
                                                          {},  {3, 0, 2}, {2, 1, 3, 2}};
  int index = 0;
  for (const auto& shape : shapes) {
    std::uint64_t n = 1;
    for (auto extent : shape)
      n *= extent;
    const auto storage = sample_values<T>(n);
    const std::span<const T> values(storage.get(), n);
    const fs::path path = this->file("a" + std::to_string(index++) + ".npy");
    io::write_npy(path, values, shape);

    const io::npy_array back = io::read_npy(path);
    EXPECT_EQ(back.type, io::dtype_of<T>);
    EXPECT_EQ(back.shape, shape);
    EXPECT_EQ(back.size(), n);
    const std::span<const T> got = back.values<T>();
    ASSERT_EQ(got.size(), n);
    for (std::size_t i = 0; i < n; ++i)
      EXPECT_EQ(got[i], values[i]) << "element " << i;

    // The file is the header numpy would write followed by the raw elements.
    const std::string data(reinterpret_cast<const char*>(values.data()), values.size_bytes());
    EXPECT_EQ(this->read_raw(path), io::npy_header(io::dtype_of<T>, shape) + data);
  }
}

TEST_F(npy_files, dtype_names_and_descrs) {
  EXPECT_EQ(io::dtype_descr(io::dtype::bool8), "|b1");
  EXPECT_EQ(io::dtype_descr(io::dtype::int8), "|i1");
  EXPECT_EQ(io::dtype_descr(io::dtype::uint16), "<u2");
  EXPECT_EQ(io::dtype_descr(io::dtype::float64), "<f8");
  EXPECT_EQ(io::dtype_name(io::dtype::bool8), "bool");
  EXPECT_EQ(io::dtype_name(io::dtype::uint32), "uint32");
  EXPECT_EQ(io::dtype_size(io::dtype::int64), 8u);
  EXPECT_EQ(io::dtype_size(io::dtype::float32), 4u);
}

TEST_F(npy_files, untyped_write_round_trips) {
  io::npy_array array;
  array.type = io::dtype::int16;
  array.shape = {2, 2};
  const std::vector<std::int16_t> values = {-1, 2, -3, 4};
  const std::string raw = bytes_of(values);
  array.bytes.resize(raw.size());
  std::memcpy(array.bytes.data(), raw.data(), raw.size());
  const fs::path path = file("i2.npy");
  io::write_npy(path, array);
  const io::npy_array back = io::read_npy(path);
  EXPECT_EQ(back.type, io::dtype::int16);
  EXPECT_EQ(back.shape, array.shape);
  EXPECT_EQ(back.bytes, array.bytes);
}

// ---- slices (gpuprim ... --distributed) -------------------------------------

TEST_F(npy_files, slices_read_and_written_in_pieces_match_the_whole_file) {
  std::vector<std::uint32_t> values(1001);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<std::uint32_t>(i * 2654435761u);
  const std::uint64_t shape[2] = {7, 143};
  const fs::path whole = file("whole.npy");
  io::write_npy<std::uint32_t>(whole, values, shape);

  const io::npy_info info = io::read_npy_info(whole);
  EXPECT_EQ(info.type, io::dtype::uint32);
  EXPECT_EQ(info.size(), values.size());
  EXPECT_EQ(info.data_offset, io::npy_header(io::dtype::uint32, shape).size());
  const std::vector<std::byte> middle = io::read_npy_slice(whole, info, 500, 300);
  ASSERT_EQ(middle.size(), 300 * sizeof(std::uint32_t));
  EXPECT_EQ(std::memcmp(middle.data(), values.data() + 500, middle.size()), 0);
  EXPECT_TRUE(io::read_npy_slice(whole, info, 1001, 0).empty());
  EXPECT_THROW(io::read_npy_slice(whole, info, 1000, 2), std::invalid_argument);

  // Written in three pieces, out of order: the same bytes as one write.
  const fs::path pieces = file("pieces.npy");
  io::create_npy(pieces, io::dtype::uint32, shape);
  const auto piece = [&](std::size_t begin, std::size_t count) {
    io::write_npy_slice(pieces, io::dtype::uint32, shape, begin,
                        std::as_bytes(std::span(values.data() + begin, count)));
  };
  piece(600, 401);
  piece(0, 250);
  piece(250, 350);
  EXPECT_EQ(read_raw(pieces), read_raw(whole));
}

TEST_F(npy_files, slices_of_fortran_order_with_two_long_axes_are_refused) {
  const std::vector<std::int32_t> values = {1, 2, 3, 4, 5, 6};
  const std::string header =
      padded_v1_header("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }");
  const fs::path path = write_raw("f.npy", v1_file(header, bytes_of(values)));
  const io::npy_info info = io::read_npy_info(path);
  EXPECT_TRUE(info.reorder);
  EXPECT_THROW(io::read_npy_slice(path, info, 0, 6), io::format_error);
}

// ---- files other writers produce ------------------------------------------

TEST_F(npy_files, reads_other_key_orders_quotes_and_16_byte_alignment) {
  // Old numpy aligned to 16 bytes; hand-written headers may reorder keys,
  // use double quotes or Python 2 long suffixes.
  const std::vector<std::int32_t> values = {1, 2, 3, 4, 5, 6};
  std::string header = "{\"shape\": (2L, 3L), \"fortran_order\": False, \"descr\": \"<i4\"}";
  while ((10 + header.size() + 1) % 16 != 0)
    header += ' ';
  header += '\n';
  const fs::path path = write_raw("old.npy", v1_file(header, bytes_of(values)));
  const io::npy_array back = io::read_npy(path);
  EXPECT_EQ(back.shape, (std::vector<std::uint64_t>{2, 3}));
  EXPECT_EQ(std::vector<std::int32_t>(back.values<std::int32_t>().begin(),
                                      back.values<std::int32_t>().end()),
            values);
}

TEST_F(npy_files, reads_version_3) {
  const std::vector<double> values = {0.5, -0.25};
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }";
  while ((12 + header.size() + 1) % 64 != 0)
    header += ' ';
  header += '\n';
  std::string prefix("\x93NUMPY\x03\x00", 8);
  for (int i = 0; i < 4; ++i)
    prefix += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  const fs::path path = write_raw("v3.npy", prefix + header + bytes_of(values));
  const io::npy_array back = io::read_npy(path);
  EXPECT_EQ(back.type, io::dtype::float64);
  EXPECT_EQ(back.values<double>()[1], -0.25);
}

TEST_F(npy_files, fortran_order_is_accepted_for_one_long_axis) {
  // Column-major and row-major layouts coincide for a (1, 3) array.
  const std::vector<std::uint16_t> values = {7, 8, 9};
  const std::string header =
      padded_v1_header("{'descr': '<u2', 'fortran_order': True, 'shape': (1, 3), }");
  const fs::path path = write_raw("f1.npy", v1_file(header, bytes_of(values)));
  EXPECT_EQ(io::read_npy(path).values<std::uint16_t>()[2], 9);
}

TEST_F(npy_files, empty_fortran_order_with_huge_other_axes_reads_as_empty) {
  // numpy.load gives an empty array of this shape: one axis is 0, so the
  // others' product (past 2^64) is never a size.
  const std::string header = padded_v1_header(
      "{'descr': '>u4', 'fortran_order': True, 'shape': (0, 111, 4444445, 5, 3334445, 5, 333, "
      "330), }");
  const fs::path path = write_raw("empty_f.npy", v1_file(header, ""));
  const io::npy_array back = io::read_npy(path);
  EXPECT_EQ(back.shape, (std::vector<std::uint64_t>{0, 111, 4444445, 5, 3334445, 5, 333, 330}));
  EXPECT_EQ(back.size(), 0u);
}

// ---- Fortran order and big-endian data: read as numpy.load reads them ----

// Files numpy.save wrote (tests/data/npy/make_fixtures.py): each NAME.npy,
// in Fortran order and/or big-endian, reads as its C-ordered twin NAME.c.npy.
TEST(npy_numpy_fixtures, fortran_and_big_endian_files_read_as_numpy_loads_them) {
  const fs::path dir = gpuprim::test::data_dir() / "npy";
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".npy" || name.ends_with(".c.npy")) continue;
    const io::npy_array got = io::read_npy(entry.path());
    const io::npy_array want = io::read_npy(dir / (name.substr(0, name.size() - 4) + ".c.npy"));
    EXPECT_EQ(got.type, want.type) << name;
    EXPECT_EQ(got.shape, want.shape) << name;
    EXPECT_TRUE(got.bytes == want.bytes) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 11);
}

// Column-major files made here, of every element size and rank 1 to 4, with
// shapes past the reader's 64 x 64 transpose tiles: element (i0, ..., ik-1)
// is stored at i0 + d0 (i1 + d1 (i2 + ...)).
template <class T>
void expect_fortran_file_reads_in_c_order(const fs::path& path,
                                          const std::vector<std::uint64_t>& shape) {
  std::uint64_t n = 1;
  for (auto d : shape)
    n *= d;
  std::vector<T> c_order(n);
  for (std::uint64_t i = 0; i < n; ++i)
    c_order[i] = static_cast<T>(i * 2654435761u + 12345);
  std::vector<T> fortran(n);
  std::vector<std::uint64_t> index(shape.size(), 0);
  for (std::uint64_t i = 0; i < n; ++i) {  // i walks C order; index is its multi-index
    std::uint64_t offset = 0, stride = 1;
    for (std::size_t a = 0; a < shape.size(); ++a) {
      offset += index[a] * stride;
      stride *= shape[a];
    }
    fortran[offset] = c_order[i];
    for (std::size_t a = shape.size(); a-- > 0;) {
      if (++index[a] < shape[a]) break;
      index[a] = 0;
    }
  }
  {
    // numpy.save's C-order header with False turned to True; one more
    // space of padding before the final newline keeps the length.
    std::string header = io::npy_header(io::dtype_of<T>, shape);
    const std::string c_order_key = "'fortran_order': False, ";
    const auto at = header.find(c_order_key);
    ASSERT_NE(at, std::string::npos);
    header.replace(at, c_order_key.size(), "'fortran_order': True, ");
    header.insert(header.size() - 1, " ");
    std::ofstream out(path, std::ios::binary);
    out << header;
    out.write(reinterpret_cast<const char*>(fortran.data()),
              static_cast<std::streamsize>(n * sizeof(T)));
  }
  const io::npy_array got = io::read_npy(path);
  EXPECT_EQ(got.shape, shape);
  const auto values = got.values<T>();
  ASSERT_EQ(values.size(), n);
  for (std::uint64_t i = 0; i < n; ++i)
    ASSERT_EQ(values[i], c_order[i]) << path << " element " << i;
}

TEST_F(npy_files, fortran_order_files_of_every_rank_and_size_read_in_c_order) {
  expect_fortran_file_reads_in_c_order<std::uint8_t>(file("a.npy"), {300, 170});
  expect_fortran_file_reads_in_c_order<std::int16_t>(file("b.npy"), {17, 65, 9});
  expect_fortran_file_reads_in_c_order<float>(file("c.npy"), {129, 1, 70});
  expect_fortran_file_reads_in_c_order<double>(file("d.npy"), {3, 5, 7, 11});
  expect_fortran_file_reads_in_c_order<std::int64_t>(file("e.npy"), {1000});
  expect_fortran_file_reads_in_c_order<std::uint32_t>(file("f.npy"), {2, 0, 3});
}

TEST_F(npy_files, big_endian_values_are_swapped) {
  const std::string header =
      padded_v1_header("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }");
  // 1.5f is 0x3fc00000, -2.0f is 0xc0000000, most significant byte first.
  const io::npy_array array = io::read_npy(
      write_raw("big.npy", v1_file(header, std::string("\x3f\xc0\x00\x00\xc0\x00\x00\x00", 8))));
  EXPECT_EQ(array.values<float>()[0], 1.5f);
  EXPECT_EQ(array.values<float>()[1], -2.0f);
}

// ---- errors: one test per case ------------------------------------------

TEST_F(npy_files, missing_file_is_an_error) {
  expect_format_error(file("nothing-here.npy"), "cannot open");
}

TEST_F(npy_files, directory_is_an_error) {
  fs::create_directories(file("a-directory.npy"));
  expect_format_error(file("a-directory.npy"), "directory");
}

TEST_F(npy_files, empty_file_is_an_error) {
  expect_format_error(write_raw("empty.npy", ""), "empty file");
}

TEST_F(npy_files, bad_magic_is_an_error) {
  expect_format_error(write_raw("text.npy", "hello, this is not numpy data at all\n"), "bad magic");
}

TEST_F(npy_files, unsupported_version_is_an_error) {
  const std::string header =
      padded_v1_header("{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }");
  std::string bytes = v1_file(header);
  bytes[6] = 4;
  expect_format_error(write_raw("v4.npy", bytes), "unsupported .npy format version 4.0");
  bytes[6] = 1;
  bytes[7] = 1;
  expect_format_error(write_raw("v11.npy", bytes), "version 1.1");
}

TEST_F(npy_files, truncated_prefix_is_an_error) {
  expect_format_error(write_raw("prefix.npy", std::string("\x93NUMPY\x01\x00\x76", 9)),
                      "truncated .npy prefix");
}

TEST_F(npy_files, truncated_header_is_an_error) {
  const std::string header =
      padded_v1_header("{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }");
  const std::string bytes = v1_file(header).substr(0, 40);
  expect_format_error(write_raw("header.npy", bytes), "truncated header");
}

TEST_F(npy_files, header_without_final_newline_is_an_error) {
  const std::string bytes = v1_file("{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }  ");
  expect_format_error(write_raw("newline.npy", bytes), "does not end with '\\n'");
}

// Files wrong in one way each, in the header dict or in the data: the
// file's name, the dict, the data, and a part of the message.
TEST_F(npy_files, bad_header_dicts_and_data_are_errors) {
  const std::tuple<const char*, const char*, std::string, const char*> cases[] = {
      {"key.npy", "{'descr': '<f4', 'shape': (0,), }", "", "key 'fortran_order' is missing"},
      {"extra.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), 'units': 'm', }", "",
       "unexpected key 'units'"},
      {"twice.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), 'shape': (1,)}", "",
       "'shape' appears twice"},
      {"paren.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0), }", "",
       "is not a tuple"},
      {"negative.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", "",
       "negative dimension"},
      {"huge.npy", "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }",
       "", "is too large"},
      {"order.npy", "{'descr': '<f4', 'fortran_order': 0, 'shape': (0,), }", "",
       "expected True or False"},
      {"junk.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), } x", "",
       "after the closing '}'"},
      {"complex.npy", "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", "abcdefgh",
       "unsupported dtype '<c8': complex"},
      {"f3.npy", "{'descr': '<f3', 'fortran_order': False, 'shape': (1,), }", "abc",
       "unsupported dtype '<f3': only float16"},
      {"unicode.npy", "{'descr': '<U5', 'fortran_order': False, 'shape': (1,), }",
       std::string(20, 'a'), "unsupported dtype '<U5'"},
      {"datetime.npy", "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (1,), }",
       std::string(8, '\0'), "unsupported dtype '<M8[ns]': only bool, integer and float"},
      {"native.npy", "{'descr': '=i4', 'fortran_order': False, 'shape': (1,), }",
       std::string(4, '\0'), "the byte order must be '<' or '>'"},
      {"struct.npy",
       "{'descr': [('x', '<f4'), ('y', '<f4')], 'fortran_order': False, 'shape': (1,), }",
       "abcdefgh", "structured dtypes"},
      {"short.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
       std::string(23, '\0'),
       "data is truncated: shape (2, 3) of float32 needs 24 bytes, the file has 23"},
      {"long.npy", "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }",
       std::string(5, '\0'), "1 bytes after the data"},
      {"bool.npy", "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
       std::string("\x01\x00\x02", 3), "bool element 2 is 2"},
  };
  for (const auto& [name, dict, data, message] : cases) {
    SCOPED_TRACE(name);
    expect_format_error(write_raw(name, v1_file(padded_v1_header(dict), data)), message);
  }
}

// float16 ('<f2' / '>f2'): written here byte by byte as numpy.save would
// (numpy is not needed), read as IEEE binary16 and converted exactly.
struct half_case {
  std::uint16_t bits;
  double value;
};
const half_case half_cases[] = {
    {0x3C00, 1.0},
    {0xC000, -2.0},
    {0x3555, 1365.0 / 4096},     // the half nearest 1/3
    {0x7BFF, 65504.0},           // the largest finite half
    {0x0001, 0x1.0p-24},         // the smallest subnormal
    {0x03FF, 1023 * 0x1.0p-24},  // the largest subnormal
    {0x0400, 0x1.0p-14},         // the smallest normal
    {0x8000, -0.0},              // negative zero
    {0x7C00, std::numeric_limits<double>::infinity()},
    {0xFC00, -std::numeric_limits<double>::infinity()},
};

std::string half_bytes(bool big_endian) {
  std::string out;
  for (const half_case& c : half_cases) {
    const char lo = static_cast<char>(c.bits & 0xff), hi = static_cast<char>(c.bits >> 8);
    out += big_endian ? hi : lo;
    out += big_endian ? lo : hi;
  }
  return out;
}

TEST_F(npy_files, half_to_double_is_exact) {
  for (const half_case& c : half_cases) {
    const double got = io::half_to_double(c.bits);
    EXPECT_EQ(got, c.value) << std::hex << c.bits;
    EXPECT_EQ(std::signbit(got), std::signbit(c.value)) << std::hex << c.bits;
  }
  EXPECT_TRUE(std::isnan(io::half_to_double(0x7E00)));
  EXPECT_TRUE(std::isnan(io::half_to_double(0xFC01)));
  // Every finite half converts to a double that rounds back to float unchanged.
  for (std::uint32_t b = 0; b < 0x10000; ++b) {
    if (((b >> 10) & 0x1f) == 0x1f) continue;
    const double v = io::half_to_double(static_cast<std::uint16_t>(b));
    EXPECT_EQ(static_cast<double>(static_cast<float>(v)), v) << std::hex << b;
  }
}

TEST_F(npy_files, reads_float16_in_both_byte_orders) {
  const std::size_t n = std::size(half_cases);
  for (const bool big : {false, true}) {
    const std::string descr = big ? ">f2" : "<f2";
    const std::string header =
        padded_v1_header("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
                         std::to_string(n) + ",), }");
    const fs::path path =
        write_raw(big ? "half_be.npy" : "half_le.npy", v1_file(header, half_bytes(big)));
    const io::npy_array a = io::read_npy(path);
    EXPECT_EQ(a.type, io::dtype::float16);
    EXPECT_EQ(a.shape, std::vector<std::uint64_t>{n});
    ASSERT_EQ(a.bytes.size(), 2 * n);
    const std::vector<double> d = io::values_as<double>(a);
    const std::vector<float> f = io::values_as<float>(a);
    ASSERT_EQ(d.size(), n);
    ASSERT_EQ(f.size(), n);
    for (std::size_t k = 0; k < n; ++k) {
      EXPECT_EQ(d[k], half_cases[k].value) << descr << " element " << k;
      EXPECT_EQ(static_cast<double>(f[k]), half_cases[k].value) << descr << " element " << k;
    }
    const auto halves = a.values<gpuprim::half>();
    ASSERT_EQ(halves.size(), n);
    for (std::size_t k = 0; k < n; ++k)
      EXPECT_EQ(halves[k].bits, half_cases[k].bits) << descr << " element " << k;
    const io::npy_values<double> v = io::read_npy_as<double>(path);
    EXPECT_EQ(v.stored, io::dtype::float16);
    EXPECT_EQ(v.shape, a.shape);
    EXPECT_EQ(v.values, d);
  }
  EXPECT_EQ(io::dtype_descr(io::dtype::float16), "<f2");
  EXPECT_EQ(io::dtype_name(io::dtype::float16), "float16");
  EXPECT_EQ(io::dtype_size(io::dtype::float16), 2u);
}

TEST_F(npy_files, float16_fortran_order_and_write_round_trip) {
  // [[1, -2], [0.5, 65504]] in column-major order: 1, 0.5, -2, 65504.
  const std::string header =
      padded_v1_header("{'descr': '<f2', 'fortran_order': True, 'shape': (2, 2), }");
  const std::string data("\x00\x3C\x00\x38\x00\xC0\xFF\x7B", 8);
  const io::npy_array a = io::read_npy(write_raw("half_f.npy", v1_file(header, data)));
  EXPECT_EQ(io::values_as<double>(a), (std::vector<double>{1, -2, 0.5, 65504}));
  const fs::path path = file("half_back.npy");
  io::write_npy(path, a);
  const io::npy_array back = io::read_npy(path);
  EXPECT_EQ(back.type, io::dtype::float16);
  EXPECT_EQ(back.bytes, a.bytes);
}

TEST_F(npy_files, values_as_converts_every_dtype) {
  io::npy_array a;
  a.shape = {3};
  const auto set = [&](io::dtype type, const std::string& raw) {
    a.type = type;
    a.bytes.resize(raw.size());
    std::memcpy(a.bytes.data(), raw.data(), raw.size());
  };
  set(io::dtype::bool8, std::string("\x01\x00\x01", 3));
  EXPECT_EQ(io::values_as<double>(a), (std::vector<double>{1, 0, 1}));
  set(io::dtype::int8, bytes_of(std::vector<std::int8_t>{-128, 0, 127}));
  EXPECT_EQ(io::values_as<double>(a), (std::vector<double>{-128, 0, 127}));
  set(io::dtype::uint16, bytes_of(std::vector<std::uint16_t>{0x3C00, 1, 65535}));
  EXPECT_EQ(io::values_as<double>(a), (std::vector<double>{15360, 1, 65535}));  // not halves
  set(io::dtype::int64, bytes_of(std::vector<std::int64_t>{-(std::int64_t{1} << 53), 7, 1}));
  EXPECT_EQ(io::values_as<double>(a), (std::vector<double>{-0x1.0p53, 7, 1}));
  set(io::dtype::uint64, bytes_of(std::vector<std::uint64_t>{~std::uint64_t{0}, 0, 3}));
  EXPECT_EQ(io::values_as<double>(a), (std::vector<double>{0x1.0p64, 0, 3}));
  set(io::dtype::float64, bytes_of(std::vector<double>{0.1, -2.5, 1e300}));
  EXPECT_EQ(io::values_as<double>(a), (std::vector<double>{0.1, -2.5, 1e300}));
  EXPECT_EQ(io::values_as<float>(a)[0], 0.1f);
}

TEST_F(npy_files, one_byte_types_take_any_byte_order) {
  const std::string header =
      padded_v1_header("{'descr': '>i1', 'fortran_order': False, 'shape': (2,), }");
  const io::npy_array array = io::read_npy(write_raw("i1.npy", v1_file(header, "\xff\x02")));
  EXPECT_EQ(array.values<std::int8_t>()[0], -1);
  EXPECT_EQ(array.values<std::int8_t>()[1], 2);
}

TEST_F(npy_files, values_of_the_wrong_type_throw) {
  const std::vector<float> values = {1.0f};
  const fs::path path = file("typed.npy");
  io::write_npy(path, values);
  const io::npy_array array = io::read_npy(path);
  EXPECT_THROW(array.values<double>(), std::invalid_argument);
  EXPECT_THROW(array.values<std::int32_t>(), std::invalid_argument);
  EXPECT_NO_THROW(array.values<float>());
}

TEST_F(npy_files, writing_a_mismatched_shape_throws) {
  const std::vector<double> values = {1.0, 2.0, 3.0};
  EXPECT_THROW(io::write_npy<double>(file("mismatch.npy"), values, {2, 2}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(file("mismatch.npy"))) << "nothing is written on a bad call";
}

TEST_F(npy_files, writing_to_a_missing_directory_is_an_error) {
  const std::vector<double> values = {1.0};
  const fs::path path = file("no/such/dir/x.npy");
  try {
    io::write_npy(path, values);
    ADD_FAILURE() << "no error";
  } catch (const io::format_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot open for writing"), std::string::npos) << e.what();
  }
}

}  // namespace

// ---- sizes checked against the file before anything is allocated ----------

TEST_F(npy_files, a_header_length_beyond_the_file_is_refused_before_reading_it) {
  // 12 bytes: version 2.0, header length 2^32 - 1, nothing after.
  const std::string bytes("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12);
  expect_format_error(write_raw("huge_header.npy", bytes),
                      "truncated header: the prefix says 4294967295 bytes, the file has 0 after "
                      "the prefix");
  try {
    io::read_npy_bytes(std::as_bytes(std::span(bytes.data(), bytes.size())), "memory.npy");
    ADD_FAILURE() << "no error";
  } catch (const io::format_error& e) {
    EXPECT_NE(std::string(e.what()).find("memory.npy: truncated header"), std::string::npos)
        << e.what();
  }
}

TEST_F(npy_files, read_npy_info_checks_the_header_length_too) {
  const std::string bytes("\x93NUMPY\x03\x00\x00\x00\x00\x80{}", 14);
  try {
    io::read_npy_info(write_raw("info.npy", bytes));
    ADD_FAILURE() << "no error";
  } catch (const io::format_error& e) {
    EXPECT_NE(std::string(e.what()).find("the prefix says 2147483648 bytes, the file has 2"),
              std::string::npos)
        << e.what();
  }
}

TEST_F(npy_files, bytes_in_memory_read_as_the_file_does) {
  const std::vector<std::int16_t> values = {1, -2, 3, -4, 5, -6};
  const fs::path path = file("memory.npy");
  io::write_npy<std::int16_t>(path, values, {2, 3});
  const std::string raw = read_raw(path);
  const io::npy_array a = io::read_npy(path);
  const io::npy_array b = io::read_npy_bytes(std::as_bytes(std::span(raw.data(), raw.size())), "m");
  EXPECT_EQ(a.shape, b.shape);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_THROW(io::read_npy_bytes(std::as_bytes(std::span(raw.data(), raw.size() - 1)), "m"),
               io::format_error);
}

TEST_F(npy_files, data_beyond_the_memory_limit_is_refused_with_its_size) {
  const std::vector<double> values(1024, 1.0);  // 8 KiB of data
  const fs::path path = file("limited.npy");
  io::write_npy(path, values);
  io::set_memory_limit(4096);
  try {
    io::read_npy(path);
    ADD_FAILURE() << "no error";
  } catch (const io::format_error& e) {
    EXPECT_NE(std::string(e.what()).find(path.string() + ": the data of shape (1024,) of float64 "
                                                         "needs 0.1 GiB, more than this machine "
                                                         "can give"),
              std::string::npos)
        << e.what();
  }
  io::set_memory_limit(0);
  EXPECT_EQ(io::read_npy(path).size(), 1024u);
}

TEST(memory_limit, gib_text_and_checked_product) {
  EXPECT_EQ(io::gib_text(std::uint64_t{8192} << 30), "8192 GiB");
  EXPECT_EQ(io::gib_text((std::uint64_t{1} << 40) * 8 + 8), "8192 GiB");
  EXPECT_EQ(io::gib_text(std::uint64_t{3} << 29), "1.5 GiB");
  EXPECT_EQ(io::checked_product(std::uint64_t{1} << 32, std::uint64_t{1} << 32), std::nullopt);
  EXPECT_EQ(io::checked_product(std::uint64_t{1} << 32, std::uint64_t{1} << 31),
            std::uint64_t{1} << 63);
  EXPECT_GT(io::memory_limit(), 0u);
}
