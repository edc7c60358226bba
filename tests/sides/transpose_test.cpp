// gp::transpose on each backend (support/side_test.hpp): every element size
// (1, 2, 4, 8, 16 bytes), typed and byte-generic, every shape of the shared
// list, leading dimensions wider than the matrices, unaligned views, stacks.
// Outputs are poisoned first, so an unwritten element fails. The backends' own cases are
// in tests/host/transpose_test.cpp and tests/cuda/transpose_test.cpp.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gpuprim/transpose.hpp"
#include "support/dense_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"
#include "support/transpose_cases.hpp"

namespace {

using element_types = ::testing::Types<std::int8_t, std::uint16_t, float, double,
                                       std::complex<double>, int_float_pair>;
SIDE_TYPED_SUITE(transpose, element_types);

SIDE_TYPED_TEST(transpose, every_shape_packed_padded_and_unaligned) {
  auto rng = make_rng(401);
  for (const auto [rows, cols] : transpose_shapes()) {
    check_transpose<side, T>(rng, rows, cols, cols, rows);
    check_transpose<side, T>(rng, rows, cols, cols + 3, rows + 3);
    check_transpose<side, T>(rng, rows, cols, cols + 3, rows + 5);
    check_transpose<side, T>(rng, rows, cols, cols + 16, rows + 16, 1);  // not 16-byte aligned
  }
}

#if GPUPRIM_TEST_ON_CUDA
SIDE_TYPED_TEST(transpose, primes_and_thin_shapes) {
  auto rng = make_rng(402);
  check_transpose<side, T>(rng, 10007, 301, 301, 10007);
  check_transpose<side, T>(rng, (1u << 16) + 3, 4, 4, (1u << 16) + 3);
  check_transpose<side, T>(rng, 4, (1u << 16) + 1, (1u << 16) + 1, 4);
  check_transpose<side, T>(rng, 3, 100003, 100003, 3);
}
#endif

SIDE_TYPED_TEST(transpose, batched_stack) {
  auto rng = make_rng(403);
  for (const auto [rows, cols] :
       {dense_shape{3, 5}, dense_shape{65, 33}, dense_shape{65, 130}, dense_shape{1, 7}}) {
    for (const std::size_t batch : {4, 7}) {
      const auto in = distinct_elements<T>(batch * rows * cols, rng);
      auto d_out = side::filled_bytes<T>(in.size(), 0xA5);
      gp::transpose_batched(side::backend(), side::span(side::put(in)), side::span(d_out), batch,
                            rows, cols);
      const auto out = side::get(d_out);
      for (std::size_t b = 0; b < batch; ++b) {
        const std::vector<T> one_in(in.begin() + b * rows * cols,
                                    in.begin() + (b + 1) * rows * cols);
        const std::vector<T> one_out(out.begin() + b * rows * cols,
                                     out.begin() + (b + 1) * rows * cols);
        ASSERT_TRUE(is_transpose(one_in, rows, cols, cols, one_out, rows))
            << "matrix " << b << " of " << batch;
      }
    }
  }
}

// The byte-generic entry for every element size, against the definition:
// element (r, c) of in is element (c, r) of out, byte for byte.
SIDE_TEST(transpose_bytes, every_element_size) {
  auto rng = make_rng(405);
  for (const auto [rows, cols] : {dense_shape{37, 71}, dense_shape{129, 67}}) {
    for (const std::size_t size : {1u, 2u, 4u, 8u, 16u}) {
      const auto in = distinct_elements<unsigned char>(rows * cols * size, rng);
      const auto d_in = side::put(in);
      auto d_out = side::filled_bytes<unsigned char>(in.size(), 0xA5);
      gp::transpose_bytes(side::backend(), size, d_in.data(), rows, cols, cols, d_out.data(), rows);
      const auto out = side::get(d_out);
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t c = 0; c < cols; ++c)
          ASSERT_EQ(0, std::memcmp(&out[(c * rows + r) * size], &in[(r * cols + c) * size], size))
              << rows << " x " << cols << ", size " << size << ", at " << r << ", " << c;
    }
  }
}

}  // namespace
