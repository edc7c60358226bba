// The scan ladder: every rung, called from plain C++ through the table, must
// produce the exact prefix sums (integers) or ones within tolerance (floats).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/ladder.hpp"
#include "support/cuda_fixture.hpp"
#include "support/ladder_table.hpp"
#include "support/test_data.hpp"
#include "support/typed_ladder.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

// Inclusive prefix sums in double for floats, exactly in T for integers
// (random_vector's signed values are small enough not to overflow).
template <class T>
using reference_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class T>
std::vector<reference_t<T>> reference_inclusive_sum(std::span<const T> x) {
  std::vector<reference_t<T>> sums(x.size());
  reference_t<T> running{};
  for (std::size_t i = 0; i < x.size(); ++i)
    sums[i] = running += static_cast<reference_t<T>>(x[i]);
  return sums;
}

// Reports the first wrong element and how many there are. Prefix i of a
// float scan may be off by the rounding of a sum of i + 1 terms.
template <class T>
void expect_prefix_sums(const std::vector<T>& got, std::span<const T> x, const std::string& where) {
  ASSERT_EQ(got.size(), x.size()) << where;
  const auto want = reference_inclusive_sum(x);
  double max_abs = 0;
  for (T v : x)
    max_abs = std::max(max_abs, std::abs(static_cast<double>(v)));
  std::size_t wrong = 0, first_wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    bool ok;
    if constexpr (std::is_floating_point_v<T>) {
      // Written as !(error > tolerance) would let NaN through; this does not.
      ok = std::abs(static_cast<double>(got[i]) - want[i]) <= sum_tolerance<T>(i + 1, max_abs);
    } else {
      ok = got[i] == want[i];
    }
    if (!ok && wrong++ == 0) first_wrong = i;
  }
  EXPECT_EQ(wrong, 0u) << where << ": first wrong element " << first_wrong << " is "
                       << (wrong ? static_cast<double>(got[first_wrong]) : 0.0) << ", expected "
                       << (wrong ? static_cast<double>(want[first_wrong]) : 0.0);
}

// Runs a rung on `in` into a poisoned output, NaN for floats (which never
// passes), 0xA5A5... for integers (far from any prefix sum of the test
// data): the prefix sums of x.
template <class T>
void expect_rung_scans(const gp::ladder::scan_rung<T>& rung, std::span<const T> x,
                       gp::device_span<const T> in, const std::string& where) {
  gp::device_vector<T> out(in.size());
  out.fill_bytes(std::is_floating_point_v<T> ? 0xFF : 0xA5);
  rung.run(in, out.span(), nullptr);
  expect_prefix_sums<T>(gp::to_host(out), x, where);
}

}  // namespace

template <class T>
class cuda_scan_ladder : public typed_cuda_test<T> {};
TYPED_TEST_SUITE(cuda_scan_ladder, typed_ladder_types);

TYPED_TEST(cuda_scan_ladder, every_rung_scans_every_size) {
  check_every_rung_at_every_size<TypeParam>(gp::ladder::scan_rungs<TypeParam>(), 51,
                                            expect_rung_scans<TypeParam>);
}

// Subspans that start off a 16-byte boundary (the production rung's vector
// loads fall back to scalar ones).
TYPED_TEST(cuda_scan_ladder, every_rung_scans_unaligned_subspans) {
  check_every_rung_on_subspans<TypeParam>(gp::ladder::scan_rungs<TypeParam>(), 52, 20011, {1, 3},
                                          {}, expect_rung_scans<TypeParam>);
}

TYPED_TEST(cuda_scan_ladder, every_rung_rejects_a_size_mismatch) {
  using T = TypeParam;
  gp::device_vector<T> x(10), shorter(9), empty(0);
  for (const auto& rung : gp::ladder::scan_rungs<T>()) {
    EXPECT_THROW(rung.run(x.span(), shorter.span(), nullptr), std::invalid_argument) << rung.name;
    EXPECT_THROW(rung.run(empty.span(), x.span(), nullptr), std::invalid_argument) << rung.name;
    EXPECT_THROW(rung.run(x.span(), gp::device_span<T>{}, nullptr), std::invalid_argument)
        << rung.name;
  }
}

// Reading the table needs no device.
TEST(scan_ladder_table, has_five_named_rungs_for_every_type) {
  gpuprim::test::expect_complete_typed_ladder(
      []<class T>(std::type_identity<T>) { return gp::ladder::scan_rungs<T>(); }, 5,
      "scan_hillis_steele", "scan_decoupled_lookback");
}
