// The convolution family on each backend (support/side_test.hpp) against
// the double-precision reference: the cases of tests/support/convolve_cases.hpp,
// outputs poisoned before each call. The backends' own cases are in
// tests/host/convolve_test.cpp and tests/cuda/convolve_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "support/convolve_cases.hpp"
#include "support/side_test.hpp"

namespace {

// The call on this side's memory; the output is poisoned (0x7F bytes: an
// unwritten float reads as a huge number).
template <class T>
std::vector<T> run_on_side(const std::vector<T>& in, conv_shape s, const conv_call& call) {
  const auto d_in = side::put(in);
  auto d_out = side::filled_bytes<T>(s.size(), 0x7F);
  const std::size_t ld = s.cols * s.channels;
  typename side::template image_view<const T> vin(d_in.data(), s.count, s.rows, s.cols, s.channels,
                                                  ld, s.rows * ld);
  typename side::template image_view<T> vout(d_out.data(), s.count, s.rows, s.cols, s.channels, ld,
                                             s.rows * ld);
  invoke_call(side::backend(), vin, vout, call);
  return side::get(d_out);
}

SIDE_TYPED_SUITE(convolve, side_float_types);

}  // namespace

SIDE_TYPED_TEST(convolve, every_border_at_every_edge_and_corner) {
  check_borders_and_sizes<T>(run_on_side<T>, 1);
}

SIDE_TYPED_TEST(convolve, large_images_and_filters) {
  check_large<T>(run_on_side<T>, 2);
}

SIDE_TYPED_TEST(convolve, named_filters) {
  check_named_filters<T>(run_on_side<T>, 3);
}

SIDE_TYPED_TEST(convolve, nan_and_inf_propagate) {
  check_nan_inf<T>(run_on_side<T>, 4);
}

SIDE_TYPED_TEST(convolve, batch_in_one_call) {
  check_batch<T>(run_on_side<T>, 5);
}

SIDE_TEST(convolve_bytes, channels_batches_and_rounding) {
  check_bytes(run_on_side<std::uint8_t>, 6);
}
