// SpMV on each backend (support/side_test.hpp; on the GPU every kernel: row
// per thread, sub-warps, merge path, staged rows, hot columns on a matrix
// analysed by prepare_spmv, and the automatic choice with and without it)
// against the double reference of support/sparse_reference.hpp. The
// backends' own cases are in tests/host/sparse_test.cpp and
// tests/cuda/spmv_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "support/side_test.hpp"
#include "support/sparse_reference.hpp"
#include "support/test_data.hpp"

namespace {

template <class T, class I>
struct value_and_index {
  using value = T;
  using index = I;
};
using spmv_types =
    ::testing::Types<value_and_index<float, std::int32_t>, value_and_index<double, std::int32_t>,
                     value_and_index<float, std::int64_t>, value_and_index<double, std::int64_t>>;
SIDE_TYPED_SUITE(spmv, spmv_types);

// y = alpha A x + beta y against the reference, with each kernel of the GPU
// (drop_stats: without the matrix's row statistics, which the automatic
// choice then measures) or the host's one loop. With beta = 0, y starts as
// NaN: it must not be read.
template <class T, class I>
void check_spmv(const gp::csr_matrix<T, I>& A, T alpha, T beta, std::mt19937_64& rng,
                bool drop_stats = false) {
  const auto x = random_vector<T>(A.cols(), rng);
  const auto y0 = random_vector<T>(A.rows(), rng);
  const auto expected = reference_spmv(alpha, A, x, beta, y0);
  const auto scale = spmv_error_scale(A, x);
  const auto dx = side::put(x);
  const auto check = [&](const std::vector<T>& y, int kernel) {
    for (std::size_t r = 0; r < A.rows(); ++r) {
      const double tol =
          64 * std::numeric_limits<T>::epsilon() *
              (std::abs(double(alpha)) * scale[r] + std::abs(double(beta)) * 2 + 1e-30) +
          1e-300;
      ASSERT_NEAR(double(y[r]), expected[r], tol)
          << "row " << r << " of " << A.rows() << ", kernel " << kernel;
    }
  };
  const auto y_start = [&] {
    return beta == T(0) ? side::filled_bytes<T>(A.rows(), 0xff) : side::put(y0);
  };
  if constexpr (on_cuda) {
    const gp::device_csr_matrix<T, I> dA(A);
    for (const gp::spmv_kernel kernel :
         {gp::spmv_kernel::automatic, gp::spmv_kernel::row_per_thread, gp::spmv_kernel::subwarp,
          gp::spmv_kernel::merge_path, gp::spmv_kernel::staged_rows}) {
      auto dy = y_start();
      auto view = dA.view();
      if (drop_stats) view.stats = {};
      gp::spmv(side::backend(), alpha, view, dx, beta, dy, kernel);
      check(side::get(dy), static_cast<int>(kernel));
    }
    // The same matrix with its column analysis: the hot-columns kernel
    // (the merge path when no column is hot), forced and chosen.
    gp::device_csr_matrix<T, I> prepared(A);
    prepared.prepare_spmv();
    EXPECT_LE(prepared.stats().hot_entries, A.nnz());
    EXPECT_LE(prepared.stats().hot_columns, A.cols());
    for (const gp::spmv_kernel kernel :
         {gp::spmv_kernel::automatic, gp::spmv_kernel::hot_columns}) {
      auto dy = y_start();
      auto view = prepared.view();
      if (drop_stats) view.stats = {};
      gp::spmv(side::backend(), alpha, view, dx, beta, dy, kernel);
      check(side::get(dy), 100 + static_cast<int>(kernel));
    }
    // Forced on a matrix without the analysis: the merge path.
    auto dy = y_start();
    gp::spmv(side::backend(), alpha, dA, dx, beta, dy, gp::spmv_kernel::hot_columns);
    check(side::get(dy), 200);
  } else {
    auto y = y_start();
    gp::spmv(side::backend(), alpha, A, dx, beta, y);
    check(y, 0);
  }
}

// rows x cols where every column has per_column entries (row r: columns
// r, r + stride, ... mod cols, so rows * per_row = cols * per_column), each
// other row empty when `gaps`, and row `huge` (when below rows) also
// holding every column once: a column analysis finds every column hot,
// more than a GPU table holds when cols is large.
template <class T, class I>
gp::csr_matrix<T, I> every_column_hot(std::size_t cols, std::size_t per_row, bool gaps,
                                      std::size_t huge, std::mt19937_64& rng) {
  const std::size_t filled = cols;  // rows with entries
  const std::size_t rows = gaps ? 2 * filled : filled;
  const std::size_t stride = cols / per_row;
  std::vector<I> offsets(rows + 1, 0), c;
  std::vector<T> v;
  std::uniform_real_distribution<double> val(-1.0, 1.0);
  for (std::size_t r = 0; r < rows; ++r) {
    std::vector<I> row;
    if (!gaps || r % 2 == 1) {
      const std::size_t f = gaps ? r / 2 : r;
      for (std::size_t j = 0; j < per_row; ++j)
        row.push_back(static_cast<I>((f + j * stride) % cols));
    }
    if (r == huge) {
      row.clear();
      for (std::size_t j = 0; j < cols; ++j)
        row.push_back(static_cast<I>(j));
    }
    std::sort(row.begin(), row.end());
    for (const I col : row) {
      c.push_back(col);
      v.push_back(static_cast<T>(val(rng)));
    }
    offsets[r + 1] = static_cast<I>(c.size());
  }
  return gp::csr_matrix<T, I>(rows, cols, std::move(offsets), std::move(c), std::move(v));
}

}  // namespace

SIDE_TYPED_TEST(spmv, matches_reference_at_every_size) {
  using V = typename T::value;
  using I = typename T::index;
  auto rng = make_rng(501);
  for (const std::size_t n : standard_sizes()) {
    for (const std::size_t mean : {1, 4, 5, 40}) {
      if (n > 100000 && mean == 40) continue;
      const auto A = random_csr<V, I>(n, n ? n : 1, mean, rng);
      check_spmv<V, I>(A, V(1), V(0), rng);
      check_spmv<V, I>(A, V(-0.5), V(2), rng, true);
    }
  }
}

SIDE_TYPED_TEST(spmv, uneven_rows_and_rectangular) {
  using V = typename T::value;
  using I = typename T::index;
  auto rng = make_rng(502);
  check_spmv<V, I>(random_csr<V, I>(5000, 3000, 3, rng, 97, 2500), V(1.5), V(0), rng);
  // Rows longer than a GPU merge-path tile (2048 items), across tiles.
  check_spmv<V, I>(random_csr<V, I>(20000, 30000, 3, rng, 997, 25000), V(1.5), V(0), rng);
  check_spmv<V, I>(random_csr<V, I>(3, 100000, 2, rng, 1, 90000), V(1), V(1), rng);
  check_spmv<V, I>(random_csr<V, I>(10000, 7, 0, rng), V(1), V(1), rng);  // all rows empty
  check_spmv<V, I>(gp::rmat<V, I>(14, 16, 9), V(1), V(0), rng);
  check_spmv<V, I>(gp::poisson2d<V, I>(100), V(1), V(0), rng);
}

// The hot-columns kernel's cases (check_spmv runs it on the GPU): more hot
// columns than the table holds, empty rows between them, one row with
// every column, few columns (all hot, a small table), and a column
// analysis that finds no hot column (uniform random columns).
SIDE_TYPED_TEST(spmv, hot_columns_cases) {
  using V = typename T::value;
  using I = typename T::index;
  auto rng = make_rng(504);
  const auto wide = every_column_hot<V, I>(60000, 40, false, 5, rng);
  check_spmv<V, I>(wide, V(1), V(0), rng);
  check_spmv<V, I>(every_column_hot<V, I>(60000, 40, true, 7, rng), V(-0.5), V(2), rng);
  check_spmv<V, I>(every_column_hot<V, I>(500, 50, true, 3, rng), V(1), V(1), rng, true);
  check_spmv<V, I>(every_column_hot<V, I>(37, 37, false, 1000, rng), V(2), V(0), rng);
  check_spmv<V, I>(random_csr<V, I>(50000, 50000, 4, rng, 501, 20000), V(1), V(0), rng);
  check_spmv<V, I>(gp::rmat<V, I>(16, 16, 5), V(1), V(0.5), rng);
  if constexpr (on_cuda) {
    // More hot columns than one SM's table: the hottest that fit, all
    // with 41 entries (40, and the huge row's; the huge row replaced 40
    // columns' entry of row 5); none in the uniform matrix.
    gp::device_csr_matrix<V, I> dA(wide);
    dA.prepare_spmv();
    EXPECT_GT(dA.stats().hot_columns, std::size_t{1000});
    EXPECT_LT(dA.stats().hot_columns, wide.cols());
    EXPECT_EQ(dA.stats().hot_entries, 41 * dA.stats().hot_columns);
    gp::device_csr_matrix<V, I> uniform(random_csr<V, I>(50000, 50000, 2, rng));
    uniform.prepare_spmv();
    EXPECT_EQ(uniform.stats().hot_columns, 0u);
    EXPECT_EQ(uniform.stats().hot_entries, 0u);
  }
}

// gp::check_csr(backend, view): the row statistics of a valid matrix, and
// for each defect the host check's message (the first bad row), on the
// view's own memory.
SIDE_TYPED_TEST(spmv, structure_check) {
  using V = typename T::value;
  using I = typename T::index;
  auto rng = make_rng(505);
  // Runs the check of this side on the arrays; returns its message or "".
  auto check = [](std::size_t rows, std::size_t cols, const std::vector<I>& offsets,
                  const std::vector<I>& columns, const std::vector<V>& values,
                  gp::csr_row_stats* stats = nullptr) -> std::string {
    const auto o = side::put(offsets);
    const auto c = side::put(columns);
    const auto v = side::put(values);
    try {
      gp::csr_row_stats s;
      if constexpr (on_cuda) {
        s = gp::check_csr(side::backend(),
                          gp::device_csr_view<V, I>{
                              rows, cols, side::span(o), side::span(c), side::span(v), {}, {}});
      } else {
        s = gp::check_csr(side::backend(), gp::csr_view<V, I>{rows, cols, side::span(o),
                                                              side::span(c), side::span(v)});
      }
      if (stats) *stats = s;
      return "";
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
  };
  for (const auto& A : {random_csr<V, I>(3001, 2000, 4, rng, 7, 100), gp::poisson2d<V, I>(30),
                        random_csr<V, I>(1000, 7, 0, rng), gp::csr_matrix<V, I>(0, 5)}) {
    gp::csr_row_stats s;
    EXPECT_EQ(check(A.rows(), A.cols(), A.row_offsets(), A.col_indices(), A.values(), &s), "");
    const gp::csr_row_stats want = A.stats();
    EXPECT_TRUE(s.known);
    EXPECT_EQ(s.rows, want.rows);
    EXPECT_EQ(s.nnz, want.nnz);
    EXPECT_EQ(s.max_row, want.max_row);
    EXPECT_EQ(s.empty_rows, want.empty_rows);
  }
  // Each defect: the same message as the host's csr_matrix check.
  const auto P = gp::poisson2d<V, I>(5);  // 25 x 25
  auto expect_defect = [&](std::vector<I> offsets, std::vector<I> columns, const char* what,
                           std::size_t rows = 25) {
    const std::vector<V> values(columns.size(), V(1));
    std::string host;
    try {
      gp::check_csr(gp::csr_view<V, I>{rows, 25, offsets, columns, values});
    } catch (const std::invalid_argument& e) {
      host = e.what();
    }
    ASSERT_FALSE(host.empty()) << what;
    EXPECT_EQ(check(rows, 25, offsets, columns, values), host) << what;
    EXPECT_NE(host.find(what), std::string::npos) << host;
  };
  std::vector<I> offsets = P.row_offsets(), columns = P.col_indices();
  auto o = offsets;
  o[0] = 1;
  expect_defect(o, columns, "row_offsets[0] is 1, not 0");
  o = offsets;
  std::swap(o[7], o[8]);
  expect_defect(o, columns, "row 7: row_offsets decrease");
  o = offsets;
  o[12] = static_cast<I>(columns.size() + 3);
  expect_defect(o, columns, "row 11: row_offsets[12]");
  o = offsets;
  o[25] = o[24];
  expect_defect(o, columns, "the last row offset is");
  auto c = columns;
  c[40] = 25;
  c[90] = -1;
  expect_defect(offsets, c, "column index 25 is outside [0, 25)");
  expect_defect({2}, {0, 1}, "row_offsets[0] is 2, not 0", 0);
  expect_defect({0}, {0, 1}, "the last row offset is 0", 0);
}
