// The reduction ladder: every rung, called from plain C++ through the table,
// must produce the exact sum (integers) or one within tolerance (floats).
#include <gtest/gtest.h>

#include <span>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/ladder.hpp"
#include "support/cuda_fixture.hpp"
#include "support/ladder_table.hpp"
#include "support/reduce_reference.hpp"
#include "support/test_data.hpp"
#include "support/typed_ladder.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

// Runs a rung on `in` into a poisoned one-element output: the sum of x.
template <class T>
void expect_rung_sums(const gp::ladder::reduce_rung<T>& rung, std::span<const T> x,
                      gp::device_span<const T> in, const std::string& where) {
  gp::device_vector<T> out(1);
  out.fill_bytes(0xA5);
  rung.run(in, out.span(), nullptr);
  expect_sum<T>(gp::to_host(out)[0], x, where);
}

}  // namespace

template <class T>
class cuda_reduce_ladder : public typed_cuda_test<T> {};
TYPED_TEST_SUITE(cuda_reduce_ladder, typed_ladder_types);

TYPED_TEST(cuda_reduce_ladder, every_rung_sums_every_size) {
  check_every_rung_at_every_size<TypeParam>(gp::ladder::reduce_rungs<TypeParam>(), 41,
                                            expect_rung_sums<TypeParam>);
}

// Subspans that start off a 16-byte boundary: the vector-load rungs must
// handle the head and tail around their aligned body.
TYPED_TEST(cuda_reduce_ladder, every_rung_sums_unaligned_subspans) {
  check_every_rung_on_subspans<TypeParam>(gp::ladder::reduce_rungs<TypeParam>(), 42, 100003,
                                          {1, 2, 3}, {1, 2, 5}, expect_rung_sums<TypeParam>);
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
