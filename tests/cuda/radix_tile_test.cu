// The GPU radix sort's tile configurations other than the default (keys per
// thread, look-back window; see lab/probes/probe_radix_tile.cu), instantiated
// here so that each one the tuning probe may pick is tested like the
// default: sorted keys equal the stable reference sort's bit for bit, and
// values (input positions) move with them.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "support/cuda_fixture.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;
using namespace gpuprim::test;

namespace {

template <class K, int Items, int Window>
void expect_sorts_like_reference(const std::vector<K>& keys, bool pairs, const std::string& what) {
  const std::size_t n = keys.size();
  const std::vector<std::uint32_t> perm =
      reference_sort_permutation(std::span<const K>(keys), false);
  gp::device_vector<K> in = gp::to_device(std::span<const K>(keys));
  gp::device_vector<K> out(n);
  const std::vector<std::uint32_t> start = positions(n);
  gp::device_vector<std::uint32_t> values = gp::to_device(std::span<const std::uint32_t>(start));
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
  const std::string config =
      what + ", items " + std::to_string(Items) + ", window " + std::to_string(Window);
  expect_same_bytes(gp::to_host(out), gather(std::span<const K>(keys), perm), config + " keys");
  if (pairs) expect_same_bytes(gp::to_host(values_out), perm, config + " values");
}

template <class K, int Items, int Window>
void expect_config_sorts() {
  auto rng = make_rng(91);
  // One key, one partial tile, a few tiles, many tiles (long look-back
  // walks); every bit random, and three distinct keys (long runs:
  // stability and the empty digits' counts).
  for (std::size_t n : test_sizes({1, 4097, 100003, 3000017})) {
    for (key_pattern pattern : {key_pattern::random_bits, key_pattern::few_distinct}) {
      const std::vector<K> keys = pattern_keys<K>(pattern, n, rng);
      for (bool pairs : {false, true}) {
        expect_sorts_like_reference<K, Items, Window>(keys, pairs,
                                                      describe(n, pattern_name(pattern), false));
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}

}  // namespace

TEST_F(cuda_test, radix_tile_configurations_sort_like_stable_sort) {
  expect_config_sorts<std::uint32_t, 8, 4>();  // the library's shape from one tile to 2^17 keys
  expect_config_sorts<std::uint32_t, 16, 1>();
  expect_config_sorts<std::uint32_t, 16, 4>();
  expect_config_sorts<std::uint32_t, 24, 4>();
  expect_config_sorts<std::uint32_t, 32, 8>();
  expect_config_sorts<std::uint64_t, 8, 4>();
  expect_config_sorts<std::uint64_t, 12, 4>();
  expect_config_sorts<std::uint64_t, 20, 4>();
}
