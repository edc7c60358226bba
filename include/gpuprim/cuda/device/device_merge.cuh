// GPU backend of merge and merge sort (gpuprim/merge.hpp): stable, any
// __device__ comparator, elements trivially copyable up to 64 bytes, 64-bit
// lengths.
//
// merge (merge path):
//  1. merge_partition_kernel: one thread per output tile finds where its
//     tile starts in a, by a binary search along the tile's first output
//     diagonal (a[i] goes before b[j] unless comp(b[j], a[i]): ties take a
//     first, so the merge is stable).
//  2. merge_tile_kernel: a block loads its tile's a- and b-ranges into
//     shared memory (coalesced, each thread's `items` loads issued
//     together), each thread finds its own diagonal in them and merges
//     `items` outputs serially into registers, the tile is written back
//     coalesced. Values follow their keys through the source index of each
//     output (16 bits: a tile is at most 2048 elements), gathered the same
//     way.
//
// merge sort:
//  1. block_sort_kernel: each block sorts one tile: every thread sorts its
//     `items` in registers (odd-even transposition, stable: neighbours swap
//     only when the second goes strictly first), then log2(threads) rounds
//     of merges of neighbouring runs in shared memory, each thread merging
//     `items` outputs from its diagonal. In place is allowed (a block reads
//     its whole tile before writing it).
//  2. Merge passes with the run width doubling from one tile: the same
//     partition and tile kernels, the pairs of runs found from the tile's
//     position (a pair is 2 * width elements, a multiple of the tile),
//     ping-ponging between the data and one scratch buffer of its size (and
//     one of the values'); the first pass's direction is chosen so that the
//     last one writes the data.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/order/entry.hpp"

namespace gpuprim::cuda_impl {

using order_no_value = detail::order_no_value;

inline constexpr int merge_block_threads = 256;

// Items per thread: a tile of keys is at most 32 KiB of shared memory
// (2048 elements of up to 8 bytes, 1024 of 16, 512 of up to 64).
template <class K>
GPUPRIM_HD constexpr int merge_items_of() {
  return sizeof(K) <= 8 ? 8 : (sizeof(K) <= 16 ? 4 : 2);
}
template <class K>
GPUPRIM_HD constexpr int merge_tile_of() {
  return merge_block_threads * merge_items_of<K>();
}

// How many of the first `diag` outputs of the merge of a[0, na) and
// b[0, nb) come from a (a before b on ties).
template <class K, class I, class Comp>
__device__ __forceinline__ I merge_path_of(const K* a, I na, const K* b, I nb, I diag, Comp& comp) {
  I lo = diag > nb ? diag - nb : 0;
  I hi = diag < na ? diag : na;
  while (lo < hi) {
    const I mid = lo + (hi - lo) / 2;
    if (!comp(b[diag - 1 - mid], a[mid])) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Two sorted runs to merge (a before b on ties), whose merge starts at
// output position `first`.
template <class K, class V>
struct merge_runs {
  const K* ka;
  const V* va;
  std::uint64_t na;
  const K* kb;
  const V* vb;
  std::uint64_t nb;
  std::uint64_t first;
};

// Where the pair of runs an output position belongs to lies. A plain merge
// is one pair (width 0): `runs` itself. A merge-sort pass of run width w:
// pair p is src[2pw, 2pw + w) and src[2pw + w, 2(p+1)w), cut at n, where
// (runs.ka, runs.va, runs.na) is the pass's whole input (src, n).
template <class K, class V>
struct merge_pairs {
  merge_runs<K, V> runs;
  std::uint64_t width;  // 0: one merge of runs

  __device__ merge_runs<K, V> at(std::uint64_t d) const {
    if (width == 0) return runs;
    const std::uint64_t n = runs.na;  // a pass's total length
    const std::uint64_t first = d / (2 * width) * (2 * width);
    const std::uint64_t la = width < n - first ? width : n - first;
    const std::uint64_t lb = width < n - first - la ? width : n - first - la;
    const K* k = runs.ka;
    const V* v = nullptr;
    if constexpr (!std::is_same_v<V, order_no_value>) v = runs.va;
    return {k + first, v ? v + first : v, la, k + first + la, v ? v + first + la : v, lb, first};
  }
  __device__ std::uint64_t total() const { return width == 0 ? runs.na + runs.nb : runs.na; }
};

// For every tile t (and t = tiles), the number of a's elements before the
// tile's first output, within the tile's pair.
template <class K, class V, class Comp>
__global__ void merge_partition_kernel(merge_pairs<K, V> pairs, std::uint64_t tiles,
                                       std::uint64_t* splits, Comp comp) {
  constexpr int tile = merge_tile_of<K>();
  const std::uint64_t t = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (t > tiles) return;
  const std::uint64_t total = pairs.total();
  const std::uint64_t d = t * tile < total ? t * tile : total;
  if (d == total) {
    splits[t] = 0;  // read only as the last tile's end, which is its pair's end
    return;
  }
  const auto p = pairs.at(d);
  splits[t] = merge_path_of<K, std::uint64_t>(p.ka, p.na, p.kb, p.nb, d - p.first, comp);
}

// Copies n (<= merge_block_threads * items) elements, store(o, load(o)) for
// o < n, coalesced, each thread issuing all of its loads before any store
// (a loop of load-then-store would wait a memory latency per item).
template <int items, class E, class Load, class Store>
__device__ __forceinline__ void merge_staged_copy(int n, Load&& load, Store&& store) {
  E staged[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int o = static_cast<int>(threadIdx.x) + k * merge_block_threads;
    if (o < n) staged[k] = load(o);
  }
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int o = static_cast<int>(threadIdx.x) + k * merge_block_threads;
    if (o < n) store(o, staged[k]);
  }
}

// A block's tile in shared memory: its keys and, with values, the position
// each key came from (its value is gathered by it at the end).
template <class K, class V>
struct merge_tile_storage {
  static constexpr bool has_values = !std::is_same_v<V, order_no_value>;
  alignas(K) unsigned char keys_raw[merge_tile_of<K>() * sizeof(K)];
  std::uint16_t from[has_values ? merge_tile_of<K>() : 1];
  __device__ K* keys() { return reinterpret_cast<K*>(keys_raw); }
};

template <class K, class V, class Comp>
__global__ void __launch_bounds__(merge_block_threads)
    merge_tile_kernel(merge_pairs<K, V> pairs, const std::uint64_t* splits, K* out, V* vout,
                      Comp comp) {
  using storage = merge_tile_storage<K, V>;
  constexpr int items = merge_items_of<K>(), tile = merge_tile_of<K>();
  __shared__ storage shared;
  K* keys = shared.keys();
  std::uint16_t* from = shared.from;

  const std::uint64_t total = pairs.total();
  const std::uint64_t d0 = std::uint64_t{blockIdx.x} * tile;
  const auto p = pairs.at(d0);
  const std::uint64_t pair_end = p.first + p.na + p.nb;
  const std::uint64_t end = total < pair_end ? total : pair_end;
  const std::uint64_t d1 = d0 + tile < end ? d0 + tile : end;
  const std::uint64_t a0 = splits[blockIdx.x];
  const std::uint64_t a1 = d1 == pair_end ? p.na : splits[blockIdx.x + 1];
  const std::uint64_t b0 = d0 - p.first - a0;
  const std::uint64_t b1 = d1 - p.first - a1;
  const int la = static_cast<int>(a1 - a0);
  const int lb = static_cast<int>(b1 - b0);
  const int len = la + lb;
  merge_staged_copy<items, K>(
      len, [&](int i) { return i < la ? p.ka[a0 + i] : p.kb[b0 + (i - la)]; },
      [&](int i, const K& k) { keys[i] = k; });
  __syncthreads();

  const K* sa = keys;
  const K* sb = keys + la;
  const int diag = min(static_cast<int>(threadIdx.x) * items, len);
  int i = merge_path_of<K, int>(sa, la, sb, lb, diag, comp);
  int j = diag - i;
  K picked[items];
  int source[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (diag + k < len) {
      const bool take_a = i < la && (j >= lb || !comp(sb[j], sa[i]));
      picked[k] = take_a ? sa[i] : sb[j];
      source[k] = take_a ? i : la + j;
      i += take_a;
      j += !take_a;
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < items; ++k) {
    const int o = diag + k;
    if (o < len) {
      keys[o] = picked[k];
      if constexpr (storage::has_values) from[o] = static_cast<std::uint16_t>(source[k]);
    }
  }
  __syncthreads();
  for (int o = threadIdx.x; o < len; o += merge_block_threads)
    out[d0 + o] = keys[o];
  if constexpr (storage::has_values) {
    merge_staged_copy<items, V>(
        len,
        [&](int o) {
          const int s = from[o];
          return s < la ? p.va[a0 + s] : p.vb[b0 + (s - la)];
        },
        [&](int o, const V& v) { vout[d0 + o] = v; });
  }
}

// One tile of `tile` elements per block sorted, from (src, vsrc) into
// (dst, vdst); dst may be src.
template <class K, class V, class Comp>
__global__ void __launch_bounds__(merge_block_threads)
    block_sort_kernel(const K* src, const V* vsrc, std::uint64_t n, K* dst, V* vdst, Comp comp) {
  using storage = merge_tile_storage<K, V>;
  constexpr int items = merge_items_of<K>(), tile = merge_tile_of<K>();
  __shared__ storage shared;
  K* keys = shared.keys();
  std::uint16_t* from = shared.from;

  const std::uint64_t base = std::uint64_t{blockIdx.x} * tile;
  const int len = static_cast<int>(n - base < tile ? n - base : std::uint64_t{tile});
  merge_staged_copy<items, K>(
      len, [&](int i) { return src[base + i]; }, [&](int i, const K& k) { keys[i] = k; });
  __syncthreads();

  // Each thread's own items, sorted in registers.
  const int mine = static_cast<int>(threadIdx.x) * items;
  K key[items];
  int idx[items];
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (mine + k < len) key[k] = keys[mine + k];
    idx[k] = mine + k;
  }
#pragma unroll
  for (int round = 0; round < items; ++round) {
#pragma unroll
    for (int k = round & 1; k + 1 < items; k += 2) {
      if (mine + k + 1 < len && comp(key[k + 1], key[k])) {
        const K t = key[k];
        key[k] = key[k + 1];
        key[k + 1] = t;
        const int u = idx[k];
        idx[k] = idx[k + 1];
        idx[k + 1] = u;
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (mine + k < len) {
      keys[mine + k] = key[k];
      if constexpr (storage::has_values) from[mine + k] = static_cast<std::uint16_t>(idx[k]);
    }
  }
  __syncthreads();

  // Runs of `width` merged pairwise in shared memory until one run is left.
  for (int width = items; width < len; width *= 2) {
    const int first = mine / (2 * width) * (2 * width);
    int count = 0;
    if (mine < len) {
      const int la = min(width, len - first);
      const int lb = min(width, len - first - la);
      const K* sa = keys + first;
      const K* sb = sa + la;
      const int diag = mine - first;
      int i = merge_path_of<K, int>(sa, la, sb, lb, diag, comp);
      int j = diag - i;
      count = min(items, la + lb - diag);
#pragma unroll
      for (int k = 0; k < items; ++k) {
        if (k < count) {
          const bool take_a = i < la && (j >= lb || !comp(sb[j], sa[i]));
          key[k] = take_a ? sa[i] : sb[j];
          if constexpr (storage::has_values) idx[k] = from[first + (take_a ? i : la + j)];
          i += take_a;
          j += !take_a;
        }
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (k < count) {
        keys[mine + k] = key[k];
        if constexpr (storage::has_values) from[mine + k] = static_cast<std::uint16_t>(idx[k]);
      }
    }
    __syncthreads();
  }

  if constexpr (storage::has_values) {
    // Read every value of the tile before any is written (dst may be src).
    V value[items];
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int o = static_cast<int>(threadIdx.x) + k * merge_block_threads;
      if (o < len) value[k] = vsrc[base + from[o]];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < items; ++k) {
      const int o = static_cast<int>(threadIdx.x) + k * merge_block_threads;
      if (o < len) vdst[base + o] = value[k];
    }
  }
  for (int o = threadIdx.x; o < len; o += merge_block_threads)
    dst[base + o] = keys[o];
}

// One merge (or one merge-sort pass) of `pairs` into (out, vout).
template <class K, class V, class Comp>
void merge_launch(const merge_pairs<K, V>& pairs, std::uint64_t total, K* out, V* vout, Comp comp,
                  std::uint64_t* splits, stream_t stream, const char* algorithm) {
  constexpr int tile = merge_tile_of<K>();
  const std::uint64_t tiles = ceil_div(total, tile);
  launch_shape partition;
  partition.grid = dim3(static_cast<unsigned>(ceil_div(tiles + 1, 256)));
  partition.block = dim3(256);
  partition.stream = stream;
  launch("merge_partition_kernel", algorithm, &merge_partition_kernel<K, V, Comp>, partition, pairs,
         tiles, splits, comp);
  launch_shape merge;
  merge.grid = dim3(static_cast<unsigned>(tiles));
  merge.block = dim3(merge_block_threads);
  merge.stream = stream;
  launch("merge_tile_kernel", algorithm, &merge_tile_kernel<K, V, Comp>, merge, pairs,
         static_cast<const std::uint64_t*>(splits), out, vout, comp);
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class K, class V, class Comp>
void cuda_merge_into(const K* ka, const V* va, std::size_t na, const K* kb, const V* vb,
                     std::size_t nb, K* ko, V* vo, Comp comp, stream_t stream) {
  using namespace cuda_impl;
  const std::uint64_t total = std::uint64_t{na} + nb;
  if (total == 0) return;
  const std::uint64_t tiles = ceil_div(total, merge_tile_of<K>());
  const scratch_buffer splits((tiles + 1) * sizeof(std::uint64_t), stream);
  const merge_pairs<K, V> pairs{{ka, va, na, kb, vb, nb, 0}, 0};
  merge_launch(pairs, total, ko, vo, comp, splits.get<std::uint64_t>(), stream,
               std::is_same_v<V, order_no_value> ? "merge" : "merge_by_key");
}

template <class K, class V, class Comp>
void cuda_merge_sort_into(K* keys, V* values, std::size_t n, Comp comp, stream_t stream) {
  using namespace cuda_impl;
  constexpr bool has_values = !std::is_same_v<V, order_no_value>;
  const char* algorithm = has_values ? "merge_sort_by_key" : "merge_sort";
  if (n <= 1) return;
  constexpr std::uint64_t tile = merge_tile_of<K>();
  const std::uint64_t tiles = ceil_div(n, tile);
  int passes = 0;
  for (std::uint64_t w = tile; w < n; w *= 2)
    ++passes;
  const scratch_buffer key_buffer(passes > 0 ? n * sizeof(K) : 0, stream);
  const scratch_buffer value_buffer(passes > 0 && has_values ? n * sizeof(V) : 0, stream);
  const scratch_buffer splits(passes > 0 ? (tiles + 1) * sizeof(std::uint64_t) : 0, stream);
  K* kbuf[2] = {keys, key_buffer.get<K>()};
  V* vbuf[2] = {values, value_buffer.get<V>()};
  // The block sort writes buffer `cur`; after `passes` swaps the data holds the result.
  int cur = passes % 2;
  launch_shape sort;
  sort.grid = dim3(static_cast<unsigned>(tiles));
  sort.block = dim3(merge_block_threads);
  sort.stream = stream;
  launch("block_sort_kernel", algorithm, &block_sort_kernel<K, V, Comp>, sort,
         static_cast<const K*>(keys), static_cast<const V*>(values), std::uint64_t{n}, kbuf[cur],
         has_values ? vbuf[cur] : nullptr, comp);
  for (std::uint64_t w = tile; w < n; w *= 2) {
    const merge_pairs<K, V> pairs{
        {kbuf[cur], has_values ? vbuf[cur] : nullptr, n, nullptr, nullptr, 0, 0}, w};
    merge_launch(pairs, n, kbuf[1 - cur], has_values ? vbuf[1 - cur] : nullptr, comp,
                 splits.get<std::uint64_t>(), stream, algorithm);
    cur = 1 - cur;
  }
}

}  // namespace gpuprim::detail
