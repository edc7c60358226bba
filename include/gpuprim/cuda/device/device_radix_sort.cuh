// GPU radix sort, the host driver: which kernels one sort launches, the
// buffers they move keys between, and the tuner's launch parameters. The
// kernels and the shape of their algorithm: cuda/device/radix_sort/
// onesweep.cuh (inputs of more than one tile: LSD, 8 bits a pass, one
// launch a pass) and radix_sort/small_sort.cuh (one tile or less: one
// block, one launch).
//
// A sort of more than one tile enqueues, with no host synchronization:
//   1. a memset and radix_digit_histograms: every pass's digit counts;
//   2. radix_route_passes: the digit starts of each pass, and each pass's
//      route (skip a trivial pass, sort, or copy, between the input, the
//      output and a temporary array);
//   3. radix_onesweep_pass once per pass (a skipped pass returns at once),
//      and once more after the last pass of an in-place sort with an odd
//      number of passes (the final copy, when no trivial pass could do it).
// The tile shape goes by size (radix_sort_by_size): one block up to one
// default tile, tiles of radix_mid_items keys a thread up to radix_mid_max
// keys, the default tile (radix_items) beyond.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/support/workspace.cuh"
#include "gpuprim/cuda/device/radix_sort/onesweep.cuh"
#include "gpuprim/cuda/device/radix_sort/small_sort.cuh"
#include "gpuprim/detail/sort/sort.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// The run-time launch parameters (the tuner's "radix_sort" space, src/tune/
// config.cpp): the onesweep pass's prefetch distance in tiles (-1: the
// PrefetchTiles template argument; 0: none; only where PrefetchTiles
// compiled the prefetch in) and the digit-histogram kernel's blocks per SM.
// skip_constant_digits false runs the design before constant digits were
// skipped (every pass sorts, on routes planned by the host; the histogram
// adds one a key and pass): the sort ladder's and probes' reference, not a
// tuner parameter. It changes nothing in the one-block sort.
struct radix_launch_config {
  int prefetch_tiles = -1;
  int histogram_blocks_per_sm = 8;
  bool skip_constant_digits = true;
};

// Keys per thread of the one-block sort of n keys: the fewest of 4, 16 and
// the tile's Items that hold them (each pass's ranking takes Items steps
// a warp, so fewer items are faster while they fit).
template <int Items>
void launch_radix_small_sort(const auto* keys_in, auto* keys_out, const auto* values_in,
                             auto* values_out, unsigned n, auto first, int passes, int end_bit,
                             stream_t stream) {
  using K = std::remove_cv_t<std::remove_pointer_t<decltype(keys_out)>>;
  using V = std::remove_cv_t<std::remove_pointer_t<decltype(values_out)>>;
  constexpr int threads = block_radix_rank::threads;
  constexpr int few = std::min(4, Items), some = std::min(16, Items);
  auto run = [&](auto kernel) {
    launch("radix_small_sort", "sort", kernel, {1, threads, 0, stream}, keys_in, keys_out,
           values_in, values_out, n, first, passes, end_bit);
  };
  if (n <= unsigned(threads * few)) {
    run(radix_small_sort<K, V, few>);
  } else if (n <= unsigned(threads * some)) {
    run(radix_small_sort<K, V, some>);
  } else {
    run(radix_small_sort<K, V, Items>);
  }
}

// The sort of more than one tile (steps 1-3 above), at the given tile
// shape (defined below). ResidentGrid: the passes run as
// radix_onesweep_pass_resident (a candidate the probes and tests name; a
// template parameter, so the library compiles one pass kernel a shape).
// Rank: the passes' ranking (radix_tile_storage; the probes name others).
template <class K, class V, int Items, int LookbackWindow, int MinBlocks, int PrefetchTiles,
          bool ResidentGrid = false, class Rank = block_radix_rank>
void radix_onesweep_sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                         const detail::radix_sort_plan& plan, stream_t stream,
                         const radix_launch_config& config);

// One sort at one tile shape (the tuning probes and tests name shapes
// other than the default): the one-block sort up to one tile, else the
// onesweep passes.
template <
    class K, class V, int Items = radix_items<K, V>, int LookbackWindow = radix_lookback_window,
    int MinBlocks = radix_pass_min_blocks<K, Items>, int PrefetchTiles = radix_prefetch_tiles<V>,
    bool ResidentGrid = false, class Rank = block_radix_rank>
void radix_sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                const detail::radix_sort_plan& plan, stream_t stream,
                const radix_launch_config& config = {}) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  const std::uint64_t n = plan.n;
  const int passes = plan.passes();
  if (n == 0) return;
  if (passes == 0) {  // nothing to compare: an out-of-place sort copies
    if (keys_out != keys_in) {
      GPUPRIM_CUDA_CHECK(
          cudaMemcpyAsync(keys_out, keys_in, n * sizeof(K), cudaMemcpyDeviceToDevice, stream),
          "sort");
    }
    if constexpr (has_values) {
      if (values_out != values_in) {
        GPUPRIM_CUDA_CHECK(
            cudaMemcpyAsync(values_out, values_in, n * sizeof(V), cudaMemcpyDeviceToDevice, stream),
            "sort");
      }
    }
    return;
  }
  if (n <= std::uint64_t(tile_size)) {
    const radix_digit<K> first{plan.begin_bit, plan.mask(0), plan.descending};
    launch_radix_small_sort<Items>(keys_in, keys_out, values_in, values_out,
                                   static_cast<unsigned>(n), first, passes, plan.end_bit, stream);
    return;
  }
  radix_onesweep_sort<K, V, Items, LookbackWindow, MinBlocks, PrefetchTiles, ResidentGrid, Rank>(
      keys_in, keys_out, values_in, values_out, plan, stream, config);
}

// Keys per thread of the passes of inputs of more than one default tile
// and at most radix_mid_max keys: so few tiles that they all run at once,
// so a pass lasts about as long as one tile does, and a tile of 8 keys a
// thread ranks in a quarter of the steps of one of 32. Measured at 2^16
// uint32 keys (H200): 45 us a sort against 55 at 32 keys a thread
// (bench/results/h200-2026-12-01-sortgpu.md); at 2^20 not established, so
// the default shape keeps it.
inline constexpr int radix_mid_items = 8;
inline constexpr std::uint64_t radix_mid_max = std::uint64_t{1} << 17;

// The library's sort: the default tile shape, except between one tile and
// radix_mid_max keys (radix_mid_items). ResidentGrid: see
// radix_onesweep_sort.
template <class K, class V, bool ResidentGrid = false>
void radix_sort_by_size(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                        const detail::radix_sort_plan& plan, stream_t stream,
                        const radix_launch_config& config = {}) {
  constexpr int default_tile = radix_tile_storage<K, V, radix_items<K, V>>::tile;
  if (plan.n > std::uint64_t(default_tile) && plan.n <= radix_mid_max && plan.passes() > 0) {
    radix_onesweep_sort<K, V, radix_mid_items, radix_lookback_window,
                        radix_pass_min_blocks<K, radix_mid_items>, radix_prefetch_tiles<V>,
                        ResidentGrid>(keys_in, keys_out, values_in, values_out, plan, stream,
                                      config);
  } else {
    radix_sort<K, V, radix_items<K, V>, radix_lookback_window,
               radix_pass_min_blocks<K, radix_items<K, V>>, radix_prefetch_tiles<V>, ResidentGrid>(
        keys_in, keys_out, values_in, values_out, plan, stream, config);
  }
}

template <class K, class V, int Items, int LookbackWindow, int MinBlocks, int PrefetchTiles,
          bool ResidentGrid, class Rank>
void radix_onesweep_sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                         const detail::radix_sort_plan& plan, stream_t stream,
                         const radix_launch_config& config) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  constexpr int threads = block_radix_rank::threads;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  const std::uint64_t n = plan.n;
  const int passes = plan.passes();

  // 1. Every pass's digit counts (the histogram kernel masks every pass
  // but the last to 8 bits, so it takes the last pass's mask), after them
  // each pass's tile counter (resident grid), zeroed with them, then room
  // for the routes.
  const std::size_t hist_bytes = std::size_t(passes) * radix_digits * sizeof(unsigned);
  const std::size_t zeroed_bytes = hist_bytes + (radix_max_passes + 1) * sizeof(unsigned);
  scratch_buffer hist(zeroed_bytes + (radix_max_passes + 1) * sizeof(radix_route), stream);
  unsigned* counts = hist.get<unsigned>();
  unsigned* tile_counters = counts + std::size_t(passes) * radix_digits;
  radix_route* routes = reinterpret_cast<radix_route*>(hist.get<unsigned char>() + zeroed_bytes);
  GPUPRIM_CUDA_CHECK(cudaMemsetAsync(counts, 0, zeroed_bytes, stream), "sort");
  const radix_digit<K> histogram_digit{plan.begin_bit, plan.mask(passes - 1), plan.descending};
  const unsigned hist_blocks = static_cast<unsigned>(std::min<std::uint64_t>(
      ceil_div(n, threads * 16),
      std::uint64_t(current_multiprocessor_count()) *
          static_cast<unsigned>(std::max(1, config.histogram_blocks_per_sm))));
  const bool skip = config.skip_constant_digits;
  // Key by key, one shared atomic a key and pass: radix_count_warp_uniform
  // measured 0.5-0.6x as fast on every distribution, even all-equal keys
  // (probe_radix_designs, H100, 2026-12-08): the hardware already merges a
  // warp's adds to one shared address.
  launch("radix_digit_histograms", "sort", radix_digit_histograms<K, void>,
         {hist_blocks, threads, 0, stream}, keys_in, n, histogram_digit, passes, counts);

  // 2. Digit starts and routes. In place, the first move must not write
  // the array it reads, for keys or for values. Skipping nothing, the
  // host plans the routes (no pass trivial) and the passes take them as
  // arguments.
  const bool in_place = keys_in == keys_out || (has_values && values_in == values_out);
  radix_route host_routes[radix_max_passes + 1] = {};
  if (!skip) {
    const bool none_trivial[radix_max_passes] = {};
    detail::radix_plan_routes(none_trivial, passes, in_place, host_routes);
  }
  launch("radix_route_passes", "sort", radix_route_passes<K>, {1, radix_digits, 0, stream}, counts,
         passes, n, in_place, skip ? routes : nullptr);

  // 3. The passes.
  scratch_buffer key_temp(n * sizeof(K), stream);
  scratch_buffer value_temp(has_values ? n * sizeof(V) : 0, stream);
  const radix_buffers<K, V> buffers{keys_in,   keys_out,   key_temp.get<K>(),
                                    values_in, values_out, value_temp.get<V>()};
  const std::uint64_t tiles = ceil_div(n, tile_size);
  const unsigned prefetch_tiles =
      static_cast<unsigned>(config.prefetch_tiles >= 0 ? config.prefetch_tiles : PrefetchTiles);
  const auto pass_kernel =
      radix_onesweep_pass<K, V, Items, LookbackWindow, MinBlocks, PrefetchTiles, Rank>;
  report_launch_to_tuner(pass_kernel, threads, 0, static_cast<unsigned>(tiles));
  const bool final_copy_possible = in_place && passes % 2 == 1;
  for (int p = 0; p < passes + (final_copy_possible ? 1 : 0); ++p) {
    const lookback_workspace ws = stream_lookback_workspace(stream, tiles * radix_digits, 0);
    const tile_lookback<unsigned> lookback{ws.status, nullptr, ws.epoch};
    const int digit_pass = std::min(p, passes - 1);  // (the final copy has no digit)
    const radix_digit<K> digit_of{plan.shift(digit_pass), plan.mask(digit_pass), plan.descending};
    const unsigned* starts = counts + digit_pass * radix_digits;
    const radix_route* route = skip ? routes + p : nullptr;
    if constexpr (ResidentGrid) {
      const auto resident_kernel =
          radix_onesweep_pass_resident<K, V, Items, LookbackWindow, MinBlocks, PrefetchTiles, Rank>;
      const unsigned grid = static_cast<unsigned>(std::min<std::uint64_t>(
          tiles, std::max(1u, persistent_grid_size(resident_kernel, threads, 0))));
      launch("radix_onesweep_pass_resident", "sort", resident_kernel, {grid, threads, 0, stream},
             buffers, n, digit_of, starts, lookback, prefetch_tiles, host_routes[p], route,
             tile_counters + p);
    } else {
      launch("radix_onesweep_pass", "sort", pass_kernel,
             {static_cast<unsigned>(tiles), threads, 0, stream}, buffers, n, digit_of, starts,
             lookback, prefetch_tiles, host_routes[p], route);
    }
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

// The precompiled entry point (src/sort/instantiate.cuh): values as opaque
// 4- or 8-byte words; keys-only sorts read the tuner's "radix_sort" space
// (src/tune/config.cpp), sorts with values keep the defaults.
template <class K>
void cuda_radix_sort(const K* keys_in, K* keys_out, const void* values_in, void* values_out,
                     const radix_sort_plan& plan, stream_t stream) {
  using cuda_impl::radix_sort_by_size;
  switch (plan.value_bytes) {
    case 4:
      radix_sort_by_size(keys_in, keys_out, static_cast<const std::uint32_t*>(values_in),
                         static_cast<std::uint32_t*>(values_out), plan, stream);
      break;
    case 8:
      radix_sort_by_size(keys_in, keys_out, static_cast<const std::uint64_t*>(values_in),
                         static_cast<std::uint64_t*>(values_out), plan, stream);
      break;
    default: {
      const tuning::config c =
          tuning::choose(tuning::algorithm::radix_sort, tuning::element_type_of<K>(), plan.n)
              .choice;
      radix_sort_by_size<K, cuda_impl::no_values>(keys_in, keys_out, nullptr, nullptr, plan,
                                                    stream, {c[0], c[1]});
    }
  }
}

}  // namespace gpuprim::detail
