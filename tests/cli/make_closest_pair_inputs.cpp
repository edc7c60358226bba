// Writes the point sets of the `gpuprim closest-pair` CLI tests into the
// directory given as the first argument: .npy arrays and .csv files, each
// small enough that its answer is worked out by hand in CMakeLists.txt.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "gpuprim/io/npy.hpp"

namespace io = gpuprim::io;

namespace {

template <class T>
void write(const std::filesystem::path& dir, const char* name, const std::vector<T>& values,
           std::uint64_t rows, std::uint64_t cols) {
  io::write_npy<T>(dir / name, std::span<const T>(values), {rows, cols});
}

void text(const std::filesystem::path& dir, const char* name, const char* contents) {
  std::ofstream(dir / name) << contents;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_closest_pair_inputs DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  // (1, 3) at distance 1 beats (0, 2) at sqrt(2).
  write<double>(dir, "points2.npy", {0, 0, 5, 5, 1, 1, 5, 6, 10, 10}, 5, 2);
  // (0, 2) and (1, 3) both at distance 1: the smaller pair wins.
  write<double>(dir, "ties.npy", {0, 0, 3, 0, 0, 1, 3, 1}, 4, 2);
  // 3-D float32: (0, 2) and (1, 2) both at sqrt(0.75).
  write<float>(dir, "points3_f32.npy", {0, 0, 0, 1, 1, 1, 0.5f, 0.5f, 0.5f, 3, 3, 3}, 4, 3);
  // Integers (as float64): (0, 3) at sqrt(18).
  write<std::int32_t>(dir, "points_int32.npy", {0, 0, 10, 0, 0, 7, 3, 3}, 4, 2);
  write<double>(dir, "one_point.npy", {1, 2}, 1, 2);
  write<double>(dir, "four_columns.npy", {1, 2, 3, 4, 5, 6, 7, 8}, 2, 4);
  io::write_npy<double>(dir / "flat.npy", std::vector<double>{1, 2, 3, 4});
  write<double>(dir, "nan.npy", {0, 0, 1, std::numeric_limits<double>::quiet_NaN(), 2, 2}, 3, 2);
  write<float>(dir, "inf.npy", {0, 0, 1, 1, std::numeric_limits<float>::infinity(), 2}, 3, 2);
  text(dir, "header.csv", "x,y\n0,0\n2,2\n0,1\n");
  text(dir, "plain3.csv", "0, 0, 0\n4, 4, 4\n0, 0, 2.5\n");
  text(dir, "bad_line.csv", "x,y\n1,2\n3,abc\n");
  text(dir, "ragged.csv", "1,2\n3,4,5\n");
  text(dir, "one_point.csv", "x,y\n1,2\n");
  text(dir, "nan.csv", "1,2\nnan,3\n4,5\n");
  return 0;
}
