// One test body over the backends. A file of tests/sides/ is compiled twice:
// into gpuprim_host_tests with GPUPRIM_TEST_ON_CUDA=0 and into
// gpuprim_cuda_tests with GPUPRIM_TEST_ON_CUDA=1. In it
//
//   side                    host_side or cuda_side (support/sides.hpp): the
//                           backend and where the arrays live
//   on_cuda                 which of the two this build is
//   side_test               the fixture: the GPU one skips, never passes,
//                           without a device
//   side_typed_test<T>      the same for typed suites
//   SIDE(name)              the suite's name with the backend's prefix,
//                           host_<name> or cuda_<name>
//   SIDE_TYPED_SUITE(name, types)
//                           the typed suite SIDE(name) over `types`, its
//                           fixture a side_typed_test
//   SIDE_TEST_F, SIDE_TYPED_TEST_SUITE
//                           GoogleTest's macros with SIDE(suite)
//   SIDE_TYPED_TEST(suite, test)
//                           TYPED_TEST with SIDE(suite) whose body names the
//                           suite's type T (GoogleTest's TypeParam)
//   SIDE_TEST(suite, test)  a test without a fixture of its own: on the host
//                           host_<suite>.<test>, on the GPU
//                           cuda_test.<suite>_<test> (the fixture that skips)
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>

#include "support/cuda_fixture.hpp"
#include "support/sides.hpp"

#ifndef GPUPRIM_TEST_ON_CUDA
#error "GPUPRIM_TEST_ON_CUDA must be 0 (host suite) or 1 (GPU suite)"
#endif

namespace gpuprim::test {

#if GPUPRIM_TEST_ON_CUDA
using side = cuda_side;
using side_test = cuda_test;
template <class T>
using side_typed_test = typed_cuda_test<T>;
#define GPUPRIM_SIDE_PREFIX cuda
#else
using side = host_side;
using side_test = ::testing::Test;
template <class T>
using side_typed_test = ::testing::Test;
#define GPUPRIM_SIDE_PREFIX host
#endif
inline constexpr bool on_cuda = GPUPRIM_TEST_ON_CUDA;

// The value types the families are precompiled for, and the floating ones.
using side_value_types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
using side_float_types = ::testing::Types<float, double>;

// What a reference computes in: double for floating point, T otherwise.
template <class T>
using exact_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

}  // namespace gpuprim::test

#define GPUPRIM_SIDE_PASTE_(prefix, name) prefix##_##name
#define GPUPRIM_SIDE_PASTE(prefix, name) GPUPRIM_SIDE_PASTE_(prefix, name)
#define SIDE(name) GPUPRIM_SIDE_PASTE(GPUPRIM_SIDE_PREFIX, name)
// (One more level each, so that SIDE(suite) is expanded before GoogleTest
// pastes the suite's name into its own.)
#define GPUPRIM_SIDE_TEST_F_(suite, test) TEST_F(suite, test)
#define SIDE_TEST_F(suite, test) GPUPRIM_SIDE_TEST_F_(SIDE(suite), test)
#define GPUPRIM_SIDE_TYPED_TEST_SUITE_(suite, types) TYPED_TEST_SUITE(suite, types)
#define SIDE_TYPED_TEST_SUITE(suite, types) GPUPRIM_SIDE_TYPED_TEST_SUITE_(SIDE(suite), types)
#define GPUPRIM_SIDE_TYPED_TEST_(suite, test) TYPED_TEST(suite, test)
// The body is a function template of T that the test calls with TypeParam.
#define GPUPRIM_SIDE_BODY(suite, test) GPUPRIM_SIDE_PASTE(GPUPRIM_SIDE_PASTE(suite, test), body)
#define SIDE_TYPED_TEST(suite, test)             \
  template <class T>                             \
  static void GPUPRIM_SIDE_BODY(suite, test)();  \
  GPUPRIM_SIDE_TYPED_TEST_(SIDE(suite), test) {  \
    GPUPRIM_SIDE_BODY(suite, test)<TypeParam>(); \
  }                                              \
  template <class T>                             \
  static void GPUPRIM_SIDE_BODY(suite, test)()
#define SIDE_TYPED_SUITE(suite, types)                               \
  template <class T>                                                 \
  class SIDE(suite) : public ::gpuprim::test::side_typed_test<T> {}; \
  SIDE_TYPED_TEST_SUITE(suite, types)
#define GPUPRIM_SIDE_TEST_(suite, test) TEST(suite, test)
#if GPUPRIM_TEST_ON_CUDA
#define SIDE_TEST(suite, test) GPUPRIM_SIDE_TEST_F_(cuda_test, GPUPRIM_SIDE_PASTE(suite, test))
#else
#define SIDE_TEST(suite, test) GPUPRIM_SIDE_TEST_(SIDE(suite), test)
#endif

// The names every file of tests/sides/ uses.
namespace gp = gpuprim;
using namespace gpuprim::test;
