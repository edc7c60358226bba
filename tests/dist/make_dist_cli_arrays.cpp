// Inputs of the distributed CLI tests, and their float comparison:
//   make_dist_cli_arrays DIR            writes DIR/<name>.npy
//   make_dist_cli_arrays compare A B R  A and B: same header, elements within
//                                       relative R of each other (exit 1 if not)
//   make_dist_cli_arrays large DIR K    DIR/large_u32.npy (random keys) and
//                                       DIR/large_f32.npy (uniform in [0, 1)),
//                                       2^K elements each: inputs for round
//                                       trips by hand at benchmark sizes
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/io/npy.hpp"

namespace io = gpuprim::io;

template <class T, class F>
void write(const std::filesystem::path& dir, const char* name, std::size_t n, F value) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = value(i);
  io::write_npy<T>(dir / (std::string(name) + ".npy"), v);
}

template <class T>
bool close_values(const io::npy_array& a, const io::npy_array& b, double tolerance) {
  const auto x = a.values<T>();
  const auto y = b.values<T>();
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (std::isnan(x[i]) && std::isnan(y[i])) continue;
    if (!(std::abs(double(x[i]) - double(y[i])) <= tolerance * (1 + std::abs(double(x[i]))))) {
      std::fprintf(stderr, "element %zu: %.17g vs %.17g\n", i, double(x[i]), double(y[i]));
      return false;
    }
  }
  return true;
}

int main(int argc, char** argv) {
  if (argc == 5 && std::strcmp(argv[1], "compare") == 0) {
    const io::npy_array a = io::read_npy(argv[2]);
    const io::npy_array b = io::read_npy(argv[3]);
    if (a.type != b.type || a.shape != b.shape) {
      std::fprintf(stderr, "%s and %s differ in dtype or shape\n", argv[2], argv[3]);
      return 1;
    }
    const double tolerance = std::stod(argv[4]);
    if (a.type == io::dtype::float32) return close_values<float>(a, b, tolerance) ? 0 : 1;
    if (a.type == io::dtype::float64) return close_values<double>(a, b, tolerance) ? 0 : 1;
    return a.bytes == b.bytes ? 0 : 1;
  }
  if (argc == 4 && std::strcmp(argv[1], "large") == 0) {
    const std::filesystem::path dir = argv[2];
    const int k = std::stoi(argv[3]);
    if (k < 0 || k > 32) {
      std::fprintf(stderr, "large: K must be in [0, 32], not %d\n", k);
      return 2;
    }
    std::filesystem::create_directories(dir);
    std::mt19937_64 rng(26);
    const std::size_t n = std::size_t{1} << k;
    write<std::uint32_t>(dir, "large_u32", n, [&](std::size_t) { return std::uint32_t(rng()); });
    write<float>(dir, "large_f32", n,
                 [&](std::size_t) { return std::uniform_real_distribution<float>(0, 1)(rng); });
    return 0;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_dist_cli_arrays DIR | compare A B TOLERANCE | large DIR K\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir);
  std::mt19937_64 rng(24);
  auto uniform = [&] { return std::uniform_real_distribution<double>(-1, 1)(rng); };
  const double nan = std::numeric_limits<double>::quiet_NaN();
  write<float>(dir, "f32", 100003,
               [&](std::size_t i) { return i % 1000 == 7 ? float(nan) : float(uniform()); });
  write<double>(dir, "f64", 4099, [&](std::size_t) { return uniform(); });
  write<std::int32_t>(dir, "i32", 100003,
                      [&](std::size_t) { return static_cast<std::int32_t>(rng() % 2001) - 1000; });
  write<std::uint8_t>(dir, "u8", 1001, [&](std::size_t) { return std::uint8_t(rng()); });
  write<std::int16_t>(dir, "i16", 777, [&](std::size_t) { return std::int16_t(rng()); });
  write<std::int8_t>(dir, "i8", 555, [&](std::size_t) { return std::int8_t(rng()); });
  write<std::int64_t>(dir, "small", 3, [](std::size_t i) { return std::int64_t(3 - i); });
  write<std::uint32_t>(dir, "empty", 0, [](std::size_t) { return 0u; });
  write<std::uint32_t>(dir, "equal", 50000, [](std::size_t) { return 5u; });
  write<std::uint64_t>(dir, "skewed", 60001,
                       [&](std::size_t) { return rng() % 10 ? std::uint64_t{1} : rng(); });
  write<std::uint32_t>(dir, "vals", 100003, [](std::size_t i) { return std::uint32_t(i); });
  write<std::uint64_t>(dir, "vals_equal", 50000, [](std::size_t i) { return std::uint64_t(i); });
  std::vector<std::uint8_t> flags(999);
  for (auto& f : flags)
    f = rng() % 2;
  io::write_npy(dir / "bool.npy", io::dtype::bool8, std::as_bytes(std::span(flags)),
                std::vector<std::uint64_t>{flags.size()});
  return 0;
}
