// The host keys-only sort on AVX-512 (gpuprim/host/simd_sort.hpp): every
// size around its thresholds (one vector, the in-register network of 16
// vectors, the partition's 2 x 4 buffered vectors), the inputs that make a
// quicksort slow or wrong (equal keys, sorted, reversed, few distinct, the
// samples all the smallest key), NaN payloads and zeros, against the
// sequential reference byte for byte; and the radix sort's keys-only paths
// with the vectorised sort switched off, so that machines with AVX-512
// still test them.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/host/simd_sort.hpp"
#include "gpuprim/sort.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
namespace hd = gpuprim::host_impl;
using namespace gpuprim::test;

namespace {

using simd_key_types =
    ::testing::Types<float, double, std::int32_t, std::uint32_t, std::int64_t, std::uint64_t>;

// Switches the vectorised sort off for one scope.
struct without_simd_sort {
  without_simd_sort() { hd::allow_simd_sort(false); }
  ~without_simd_sort() { hd::allow_simd_sort(true); }
  without_simd_sort(const without_simd_sort&) = delete;
  without_simd_sort& operator=(const without_simd_sort&) = delete;
};

// Both orders, in place and out of place (the input left as it was).
template <class K>
void check_sort(const std::vector<K>& x, const std::string& what) {
  const std::span<const K> in(x);
  for (bool descending : {false, true}) {
    const std::string w = what + (descending ? ", descending" : ", ascending");
    const auto order = descending ? gp::sort_order::descending : gp::sort_order::ascending;
    const auto want = reference_sort(in, descending);
    std::vector<K> out(x.size());
    const std::vector<K> copy = x;
    gp::sort(gp::host, copy, out, order);
    expect_same_bytes(out, want, w + ", out of place");
    expect_same_bytes(copy, x, w + ", input left as it was");
    std::vector<K> k = x;
    gp::sort(gp::host, k, order);
    expect_same_bytes(k, want, w + ", in place");
  }
}

// A few values drawn from keys of random bits (for floats: NaNs with
// payloads, infinities, zeros of both signs among them).
template <class K>
std::vector<K> values_of(std::size_t count, std::mt19937_64& rng) {
  return random_bits_keys<K>(count, rng);
}

template <class K>
std::vector<K> sawtooth_keys(std::size_t n, std::mt19937_64& rng) {
  const auto v = values_of<K>(17, rng);
  std::vector<K> keys(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = v[i % 17];
  return keys;
}

// Mostly the largest key, a few others: the pivot is the samples' largest.
template <class K>
std::vector<K> mostly_largest_keys(std::size_t n, std::mt19937_64& rng) {
  std::vector<K> keys = random_bits_keys<K>(n, rng);
  for (std::size_t i = 0; i < n; ++i)
    if (i % 101 != 0) keys[i] = std::numeric_limits<K>::max();
  return keys;
}

// The smallest key at every position the pivot samples (2 vectors of
// samples spread evenly), random keys elsewhere.
template <class K>
std::vector<K> smallest_at_samples_keys(std::size_t n, std::mt19937_64& rng) {
  std::vector<K> keys = random_bits_keys<K>(n, rng);
  for (auto& k : keys)
    if (k != k) k = K(1);
  const std::size_t samples = 2 * 64 / sizeof(K);
  const std::size_t step = n / samples;
  for (std::size_t i = 0; i < samples; ++i)
    keys[i * step + step / 2] = std::numeric_limits<K>::lowest();
  return keys;
}

template <class K>
class host_simd_sort : public ::testing::Test {};
TYPED_TEST_SUITE(host_simd_sort, simd_key_types);

}  // namespace

TEST(host_simd_sort_dispatch, runs_where_the_processor_has_avx512) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  EXPECT_EQ(hd::simd_sort_available(), bool(__builtin_cpu_supports("avx512f")));
#endif
  {
    without_simd_sort off;
    EXPECT_FALSE(hd::simd_sort_available());
  }
  if (!hd::simd_sort_available()) GTEST_SKIP() << "no AVX-512 here: the radix sort runs";
}

TYPED_TEST(host_simd_sort, every_size_to_600_and_around_the_thresholds) {
  using K = TypeParam;
  auto rng = make_rng(301);
  std::vector<std::size_t> sizes;
  for (std::size_t n = 0; n <= 600; ++n)
    sizes.push_back(n);
  for (std::size_t n : {1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 65537})
    sizes.push_back(n);
  for (std::size_t n : sizes) {
    for (key_pattern p : all_key_patterns()) {
      check_sort(pattern_keys<K>(p, n, rng),
                 std::string(pattern_name(p)) + ", n=" + std::to_string(n));
      if (::testing::Test::HasFailure()) return;
    }
    check_sort(sawtooth_keys<K>(n, rng), "sawtooth, n=" + std::to_string(n));
    if (::testing::Test::HasFailure()) return;
  }
}

// Inputs on which a quicksort goes quadratic without care for equal keys,
// or wrong at its partition's edges: a quarter of a million keys each, on
// which a quadratic sort would not finish.
TYPED_TEST(host_simd_sort, equal_keys_and_bad_pivots) {
  using K = TypeParam;
  auto rng = make_rng(302);
  const std::size_t n = (std::size_t{1} << 18) + 3;
  for (key_pattern p : all_key_patterns())
    check_sort(pattern_keys<K>(p, n, rng), pattern_name(p));
  check_sort(sawtooth_keys<K>(n, rng), "sawtooth");
  check_sort(mostly_largest_keys<K>(n, rng), "mostly the largest key");
  check_sort(smallest_at_samples_keys<K>(n, rng), "the smallest key at the samples");
  std::vector<K> two(n);
  for (std::size_t i = 0; i < n; ++i)
    two[i] = i % 2 ? std::numeric_limits<K>::max() : std::numeric_limits<K>::lowest();
  check_sort(two, "the two extremes alternating");
}

TEST(host_simd_sort_float, nans_keep_their_payloads_and_input_order) {
  auto rng = make_rng(303);
  for (std::size_t n : {std::size_t{5}, std::size_t{300}, std::size_t{100003}}) {
    // Half NaNs of many payloads, half the other special values.
    const auto specials = special_float_keys<float>();
    std::vector<float> f(n);
    std::vector<double> d(n);
    const auto dspecials = special_float_keys<double>();
    for (std::size_t i = 0; i < n; ++i) {
      f[i] = i % 2 ? std::bit_cast<float>(std::uint32_t(0x7f800001u + rng() % 0x7fffff))
                   : specials[rng() % specials.size()];
      d[i] = i % 2 ? -std::bit_cast<double>(std::uint64_t(0x7ff0000000000001ull + rng() % 1000))
                   : dspecials[rng() % dspecials.size()];
    }
    check_sort(f, "float, n=" + std::to_string(n));
    check_sort(d, "double, n=" + std::to_string(n));
    check_sort(std::vector<float>(n, std::numeric_limits<float>::quiet_NaN()), "float, all NaN");
  }
}

// The radix sort's keys-only paths (top digit first, LSD, the NaN and
// skewed fallbacks) with the vectorised sort off.
TYPED_TEST(host_simd_sort, the_radix_sort_without_it) {
  using K = TypeParam;
  without_simd_sort off;
  auto rng = make_rng(304);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{1000}, std::size_t{70001},
                        (std::size_t{1} << 20) + 7}) {
    check_sort(random_bits_keys<K>(n, rng), "random bits, n=" + std::to_string(n));
    check_sort(pattern_keys<K>(key_pattern::few_distinct, n, rng),
               "few distinct, n=" + std::to_string(n));
  }
  std::normal_distribution<double> normal;
  std::vector<K> x((std::size_t{1} << 20) + 5);
  for (auto& k : x)
    k = static_cast<K>(normal(rng) * (std::is_floating_point_v<K> ? 1.0 : 1e6));
  check_sort(x, "normal");
}
