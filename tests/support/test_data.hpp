// Shared test inputs: the sizes every algorithm is checked at, seeded random
// data (the seed is printed so a failure can be replayed), and tolerances.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace gpuprim::test {

// tests/data, the files made by other programs (NumPy). ctest passes its
// place in GPUPRIM_TEST_DATA_DIR (tests/CMakeLists.txt) rather than a
// compile definition, so that the objects carry no absolute path and ccache
// serves them to every checkout of the tree.
inline std::filesystem::path data_dir() {
  const char* dir = std::getenv("GPUPRIM_TEST_DATA_DIR");
  if (dir == nullptr || *dir == '\0')
    throw std::runtime_error(
        "GPUPRIM_TEST_DATA_DIR is not set: run the tests through ctest, or set it to tests/data");
  return dir;
}

// GPUPRIM_TEST_MAX_SIZE caps the sizes of the size sweeps (see
// test_sizes). compute-sanitizer's racecheck runs kernels hundreds of times
// slower; a hazard lives in a kernel's code paths (one tile, a partial tile,
// several tiles, the look-back), which sizes of a few tiles already reach, so
// scripts/device-check.sh caps the sweeps it runs under racecheck. Unset: no
// cap.
inline std::size_t test_size_cap() {
  static const std::size_t cap = [] {
    if (const char* s = std::getenv("GPUPRIM_TEST_MAX_SIZE"))
      return std::size_t{std::strtoull(s, nullptr, 10)};
    return std::numeric_limits<std::size_t>::max();
  }();
  return cap;
}

// The sizes of a sweep at or below test_size_cap().
inline std::vector<std::size_t> test_sizes(std::vector<std::size_t> sizes) {
  std::erase_if(sizes, [](std::size_t n) { return n > test_size_cap(); });
  return sizes;
}

// Sizes of DESIGN.md section 5: edges around warp and block sizes, a prime,
// and one past a power of two large enough to use many blocks (capped by
// test_size_cap).
inline const std::vector<std::size_t>& standard_sizes() {
  static const std::vector<std::size_t> sizes =
      test_sizes({0, 1, 2, 31, 32, 33, 1023, 1024, 1025, 7919, (1u << 20) + 7});
  return sizes;
}

// GPUPRIM_TEST_SEED replays a failing run; otherwise a fresh seed per run.
inline std::uint64_t test_seed() {
  static const std::uint64_t seed = [] {
    if (const char* s = std::getenv("GPUPRIM_TEST_SEED"))
      return std::uint64_t{std::strtoull(s, nullptr, 10)};
    return std::uint64_t{std::random_device{}()} << 32 | std::random_device{}();
  }();
  return seed;
}

// Records the seed in the test's output (shown on failure).
inline std::mt19937_64 make_rng(std::size_t salt = 0) {
  const std::uint64_t seed = test_seed();
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  std::cout << "[ seed     ] GPUPRIM_TEST_SEED=" << seed << "\n";
  return std::mt19937_64(seed ^ (salt * 0x9E3779B97F4A7C15ull));
}

// n values of T, each one draw of `dist` converted to T.
template <class T, class Dist>
std::vector<T> draw_vector(std::size_t n, std::mt19937_64& rng, Dist dist) {
  std::vector<T> v(n);
  for (auto& x : v)
    x = static_cast<T>(dist(rng));
  return v;
}

// Random values: floats in [-1, 1), integers over a range wide enough to
// overflow sums (which then wrap identically on every backend for unsigned
// types; signed ranges are kept small enough not to overflow).
template <class T>
std::vector<T> random_vector(std::size_t n, std::mt19937_64& rng) {
  if constexpr (std::is_floating_point_v<T>) {
    return draw_vector<T>(n, rng, std::uniform_real_distribution<double>(-1.0, 1.0));
  } else if constexpr (std::is_signed_v<T>) {
    return draw_vector<T>(n, rng, std::uniform_int_distribution<long long>(-1000, 1000));
  } else {
    return draw_vector<T>(
        n, rng,
        std::uniform_int_distribution<unsigned long long>(0, std::numeric_limits<T>::max()));
  }
}

// Bound on |computed - exact| for a sum of n terms of magnitude <= max_abs
// computed in T: a small multiple of n * epsilon (DESIGN.md section 5).
template <class T>
double sum_tolerance(std::size_t n, double max_abs) {
  return 4.0 * static_cast<double>(n + 1) * std::numeric_limits<T>::epsilon() * max_abs;
}

}  // namespace gpuprim::test
