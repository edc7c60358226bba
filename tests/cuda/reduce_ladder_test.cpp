// The reduction ladder: every rung, called from plain C++ through the table,
// must produce the exact sum (integers) or one within tolerance (floats).
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/ladder.hpp"
#include "support/cuda_fixture.hpp"
#include "support/ladder_table.hpp"
#include "support/reduce_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

template <class T>
void expect_sum(T got, std::span<const T> x, const std::string& where) {
  const auto want = reference_sum<T>(x);
  if constexpr (std::is_floating_point_v<T>) {
    EXPECT_NEAR(got, want, sum_tolerance<T>(x.size(), max_abs<T>(x))) << where;
  } else {
    EXPECT_EQ(got, want) << where;
  }
}

// Runs a rung on `in` into a poisoned one-element output and returns out[0].
template <class T>
T run_rung(const gp::ladder::reduce_rung<T>& rung, gp::device_span<const T> in) {
  gp::device_vector<T> out(1);
  out.fill_bytes(0xA5);
  rung.run(in, out.span(), nullptr);
  return gp::to_host(out)[0];
}

}  // namespace

template <class T>
class cuda_reduce_ladder : public typed_cuda_test<T> {};
using ladder_types = ::testing::Types<float, double, std::int32_t, std::int64_t>;
TYPED_TEST_SUITE(cuda_reduce_ladder, ladder_types);

TYPED_TEST(cuda_reduce_ladder, every_rung_sums_every_size) {
  using T = TypeParam;
  auto rng = make_rng(41);
  for (std::size_t n : standard_sizes()) {
    const auto x = random_vector<T>(n, rng);
    const auto d = gp::to_device(x);
    for (const auto& rung : gp::ladder::reduce_rungs<T>()) {
      const T got = run_rung(rung, d.span());
      expect_sum<T>(got, x, std::string(rung.name) + " n=" + std::to_string(n));
    }
  }
}

// Subspans that start off a 16-byte boundary: the vector-load rungs must
// handle the head and tail around their aligned body.
TYPED_TEST(cuda_reduce_ladder, every_rung_sums_unaligned_subspans) {
  using T = TypeParam;
  auto rng = make_rng(42);
  const auto x = random_vector<T>(100003, rng);
  const auto d = gp::to_device(x);
  for (std::size_t offset : {1u, 2u, 3u}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{5}, x.size() - offset - 2}) {
      const auto part = std::span<const T>(x).subspan(offset, n);
      for (const auto& rung : gp::ladder::reduce_rungs<T>()) {
        const T got = run_rung(rung, d.span().subspan(offset, n));
        expect_sum<T>(got, part,
                      std::string(rung.name) + " offset=" + std::to_string(offset) +
                          " n=" + std::to_string(n));
      }
    }
  }
}

TYPED_TEST(cuda_reduce_ladder, every_rung_rejects_an_empty_output) {
  using T = TypeParam;
  gp::device_vector<T> x(10);
  for (const auto& rung : gp::ladder::reduce_rungs<T>()) {
    EXPECT_THROW(rung.run(x.span(), gp::device_span<T>{}, nullptr), std::invalid_argument)
        << rung.name;
  }
}

// Reading the table needs no device.
TEST(reduce_ladder_table, has_ten_named_rungs_for_every_type) {
  gpuprim::test::expect_complete_typed_ladder(
      []<class T>(std::type_identity<T>) { return gp::ladder::reduce_rungs<T>(); }, 10,
      "reduce_interleaved_divergent", "reduce_single_pass");
}
