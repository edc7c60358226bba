// Base fixture for GPU tests: skips (never passes) when no CUDA device is
// present, so CI without a GPU reports these tests as skipped.
#pragma once

#include <gtest/gtest.h>

#include "gpuprim/core/runtime.hpp"

namespace gpuprim::test {

inline bool has_cuda_device() {
  return gpuprim::cuda_device_count() > 0;
}

#define GPUPRIM_REQUIRE_CUDA()                                                 \
  do {                                                                         \
    if (!::gpuprim::test::has_cuda_device()) GTEST_SKIP() << "no CUDA device"; \
  } while (0)

class cuda_test : public ::testing::Test {
 protected:
  void SetUp() override { GPUPRIM_REQUIRE_CUDA(); }
};

template <class T>
class typed_cuda_test : public cuda_test {};

}  // namespace gpuprim::test
