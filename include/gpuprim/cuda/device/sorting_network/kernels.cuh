// Device-wide sorting networks, the kernels and the keys they compare:
// bitonic and odd-even merge sort of one array, and bitonic sorts of many
// arrays at once (batched: equal sizes; segmented: sizes from offsets). The
// host driver that picks a path and launches the steps is
// cuda/device/device_sorting_network.cuh.
//
// Every array is sorted by the "all ascending" bitonic network padded to a
// power of two P (cuda/warp/warp_bitonic_sort.cuh), on one of three paths
// chosen by P:
//  - P <= 64: registers. P / Items lanes of a warp hold one array, Items
//    consecutive keys per lane (vector loads when every array is full and
//    aligned), and run the whole network with shuffles. One launch.
//  - P * sizeof(key) <= 32 KiB: one block per array, in shared memory
//    (cuda/block/block_bitonic_sort.cuh). One launch. Arrays of exactly P
//    keys, aligned, whose two copies fit 48 KiB take the full-tile kernel
//    instead: lanes hold consecutive keys, no guards, each step across
//    warps one pass through shared memory.
//  - larger: the array is cut into tiles of 32 KiB; a block sorts each tile,
//    then every stage above the tile runs its wide steps as one launch each
//    (global memory) and its steps within a tile as one launch of block
//    merges. Many arrays share each launch.
// Odd-even merge sort sorts tiles in shared memory the same way, but the
// pairs of its merge steps straddle tile boundaries at every stride, so all
// its steps above the tile run in global memory, one launch each.
//
// Keys of the precompiled types with gp::sort_less / gp::sort_greater are
// sorted as unsigned integers (sort_codec): the key order as bits, made once
// at load and undone at store, so a compare-exchange is an integer min/max.
// The mapping is a bijection (every bit pattern, NaN payloads included,
// comes back unchanged); all NaNs land above every number.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/block/block_bitonic_sort.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/warp/warp_bitonic_sort.cuh"
#include "gpuprim/sort_types.hpp"

namespace gpuprim::cuda_impl {

// ---- keys --------------------------------------------------------------------

// How keys of type T are compared: as themselves with the user's comparator.
template <class T, class Comp>
struct sort_codec {
  using key = T;
  Comp comp;
  __device__ static T encode(const T& x) { return x; }
  __device__ static T decode(const T& k) { return k; }
  __device__ bool less(const T& a, const T& b) const { return comp(a, b); }
};

// The flipped pattern of -inf: float and double keys are shifted down by it.
template <class T, class Bits>
constexpr Bits float_nan_shift() {
  if constexpr (std::is_same_v<T, float>) return Bits(0x007FFFFFu);
  if constexpr (std::is_same_v<T, double>) return Bits(0x000FFFFFFFFFFFFFull);
  return Bits(0);
}

// Radix keys in gp::sort's order, as unsigned integers compared with `<`.
// Integers: radix_key's bits (a bijection already). Floats: radix_key's
// sign flip (a bijection), minus the flipped pattern of -inf (of +inf when
// descending), so that negative NaNs, which the flip puts below -inf, wrap
// around to the top next to the positive ones.
template <class T, bool Descending>
struct radix_sort_codec {
  using key = typename radix_key<T>::bits_type;
  static constexpr key sign = radix_key<T>::sign_bit;
  static constexpr key nan_shift = float_nan_shift<T, key>();

  __device__ static key encode(const T& x) {
    key b = std::bit_cast<key>(x);
    if constexpr (std::is_floating_point_v<T>) {
      b = (b & sign) ? key(~b) : key(b | sign);
      if constexpr (Descending) b = key(~b);
      return key(b - nan_shift);
    } else {
      if constexpr (std::is_signed_v<T>) b = key(b ^ sign);
      return Descending ? key(~b) : b;
    }
  }
  __device__ static T decode(key k) {
    if constexpr (std::is_floating_point_v<T>) {
      k = key(k + nan_shift);
      if constexpr (Descending) k = key(~k);
      return std::bit_cast<T>((k & sign) ? key(k & key(~sign)) : key(~k));
    } else {
      if constexpr (Descending) k = key(~k);
      if constexpr (std::is_signed_v<T>) k = key(k ^ sign);
      return std::bit_cast<T>(k);
    }
  }
  __device__ static bool less(key a, key b) { return a < b; }
  static constexpr bool integer_order = true;  // less is the keys' own `<`
};

template <class T>
requires is_radix_key_v<T>
struct sort_codec<T, sort_less> : radix_sort_codec<T, false> {
  constexpr explicit sort_codec(sort_less) {}
};
template <class T>
requires is_radix_key_v<T>
struct sort_codec<T, sort_greater> : radix_sort_codec<T, true> {
  constexpr explicit sort_codec(sort_greater) {}
};

// The codec's order of its keys; integer_order when the codec compares
// built-in integers with `<` (compare_exchange_keep: min and max).
template <class Codec>
struct key_less {
  static constexpr bool integer_order = declares_integer_order<Codec>;
  Codec codec;
  __device__ bool operator()(const typename Codec::key& a, const typename Codec::key& b) const {
    return codec.less(a, b);
  }
};

// Keys per lane in registers: two 16-byte vectors of 4-byte keys, fewer
// for wider ones (registers), one for anything over 16 bytes.
template <class K>
inline constexpr int network_items = sizeof(K) <= 4    ? 8
                                     : sizeof(K) <= 8  ? 4
                                     : sizeof(K) <= 16 ? 2
                                                       : 1;

inline constexpr unsigned network_threads = 256;
inline constexpr unsigned register_sort_max = 64;            // keys per array on the register path
inline constexpr std::size_t shared_tile_bytes = 32 * 1024;  // the shared-memory path's tile

// The largest power-of-two tile of keys that fits shared_tile_bytes.
template <class K>
constexpr unsigned shared_tile_keys() {
  return unsigned(std::bit_floor(shared_tile_bytes / sizeof(K)));
}

// ---- arrays ------------------------------------------------------------------

struct array_extent {
  std::uint64_t begin;
  std::uint64_t size;
};

// Arrays of equal size, one after the other.
struct uniform_arrays {
  std::uint64_t size;
  __device__ array_extent operator()(std::uint64_t a) const { return {a * size, size}; }
};

// Arrays listed one by one (segments, grouped by padded size on the host).
struct listed_arrays {
  const array_extent* list;
  __device__ array_extent operator()(std::uint64_t a) const { return list[a]; }
};

// ---- kernels -----------------------------------------------------------------

// Register path: each group of P / Items lanes sorts one array of at most P
// keys. Full: every array has exactly P keys and the data is 16-byte
// aligned (vector loads, no guards).
template <unsigned P, int Items, bool Full, class Codec, class T, class Arrays>
__global__ void __launch_bounds__(network_threads)
    sort_arrays_in_registers(T* __restrict__ data, Arrays arrays, std::uint64_t count,
                             Codec codec) {
  using K = typename Codec::key;
  constexpr unsigned lanes = P / Items;
  using layout = blocked_layout<Items, lanes>;
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t a = (std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) / lanes;
  const array_extent array = a < count ? arrays(a) : array_extent{0, 0};
  const unsigned valid = unsigned(array.size);
  T* const keys = data + array.begin;
  const unsigned first = layout::offset(lane, 0);
  K v[Items]{};
  if constexpr (Full) {
    if (a < count) {
      const vector_of<T, Items> in = load_vector<Items>(keys + first);
#pragma unroll
      for (int r = 0; r < Items; ++r)
        v[r] = codec.encode(in.items[r]);
    }
  } else {
#pragma unroll
    for (int r = 0; r < Items; ++r) {
      if (first + r < valid) v[r] = codec.encode(keys[first + r]);
    }
  }
  // Lanes past the last array take part in the shuffles with nothing to do.
  bitonic_sort_registers<layout, !Full>(v, 0, lane, valid, key_less<Codec>{codec});
  if constexpr (Full) {
    if (a < count) {
      vector_of<T, Items> out;
#pragma unroll
      for (int r = 0; r < Items; ++r)
        out.items[r] = codec.decode(v[r]);
      *reinterpret_cast<vector_of<T, Items>*>(keys + first) = out;
    }
  } else {
#pragma unroll
    for (int r = 0; r < Items; ++r) {
      if (first + r < valid) keys[first + r] = codec.decode(v[r]);
    }
  }
}

// Blocks of sort_tiles_in_shared an SM must hold (__launch_bounds__): for
// the radix keys, 5 blocks of 256 threads, i.e. at most 48 registers, which
// they fit without spilling (left alone, the min/max form takes 64 for
// 4-byte keys and would lose occupancy); otherwise (0) the compiler's
// choice.
template <class Codec>
inline constexpr int shared_tiles_min_blocks =
    integer_ordered<key_less<Codec>, typename Codec::key> ? 5 : 0;

// Shared-memory path: block b sorts tile (b % tiles_per_array) of array
// (b / tiles_per_array), `tile` keys (dynamic shared memory), or with
// merge_only runs the in-tile steps of a stage spanning several tiles.
template <int Items, class Codec, class T, class Arrays>
__global__ void __launch_bounds__(network_threads, shared_tiles_min_blocks<Codec>)
    sort_tiles_in_shared(T* __restrict__ data, Arrays arrays, std::uint64_t tiles_per_array,
                         unsigned tile, bool merge_only, Codec codec) {
  using K = typename Codec::key;
  extern __shared__ __align__(16) unsigned char network_shared[];
  K* const keys = reinterpret_cast<K*>(network_shared);
  const std::uint64_t b = blockIdx.x;
  const array_extent array = arrays(b / tiles_per_array);
  const std::uint64_t tile_begin = (b % tiles_per_array) * tile;
  if (tile_begin >= array.size) return;  // the whole block: uniform
  const unsigned valid = unsigned(std::min<std::uint64_t>(tile, array.size - tile_begin));
  if (valid < 2) return;
  T* const tile_data = data + array.begin + tile_begin;
  for (unsigned i = threadIdx.x; i < valid; i += blockDim.x)
    keys[i] = codec.encode(tile_data[i]);
  __syncthreads();
  const block_bitonic_sort<Items, K, key_less<Codec>> sorter{keys, tile, valid,
                                                             key_less<Codec>{codec}};
  if (merge_only) {
    sorter.merge();
  } else {
    sorter.sort();
  }
  for (unsigned i = threadIdx.x; i < valid; i += blockDim.x)
    tile_data[i] = codec.decode(keys[i]);
}

// Full-tile path, one step whose partners lie in other chunks of the tile:
// key (first + i) meets (first + i) ^ mask, mask >= chunk. The warp writes
// its chunk to `buffer` and, after the barrier, reads the partners: the
// same places of chunk first ^ mask's chunk bits, or (Mirror: mask = 2^m - 1,
// the first step of a stage) their mirror image, lane 31 - lane's keys in
// reverse. The lower chunk keeps the smaller keys.
template <bool Mirror, class Layout, int Items, class K, class Less>
__device__ __forceinline__ void full_tile_step(K (&v)[Items], K* buffer, unsigned first,
                                               unsigned lane, unsigned mask, unsigned top,
                                               Less less) {
  constexpr unsigned chunk = Layout::elements;
  using keys_of_lane = vector_of<K, Items>;
  keys_of_lane mine;
#pragma unroll
  for (int r = 0; r < Items; ++r)
    mine.items[r] = v[r];
  *reinterpret_cast<keys_of_lane*>(buffer + first + Layout::offset(lane, 0)) = mine;
  __syncthreads();
  const unsigned partner_chunk = first ^ (mask & ~(chunk - 1));
  const keys_of_lane other = *reinterpret_cast<const keys_of_lane*>(
      buffer + partner_chunk + Layout::offset(Mirror ? 31 - lane : lane, 0));
  const bool lower = (first & top) == 0;
#pragma unroll
  for (int r = 0; r < Items; ++r)
    v[r] = compare_exchange_keep(v[r], other.items[Mirror ? Items - 1 - r : r], lower, less);
}

// Full-tile path: block b sorts array b of exactly `tile` keys (a power of
// two of at least one chunk); the data is 16-byte aligned. Each warp holds a
// chunk of 32 * Items keys blocked (lane l: Items consecutive keys, loaded
// as vectors straight from global memory), so that the steps with partners
// less than Items apart are register moves and the rest of a chunk's steps
// shuffles; no step needs a guard. The steps across chunks go through two
// tiles of shared memory taken in turn, one barrier a step.
// The kernel is bound by instruction issue (each key crosses DRAM once, and
// a tile of 1024 floats takes 55 steps): a step costs a key a shuffle or
// nothing to fetch its partner and, for the radix keys, one min or max
// (compare_exchange_keep) in a direction tested once a step.
//   1. the chunk's whole network in registers;
//   2. each stage above the chunk: its steps across chunks through shared
//      memory (the mirror step, then the steps down to one chunk apart),
//      then its steps inside the chunk in registers;
//   3. the sorted chunk back to global memory as vectors.
template <int Items, class Codec, class T>
__global__ void __launch_bounds__(1024)
    sort_full_tiles(T* __restrict__ data, unsigned tile, Codec codec) {
  using K = typename Codec::key;
  using layout = blocked_layout<Items, 32>;
  constexpr unsigned chunk = layout::elements;
  extern __shared__ __align__(16) unsigned char network_shared[];
  K* const buffers = reinterpret_cast<K*>(network_shared);
  const unsigned lane = threadIdx.x % 32;
  const unsigned first = (threadIdx.x / 32) * chunk;
  T* const keys = data + std::uint64_t(blockIdx.x) * tile + first + layout::offset(lane, 0);
  const key_less<Codec> less{codec};
  K v[Items];
  const vector_of<T, Items> in = load_vector<Items>(keys);
#pragma unroll
  for (int r = 0; r < Items; ++r)
    v[r] = codec.encode(in.items[r]);
  // 1.
  bitonic_sort_registers<layout, false>(v, 0, lane, chunk, less);
  // 2.
  unsigned buffer = 0;
  for (unsigned k = 2 * chunk; k <= tile; k *= 2) {
    full_tile_step<true, layout>(v, buffers + buffer * tile, first, lane, k - 1, k / 2, less);
    buffer ^= 1;
    for (unsigned j = k / 4; j >= chunk; j /= 2) {
      full_tile_step<false, layout>(v, buffers + buffer * tile, first, lane, j, j, less);
      buffer ^= 1;
    }
    bitonic_merge_registers<layout, false>(v, 0, lane, chunk, less);
  }
  // 3.
  vector_of<T, Items> out;
#pragma unroll
  for (int r = 0; r < Items; ++r)
    out.items[r] = codec.decode(v[r]);
  *reinterpret_cast<vector_of<T, Items>*>(keys) = out;
}

// One global compare-exchange step of the bitonic network over `count`
// arrays padded to 2^log2_half * 2: pair t of an array is (lo, lo ^ mask),
// lo = t with a zero bit at `top`.
template <class Codec, class T, class Arrays>
__global__ void __launch_bounds__(network_threads)
    bitonic_step_global(T* __restrict__ data, Arrays arrays, std::uint64_t count,
                        unsigned log2_half, std::uint64_t mask, std::uint64_t top, Codec codec) {
  const std::uint64_t total = count << log2_half;
  const std::uint64_t half_mask = (std::uint64_t(1) << log2_half) - 1;
  for (std::uint64_t g = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; g < total;
       g += std::uint64_t(gridDim.x) * blockDim.x) {
    const array_extent array = arrays(g >> log2_half);
    const std::uint64_t lo = insert_zero_bit(g & half_mask, top);
    const std::uint64_t hi = lo ^ mask;
    if (hi >= array.size) continue;
    T* const keys = data + array.begin;
    const T x = keys[lo];
    const T y = keys[hi];
    if (codec.less(codec.encode(y), codec.encode(x))) {
      keys[lo] = y;
      keys[hi] = x;
    }
  }
}

// Odd-even merge sort of each tile of one array in shared memory: merges of
// runs up to the tile.
template <class Codec, class T>
__global__ void __launch_bounds__(network_threads)
    odd_even_sort_tiles(T* __restrict__ data, std::uint64_t n, unsigned tile, Codec codec) {
  using K = typename Codec::key;
  extern __shared__ __align__(16) unsigned char network_shared[];
  K* const keys = reinterpret_cast<K*>(network_shared);
  const std::uint64_t tile_begin = std::uint64_t(blockIdx.x) * tile;
  const unsigned valid = unsigned(std::min<std::uint64_t>(tile, n - tile_begin));
  T* const tile_data = data + tile_begin;
  for (unsigned i = threadIdx.x; i < valid; i += blockDim.x)
    keys[i] = codec.encode(tile_data[i]);
  __syncthreads();
  for (unsigned p = 1; p < tile; p *= 2) {
    for (unsigned k = p; k >= 1; k /= 2) {
      for (unsigned t = threadIdx.x; t < tile / 2; t += blockDim.x) {
        const unsigned a = insert_zero_bit(t, k);
        const unsigned lo = k == p ? a : a + k;
        const unsigned hi = k == p ? a + k : a + 2 * k;
        // Both ends in one run of 2p (always so when k == p), both real.
        if (hi < valid && lo / (2 * p) == hi / (2 * p)) {
          const K x = keys[lo];
          const K y = keys[hi];
          if (codec.less(y, x)) {
            keys[lo] = y;
            keys[hi] = x;
          }
        }
      }
      __syncthreads();
    }
  }
  for (unsigned i = threadIdx.x; i < valid; i += blockDim.x)
    tile_data[i] = codec.decode(keys[i]);
}

// Step (p, k) of odd-even merge sort over one array padded to 2^log2_padded.
template <class Codec, class T>
__global__ void __launch_bounds__(network_threads)
    odd_even_step_global(T* __restrict__ data, std::uint64_t n, std::uint64_t pairs,
                         std::uint64_t p, std::uint64_t k, Codec codec) {
  for (std::uint64_t t = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; t < pairs;
       t += std::uint64_t(gridDim.x) * blockDim.x) {
    const std::uint64_t a = insert_zero_bit(t, k);
    const std::uint64_t lo = k == p ? a : a + k;
    const std::uint64_t hi = k == p ? a + k : a + 2 * k;
    if (hi >= n || lo / (2 * p) != hi / (2 * p)) continue;
    const T x = data[lo];
    const T y = data[hi];
    if (codec.less(codec.encode(y), codec.encode(x))) {
      data[lo] = y;
      data[hi] = x;
    }
  }
}

}  // namespace gpuprim::cuda_impl
