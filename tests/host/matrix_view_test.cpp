// gp::matrix_view / gp::device_matrix_view: the checked constructor, blocks,
// element access and the overlap test the matrix algorithms refuse aliasing
// with.
#include <gtest/gtest.h>

#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "gpuprim/core/matrix_view.hpp"

namespace gp = gpuprim;

TEST(matrix_view, packed_and_strided_access) {
  std::vector<int> v(3 * 5);
  std::iota(v.begin(), v.end(), 0);
  gp::matrix_view<int> packed(v.data(), 3, 5);
  EXPECT_EQ(packed.ld(), 5u);
  EXPECT_TRUE(packed.packed());
  EXPECT_EQ(packed(2, 4), 14);
  EXPECT_EQ(packed.extent(), 15u);

  gp::matrix_view<int> strided(v.data(), 3, 2, 5);  // the first two columns
  EXPECT_FALSE(strided.packed());
  EXPECT_EQ(strided(1, 1), 6);
  EXPECT_EQ(strided.row(2)[1], 11);
  EXPECT_EQ(strided.extent(), 12u);

  gp::matrix_view<const int> as_const = strided;
  EXPECT_EQ(as_const(2, 0), 10);

  auto b = packed.block(1, 2, 2, 3);
  EXPECT_EQ(b(0, 0), 7);
  EXPECT_EQ(b(1, 2), 14);
  EXPECT_EQ(b.ld(), 5u);
  EXPECT_THROW(packed.block(2, 0, 2, 1), std::out_of_range);
  EXPECT_THROW(packed.block(0, 4, 1, 2), std::out_of_range);
}

TEST(matrix_view, checked_constructor) {
  int x = 0;
  EXPECT_THROW(gp::matrix_view<int>(&x, 2, 5, 4), std::invalid_argument);
  constexpr std::size_t max = std::numeric_limits<std::size_t>::max();
  EXPECT_THROW(gp::matrix_view<int>(&x, max / 2, 4, 4), std::invalid_argument);
  EXPECT_THROW(gp::device_matrix_view<int>(&x, 3, 5, 1), std::invalid_argument);
  // Empty matrices take any leading dimension.
  EXPECT_NO_THROW(gp::matrix_view<int>(nullptr, 0, 7, 0));
  EXPECT_NO_THROW(gp::matrix_view<int>(nullptr, 7, 0, 0));
  EXPECT_EQ(gp::matrix_view<int>(nullptr, 0, 7, 0).extent(), 0u);
}

TEST(matrix_view, from_span_checks_size) {
  std::vector<float> v(10);
  EXPECT_NO_THROW(gp::make_matrix_view(std::span(v), 2, 5));
  EXPECT_NO_THROW(gp::make_matrix_view(std::span(v), 2, 3, 7));  // 7 + 3 = 10
  EXPECT_THROW(gp::make_matrix_view(std::span(v), 2, 4, 7), std::invalid_argument);
  EXPECT_THROW(gp::make_matrix_view(std::span(v), 3, 4), std::invalid_argument);
  gp::device_span<float> d(v.data(), v.size());  // never dereferenced on the host
  EXPECT_THROW(gp::make_matrix_view(d, 11, 1), std::invalid_argument);
  EXPECT_EQ(gp::make_matrix_view(d, 5, 2).rows(), 5u);
}

TEST(matrix_view, overlap) {
  std::vector<double> v(100);
  gp::matrix_view<double> a(v.data(), 4, 4, 10);       // elements 0 .. 33
  gp::matrix_view<double> b(v.data() + 34, 2, 2, 10);  // 34 .. 45
  gp::matrix_view<double> c(v.data() + 33, 1, 1);      // 33
  EXPECT_FALSE(gp::ranges_overlap(a, b));
  EXPECT_TRUE(gp::ranges_overlap(a, c));
  EXPECT_TRUE(gp::ranges_overlap(a, a));
  EXPECT_FALSE(gp::ranges_overlap(a, gp::matrix_view<double>(v.data(), 0, 4)));
}
