// Writes the point sets of the `gpuprim closest-pair` CLI tests into the
// directory given as the first argument: .npy arrays and .csv files, each
// small enough that its answer is worked out by hand in CMakeLists.txt.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/io/npy.hpp"
#include "support/generator.hpp"

namespace io = gpuprim::io;

namespace {

template <class T>
void write(const std::filesystem::path& dir, const char* name, const std::vector<T>& values,
           std::uint64_t rows, std::uint64_t cols) {
  io::write_npy<T>(dir / name, std::span<const T>(values), {rows, cols});
}

// float16 points from their IEEE binary16 bits (C++20 has no half type).
void write_half(const std::filesystem::path& dir, const char* name,
                const std::vector<std::uint16_t>& bits, std::uint64_t rows, std::uint64_t cols) {
  const std::uint64_t shape[] = {rows, cols};
  io::write_npy(dir / name, io::dtype::float16, std::as_bytes(std::span(bits)), shape);
}

// The integer points {0, 0}, {10, 0}, {0, 7}, {3, 3} as T: (0, 3) at sqrt(18).
template <class T>
void write_integer_points(const std::filesystem::path& dir, const std::string& dtype) {
  const std::vector<T> values = {0, 0, 10, 0, 0, 7, 3, 3};
  const std::string name = "points_" + dtype + ".npy";
  io::write_npy<T>(dir / name, std::span<const T>(values), {4, 2});
}

void text(const std::filesystem::path& dir, const char* name, const char* contents) {
  std::ofstream(dir / name) << contents;
}

}  // namespace

int main(int argc, char** argv) {
  const auto folder = gpuprim::test::output_folder(argc, argv);
  if (!folder) return 2;
  const std::filesystem::path dir = *folder;
  // (1, 3) at distance 1 beats (0, 2) at sqrt(2).
  write<double>(dir, "points2.npy", {0, 0, 5, 5, 1, 1, 5, 6, 10, 10}, 5, 2);
  // (0, 2) and (1, 3) both at distance 1: the smaller pair wins.
  write<double>(dir, "ties.npy", {0, 0, 3, 0, 0, 1, 3, 1}, 4, 2);
  // 3-D float32: (0, 2) and (1, 2) both at sqrt(0.75).
  write<float>(dir, "points3_f32.npy", {0, 0, 0, 1, 1, 1, 0.5f, 0.5f, 0.5f, 3, 3, 3}, 4, 3);
  // Integers (as float64): (0, 3) at sqrt(18).
  write<std::int32_t>(dir, "points_int32.npy", {0, 0, 10, 0, 0, 7, 3, 3}, 4, 2);
  write_integer_points<std::int8_t>(dir, "int8");
  write_integer_points<std::uint8_t>(dir, "uint8");
  write_integer_points<std::int16_t>(dir, "int16");
  write_integer_points<std::uint16_t>(dir, "uint16");
  write_integer_points<std::uint32_t>(dir, "uint32");
  write_integer_points<std::int64_t>(dir, "int64");
  write_integer_points<std::uint64_t>(dir, "uint64");
  // bool: (0, 0), (1, 1), (0, 1): (0, 2) and (1, 2) at 1, the smaller wins.
  {
    const std::vector<std::uint8_t> flags = {0, 0, 1, 1, 0, 1};
    const std::uint64_t shape[] = {3, 2};
    io::write_npy(dir / "points_bool.npy", io::dtype::bool8, std::as_bytes(std::span(flags)),
                  shape);
  }
  // float16 (0x3C00 = 1, 0x4500 = 5, 0x4600 = 6, 0x4900 = 10): points2.npy's
  // points, (1, 3) at 1.
  write_half(dir, "points2_f16.npy",
             {0, 0, 0x4500, 0x4500, 0x3C00, 0x3C00, 0x4500, 0x4600, 0x4900, 0x4900}, 5, 2);
  // 3-D float16 (0x3800 = 0.5, 0x4200 = 3): points3_f32.npy's points.
  write_half(dir, "points3_f16.npy",
             {0, 0, 0, 0x3C00, 0x3C00, 0x3C00, 0x3800, 0x3800, 0x3800, 0x4200, 0x4200, 0x4200}, 4,
             3);
  // float16 infinity (0x7C00) in point 1, NaN (0x7E00) in point 2.
  write_half(dir, "inf_f16.npy", {0, 0, 0x7C00, 0x3C00, 0x7E00, 0}, 3, 2);
  write<double>(dir, "one_point.npy", {1, 2}, 1, 2);
  write<float>(dir, "no_points.npy", {}, 0, 2);
  {
    const std::vector<double> cube = {1, 2, 3, 4};
    io::write_npy<double>(dir / "three_d.npy", std::span<const double>(cube), {2, 2, 1});
  }
  write<double>(dir, "four_columns.npy", {1, 2, 3, 4, 5, 6, 7, 8}, 2, 4);
  io::write_npy<double>(dir / "flat.npy", std::vector<double>{1, 2, 3, 4});
  write<double>(dir, "nan.npy", {0, 0, 1, std::numeric_limits<double>::quiet_NaN(), 2, 2}, 3, 2);
  write<float>(dir, "inf.npy", {0, 0, 1, 1, std::numeric_limits<float>::infinity(), 2}, 3, 2);
  text(dir, "header.csv", "x,y\n0,0\n2,2\n0,1\n");
  text(dir, "plain3.csv", "0, 0, 0\n4, 4, 4\n0, 0, 2.5\n");
  text(dir, "bad_line.csv", "x,y\n1,2\n3,abc\n");
  text(dir, "ragged.csv", "1,2\n3,4,5\n");
  text(dir, "one_point.csv", "x,y\n1,2\n");
  text(dir, "header_only.csv", "x,y\n");
  // Excel's "CSV UTF-8" starts with a byte order mark: point 0 stays point 0.
  text(dir, "bom.csv",
       "\xEF\xBB\xBF"
       "0,0\n5,5\n0,1\n");
  text(dir, "bom_header.csv",
       "\xEF\xBB\xBF"
       "x,y\n0,0\n5,5\n0,1\n");
  // A typo in the first point: an error, not a header.
  text(dir, "first_row_typo.csv", "0,0a\n5,5\n0,1\n");
  text(dir, "inf.csv", "1,2\n3,4\n5,inf\n");
  text(dir, "nan.csv", "1,2\nnan,3\n4,5\n");
  return 0;
}
