// GPU merge, merge sort and top-k beyond the side tests: a 16-byte struct
// sorted by one member through a device lambda (instantiated here from
// gpuprim/cuda/merge.cuh), a merge of 2^31 + 5 bytes, and top-k with k = 1,
// k = n, rows of 1 and of 2^20, and NaN.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/cuda/merge.cuh"
#include "gpuprim/cuda/topk.cuh"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

struct record {
  float score;
  std::int32_t id;
  std::int64_t payload;
};

template <class T>
std::vector<T> get(const gp::device_vector<T>& d) {
  return gp::to_host(d);
}

// NumPy's order on (value, index): the k first, largest or smallest.
std::vector<std::int64_t> reference_topk(const std::vector<float>& x, std::size_t k,
                                         bool largest) {
  std::vector<std::int64_t> idx(x.size());
  std::iota(idx.begin(), idx.end(), std::int64_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](std::int64_t a, std::int64_t b) {
    return largest ? gp::nan_first_greater{}(x[a], x[b]) : gp::nan_last_less{}(x[a], x[b]);
  });
  idx.resize(k);
  return idx;
}

// Device lambdas may not live in a TEST body (a private member function).
void sort_by_score_descending(gp::device_vector<record>& x) {
  gp::merge_sort(gp::cuda, x,
                 [] __device__(const record& a, const record& b) { return a.score > b.score; });
}

void merge_bytes(const gp::device_vector<std::uint8_t>& a, const gp::device_vector<std::uint8_t>& b,
                 gp::device_vector<std::uint8_t>& out) {
  gp::merge(gp::cuda, a, b, out, [] __device__(std::uint8_t x, std::uint8_t y) { return x < y; });
}

}  // namespace

TEST_F(cuda_test, merge_sort_of_a_struct_by_a_member_through_a_device_lambda) {
  std::mt19937_64 rng(451);
  std::uniform_int_distribution<int> d(0, 999);
  for (const std::size_t n : {std::size_t{1}, std::size_t{2047}, std::size_t{2049},
                              std::size_t{100'003}, std::size_t{1} << 20}) {
    std::vector<record> x(n);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = {static_cast<float>(d(rng)) * 0.25f, static_cast<std::int32_t>(i),
              static_cast<std::int64_t>(i) * 3};
    auto want = x;
    std::stable_sort(want.begin(), want.end(),
                     [](const record& a, const record& b) { return a.score > b.score; });
    auto dx = gp::to_device(x);
    sort_by_score_descending(dx);
    const auto got = get(dx);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i].score, want[i].score) << "n " << n << " at " << i;
      ASSERT_EQ(got[i].id, want[i].id) << "n " << n << " at " << i;
      ASSERT_EQ(got[i].payload, want[i].payload) << "n " << n << " at " << i;
    }
  }
}

TEST_F(cuda_test, merge_of_two_to_the_31_plus_5_bytes) {
  const std::size_t n = (std::size_t{1} << 31) + 5;
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  if (free_bytes < 2 * n + (std::size_t{1} << 30)) GTEST_SKIP() << "needs ~5 GiB of device memory";
  // a: n / 2 + 3 bytes, b the rest; both sorted with every byte value in
  // long runs, so the merge path crosses ties everywhere.
  const std::size_t na = n / 2 + 3, nb = n - na;
  std::vector<std::uint8_t> a(na), b(nb);
  for (std::size_t i = 0; i < na; ++i)
    a[i] = static_cast<std::uint8_t>(i * 256 / na);
  for (std::size_t i = 0; i < nb; ++i)
    b[i] = static_cast<std::uint8_t>(i * 256 / nb);
  const auto da = gp::to_device(a);
  const auto db = gp::to_device(b);
  gp::device_vector<std::uint8_t> out(n);
  merge_bytes(da, db, out);
  std::vector<std::uint8_t> want(n);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  const auto got = get(out);
  ASSERT_EQ(got.size(), n);
  for (std::size_t i = 0; i < n; ++i)
    if (got[i] != want[i]) FAIL() << "first difference at " << i;
}

TEST_F(cuda_test, topk_k_1_k_n_nan_and_rows_of_1_and_2_to_the_20) {
  std::mt19937_64 rng(452);
  std::uniform_int_distribution<int> d(0, 50);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{1} << 20}) {
    std::vector<float> x(n);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = d(rng) == 0 ? nan : static_cast<float>(d(rng)) - 25.0f;
    if (n > 1) x[1] = -0.0f;
    auto dx = gp::to_device(x);
    for (const std::size_t k : {std::size_t{1}, std::min<std::size_t>(n, 64), n}) {
      for (const bool largest : {true, false}) {
        gp::device_vector<float> v(k);
        gp::device_vector<std::int64_t> ix(k);
        gp::topk(gp::cuda, dx, k, v, ix, largest ? gp::largest : gp::smallest);
        const auto want = reference_topk(x, k, largest);
        const auto gi = get(ix);
        const auto gv = get(v);
        for (std::size_t j = 0; j < k; ++j) {
          ASSERT_EQ(gi[j], want[j]) << "n " << n << " k " << k << " largest " << largest;
          const float w = x[want[j]];
          ASSERT_TRUE(std::isnan(w) ? std::isnan(gv[j]) : gv[j] == w) << "at " << j;
        }
      }
    }
  }
  // Rows: 3 rows of 2^20 (leading dimension 2^20 + 7) and 5000 rows of 1.
  for (const auto& [rows, cols] : {std::pair<std::size_t, std::size_t>{3, std::size_t{1} << 20},
                                   std::pair<std::size_t, std::size_t>{5000, 1}}) {
    const std::size_t ld = cols + 7, k = std::min<std::size_t>(cols, 16);
    std::vector<float> x(rows * ld, 1e30f);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c)
        x[r * ld + c] = d(rng) == 0 ? nan : static_cast<float>(d(rng));
    const auto dx = gp::to_device(x);
    gp::device_vector<float> v(rows * k);
    gp::device_vector<std::int64_t> ix(rows * k);
    gp::topk_rows(gp::cuda, gp::device_matrix_view<const float>(dx.data(), rows, cols, ld), k,
                  gp::device_matrix_view<float>(v.data(), rows, k),
                  gp::device_matrix_view<std::int64_t>(ix.data(), rows, k));
    const auto gi = get(ix);
    for (std::size_t r = 0; r < rows; ++r) {
      const std::vector<float> row(x.begin() + r * ld, x.begin() + r * ld + cols);
      const auto want = reference_topk(row, k, true);
      for (std::size_t j = 0; j < k; ++j)
        ASSERT_EQ(gi[r * k + j], want[j]) << "row " << r << " of " << rows << " at " << j;
    }
  }
}
