// The facades' shared machinery: the one CUDA dispatch (detail::on_cuda)
// and the precompiled tables the facades' checks and the instantiation
// files both read.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "gpuprim/core/error.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/reduce.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/solve.hpp"
#include "gpuprim/sort.hpp"
#include "gpuprim/sparse.hpp"
#include "gpuprim/transpose.hpp"

namespace gp = gpuprim;

namespace {

TEST(CudaDispatch, CallsTheEntryPointOnlyWithACudaBackend) {
  bool called = false;
  const auto call = [&] {
    called = true;
    return 42;
  };
  if constexpr (gp::detail::has_cuda_backend) {
    EXPECT_EQ(gp::detail::on_cuda("dispatch", call), 42);
    EXPECT_TRUE(called);
  } else {
    try {
      gp::detail::on_cuda("dispatch", call);
      ADD_FAILURE() << "on_cuda returned in a build without CUDA";
    } catch (const gp::cuda_error& e) {
      EXPECT_EQ(e.call(), "dispatch");
    }
    EXPECT_FALSE(called);
  }
}

// A facade's GPU form in a build without CUDA: the error names the
// algorithm, and nothing is written.
TEST(CudaDispatch, AFacadeWithoutCudaThrowsNamingTheAlgorithm) {
  if constexpr (gp::detail::has_cuda_backend) {
    GTEST_SKIP() << "built with CUDA: the facades reach the device";
  } else {
    float out = 7.0f;
    const gp::device_span<const float> in{};
    try {
      gp::reduce_into(gp::cuda, in, gp::device_span<float>(&out, 1), 0.0f);
      ADD_FAILURE() << "reduce_into returned in a build without CUDA";
    } catch (const gp::cuda_error& e) {
      EXPECT_EQ(e.call(), "reduce");
    }
    EXPECT_EQ(out, 7.0f);
  }
}

TEST(PrecompiledTables, TheChecksFollowTheTables) {
  using namespace gp::detail;
  using id = unary_fetch<gp::identity>;
  // Reductions: bytes sum into 64 bits but have no extreme elements; the
  // NaN-skipping forms are for the floating types.
  EXPECT_TRUE((precompiled_reduce<std::uint8_t, std::uint64_t, gp::plus, id>));
  EXPECT_FALSE((precompiled_reduce<std::uint8_t, gp::value_index<std::uint8_t>, select_min,
                                   value_index_fetch>));
  EXPECT_TRUE((precompiled_reduce<double, double, gp::plus, unary_fetch<gp::nan_to_zero>>));
  EXPECT_FALSE((precompiled_reduce<std::int32_t, double, gp::plus, unary_fetch<gp::nan_to_zero>>));
  EXPECT_FALSE((precompiled_reduce<std::int16_t, std::int16_t, gp::plus, id>));
  // int8, int16, uint16: their minimum and maximum only (numpy_histogram's range).
  EXPECT_TRUE((precompiled_reduce<std::int16_t, std::int16_t, gp::minimum, id>));
  EXPECT_TRUE((precompiled_reduce<std::uint16_t, std::uint16_t, gp::maximum, id>));
  EXPECT_FALSE((precompiled_reduce<std::int8_t, std::int8_t, gp::plus, unary_fetch<gp::square>>));
  // Scans over the shared arithmetic table.
  EXPECT_TRUE((precompiled_scan<std::uint64_t, std::uint64_t, std::uint64_t, gp::maximum, id>));
  EXPECT_TRUE((precompiled_scan<float, float, float, gp::minimum_number, id>));
  EXPECT_FALSE((precompiled_scan<std::uint8_t, std::uint8_t, std::uint8_t, gp::plus, id>));
  // Sort keys: every fixed-width integer, float and double.
  EXPECT_TRUE(precompiled_sort<std::int8_t>);
  EXPECT_TRUE(precompiled_sort<double>);
  EXPECT_FALSE(precompiled_sort<bool>);
  // Histograms: int8, int16 and uint16 under NumPy's rule with 64-bit counters only.
  EXPECT_TRUE((precompiled_histogram<std::uint8_t, std::uint32_t, numpy_binner<std::uint8_t>>));
  EXPECT_FALSE((precompiled_histogram<std::int16_t, std::uint32_t, even_binner<std::int16_t>>));
  EXPECT_TRUE((precompiled_histogram<std::int16_t, std::uint64_t, numpy_binner<std::int16_t>>));
  EXPECT_TRUE((precompiled_histogram<std::int8_t, std::uint64_t, numpy_edges_binner<std::int8_t>>));
  EXPECT_FALSE((precompiled_histogram<std::uint16_t, std::uint32_t, numpy_binner<std::uint16_t>>));
  EXPECT_FALSE((precompiled_histogram<std::int64_t, std::uint64_t, numpy_binner<std::int64_t>>));
  // Two-type rows.
  EXPECT_TRUE((precompiled_spmv<float, std::int64_t>));
  EXPECT_FALSE((precompiled_spmv<float, std::uint32_t>));
  EXPECT_TRUE((precompiled_solve<double, gp::device_csr_view<double, std::int32_t>>));
  EXPECT_TRUE((precompiled_solve<float, gp::device_matrix_view<const float>>));
  EXPECT_FALSE((precompiled_solve<float, gp::device_matrix_view<float>>));
  // Transpose element sizes.
  EXPECT_TRUE((gp::transposable<std::array<std::uint8_t, 16>>));
  EXPECT_FALSE((gp::transposable<std::array<std::uint8_t, 12>>));
}

}  // namespace
