// Tuning probe for the GPU radix sort's tile: times the onesweep sort at
// several keys per thread (Items: tile = 256 x Items) and look-back windows
// (status words loaded at once per digit) against
// cub::DeviceRadixSort in one process on the same buffers, and checks that
// every variant's output equals CUB's bit for bit (both sorts are stable).
// Not part of the default build or the tests; on the GPU machine:
// cmake --build build/cuda --target gpuprim_lab_probe_radix_tile, or
// scripts/device-check.sh --tune-radix.
//
// Prints one line per (keys, size): CUB's time and each variant's time and
// ratio (CUB / variant: above 1 is faster than CUB). Medians of 20 calls
// after 3 warm-ups, CUDA events, isolated calls. With --profile it sorts
// 2^26 keys once each way instead, for Nsight Compute (device-check.sh
// --ncu-radix).
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

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;

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
// ahead whose keys and values a tile asks L2 for.
template <int Items, int Window, int MinBlocks = 0, int Prefetch = -1>
struct tile_config {};

template <class K, class V, int Items, int Window, int MinBlocks, int PrefetchOrDefault>
void run_variant(tile_config<Items, Window, MinBlocks, PrefetchOrDefault>, const K* keys,
                 K* keys_out, const V* values, V* values_out, std::size_t n,
                 const std::vector<K>& cub_keys, const std::vector<V>& cub_values, float cub_ms) {
  gp::detail::radix_sort_plan plan{};
  plan.n = n;
  plan.begin_bit = 0;
  plan.end_bit = int(8 * sizeof(K));
  plan.descending = false;
  plan.value_bytes = std::is_same_v<V, gc::no_values> ? 0 : int(sizeof(V));
  constexpr int Prefetch = PrefetchOrDefault >= 0 ? PrefetchOrDefault : gc::radix_prefetch_tiles<V>;
  const float ms = median_ms([&] {
    constexpr int blocks = MinBlocks > 0 ? MinBlocks : gc::radix_pass_min_blocks<K, Items>;
    gc::radix_sort<K, V, Items, Window, blocks, Prefetch>(keys, keys_out, values, values_out, plan,
                                                          nullptr);
  });
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
      "  items %2d, look-back window %d, %d blocks/SM, prefetch %3d tiles ahead: %9.1f us"
      "  %.2fx CUB  %s\n",
      Items, Window, MinBlocks > 0 ? MinBlocks : gc::radix_pass_min_blocks<K, Items>, Prefetch,
      ms * 1e3, cub_ms / ms, same ? "same as CUB" : "DIFFERENT FROM CUB");
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
  std::printf("%s%s keys, n = 2^%d: CUB %.1f us\n",
              std::is_floating_point_v<K> ? "float"
              : sizeof(K) == 8            ? "uint64"
                                          : "uint32",
              Pairs ? " + uint32 value" : "", int(std::log2(double(n))), cub_ms * 1e3);
  V* v_in = reinterpret_cast<V*>(Pairs ? values : nullptr);
  V* v_out = reinterpret_cast<V*>(Pairs ? values_out : nullptr);
  (run_variant<K, V>(Configs{}, keys, keys_out, v_in, v_out, n, cub_keys, cub_values, cub_ms), ...);
  free_device(keys, keys_out, values, values_out);
}

// --profile: one default-tile sort and one CUB sort of 2^26 uint32 keys,
// nothing else, for Nsight Compute to compare the two passes' kernels.
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
  gp::detail::radix_sort_plan plan{};
  plan.n = n;
  plan.end_bit = 32;
  gc::radix_sort<std::uint32_t, gc::no_values>(keys, keys_out, nullptr, nullptr, plan, nullptr);
  const cub_call cub_sort([&](void* temp, std::size_t& temp_bytes) {
    return cub::DeviceRadixSort::SortKeys(temp, temp_bytes, keys, keys_out, n);
  });
  cub_sort();
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("profiled one gpuprim and one CUB sort of 2^26 uint32 keys\n");
}

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--profile") == 0) {
    profile_once();
    return 0;
  }
  using c32w4 = tile_config<32, 4>;  // the default up to 4-byte keys and values
  using c32w4p0 = tile_config<32, 4, 0, 0>;
  using c32w4p64 = tile_config<32, 4, 0, 64>;
  using c16w4 = tile_config<16, 4>;  // the default for 8-byte keys or values
  using c16w4p0 = tile_config<16, 4, 0, 0>;
  // The L2 prefetch of later tiles' keys (default for keys only: 64 tiles,
  // 2 MB ahead, where 396 tiles are resident) against none. Earlier runs
  // compared keys per thread and look-back windows (32 x window 4 won) and
  // prefetching values too (slower for pairs):
  // see bench/results/ (radix prefetch).
  for (std::size_t n : {std::size_t{1} << 24, std::size_t{1} << 28}) {
    compare<std::uint32_t, false, c32w4, c32w4p0>(n);
    compare<float, false, c32w4, c32w4p0>(n);
    compare<std::uint32_t, true, c32w4, c32w4p64>(n);
    compare<std::uint64_t, false, c16w4, c16w4p0>(n);
  }
}
