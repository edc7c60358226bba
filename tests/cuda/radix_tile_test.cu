// The GPU radix sort's tile configurations other than the default (keys per
// thread, look-back window; see scripts/tune_radix_tile.cu), instantiated
// here so that each one the tuning probe may pick is tested like the
// default: sorted keys equal std::stable_sort's, values move with them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "support/cuda_fixture.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;
using namespace gpuprim::test;

namespace {

template <class K, int Items, int Window>
void expect_sorts_like_stable_sort(std::size_t n, bool pairs, int distinct, std::mt19937_64& rng) {
  std::vector<K> keys(n);
  for (auto& k : keys)
    k = static_cast<K>(distinct > 0 ? rng() % std::uint64_t(distinct) : rng());
  std::vector<std::uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });

  gp::device_vector<K> in = gp::to_device(std::span<const K>(keys));
  gp::device_vector<K> out(n);
  std::vector<std::uint32_t> positions(n);
  std::iota(positions.begin(), positions.end(), 0u);
  gp::device_vector<std::uint32_t> values =
      gp::to_device(std::span<const std::uint32_t>(positions));
  gp::device_vector<std::uint32_t> values_out(n);

  gp::detail::radix_sort_plan plan{};
  plan.n = n;
  plan.end_bit = int(8 * sizeof(K));
  plan.value_bytes = pairs ? 4 : 0;
  if (pairs) {
    gc::radix_sort<K, std::uint32_t, Items, Window>(in.data(), out.data(), values.data(),
                                                    values_out.data(), plan, nullptr);
  } else {
    gc::radix_sort<K, gc::no_values, Items, Window>(in.data(), out.data(), nullptr, nullptr, plan,
                                                    nullptr);
  }
  const std::vector<K> got = gp::to_host(out);
  const std::vector<std::uint32_t> got_values = gp::to_host(values_out);
  std::size_t wrong_keys = 0, wrong_values = 0;
  for (std::size_t i = 0; i < n; ++i) {
    wrong_keys += got[i] != keys[order[i]];
    if (pairs) wrong_values += got_values[i] != order[i];
  }
  EXPECT_EQ(wrong_keys, 0u) << "items " << Items << ", window " << Window << ", n " << n
                            << (pairs ? ", pairs" : "") << ", distinct " << distinct;
  EXPECT_EQ(wrong_values, 0u) << "items " << Items << ", window " << Window << ", n " << n;
}

template <class K, int Items, int Window>
void expect_config_sorts() {
  auto rng = make_rng(91);
  // One key, one partial tile, a few tiles, many tiles (long look-back
  // walks), with every bit random and with three distinct keys (long runs:
  // stability and the empty digits' counts).
  for (std::size_t n :
       {std::size_t{1}, std::size_t{4097}, std::size_t{100003}, std::size_t{3000017}}) {
    for (int distinct : {0, 3}) {
      expect_sorts_like_stable_sort<K, Items, Window>(n, false, distinct, rng);
      expect_sorts_like_stable_sort<K, Items, Window>(n, true, distinct, rng);
    }
  }
}

}  // namespace

TEST_F(cuda_test, radix_tile_configurations_sort_like_stable_sort) {
  expect_config_sorts<std::uint32_t, 16, 4>();
  expect_config_sorts<std::uint32_t, 20, 4>();
  expect_config_sorts<std::uint32_t, 24, 4>();
  expect_config_sorts<std::uint32_t, 24, 8>();
  expect_config_sorts<std::uint64_t, 8, 4>();
  expect_config_sorts<std::uint64_t, 12, 4>();
}
