// Device-wide segmented reduction, the kernels: out[s] = init op
// values[offsets[s]] op ... op values[offsets[s+1] - 1] for every segment
// s, init for empty ones. The host driver that picks the launch shape and
// launches them is cuda/device/device_segmented_reduce.cuh.
//
// Shape of the algorithm (read top to bottom):
//  1. The host picks one of two launch shapes from the average segment
//     length, values.size() / num_segments (the offsets live on the device,
//     and reading them first would cost a copy and a synchronization):
//      - short and medium segments: a group of G lanes per segment, G = 2, 8
//        or 32 (a warp). Groups of one warp take consecutive segments, so a
//        warp's loads cover one contiguous span of `values`: with segments
//        of 8 floats and G = 2, one 16-byte load per lane reads 512
//        consecutive bytes for 16 segments. A segment of 1024 floats is one
//        warp's 8 loads of 16 bytes per lane, all in flight at once.
//      - long segments: each segment is cut into K contiguous parts, one
//        block per part (the block's warps take contiguous sub-ranges and
//        meet in a block_reduce), and a second small kernel combines the K
//        parts of each segment in order.
//  2. Loads are 16-byte vectors from the first 16-byte aligned address of a
//     range on (the few elements before it are a scalar head), so any
//     values pointer and any offsets keep the vector path.
//  3. Each segment is reduced by one group (or one fixed set of blocks) in
//     an order that depends only on its length, never on timing or on which
//     group took it: results are the same from run to run.
//  4. Order of operands: for operators declared commutative
//     (gp::is_commutative_v) each lane accumulates its own strided elements
//     and the group combines lanes at the end; for any other operator each
//     group-wide load is reduced in order (lane order = input order) before
//     joining the running total, as device_reduce does.
//
// Offsets are not checked on the device: they must be non-decreasing and
// within values.size() (the public entry checks the sizes).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/cuda/block/block_reduce.cuh"
#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/shuffle.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/warp/warp_group_reduce.cuh"
#include "gpuprim/cuda/warp/warp_reduce.cuh"

namespace gpuprim::cuda_impl {

__device__ __forceinline__ std::uint64_t smaller(std::uint64_t a, std::uint64_t b) {
  return a < b ? a : b;
}

template <class T, class Op>
__device__ __forceinline__ void fold_into(partial<T>& acc, const T& x, Op op) {
  acc = {acc.valid ? op(acc.value, x) : x, true};
}

// Elements from `in + begin` to the next 16-byte aligned address (0 when
// Vec == 1, where every address is aligned enough).
template <int Vec, class In>
__device__ __forceinline__ std::uint64_t elements_to_vector_alignment(const In* in,
                                                                      std::uint64_t begin) {
  if constexpr (Vec == 1) {
    return 0;
  } else {
    constexpr std::uintptr_t bytes = sizeof(In) * Vec;
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(in + begin);
    return ((bytes - address % bytes) % bytes) / sizeof(In);
  }
}

// Ordered fold of in[q, q + Vec) clipped to [begin, end): one vector load
// when the whole vector is inside (q is vector aligned), scalars otherwise.
template <int Vec, class In, class T, class Op>
__device__ __forceinline__ void fold_vector_clipped(partial<T>& acc, const In* __restrict__ in,
                                                    std::uint64_t q, std::uint64_t begin,
                                                    std::uint64_t end, Op op) {
  if (q >= begin && q + Vec <= end) {
    const vector_of<In, Vec> v = load_vector<Vec>(in + q);
#pragma unroll
    for (int k = 0; k < Vec; ++k)
      fold_into(acc, static_cast<T>(v.items[k]), op);
  } else {
    for (std::uint64_t i = q < begin ? begin : q; i < q + Vec && i < end; ++i)
      fold_into(acc, static_cast<T>(in[i]), op);
  }
}

// Reduces in[begin, end) with the G lanes of each group of the warp (each
// group has its own range; lanes of a group pass the same range). Returns
// the group's total in every lane of the group; invalid for an empty range.
// All 32 lanes of the warp must call it together.
template <int G, int Vec, int Unroll, class In, class T, class Op>
__device__ __forceinline__ partial<T> group_reduce_range(const In* __restrict__ in,
                                                         std::uint64_t begin, std::uint64_t end,
                                                         Op op) {
  const int rank = threadIdx.x % G;                       // lane within the group
  constexpr std::uint64_t step = std::uint64_t(G) * Vec;  // elements one group-wide load covers
  partial<T> acc{T{}, false};

  // Elements before the first 16-byte aligned address (fewer than Vec) go
  // to the group's first lane, one by one: they precede everything else.
  const std::uint64_t aligned =
      begin < end ? smaller(end, begin + elements_to_vector_alignment<Vec>(in, begin)) : end;
  if (rank == 0) {
    for (std::uint64_t i = begin; i < aligned; ++i)
      fold_into(acc, static_cast<T>(in[i]), op);
  }

  if constexpr (is_commutative_v<Op>) {
    // Unrolled full rounds (Unroll loads in flight per lane), then a clipped
    // tail; lanes combine once, at the end.
    std::uint64_t p = aligned;
    for (; p + Unroll * step <= end; p += Unroll * step) {
      vector_of<In, Vec> v[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        v[u] = load_vector<Vec>(in + p + u * step + rank * Vec);
#pragma unroll
      for (int u = 0; u < Unroll; ++u) {
        T x = static_cast<T>(v[u].items[0]);
#pragma unroll
        for (int k = 1; k < Vec; ++k)
          x = op(x, static_cast<T>(v[u].items[k]));
        fold_into(acc, x, op);
      }
    }
    for (; p < end; p += step)
      fold_vector_clipped<Vec, In, T>(acc, in, p + rank * Vec, begin, end, op);
    return warp_group_reduce<G>(acc, op);
  } else {
    // Each group-wide load is reduced across the group in lane order before
    // joining the total, so operands meet in input order. The loop runs to
    // the warp's largest step count: every lane takes part in every shuffle.
    acc = warp_group_reduce<G>(acc, op);
    const std::uint64_t my_steps = (end - aligned + step - 1) / step;
    std::uint64_t steps = my_steps;
#pragma unroll
    for (int mask = G; mask < 32; mask <<= 1) {
      const std::uint64_t other = shuffle_xor(steps, mask);
      steps = other > steps ? other : steps;
    }
    for (std::uint64_t k = 0; k < steps; ++k) {
      partial<T> mine{T{}, false};
      if (k < my_steps)
        fold_vector_clipped<Vec, In, T>(mine, in, aligned + k * step + rank * Vec, begin, end, op);
      acc = combine(acc, warp_group_reduce<G>(mine, op), op);
    }
    return acc;
  }
}

// Short and medium segments: a group of G lanes per segment. The grid is
// persistent; warps step through the segments 32 / G at a time, so the loop
// is the same for all lanes of a warp (the group reductions shuffle across
// the whole warp). The next segment's offsets are loaded before the current
// segment is reduced, overlapping the two dependent memory round trips.
template <int Threads, int G, int Unroll, class In, class T, class Offset, class Op>
__global__ void __launch_bounds__(Threads)
    segmented_reduce_by_groups(const In* __restrict__ in, const Offset* __restrict__ offsets,
                               std::uint64_t num_segments, T* __restrict__ out, T init, Op op) {
  constexpr int vec = vector_items<In>;
  constexpr std::uint64_t segments_per_warp = 32 / G;
  const std::uint64_t warps = std::uint64_t(gridDim.x) * (Threads / 32);
  const std::uint64_t warp = std::uint64_t(blockIdx.x) * (Threads / 32) + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const std::uint64_t stride = warps * segments_per_warp;

  std::uint64_t s = warp * segments_per_warp + lane / G;
  std::uint64_t begin = 0, end = 0;
  if (s < num_segments) {
    begin = static_cast<std::uint64_t>(offsets[s]);
    end = static_cast<std::uint64_t>(offsets[s + 1]);
  }
  for (std::uint64_t first = warp * segments_per_warp; first < num_segments; first += stride) {
    const std::uint64_t next = s + stride;
    std::uint64_t next_begin = 0, next_end = 0;
    if (next < num_segments) {
      next_begin = static_cast<std::uint64_t>(offsets[next]);
      next_end = static_cast<std::uint64_t>(offsets[next + 1]);
    }
    const partial<T> total = group_reduce_range<G, vec, Unroll, In, T>(in, begin, end, op);
    if (s < num_segments && lane % G == 0) out[s] = total.valid ? op(init, total.value) : init;
    s = next;
    begin = next_begin;
    end = next_end;
  }
}

// Long segments, first pass: block `job` reduces part job % K of segment
// job / K (K = parts_per_segment). The part is split among the block's warps
// in contiguous sub-ranges, and warp totals are combined in warp order.
template <int Threads, int Unroll, class In, class T, class Offset, class Op>
__global__ void __launch_bounds__(Threads)
    segmented_reduce_parts(const In* __restrict__ in, const Offset* __restrict__ offsets,
                           std::uint64_t num_segments, unsigned parts_per_segment, Op op,
                           partial<T>* __restrict__ part_results) {
  using block_reduce_t = block_reduce<Threads, T>;
  __shared__ typename block_reduce_t::storage storage;
  constexpr int vec = vector_items<In>;
  constexpr unsigned warps = Threads / 32;
  const unsigned warp = threadIdx.x / 32;
  const std::uint64_t jobs = num_segments * parts_per_segment;

  for (std::uint64_t job = blockIdx.x; job < jobs; job += gridDim.x) {
    const std::uint64_t s = job / parts_per_segment;
    const std::uint64_t part = job % parts_per_segment;
    const std::uint64_t begin = static_cast<std::uint64_t>(offsets[s]);
    const std::uint64_t length = static_cast<std::uint64_t>(offsets[s + 1]) - begin;
    // [begin + length * i / count) without overflowing 64 bits.
    const auto split = [](std::uint64_t length, std::uint64_t i, std::uint64_t count) {
      return length / count * i + smaller(i, length % count);
    };
    const std::uint64_t part_begin = begin + split(length, part, parts_per_segment);
    const std::uint64_t part_length =
        split(length, part + 1, parts_per_segment) - split(length, part, parts_per_segment);
    const std::uint64_t warp_begin = part_begin + split(part_length, warp, warps);
    const std::uint64_t warp_end = part_begin + split(part_length, warp + 1, warps);
    const partial<T> warp_total =
        group_reduce_range<32, vec, Unroll, In, T>(in, warp_begin, warp_end, op);
    const partial<T> block_total = block_reduce_t{storage}.reduce_warp_totals(warp_total, op);
    if (threadIdx.x == 0) part_results[job] = block_total;
    __syncthreads();  // warp 0 has read `storage`: the next job may overwrite it
  }
}

// Long segments, second pass: a warp per segment combines its K parts in
// order and writes init op total (init alone when every part was empty).
template <int Threads, class T, class Op>
__global__ void __launch_bounds__(Threads)
    combine_segment_parts(const partial<T>* __restrict__ part_results, unsigned parts_per_segment,
                          std::uint64_t num_segments, T* __restrict__ out, T init, Op op) {
  const std::uint64_t warps = std::uint64_t(gridDim.x) * (Threads / 32);
  const std::uint64_t first_warp = std::uint64_t(blockIdx.x) * (Threads / 32) + threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  for (std::uint64_t s = first_warp; s < num_segments; s += warps) {
    const partial<T>* parts = part_results + s * parts_per_segment;
    partial<T> total{T{}, false};
    for (unsigned j = 0; j < parts_per_segment; j += 32) {
      const partial<T> mine =
          j + lane < parts_per_segment ? parts[j + lane] : partial<T>{T{}, false};
      total = combine(total, warp_reduce(mine, op), op);
    }
    if (lane == 0) out[s] = total.valid ? op(init, total.value) : init;
  }
}

}  // namespace gpuprim::cuda_impl
