// Tuning probe for the GPU radix sort's tile: times the onesweep sort
// (production's tile shapes: keys per thread, look-back window, blocks per
// SM, L2 prefetch) and a variant of its pass whose ranking finds a warp's
// lanes of equal digit in registers (radix_match_rank.cuh: one shared-memory
// access a key in the ranking's last step instead of five) against
// cub::DeviceRadixSort in one process on the same buffers, and checks that
// every variant's output equals CUB's bit for bit (both sorts are stable,
// so equal to CUB is equal to production).
// Not part of the default build or the tests; on the GPU machine:
// cmake --build build/cuda --target gpuprim_lab_probe_radix_tile, or
// scripts/device-check.sh --tune-radix.
//
// Prints one line per (keys, size): CUB's time, then one line per variant:
// its time and ratio (CUB / variant: above 1 is faster than CUB). Medians
// of 20 calls after 3 warm-ups, CUDA events, isolated calls. With --profile
// it sorts 2^26 keys once each way instead (production, then the match
// ranking, then CUB), for Nsight Compute (device-check.sh --ncu-radix).
#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "gpuprim/cuda/device/device_radix_sort.cuh"
#include "gpuprim/sort.hpp"
#include "probe_timing.cuh"
#include "radix_match_rank.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

template <class K>
K random_key(std::mt19937_64& g) {
  if constexpr (std::is_floating_point_v<K>) {
    return K(double(g() >> 11) * 0x1p-53 * 2000.0 - 1000.0);
  } else {
    return K(g());
  }
}

// A tile configuration: keys per thread, look-back window, the blocks per
// SM the pass is compiled for (0: the library's default), and the tiles
// ahead whose keys a tile asks L2 for (-1: the library's default).
template <int Items, int Window, int MinBlocks = 0, int Prefetch = -1>
struct tile_config {
  static constexpr int items = Items, window = Window;
  template <class K>
  static constexpr int blocks = MinBlocks > 0 ? MinBlocks : gc::radix_pass_min_blocks<K, Items>;
  template <class V>
  static constexpr int prefetch = Prefetch >= 0 ? Prefetch : gc::radix_prefetch_tiles<V>;
};

// Production's sort at a tile configuration.
template <class Tile>
struct production {
  using tile = Tile;
  static constexpr const char* name = "production";
  template <class K, class V>
  static void sort(const K* keys, K* keys_out, const V* values, V* values_out,
                   const gp::detail::radix_sort_plan& plan) {
    gc::radix_sort<K, V, Tile::items, Tile::window, Tile::template blocks<K>,
                   Tile::template prefetch<V>>(keys, keys_out, values, values_out, plan, nullptr);
  }
};

// Production's sort with the pass's ranking replaced (radix_match_rank.cuh).
template <gc::radix_peer_find Find, class Tile>
struct match_rank {
  using tile = Tile;
  static constexpr const char* name =
      Find == gc::radix_peer_find::match_any ? "match rank (match_any)" : "match rank (ballots)";
  template <class K, class V>
  static void sort(const K* keys, K* keys_out, const V* values, V* values_out,
                   const gp::detail::radix_sort_plan& plan) {
    gc::radix_sort<K, V, Tile::items, Tile::window, Tile::template blocks<K>,
                   Tile::template prefetch<V>, false, gc::block_radix_rank_match<Find>>(
        keys, keys_out, values, values_out, plan, nullptr);
  }
};
using match_any_rank = match_rank<gc::radix_peer_find::match_any, tile_config<32, 4>>;
using ballot_rank = match_rank<gc::radix_peer_find::ballots, tile_config<32, 4>>;

gp::detail::radix_sort_plan full_plan(std::size_t n, int key_bytes, int value_bytes) {
  gp::detail::radix_sort_plan plan{};
  plan.n = n;
  plan.begin_bit = 0;
  plan.end_bit = 8 * key_bytes;
  plan.descending = false;
  plan.value_bytes = value_bytes;
  return plan;
}

template <class K, class V, class Variant>
void run_variant(Variant, const K* keys, K* keys_out, const V* values, V* values_out, std::size_t n,
                 const std::vector<K>& cub_keys, const std::vector<V>& cub_values, float cub_ms) {
  using tile = typename Variant::tile;
  const auto plan =
      full_plan(n, int(sizeof(K)), std::is_same_v<V, gc::no_values> ? 0 : int(sizeof(V)));
  // Cleared first: a variant that wrote nothing must not find CUB's output.
  CHECK_CUDA(cudaMemset(keys_out, 0, n * sizeof(K)));
  if constexpr (!std::is_same_v<V, gc::no_values>) {
    CHECK_CUDA(cudaMemset(values_out, 0, n * sizeof(V)));
  }
  const float ms =
      median_ms([&] { Variant::template sort<K, V>(keys, keys_out, values, values_out, plan); });
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<K> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), keys_out, n * sizeof(K), cudaMemcpyDeviceToHost));
  bool same = std::memcmp(got.data(), cub_keys.data(), n * sizeof(K)) == 0;
  if constexpr (!std::is_same_v<V, gc::no_values>) {
    std::vector<V> got_values(n);
    CHECK_CUDA(cudaMemcpy(got_values.data(), values_out, n * sizeof(V), cudaMemcpyDeviceToHost));
    same = same && std::memcmp(got_values.data(), cub_values.data(), n * sizeof(V)) == 0;
  }
  std::printf(
      "  %-24s items %2d, look-back window %d, %d blocks/SM, prefetch %3d tiles ahead: %9.1f us"
      "  %.2fx CUB  %s\n",
      Variant::name, tile::items, tile::window, tile::template blocks<K>,
      tile::template prefetch<V>, ms * 1e3, cub_ms / ms,
      same ? "same as CUB" : "DIFFERENT FROM CUB");
}

template <class K, bool Pairs, class... Configs>
void compare(std::size_t n) {
  using V = std::conditional_t<Pairs, std::uint32_t, gc::no_values>;
  std::mt19937_64 g(n);
  std::vector<K> host_keys(n);
  for (auto& k : host_keys)
    k = random_key<K>(g);
  std::vector<std::uint32_t> host_values(n);
  for (std::size_t i = 0; i < n; ++i)
    host_values[i] = std::uint32_t(i);
  K *keys, *keys_out;
  std::uint32_t *values, *values_out;
  CHECK_CUDA(cudaMalloc(&keys, n * sizeof(K)));
  CHECK_CUDA(cudaMalloc(&keys_out, n * sizeof(K)));
  CHECK_CUDA(cudaMalloc(&values, n * 4));
  CHECK_CUDA(cudaMalloc(&values_out, n * 4));
  CHECK_CUDA(cudaMemcpy(keys, host_keys.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(values, host_values.data(), n * 4, cudaMemcpyHostToDevice));

  const cub_call cub_sort([&](void* temp, std::size_t& temp_bytes) {
    if constexpr (Pairs) {
      return cub::DeviceRadixSort::SortPairs(temp, temp_bytes, keys, keys_out, values, values_out,
                                             n);
    } else {
      return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, keys_out, n);
    }
  });
  const float cub_ms = median_ms(cub_sort);
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<K> cub_keys(n);
  CHECK_CUDA(cudaMemcpy(cub_keys.data(), keys_out, n * sizeof(K), cudaMemcpyDeviceToHost));
  std::vector<V> cub_values(Pairs ? n : 0);
  if constexpr (Pairs) {
    CHECK_CUDA(cudaMemcpy(cub_values.data(), values_out, n * 4, cudaMemcpyDeviceToHost));
  }
  std::printf("%s%s keys, n = %zu (2^%.2f): CUB %.1f us\n",
              std::is_floating_point_v<K> ? "float"
              : sizeof(K) == 8            ? "uint64"
                                          : "uint32",
              Pairs ? " + uint32 value" : "", n, std::log2(double(n)), cub_ms * 1e3);
  V* v_in = reinterpret_cast<V*>(Pairs ? values : nullptr);
  V* v_out = reinterpret_cast<V*>(Pairs ? values_out : nullptr);
  (run_variant<K, V>(Configs{}, keys, keys_out, v_in, v_out, n, cub_keys, cub_values, cub_ms), ...);
  free_device(keys, keys_out, values, values_out);
}

// --profile: one sort of 2^26 uint32 keys each by production (default
// tile), by the match ranking and by CUB, nothing else, for Nsight Compute
// to compare the passes' kernels.
void profile_once() {
  const std::size_t n = std::size_t{1} << 26;
  std::mt19937_64 g(1);
  std::vector<std::uint32_t> host_keys(n);
  for (auto& k : host_keys)
    k = std::uint32_t(g());
  std::uint32_t *keys, *keys_out;
  CHECK_CUDA(cudaMalloc(&keys, n * 4));
  CHECK_CUDA(cudaMalloc(&keys_out, n * 4));
  CHECK_CUDA(cudaMemcpy(keys, host_keys.data(), n * 4, cudaMemcpyHostToDevice));
  const auto plan = full_plan(n, 4, 0);
  gc::radix_sort<std::uint32_t, gc::no_values>(keys, keys_out, nullptr, nullptr, plan, nullptr);
  match_any_rank::sort<std::uint32_t, gc::no_values>(keys, keys_out, nullptr, nullptr, plan);
  const cub_call cub_sort([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, keys_out, n);
  });
  cub_sort();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("profiled one gpuprim, one match-rank and one CUB sort of 2^26 uint32 keys\n");
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--profile") == 0) {
    profile_once();
    return 0;
  }
  // Production at its defaults (32 keys a thread up to 4-byte keys and
  // values, 16 beyond; look-back window 4; L2 prefetch 64 tiles ahead for
  // keys only) beside the match ranking at the same tile; uint32 keys also
  // with the ballot peer search. Earlier runs compared keys per thread,
  // look-back windows and prefetch distances (see bench/results/, radix
  // tiles and radix prefetch).
  using c32 = tile_config<32, 4>;
  using c16 = tile_config<16, 4>;
  using match16 = match_rank<gc::radix_peer_find::match_any, c16>;
  // The first size ends in a partial tile (and a partial warp chunk): the
  // ranking's bounds checks, checked against CUB, not timed for a figure.
  for (std::size_t n :
       {(std::size_t{1} << 20) + 4321, std::size_t{1} << 24, std::size_t{1} << 28}) {
    compare<std::uint32_t, false, production<c32>, match_any_rank, ballot_rank>(n);
    compare<float, false, production<c32>, match_any_rank>(n);
    compare<std::uint32_t, true, production<c32>, match_any_rank>(n);
    compare<std::uint64_t, false, production<c16>, match16>(n);
  }
}
