// The sparse family on the CPU backend: CSR types, COO conversion, SpMV's
// own checks and the generators, against the double references of
// support/sparse_reference.hpp. SpMV against the reference on both backends
// is in tests/sides/spmv_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "support/sparse_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_spmv_checks, size_mismatch_throws_before_writing) {
  const auto A = gp::poisson2d<double, int>(3);
  std::vector<double> x(8, 1.0), y(9, 7.0);
  EXPECT_THROW(gp::spmv(gp::host, 1.0, A, x, 0.0, y), std::invalid_argument);
  x.resize(9);
  std::vector<double> short_y(8, 7.0);
  EXPECT_THROW(gp::spmv(gp::host, 1.0, A, x, 0.0, short_y), std::invalid_argument);
  for (double v : short_y)
    EXPECT_EQ(v, 7.0);
  // x and y overlapping.
  std::vector<double> both(9, 1.0);
  EXPECT_THROW(gp::spmv(gp::host, 1.0, A, std::span<const double>(both), 0.0, std::span(both)),
               std::invalid_argument);
}

TEST(host_spmv_checks, nan_propagates_through_x_and_beta_zero_ignores_y) {
  const auto A = gp::poisson2d<double, int>(2);  // 4 x 4
  std::vector<double> x = {1, std::nan(""), 1, 1};
  std::vector<double> y(4, std::nan(""));
  gp::spmv(gp::host, 1.0, A, x, 0.0, y);
  EXPECT_TRUE(std::isnan(y[0]));  // row 0 reads x[1]
  EXPECT_TRUE(std::isnan(y[1]));
  EXPECT_TRUE(std::isnan(y[3]));
  EXPECT_EQ(y[2], 4.0 - 1.0 - 1.0);  // row 2 = (1, 0): neighbours 0 and 3
}

TEST(csr_matrix, checked_constructor_names_the_first_bad_row) {
  using M = gp::csr_matrix<float, int>;
  try {
    M(3, 3, {0, 1, 0, 2}, {0, 1}, {1.f, 2.f});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row 1"), std::string::npos) << e.what();
  }
  try {
    M(2, 3, {0, 1, 2}, {0, 3}, {1.f, 2.f});
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("row 1: column index 3"), std::string::npos) << e.what();
  }
  EXPECT_THROW(M(2, 3, {0, 1, 1}, {0, 1}, {1.f, 2.f}), std::invalid_argument);  // last != nnz
  EXPECT_THROW(M(2, 3, {0, 1}, {0}, {1.f}), std::invalid_argument);             // offsets size
  EXPECT_THROW(M(1, 3, {1, 1}, {}, {}), std::invalid_argument);                 // offsets[0]
  EXPECT_THROW(M(1, 3, {0, 2}, {0, 1}, {1.f}), std::invalid_argument);          // sizes
  EXPECT_THROW(M(1, 3, {0, 1}, {-1}, {1.f}), std::invalid_argument);
  const M ok(2, 3, {0, 0, 2}, {2, 0}, {1.f, 2.f});  // empty row, unsorted columns
  EXPECT_EQ(ok.nnz(), 2u);
  EXPECT_EQ(ok.stats().empty_rows, 1u);
  EXPECT_EQ(ok.stats().max_row, 2u);
  const M empty;
  EXPECT_EQ(empty.rows(), 0u);
  EXPECT_EQ(empty.row_offsets().size(), 1u);
}

TEST(csr_matrix, coo_to_csr_sums_duplicates_and_sorts_rows) {
  const std::vector<std::int64_t> r = {2, 0, 2, 0, 2, 1};
  const std::vector<std::int64_t> c = {1, 3, 0, 0, 1, 2};
  const std::vector<double> v = {1, 2, 3, 4, 5, 6};
  const auto A = gp::coo_to_csr<double, std::int64_t>(4, 4, r, c, v);
  EXPECT_EQ(A.row_offsets(), (std::vector<std::int64_t>{0, 2, 3, 5, 5}));
  EXPECT_EQ(A.col_indices(), (std::vector<std::int64_t>{0, 3, 2, 0, 1}));
  EXPECT_EQ(A.values(), (std::vector<double>{4, 2, 6, 3, 6}));
  const std::vector<std::int64_t> bad_r = {0, 4};
  const std::vector<std::int64_t> bad_c = {0, 0};
  const std::vector<double> bad_v = {1, 1};
  try {
    gp::coo_to_csr<double, std::int64_t>(4, 4, bad_r, bad_c, bad_v);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("entry 1 (4, 0)"), std::string::npos) << e.what();
  }
}

TEST(csr_matrix, int32_indices_refuse_what_does_not_fit) {
  const std::vector<int> r = {0}, c = {0};
  const std::vector<float> v = {1};
  EXPECT_THROW((gp::coo_to_csr<float, int>(std::size_t{1} << 32, 1, r, c, v)),
               std::invalid_argument);
}

TEST(sparse_generate, poisson2d_structure) {
  const auto A = gp::poisson2d<double, int>(3);
  EXPECT_EQ(A.rows(), 9u);
  EXPECT_EQ(A.nnz(), 9u * 5 - 4 * 3);
  const auto d = to_dense(A);
  for (std::size_t i = 0; i < 9; ++i) {
    EXPECT_EQ(d[i * 9 + i], 4.0);
    for (std::size_t j = 0; j < 9; ++j)
      EXPECT_EQ(d[i * 9 + j], d[j * 9 + i]);
  }
  EXPECT_EQ(d[0 * 9 + 1], -1.0);
  EXPECT_EQ(d[2 * 9 + 3], 0.0);  // (0, 2) and (1, 0) are not neighbours
  EXPECT_EQ(d[0 * 9 + 3], -1.0);
  EXPECT_EQ((gp::poisson2d<float, int>(0).rows()), 0u);
}

TEST(sparse_generate, random_spd_is_symmetric_and_dominant) {
  const auto A = gp::random_spd<double, std::int64_t>(200, 6, 5);
  const auto d = to_dense(A);
  for (std::size_t i = 0; i < 200; ++i) {
    double off = 0;
    for (std::size_t j = 0; j < 200; ++j) {
      EXPECT_EQ(d[i * 200 + j], d[j * 200 + i]);
      if (j != i) off += std::abs(d[i * 200 + j]);
    }
    EXPECT_GT(d[i * 200 + i], off);
  }
  // Deterministic in the seed.
  EXPECT_EQ(A.values(), (gp::random_spd<double, std::int64_t>(200, 6, 5).values()));
}

TEST(sparse_generate, rmat_is_power_law) {
  const auto G = gp::rmat<float, int>(14, 16, 3);
  EXPECT_EQ(G.rows(), 1u << 14);
  EXPECT_GT(G.nnz(), (1u << 14) * 8u);
  EXPECT_LE(G.nnz(), (1u << 14) * 16u);
  const auto s = G.stats();
  EXPECT_GT(static_cast<double>(s.max_row), 20 * s.mean_row());
  EXPECT_GT(s.empty_rows, 0u);
  EXPECT_EQ(gp::choose_spmv_kernel(s).kernel, gp::spmv_kernel::merge_path);
  EXPECT_EQ(gp::choose_spmv_kernel(gp::poisson2d<float, int>(64).stats()).kernel,
            gp::spmv_kernel::staged_rows);
  EXPECT_EQ(gp::choose_spmv_kernel(gp::random_spd<float, int>(512, 24, 1).stats()).kernel,
            gp::spmv_kernel::subwarp);
}

// The column analysis behind prepare_spmv: the most frequent columns with
// at least min_count entries, at most `capacity`, ties to the lower
// column; the recoded indices decode to the original ones.
TEST(sparse_hot_columns, analysis_picks_and_recodes) {
  // Column counts: 0 -> 1, 1 -> 5, 2 -> 3, 3 -> 5, 4 -> 2, 5 -> 0, 6 -> 3.
  const std::vector<int> cols = {1, 3, 2, 1, 6, 3, 0, 1, 3, 2, 6, 4, 1, 3, 2, 6, 4, 1, 3};
  auto a = gp::detail::sparse::analyse_hot_columns<int>(7, cols, 3, 2);
  EXPECT_EQ(a.columns, (std::vector<int>{1, 2, 3}));  // 1 and 3 (5 each), then 2 before 6
  EXPECT_EQ(a.entries, 13u);
  ASSERT_EQ(a.recoded.size(), cols.size());
  for (std::size_t k = 0; k < cols.size(); ++k) {
    const int c = a.recoded[k];
    if (c < 0) {
      const int slot = c & std::numeric_limits<int>::max();
      ASSERT_LT(slot, 3);
      EXPECT_EQ(a.columns[slot], cols[k]) << k;
    } else {
      EXPECT_EQ(c, cols[k]) << k;
      EXPECT_TRUE(c == 0 || c == 4 || c == 6) << k;
    }
  }
  // min_count excludes the rare columns; a large capacity takes the rest.
  a = gp::detail::sparse::analyse_hot_columns<int>(7, cols, 100, 4);
  EXPECT_EQ(a.columns, (std::vector<int>{1, 3}));
  EXPECT_EQ(a.entries, 10u);
  // Nothing hot: no recoded copy.
  a = gp::detail::sparse::analyse_hot_columns<int>(7, cols, 100, 6);
  EXPECT_TRUE(a.columns.empty());
  EXPECT_TRUE(a.recoded.empty());
  EXPECT_EQ(a.entries, 0u);
  EXPECT_TRUE((gp::detail::sparse::analyse_hot_columns<std::int64_t>(0, {}, 10, 1).columns.empty()));
  // int64: the flag is the sign bit of 64 bits.
  const std::vector<std::int64_t> wide = {5, 5, 9, 5};
  const auto b = gp::detail::sparse::analyse_hot_columns<std::int64_t>(10, wide, 1, 2);
  EXPECT_EQ(b.columns, (std::vector<std::int64_t>{5}));
  EXPECT_EQ(b.recoded, (std::vector<std::int64_t>{gp::hot_column_flag<std::int64_t>,
                                                  gp::hot_column_flag<std::int64_t>, 9,
                                                  gp::hot_column_flag<std::int64_t>}));
}

// choose_spmv_kernel takes hot_columns only where it would take the merge
// path, the matrix is large and its hot columns hold enough of it.
TEST(sparse_hot_columns, choice_rule) {
  gp::csr_row_stats s;
  s.known = true;
  s.rows = 1 << 22;
  s.nnz = 16 * s.rows;
  s.max_row = 100000;
  EXPECT_EQ(gp::choose_spmv_kernel(s).kernel, gp::spmv_kernel::merge_path);
  s.hot_columns = 50000;
  s.hot_entries = s.nnz / 2;
  EXPECT_EQ(gp::choose_spmv_kernel(s).kernel, gp::spmv_kernel::hot_columns);
  s.hot_entries = s.nnz / 3;  // too few of the entries
  EXPECT_EQ(gp::choose_spmv_kernel(s).kernel, gp::spmv_kernel::merge_path);
  s.hot_entries = s.nnz / 2;
  s.max_row = 64;  // even rows: the other kernels, unmeasured with hot columns
  EXPECT_EQ(gp::choose_spmv_kernel(s).kernel, gp::spmv_kernel::subwarp);
  s.max_row = 100000;
  s.rows = 1 << 16;  // too small
  s.nnz = 16 * s.rows;
  s.hot_entries = s.nnz / 2;
  EXPECT_EQ(gp::choose_spmv_kernel(s).kernel, gp::spmv_kernel::merge_path);
  EXPECT_EQ(gp::choose_spmv_kernel(s, gp::spmv_kernel::hot_columns).kernel,
            gp::spmv_kernel::hot_columns);
  // The table: what a block's shared memory holds beside 32 warp stages.
  EXPECT_EQ(gp::detail::sparse::hot_table_capacity<float>(232448), 49888u);
  EXPECT_EQ(gp::detail::sparse::hot_shared_bytes<float>(49888), 232448u);
  EXPECT_EQ(gp::detail::sparse::hot_table_capacity<double>(232448), 20832u);
  EXPECT_LE(gp::detail::sparse::hot_shared_bytes<double>(20832), 232448u);
  EXPECT_EQ(gp::detail::sparse::hot_table_capacity<float>(1000), 0u);
}
