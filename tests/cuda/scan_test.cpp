// The scan family's cases of the GPU alone, from plain C++ (precompiled
// kernels); the cases of both backends are in tests/sides/scan_test.cpp.
// Skips without a device.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "gpuprim/scan.hpp"
#include "support/cuda_fixture.hpp"
#include "support/scan_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, scan_float_sums_are_deterministic) {
  auto rng = make_rng(44);
  const auto d = gp::to_device(random_vector<float>((1 << 24) + 5, rng));
  gp::device_vector<float> a(d.size()), b(d.size());
  gp::inclusive_scan(gp::cuda, d, a);
  const auto first = gp::to_host(a);
  for (int i = 0; i < 3; ++i) {
    gp::inclusive_scan(gp::cuda, d, b);
    ASSERT_EQ(gp::to_host(b), first);
  }
}

TEST_F(cuda_test, scan_of_empty_input_writes_nothing) {
  gp::device_vector<float> x, out;
  gp::inclusive_scan(gp::cuda, x, out);
  gp::exclusive_scan(gp::cuda, x, out, 1.0f);
}
