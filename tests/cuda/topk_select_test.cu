// GPU top-k by radix select (gpuprim/cuda/device/topk_select.cuh) against a
// stable sort on the host: every element type kind (1-, 4- and 8-byte
// integers, float, double), ties, all-equal keys, NaN, -0.0 / +0.0, k = 1 to
// n, largest and smallest, and stopping thresholds from 0 (narrow through
// every digit of the value and of the index) to the default, so every way
// the digit passes can end is taken; short rows, one block a row
// (topk_rows_block.cuh); and 2^31 + 5 bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/cuda/topk.cuh"
#include "support/cuda_fixture.hpp"
#include "support/order_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

template <class T>
T draw(std::mt19937_64& rng, int distinct) {
  const auto v = static_cast<long long>(rng() % static_cast<unsigned>(distinct));
  if constexpr (std::is_unsigned_v<T>) {
    return static_cast<T>(v);
  } else {
    return static_cast<T>(v - distinct / 2);
  }
}

// kind 0: wide (all bits random), 1: a few distinct values, 2: all equal,
// 3: floats with NaN, -0.0 and +0.0 among few values.
template <class T>
std::vector<T> make_input(std::size_t n, int kind, std::mt19937_64& rng) {
  std::vector<T> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (kind == 0) {
      if constexpr (std::is_floating_point_v<T>) {
        x[i] = static_cast<T>(std::ldexp(static_cast<double>(rng() >> 11), -40) - 4096.0);
      } else {
        x[i] = static_cast<T>(rng());
      }
    } else if (kind == 1) {
      x[i] = draw<T>(rng, 7);
    } else if (kind == 2) {
      x[i] = T(3);
    } else {
      const int c = static_cast<int>(rng() % 8);
      if constexpr (std::is_floating_point_v<T>) {
        x[i] = c == 0   ? std::numeric_limits<T>::quiet_NaN()
               : c == 1 ? -T(0)
               : c == 2 ? T(0)
                        : draw<T>(rng, 5);
      } else {
        x[i] = draw<T>(rng, 5);
      }
    }
  }
  return x;
}

using gp::cuda_impl::topk_select_state;
using gp::cuda_impl::topk_select_tuning;

// The radix select's result against the reference order; returns the
// select's last state (whether the pre-filter's buffer was read, and how
// many passed it).
template <class T>
topk_select_state expect_select(const std::vector<T>& x, const gp::device_vector<T>& dx,
                                const std::vector<std::int64_t>& order, std::size_t k, bool largest,
                                topk_select_tuning tuning) {
  gp::device_vector<T> v(k);
  gp::device_vector<std::int64_t> ix(k);
  gp::device_vector<topk_select_state> state(1);
  tuning.final_state = state.data();
  gp::cuda_impl::topk_radix_select(dx.data(), x.size(), k, largest, v.data(), ix.data(), nullptr,
                                   tuning);
  const auto gi = gp::to_host(ix);
  const auto gv = gp::to_host(v);
  for (std::size_t j = 0; j < k; ++j) {
    EXPECT_EQ(gi[j], order[j]) << "n " << x.size() << " k " << k << " largest " << largest
                               << " threshold " << tuning.threshold << " sample rank "
                               << tuning.sample_rank << " filter capacity "
                               << tuning.filter_capacity << " at " << j;
    if (gi[j] != order[j]) break;
    EXPECT_TRUE(same_value(gv[j], x[order[j]])) << "at " << j;
  }
  return gp::to_host(state)[0];
}

template <class T>
class topk_select : public typed_cuda_test<T> {};
using select_types = ::testing::Types<std::uint8_t, std::int32_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(topk_select, select_types);

TYPED_TEST(topk_select, matches_a_stable_sort_at_every_stopping_point) {
  using T = TypeParam;
  std::mt19937_64 rng(4545);
  // 69999: above the default threshold (2^16), under the sanitizer runs' cap.
  for (const std::size_t n : test_sizes({1, 2, 33, 1000, 69999, (1u << 20) + 3})) {
    for (int kind = 0; kind < 4; ++kind) {
      const auto x = make_input<T>(n, kind, rng);
      const auto dx = gp::to_device(x);
      for (const bool largest : {true, false}) {
        const auto order = reference_topk(x.data(), n, n, largest);
        std::vector<std::size_t> ks = {1, 2, 17, 1000, 65536, n / 2, n - 1, n};
        std::erase_if(ks, [&](std::size_t k) { return k == 0 || k > n; });
        for (const std::uint64_t threshold :
             {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{5000},
              gp::cuda_impl::topk_select_threshold})
          for (const std::size_t k : ks) {
            topk_select_tuning tuning;
            tuning.threshold = threshold;
            expect_select(x, dx, order, k, largest, tuning);
            if (::testing::Test::HasFailure()) return;
          }
      }
    }
  }
}

// The pre-filter (a sampled pivot, one read keeping the elements at or
// above it) at a size that runs fast: forced on arrays from 4096 elements
// by the test hooks, with pivots from the largest sample (few pass) to the
// 128th, and buffers of k elements (ties at the pivot overflow it), of the
// production size and of the whole array. Each case must give the reference's answer, and the
// buffer must be read exactly when at least k and at most its capacity
// passed (the other cases fall back to reading the array).
TYPED_TEST(topk_select, the_pre_filter_reads_its_buffer_or_falls_back) {
  using T = TypeParam;
  std::mt19937_64 rng(4548);
  int from_buffer = 0, fell_back = 0;
  for (const std::size_t n : test_sizes({4096, 69999})) {
    for (int kind = 0; kind < 4; ++kind) {
      const auto x = make_input<T>(n, kind, rng);
      const auto dx = gp::to_device(x);
      for (const bool largest : {true, false}) {
        const auto order = reference_topk(x.data(), n, n, largest);
        for (const std::size_t k : {std::size_t{1}, std::size_t{17}, std::size_t{1000}}) {
          for (const std::uint64_t rank : {1, 4, 128}) {
            for (const std::uint64_t capacity : {std::uint64_t{0}, std::uint64_t{k}, n}) {
              for (const std::uint64_t threshold : {std::uint64_t{0}, std::uint64_t{300}}) {
                topk_select_tuning tuning;
                tuning.threshold = threshold;
                tuning.sample_min_n = 0;
                tuning.sample_rank = rank;
                tuning.filter_capacity = capacity;
                const topk_select_state s = expect_select(x, dx, order, k, largest, tuning);
                if (::testing::Test::HasFailure()) return;
                // (0: the production size, 4 m n / 4096)
                const std::uint64_t size =
                    capacity != 0 ? capacity : 4 * rank * ((n + 4095) / 4096);
                const bool fits = s.filtered >= k && s.filtered <= std::min(size, n);
                ASSERT_EQ(s.from_buffer != 0, fits)
                    << "filtered " << s.filtered << " k " << k << " capacity " << capacity;
                ASSERT_LE(s.filtered, n);
                (fits ? from_buffer : fell_back) += 1;
              }
            }
          }
        }
      }
    }
  }
  if (test_sizes({4096}).empty()) return;
  EXPECT_GT(from_buffer, 0);
  EXPECT_GT(fell_back, 0);
}

// Short rows take one block a row (topk_rows_block.cuh), one row (a short
// array) too: row lengths about the block's candidate list (256) and its
// limit (4096), k up to its limit (128), every input kind; the rows padded
// (leading dimension).
TYPED_TEST(topk_select, short_rows_one_block_a_row) {
  using T = TypeParam;
  std::mt19937_64 rng(4546);
  for (const std::size_t rows : {std::size_t{1}, std::size_t{37}})
    for (const std::size_t cols :
         {std::size_t{1}, std::size_t{2}, std::size_t{255}, std::size_t{256}, std::size_t{257},
          std::size_t{4095}, std::size_t{4096}}) {
      const std::size_t ld = cols + 5;
      for (int kind = 0; kind < 4; ++kind) {
        const auto x = make_input<T>(rows * ld, kind, rng);
        const auto dx = gp::to_device(x);
        for (const bool largest : {true, false}) {
          for (std::size_t k : {std::size_t{1}, std::size_t{64}, std::size_t{128}, cols}) {
            if (k > cols || k > 128) continue;
            const bool block = gp::cuda_impl::topk_block_fits<T>(rows, cols, k);
            EXPECT_EQ(block, sizeof(T) <= 4);
            gp::device_vector<T> v(rows * k);
            gp::device_vector<std::int64_t> ix(rows * k);
            gp::topk_rows(gp::cuda, gp::device_matrix_view<const T>(dx.data(), rows, cols, ld), k,
                          gp::device_matrix_view<T>(v.data(), rows, k),
                          gp::device_matrix_view<std::int64_t>(ix.data(), rows, k),
                          largest ? gp::largest : gp::smallest);
            const auto gi = gp::to_host(ix);
            const auto gv = gp::to_host(v);
            for (std::size_t r = 0; r < rows; ++r) {
              const auto want = reference_topk(x.data() + r * ld, cols, k, largest);
              for (std::size_t j = 0; j < k; ++j) {
                ASSERT_EQ(gi[r * k + j], want[j]) << "cols " << cols << " kind " << kind << " k "
                                                  << k << " largest " << largest << " row " << r;
                ASSERT_TRUE(same_value(gv[r * k + j], x[r * ld + want[j]]));
              }
            }
          }
        }
      }
    }
}

// The public entry (gp::topk of one array takes the radix select).
TEST_F(cuda_test, topk_select_through_gp_topk_with_nan_and_signed_zeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {1, nan, 3, -0.0f, nan, 0.0f, 2, -0.0f};
  const auto dx = gp::to_device(x);
  gp::device_vector<float> v(8);
  gp::device_vector<std::int64_t> ix(8);
  gp::topk(gp::cuda, dx, 8, v, ix);
  EXPECT_EQ(gp::to_host(ix), (std::vector<std::int64_t>{1, 4, 2, 6, 0, 3, 5, 7}));
  gp::topk(gp::cuda, dx, 5, v, ix, gp::smallest);
  const auto small = gp::to_host(ix);
  EXPECT_EQ(std::vector<std::int64_t>(small.begin(), small.begin() + 5),
            (std::vector<std::int64_t>{3, 5, 7, 0, 6}));
  const auto values = gp::to_host(v);
  EXPECT_TRUE(std::signbit(values[0]));   // x[3] is -0.0
  EXPECT_FALSE(std::signbit(values[1]));  // x[5] is +0.0
}

__global__ void fill_bytes(std::uint8_t* x, std::uint64_t n) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t i = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += stride)
    x[i] = static_cast<std::uint8_t>(i * 7 % 200);
}

// Indices past 2^31: the largest sit there, the smallest at the start.
TEST_F(cuda_test, topk_select_of_two_to_the_31_plus_5_bytes) {
  const std::uint64_t n = (std::uint64_t{1} << 31) + 5;
  gp::device_vector<std::uint8_t> x(n);
  fill_bytes<<<1024, 256>>>(x.data(), n);
  const std::uint64_t big = std::uint64_t{1} << 31;
  const std::uint8_t top[] = {255, 255, 254};
  ASSERT_EQ(cudaMemset(x.data() + 5, 255, 1), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(x.data() + big + 1, top, 3, cudaMemcpyHostToDevice), cudaSuccess);
  gp::device_vector<std::uint8_t> v(5);
  gp::device_vector<std::int64_t> ix(5);
  gp::topk(gp::cuda, gp::device_span<const std::uint8_t>(x.data(), n), 5, v, ix);
  // 57 is the first i with i * 7 % 200 == 199, then 257.
  const std::int64_t b = static_cast<std::int64_t>(big);
  EXPECT_EQ(gp::to_host(ix), (std::vector<std::int64_t>{5, b + 1, b + 2, b + 3, 57}));
  EXPECT_EQ(gp::to_host(v), (std::vector<std::uint8_t>{255, 255, 255, 254, 199}));
  gp::topk(gp::cuda, gp::device_span<const std::uint8_t>(x.data(), n), 3, v, ix, gp::smallest);
  const auto small = gp::to_host(ix);
  EXPECT_EQ(std::vector<std::int64_t>(small.begin(), small.begin() + 3),
            (std::vector<std::int64_t>{0, 200, 400}));
}

// As `gpuprim bench order` runs it: 2^27 + 5 floats of a wide range, where
// every value occurs about eight times, so the k-th key ties with others
// of larger index; through the public gp::topk (the production route).
TEST_F(cuda_test, topk_of_a_large_array_with_many_ties_keeps_the_smaller_indices) {
  const auto sizes = test_sizes({(std::size_t{1} << 27) + 5});
  if (sizes.empty()) GTEST_SKIP() << "above GPUPRIM_TEST_MAX_SIZE";
  const std::size_t n = sizes[0];
  std::mt19937_64 rng(4547);
  std::vector<float> x(n);
  for (auto& v : x)
    v = static_cast<float>(std::ldexp(static_cast<double>(rng() >> 11), -53) * 2000.0 - 1000.0);
  const auto dx = gp::to_device(x);
  for (const bool largest : {true, false}) {
    // The reference: the largest (smallest) k by value, ties to the smaller index.
    const auto before = [&](std::int64_t i, std::int64_t j) {
      if (x[i] != x[j]) return largest ? x[i] > x[j] : x[i] < x[j];
      return i < j;
    };
    std::vector<std::int64_t> order(n);
    std::iota(order.begin(), order.end(), std::int64_t{0});
    const std::size_t most = 65536;
    std::partial_sort(order.begin(), order.begin() + most, order.end(), before);
    for (const std::size_t k : {std::size_t{16}, std::size_t{1024}, most}) {
      gp::device_vector<float> v(k);
      gp::device_vector<std::int64_t> ix(k);
      gp::topk(gp::cuda, dx, k, v, ix, largest ? gp::topk_end::largest : gp::topk_end::smallest);
      const auto gi = gp::to_host(ix);
      const auto gv = gp::to_host(v);
      for (std::size_t j = 0; j < k; ++j) {
        ASSERT_EQ(gi[j], order[j]) << "k " << k << " largest " << largest << " at " << j;
        ASSERT_EQ(gv[j], x[order[j]]) << "k " << k << " at " << j;
      }
    }
  }
}

}  // namespace
