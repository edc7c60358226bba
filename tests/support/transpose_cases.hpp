// The gp::transpose check both backends share, run on a `Side`
// (support/sides.hpp): distinct elements in, the output's own distinct
// elements as its poison, so that an unwritten element and a written
// padding element both show.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpuprim/transpose.hpp"
#include "support/dense_reference.hpp"
#include "support/sides.hpp"

namespace gpuprim::test {

// A rows x cols matrix (leading dimension ld_in) transposed into a cols x
// rows one (ld_out), both starting `offset` elements into their buffers.
template <class Side, class T>
void check_transpose(std::mt19937_64& rng, std::size_t rows, std::size_t cols, std::size_t ld_in,
                     std::size_t ld_out, std::size_t offset = 0) {
  const auto in = distinct_elements<T>(offset + rows * ld_in, rng);
  const auto out = distinct_elements<T>(offset + cols * ld_out, rng);
  const auto d_in = Side::put(in);
  auto d_out = Side::put(out);
  transpose(Side::backend(),
            typename Side::template matrix_view<const T>(d_in.data() + offset, rows, cols, ld_in),
            typename Side::template matrix_view<T>(d_out.data() + offset, cols, rows, ld_out));
  const auto got = Side::get(d_out);
  const std::vector<T> in_view(in.begin() + offset, in.end());
  const std::vector<T> got_view(got.begin() + offset, got.end());
  ASSERT_TRUE(is_transpose(in_view, rows, cols, ld_in, got_view, ld_out))
      << rows << " x " << cols << " ld " << ld_in << "/" << ld_out << " offset " << offset;
  for (std::size_t c = 0; c < cols; ++c)  // the padding is not written
    for (std::size_t r = rows; r < ld_out; ++r)
      ASSERT_TRUE(same_bits(got[offset + c * ld_out + r], out[offset + c * ld_out + r]));
}

}  // namespace gpuprim::test
