// Host side of the sort ladder: the launch sequences of rungs 1-3, the
// onesweep radix sort that sorts every pass (rung 4), the library's radix
// sort as rung 5, and the table that the tests and `gpuprim bench sort
// --ladder` iterate.
#include <cuda_runtime_api.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"
#include "gpuprim/scan.hpp"
#include "gpuprim/sort.hpp"
#include "lab/ladder/ladder.hpp"
#include "lab/ladder/sort.cuh"

namespace gpuprim::ladder {
namespace {

constexpr const char* algorithm = "sort ladder";
using key = std::uint32_t;

unsigned blocks_for(std::uint64_t items, unsigned threads) {
  const std::uint64_t blocks = cuda_impl::ceil_div(items, threads);
  if (blocks > std::uint64_t(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(
        "gpuprim::ladder: the input needs more blocks than a grid can have");
  }
  return unsigned(blocks);
}

// One launch of rung 1's kernel: step (mask, top) over the padded array.
void bitonic_global_step(key* keys, std::uint64_t n, std::uint64_t padded, std::uint64_t mask,
                         std::uint64_t top, stream_t stream) {
  const std::uint64_t pairs = padded / 2;
  sort_bitonic_global_step<<<blocks_for(pairs, sort_ladder_threads), sort_ladder_threads, 0,
                             stream>>>(keys, n, pairs, mask, top);
  detail::check_launch("sort_bitonic_global_step", algorithm);
}

// Rung 1: every step of every stage in global memory.
void run_bitonic_global(device_span<key> keys, stream_t stream) {
  const std::uint64_t n = keys.size();
  if (n < 2) return;
  const std::uint64_t padded = std::bit_ceil(n);
  for (std::uint64_t k = 2; k <= padded; k *= 2) {
    bitonic_global_step(keys.data(), n, padded, k - 1, k / 2, stream);
    for (std::uint64_t j = k / 4; j >= 1; j /= 2)
      bitonic_global_step(keys.data(), n, padded, j, j, stream);
  }
}

// Rung 2: tiles sorted in shared memory; wider stages take global steps
// down to the tile and finish in shared memory.
void run_bitonic_shared(device_span<key> keys, stream_t stream) {
  const std::uint64_t n = keys.size();
  if (n < 2) return;
  const std::uint64_t padded = std::bit_ceil(n);
  const unsigned tiles = blocks_for(n, bitonic_ladder_tile);
  sort_bitonic_shared_tile<<<tiles, bitonic_ladder_tile_threads, 0, stream>>>(keys.data(), n,
                                                                              false);
  detail::check_launch("sort_bitonic_shared_tile", algorithm);
  for (std::uint64_t k = 2 * std::uint64_t(bitonic_ladder_tile); k <= padded; k *= 2) {
    bitonic_global_step(keys.data(), n, padded, k - 1, k / 2, stream);
    for (std::uint64_t j = k / 4; j >= bitonic_ladder_tile; j /= 2)
      bitonic_global_step(keys.data(), n, padded, j, j, stream);
    sort_bitonic_shared_tile<<<tiles, bitonic_ladder_tile_threads, 0, stream>>>(keys.data(), n,
                                                                                true);
    detail::check_launch("sort_bitonic_shared_tile", algorithm);
  }
}

// Rung 3: 32 one-bit splits, each flags -> exclusive scan -> stable scatter,
// ping-ponging between the keys and a scratch copy (an even number of
// passes ends in the keys). Positions are 32-bit: n < 2^32.
void run_radix_split_by_scan(device_span<key> keys, stream_t stream) {
  const std::uint64_t n = keys.size();
  if (n < 2) return;
  if (n > std::numeric_limits<std::uint32_t>::max()) {
    throw std::invalid_argument("gpuprim::ladder: the radix split sorts fewer than 2^32 keys");
  }
  const std::size_t bytes = cuda_impl::align_up(n * sizeof(key), 256);
  cuda_impl::scratch_buffer scratch(3 * bytes, stream);
  key* other = scratch.get<key>();
  key* flags = other + bytes / sizeof(key);
  key* positions = flags + bytes / sizeof(key);
  key* in = keys.data();
  key* out = other;
  const unsigned blocks = blocks_for(n, sort_ladder_threads);
  for (unsigned bit = 0; bit < 32; ++bit) {
    sort_radix_split_flags<<<blocks, sort_ladder_threads, 0, stream>>>(in, flags, n, bit);
    detail::check_launch("sort_radix_split_flags", algorithm);
    detail::cuda_scan_into(static_cast<const key*>(flags), positions, n, scan_kind::exclusive,
                           key{0}, plus{}, detail::unary_fetch<identity>{}, stream);
    sort_radix_split_scatter<<<blocks, sort_ladder_threads, 0, stream>>>(in, out, flags, positions,
                                                                         n);
    detail::check_launch("sort_radix_split_scatter", algorithm);
    std::swap(in, out);
  }
}

// Rung 4: the onesweep radix sort before constant digits were skipped:
// every 8-bit pass sorts, whatever the keys (the library's kernels and
// tile shapes, radix_launch_config::skip_constant_digits false).
void run_radix_all_passes(device_span<key> keys, stream_t stream) {
  const detail::radix_sort_plan plan =
      detail::make_radix_sort_plan<key>(keys.size(), sort_order::ascending, {}, 0, algorithm);
  cuda_impl::radix_launch_config config;
  config.skip_constant_digits = false;
  cuda_impl::radix_sort_by_size<key, cuda_impl::no_values>(keys.data(), keys.data(), nullptr,
                                                           nullptr, plan, stream, config);
}

// Rung 5: the library's radix sort (constant digits skipped).
void run_radix_sort(device_span<key> keys, stream_t stream) {
  gpuprim::sort(cuda.on(stream), keys);
}

// clang-format off
constexpr sort_rung<key> sort_ladder[] = {
  {"sort_bitonic_global", "baseline: bitonic network, one launch and one pass over memory per step",
   run_bitonic_global},
  {"sort_bitonic_shared", "steps within a 2048-key tile in shared memory: one launch per stage",
   run_bitonic_shared},
  {"sort_radix_split_by_scan", "one-bit split by scan, 32 passes: O(n) work per bit, not O(n log^2 n)",
   run_radix_split_by_scan},
  {"sort_radix_all_passes", "onesweep: 8 bits a pass, keys ranked within tiles on chip, every pass sorts",
   run_radix_all_passes},
  {"sort_radix", "gp::sort: passes whose digit is the same in every key skipped, decided on the device",
   run_radix_sort},
};
// clang-format on

}  // namespace

template <class T>
std::span<const sort_rung<T>> sort_rungs() {
  static_assert(std::is_same_v<T, std::uint32_t>, "the sort ladder sorts 32-bit unsigned keys");
  return sort_ladder;
}

template std::span<const sort_rung<std::uint32_t>> sort_rungs<std::uint32_t>();

}  // namespace gpuprim::ladder
