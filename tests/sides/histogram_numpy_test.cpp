// numpy_histogram on each backend (support/side_test.hpp): the range found
// from the data by the backend's reduction, the edges it writes (on the
// device for the GPU) against the host rule's, numpy 2.4.6's "Too many bins
// for data range" where numpy raises it (issue 41's reproducers) and its
// answers where it does not, and numpy's array-of-edges bins.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "support/side_test.hpp"

namespace {

struct numpy_result {
  std::vector<std::uint64_t> counts;
  std::vector<double> edges;
  std::uint64_t left_out = 0;
};

// numpy_histogram on the side's backend, the counts and edges poisoned
// first (so an unwritten value fails).
template <class T, class E = std::conditional_t<std::is_same_v<T, float>, float, double>>
numpy_result run_numpy_histogram(const std::vector<T>& x, std::size_t bins,
                                 std::optional<gp::numpy_range> range = {}) {
  auto samples = side::put(x);
  auto counts = side::put(std::vector<std::uint64_t>(bins, 0xdeadbeef));
  auto edges = side::put(std::vector<E>(bins + 1, E(-12345)));
  numpy_result r;
  r.left_out = gp::numpy_histogram(side::backend(), samples, counts, edges, range);
  r.counts = side::get(counts);
  for (E e : side::get(edges))
    r.edges.push_back(e);
  return r;
}

// The message numpy_histogram throws, or "" when it does not throw.
template <class T>
std::string numpy_error(const std::vector<T>& x, std::size_t bins,
                        std::optional<gp::numpy_range> range = {}) {
  try {
    run_numpy_histogram(x, bins, range);
  } catch (const gp::histogram_argument_error& e) {
    return e.reason();
  }
  return "";
}

constexpr const char* too_many = "Too many bins for data range. Cannot create ";

}  // namespace

// Issue 41's reproducers: numpy raises ValueError "Too many bins for data
// range" in each (edges that overflow to inf / NaN, or collapse).
SIDE_TEST(histogram_numpy, too_many_bins_for_the_data_range) {
  EXPECT_EQ(
      numpy_error(std::vector<double>{-1e308, 1e308}, 4).rfind(std::string(too_many) + "4 ", 0),
      0u);
  std::vector<std::int32_t> seven(7);
  for (int i = 0; i < 7; ++i)
    seven[i] = i;
  EXPECT_EQ(numpy_error(seven, 10, gp::numpy_range{-1e308, 1e308}).rfind(too_many, 0), 0u);
  EXPECT_EQ(numpy_error(std::vector<float>(3, 1e30f), 3).rfind(std::string(too_many) + "3 ", 0),
            0u);
  std::vector<double> close;
  for (int i = 0; i < 10; ++i) {
    close.push_back(1);
    close.push_back(1 + 2e-16);
  }
  EXPECT_EQ(numpy_error(close, 10).rfind(too_many, 0), 0u);
  EXPECT_EQ(numpy_error(std::vector<double>{1e16, 1e16 + 2}, 4).rfind(too_many, 0), 0u);
  EXPECT_EQ(numpy_error(std::vector<double>{1e16}, 10).rfind(too_many, 0), 0u);
  EXPECT_EQ(numpy_error(std::vector<float>{-3e38f, 3e38f}, 10).rfind(too_many, 0), 0u);
  EXPECT_EQ(
      numpy_error(std::vector<double>{1.0}, 10, gp::numpy_range{1e308, 1e308}).rfind(too_many, 0),
      0u);
}

// The counts and edges stay as they were when the call throws.
SIDE_TEST(histogram_numpy, nothing_is_written_when_it_throws) {
  auto samples = side::put(std::vector<double>{1e16, 1e16 + 2});
  auto counts = side::put(std::vector<std::uint64_t>(4, 7));
  auto edges = side::put(std::vector<double>(5, 9.0));
  EXPECT_THROW(gp::numpy_histogram(side::backend(), samples, counts, edges), std::invalid_argument);
  EXPECT_EQ(side::get(counts), std::vector<std::uint64_t>(4, 7));
  EXPECT_EQ(side::get(edges), std::vector<double>(5, 9.0));
  auto wrong_edges = side::put(std::vector<double>(4, 9.0));  // 4 bins need 5 edges
  auto fine = side::put(std::vector<double>{0.0, 1.0});
  EXPECT_THROW(gp::numpy_histogram(side::backend(), fine, counts, wrong_edges),
               std::invalid_argument);
  auto float_edges = side::put(std::vector<float>(5, 9.0f));  // float64 edges do not fit
  EXPECT_THROW(gp::numpy_histogram(side::backend(), fine, counts, float_edges),
               std::invalid_argument);
  EXPECT_EQ(side::get(counts), std::vector<std::uint64_t>(4, 7));
  EXPECT_EQ(side::get(float_edges), std::vector<float>(5, 9.0f));
}

// The range and data errors, in numpy's words.
SIDE_TEST(histogram_numpy, numpy_errors_in_numpy_words) {
  const std::vector<double> x = {0.5, 1.5};
  EXPECT_EQ(numpy_error(x, 3, gp::numpy_range{3, 1}).rfind("max must be larger than min", 0), 0u);
  EXPECT_EQ(numpy_error(x, 3, gp::numpy_range{0, HUGE_VAL}),
            "supplied range of [0, inf] is not finite");
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(numpy_error(std::vector<double>{1.0, nan}, 3),
            "autodetected range of [nan, nan] is not finite");
  EXPECT_EQ(numpy_error(std::vector<float>{1.0f, HUGE_VALF}, 3),
            "autodetected range of [1, inf] is not finite");
}

// Where numpy 2.4.6 answers at the edges of the range (its output).
SIDE_TEST(histogram_numpy, numpy_answers_near_overflow) {
  // float32 data over a float64 range whose top edge rounds to float32 inf.
  const auto r = run_numpy_histogram(std::vector<float>{1.0f}, 1, gp::numpy_range{0, 1e39});
  EXPECT_EQ(r.counts, std::vector<std::uint64_t>{1});
  EXPECT_EQ(r.edges[0], 0.0);
  EXPECT_TRUE(std::isinf(r.edges[1]));
  const auto wide = run_numpy_histogram(std::vector<double>{0, 1.7e308}, 3);
  EXPECT_EQ(wide.counts, (std::vector<std::uint64_t>{1, 0, 1}));
  EXPECT_EQ(wide.edges,
            (std::vector<double>{0.0, 5.666666666666667e+307, 1.1333333333333334e+308, 1.7e+308}));
  // float32 data over its own range: np.linspace in float32.
  const auto f = run_numpy_histogram(std::vector<float>{0.1f, 0.5f, 0.9f}, 3);
  EXPECT_EQ(f.counts, (std::vector<std::uint64_t>{1, 1, 1}));
  EXPECT_EQ(f.edges, (std::vector<double>{0.10000000149011612, 0.36666664481163025,
                                          0.6333333253860474, 0.8999999761581421}));
  // No samples: (0, 1).
  const auto none = run_numpy_histogram(std::vector<std::int32_t>{}, 2);
  EXPECT_EQ(none.counts, (std::vector<std::uint64_t>{0, 0}));
  EXPECT_EQ(none.edges, (std::vector<double>{0, 0.5, 1}));
}

// Random data: the counts are histogram_even's with the bins
// numpy_histogram_bins finds, and the edges numpy_histogram_edges's, bit for
// bit (on the GPU the edges are computed on the device).
SIDE_TEST(histogram_numpy, counts_and_edges_agree_with_the_rule) {
  std::mt19937_64 rng(4101);
  std::uniform_real_distribution<float> u(-3.0f, 7.0f);
  std::vector<float> x(100003);
  for (float& v : x)
    v = u(rng);
  x[17] = std::numeric_limits<float>::quiet_NaN();
  for (std::size_t bins : {1u, 10u, 1000u, 20000u}) {
    for (const auto range :
         {std::optional<gp::numpy_range>{}, std::optional{gp::numpy_range{-1, 5}}}) {
      if (!range) {
        x[17] = 0.5f;  // the data's own range needs finite data
      }
      const auto r = run_numpy_histogram(x, bins, range);
      const gp::numpy_bins spec = gp::numpy_histogram_bins(gp::host, x, range);
      std::vector<std::uint64_t> want(bins);
      const std::uint64_t want_left = gp::histogram_even(gp::host, x, want, spec);
      EXPECT_EQ(r.counts, want) << bins;
      EXPECT_EQ(r.left_out, want_left) << bins;
      EXPECT_EQ(r.edges, gp::numpy_histogram_edges(spec, bins)) << bins;
      if (range) {
        EXPECT_EQ(spec.arithmetic, gp::numpy_float::float64);
      } else {
        EXPECT_EQ(spec.arithmetic, gp::numpy_float::float32);
        float lo = x[0], hi = x[0];
        for (float v : x) {
          lo = std::min(lo, v);
          hi = std::max(hi, v);
        }
        EXPECT_EQ(spec.lower, double(lo));
        EXPECT_EQ(spec.upper, double(hi));
      }
      x[17] = std::numeric_limits<float>::quiet_NaN();
    }
  }
  // Integers: [min, max] of the data, float64 edges.
  std::vector<std::int32_t> ints = {-7, 42, 3, 3, 0, 41, 42};
  const auto r = run_numpy_histogram(ints, 5);
  EXPECT_EQ(r.counts, (std::vector<std::uint64_t>{2, 2, 0, 0, 3}));
  EXPECT_EQ(r.edges, (std::vector<double>{-7, 2.8000000000000007, 12.600000000000001,
                                          22.400000000000002, 32.2, 42}));
}

// numpy.histogram(x, bins=[0, 1, 1, 2]): the zero-width bin holds nothing,
// the last bin holds 2, the rest is left out (numpy 2.4.6: [1, 0, 3]).
SIDE_TEST(histogram_numpy, array_of_edges) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto samples = side::put(std::vector<double>{0, 1, 1, 2, 2.5, nan, -1});
  auto counts = side::put(std::vector<std::uint64_t>(3, 7));
  const std::vector<double> edges = {0, 1, 1, 2};
  std::uint64_t left_out = 0;
#if GPUPRIM_TEST_ON_CUDA
  const auto d_edges = side::put(edges);
  gp::device_vector<std::uint64_t> d_left(1);
  gp::numpy_histogram_of_edges_into(side::backend(), samples, counts, d_edges, d_left.span());
  left_out = gp::to_host(d_left)[0];
#else
  left_out = gp::numpy_histogram_of_edges(side::backend(), samples, counts, edges);
  EXPECT_THROW(gp::numpy_histogram_of_edges(side::backend(), samples, counts,
                                            std::vector<double>{0, 2, 1, 3}),
               std::invalid_argument);
#endif
  EXPECT_EQ(side::get(counts), (std::vector<std::uint64_t>{1, 0, 3}));
  EXPECT_EQ(left_out, 3u);
}

namespace {

// numpy_histogram_of_edges on the side's backend (the edges in device
// memory for the GPU); the counts poisoned first.
template <class T>
std::vector<std::uint64_t> run_numpy_histogram_of_edges(const std::vector<T>& x,
                                                        const std::vector<double>& edges) {
  auto samples = side::put(x);
  auto counts = side::put(std::vector<std::uint64_t>(edges.size() - 1, 0xdeadbeef));
#if GPUPRIM_TEST_ON_CUDA
  gp::numpy_histogram_of_edges_into(side::backend(), samples, counts, side::put(edges));
#else
  gp::numpy_histogram_of_edges(side::backend(), samples, counts, edges);
#endif
  return side::get(counts);
}

// The same values as int32 samples give the same counts, edges and left-out
// count, for the data's own range and a given one, into bin counts that
// take each kernel (the byte fold, shared and global atomics).
template <class T>
void check_like_int32(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  // Bytes over all their values; 16-bit ones over 3001 values from -1500 or 0.
  const int lo = std::max<int>(std::numeric_limits<T>::lowest(), -1500);
  const int hi = sizeof(T) == 1 ? std::numeric_limits<T>::max() : lo + 3000;
  std::uniform_int_distribution<int> u(lo, hi);
  std::vector<T> x(100003);
  for (T& v : x)
    v = static_cast<T>(u(rng));
  x[5] = std::numeric_limits<T>::max();
  x[6] = std::numeric_limits<T>::lowest();
  const std::vector<std::int32_t> as_int32(x.begin(), x.end());
  for (std::size_t bins : {1u, 10u, 1024u, 20000u}) {
    for (const auto range :
         {std::optional<gp::numpy_range>{}, std::optional{gp::numpy_range{-3.5, 1000.25}}}) {
      const auto got = run_numpy_histogram(x, bins, range);
      const auto want = run_numpy_histogram(as_int32, bins, range);
      EXPECT_EQ(got.counts, want.counts) << bins;
      EXPECT_EQ(got.edges, want.edges) << bins;
      EXPECT_EQ(got.left_out, want.left_out) << bins;
    }
  }
  const std::vector<double> edges = {-100.0, -1.0, 0.0, 2.5, 1000.0, 65535};
  EXPECT_EQ(run_numpy_histogram_of_edges(x, edges), run_numpy_histogram_of_edges(as_int32, edges));
}

}  // namespace

// int8, int16 and uint16 samples (precompiled for NumPy's rule on the GPU):
// numpy 2.4.6's counts and edges for np.histogram(x, 7), np.histogram(x, 3,
// range=(-3.5, 100.25)) and np.histogram(x, bins=edges), the types'
// extremes included; then random values against the same values as int32.
SIDE_TEST(histogram_numpy, narrow_integer_samples) {
  const std::vector<double> edges = {-100.0, -1.0, 0.0, 2.5, 1000.0, 65535};
  const std::vector<double> ranged = {-3.5, 31.083333333333336, 65.66666666666667, 100.25};
  const gp::numpy_range range{-3.5, 100.25};
  using counts = std::vector<std::uint64_t>;

  const std::vector<std::int8_t> i8 = {-128, 127, 0, -1, 5, 5, 100, -100, 127};
  auto r = run_numpy_histogram(i8, 7);
  EXPECT_EQ(r.counts, (counts{2, 0, 0, 4, 0, 0, 3}));
  EXPECT_EQ(r.edges, (std::vector<double>{-128.0, -91.57142857142857, -55.14285714285714,
                                          -18.714285714285708, 17.714285714285722,
                                          54.14285714285717, 90.57142857142858, 127.0}));
  EXPECT_EQ(r.left_out, 0u);
  r = run_numpy_histogram(i8, 3, range);
  EXPECT_EQ(r.counts, (counts{4, 0, 1}));
  EXPECT_EQ(r.edges, ranged);
  EXPECT_EQ(r.left_out, 4u);
  EXPECT_EQ(run_numpy_histogram_of_edges(i8, edges), (counts{1, 1, 1, 5, 0}));

  const std::vector<std::int16_t> i16 = {-32768, 32767, 0, 1234, -1234, 7, 7, 7};
  r = run_numpy_histogram(i16, 7);
  EXPECT_EQ(r.counts, (counts{1, 0, 0, 6, 0, 0, 1}));
  EXPECT_EQ(r.edges, (std::vector<double>{-32768.0, -23405.857142857145, -14043.714285714286,
                                          -4681.5714285714275, 4680.5714285714275,
                                          14042.714285714283, 23404.857142857145, 32767.0}));
  r = run_numpy_histogram(i16, 3, range);
  EXPECT_EQ(r.counts, (counts{4, 0, 0}));
  EXPECT_EQ(r.edges, ranged);
  EXPECT_EQ(run_numpy_histogram_of_edges(i16, edges), (counts{0, 0, 1, 3, 2}));

  const std::vector<std::uint16_t> u16 = {0, 65535, 1, 40000, 40001, 12345, 65535};
  r = run_numpy_histogram(u16, 7);
  EXPECT_EQ(r.counts, (counts{2, 1, 0, 0, 2, 0, 2}));
  EXPECT_EQ(r.edges, (std::vector<double>{0.0, 9362.142857142857, 18724.285714285714,
                                          28086.428571428572, 37448.57142857143, 46810.71428571428,
                                          56172.857142857145, 65535.0}));
  r = run_numpy_histogram(u16, 3, range);
  EXPECT_EQ(r.counts, (counts{2, 0, 0}));
  EXPECT_EQ(r.edges, ranged);
  EXPECT_EQ(run_numpy_histogram_of_edges(u16, edges), (counts{0, 0, 2, 0, 5}));

  check_like_int32<std::int8_t>(81);
  check_like_int32<std::int16_t>(161);
  check_like_int32<std::uint16_t>(162);
}
