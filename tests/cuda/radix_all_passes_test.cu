// The GPU radix sort's designs other than production's, which the sort
// ladder (rung 4) and lab/probes/probe_radix_designs.cu measure it
// against: the one that sorts every pass (radix_launch_config::
// skip_constant_digits false: the routes planned on the host and passed to
// each pass by value, the plain digit histogram) and the passes on a
// resident grid (radix_sort_by_size's ResidentGrid: blocks take tiles from
// a counter). Each must sort like the stable reference on the paths
// production takes (the one-block sort, tiles of 8 keys a thread, the
// default tiles), in place with an odd number of passes (the last launch
// copies), with values, 8-byte keys, bit ranges and descending, and with
// passes skipped.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
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

// Keys (and values: their input positions, as V) sorted by bits [begin,
// end) in place or out of place, with the design `config` and Resident
// name.
template <bool Resident, class K, class V>
void expect_design_sorts(const gc::radix_launch_config& config, const std::vector<K>& keys,
                         int begin, int end, bool descending, bool in_place,
                         const std::string& what) {
  constexpr bool pairs = !std::is_same_v<V, gc::no_values>;
  const std::size_t n = keys.size();
  const std::vector<std::uint32_t> perm =
      reference_sort_permutation(std::span<const K>(keys), descending, begin, end);
  gp::device_vector<K> in = gp::to_device(std::span<const K>(keys));
  gp::device_vector<K> out(n);
  std::vector<std::uint64_t> start(n);
  for (std::size_t i = 0; i < n; ++i)
    start[i] = i;
  using W = std::conditional_t<pairs, V, std::uint32_t>;
  gp::device_vector<W> values = gp::to_device(std::vector<W>(start.begin(), start.end()));
  gp::device_vector<W> values_out(n);

  const gp::detail::radix_sort_plan plan{n, begin, end, descending, pairs ? int(sizeof(V)) : 0};
  K* keys_out = in_place ? in.data() : out.data();
  W* values_to = in_place ? values.data() : values_out.data();
  if constexpr (pairs) {
    gc::radix_sort_by_size<K, V, Resident>(in.data(), keys_out, values.data(), values_to, plan,
                                           nullptr, config);
  } else {
    gc::radix_sort_by_size<K, V, Resident>(in.data(), keys_out, nullptr, nullptr, plan, nullptr,
                                           config);
  }
  const std::string where = what + ", n " + std::to_string(n) + ", bits [" + std::to_string(begin) +
                            ", " + std::to_string(end) + ")" + (descending ? ", descending" : "") +
                            (in_place ? ", in place" : ", out of place");
  expect_same_bytes(gp::to_host(in_place ? in : out), gather(std::span<const K>(keys), perm),
                    where + ": keys");
  if constexpr (pairs) {
    const std::vector<W> got = gp::to_host(in_place ? values : values_out);
    ASSERT_EQ(std::vector<std::uint32_t>(got.begin(), got.end()), perm) << where << ": values";
  }
}

// Uniform keys, keys below 2^16 (two passes skipped where skipping) and
// all equal keys at every tile shape, through the design `config` and
// Resident name.
template <bool Resident>
void expect_design_sorts_everything(const gc::radix_launch_config& config) {
  auto rng = make_rng(216);
  for (std::size_t n : test_sizes({5000, 100003, 400009})) {
    const auto uniform = random_bits_keys<std::uint32_t>(n, rng);
    const std::vector<std::uint32_t> narrow = [&] {
      std::vector<std::uint32_t> x(n);
      for (auto& k : x)
        k = static_cast<std::uint32_t>(rng() & 0xffff);
      return x;
    }();
    const std::vector<std::uint32_t> equal(n, 0x5a5a1234u);
    const auto wide = random_bits_keys<std::uint64_t>(n, rng);
    for (const auto* keys : {&uniform, &narrow, &equal}) {
      const std::string what = keys == &uniform  ? "uniform uint32"
                               : keys == &narrow ? "uint32 below 2^16"
                                                 : "equal uint32";
      using u32 = std::uint32_t;
      expect_design_sorts<Resident, u32, gc::no_values>(config, *keys, 0, 32, false, false, what);
      expect_design_sorts<Resident, u32, gc::no_values>(config, *keys, 0, 24, true, true, what);
      expect_design_sorts<Resident, u32, u32>(config, *keys, 0, 32, false, false, what);
      expect_design_sorts<Resident, u32, u32>(config, *keys, 4, 28, false, true, what);
    }
    expect_design_sorts<Resident, std::uint64_t, std::uint64_t>(config, wide, 0, 64, true, true,
                                                                "uint64");
    expect_design_sorts<Resident, std::uint64_t, std::uint64_t>(config, wide, 8, 48, false, false,
                                                                "uint64");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

}  // namespace

TEST_F(cuda_test, radix_sort_design_that_sorts_every_pass) {
  gc::radix_launch_config config;
  config.skip_constant_digits = false;
  expect_design_sorts_everything<false>(config);
}

TEST_F(cuda_test, radix_sort_passes_on_a_resident_grid) {
  gc::radix_launch_config config;
  expect_design_sorts_everything<true>(config);
  config.skip_constant_digits = false;
  expect_design_sorts_everything<true>(config);
}
