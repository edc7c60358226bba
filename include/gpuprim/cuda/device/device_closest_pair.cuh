// Device-wide closest pair: the GPU algorithms of gp::closest_pair.
//
// Shape of the algorithms:
//  1. Bounds (every algorithm): one pass over the points with per-block
//     minima and maxima folded into global atomics on order-preserving
//     64-bit encodings of doubles, and the first non-finite point. The host
//     reads them (one synchronization), throws for NaN/inf, and picks the
//     power-of-two scale (gpuprim/detail/closest_pair/point_set.hpp).
//  2. Brute force and tiled (quadratic; two passes), in float for float
//     input within +-2^60 (fast) or in double. The brute-force kernel: one
//     thread per point i against the points after it, read from global
//     memory; pass 1 keeps each point's least squared distance and the
//     global least (atomic minimum). The tiled kernel (section 2b): items
//     of 1024 x 512 pairs (halves of squares), the points i in registers (8 per
//     thread), the points j staged in shared memory; pass 1 keeps each
//     item's least. Pass 2 of both takes what is within a rounding margin
//     of the global least (pass2_threshold) and checks it again exactly in
//     double, keeping the order (d2, i, j).
//  3. Grid: cell keys over the bounding box (about one point per cell),
//     points sorted by cell with the library's radix sort and gathered in
//     that order; an upper bound of the closest distance from each point's
//     next three points in cell order, and the sum of squared cell counts.
//     If the bound exceeds the cell or the cells are crowded (clustered or
//     collinear data), a second grid whose cell is the bound (so the
//     closest pair lies in neighbouring cells); for crowded float data,
//     copies of points first (3b: a sort by a hash of the coordinates,
//     which settles the answer at distance 0 if there are any). Then one
//     thread per point
//     against the rest of its own cell and its forward neighbouring cells
//     (key ranges found by binary search in the sorted keys), in double.
//  4. Divide and conquer: points sorted by x (radix sort); leaves of 32
//     points solved by one warp each, which also sorts them by y; then one
//     level per doubling: each segment's halves merged by y (every element
//     finds its place in the other half by binary search), and every point
//     of the strip around the split line checked against the points above
//     it while dy^2 is within the halves' best.
//  4b. The same recursion with the y orders made by the library's sorting
//     networks (the ladder's rung; see section 4b below for which network
//     sorts what, and docs/design.md for why the merge path is production).
// Every algorithm ends with one candidate per thread, reduced per block
// and then by one block, in the order (d2, i, j); the host reads it (one
// synchronization).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/detail/launch.cuh"
#include "gpuprim/cuda/detail/scratch.cuh"
#include "gpuprim/cuda/detail/tune_report.cuh"
#include "gpuprim/cuda/device/device_sorting_network.cuh"
#include "gpuprim/detail/closest_pair/closest_pair.hpp"
#include "gpuprim/detail/sort/sort.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim {
namespace cuda_detail {

using detail::better;
using detail::make_candidate;
using detail::pair_candidate;
using detail::point_set;

inline constexpr int closest_threads = 256;
// Points per thread in the tiled kernel: 8 in float (1 shared load per 40
// arithmetic instructions in 2-D, about 40 registers), 4 in double (8 would
// spill under the 64 registers that 1024-thread blocks allow).
template <class C>
inline constexpr int tiled_points = sizeof(C) == 4 ? 8 : 4;
// Tile points per unrolled step of the hot loop: 8 in float (four 16-byte
// shared loads), 2 in double (more would spill).
template <class C>
inline constexpr int tiled_unroll = sizeof(C) == 4 ? 8 : 2;
// Items per square of the tiled kernel: 2, so an item is 512 K pairs.
inline constexpr std::uint64_t tiled_parts = 2;
inline constexpr int closest_grid_window = 3;
inline constexpr double closest_crowding_limit = 8;

__device__ __forceinline__ std::size_t smin(std::size_t a, std::size_t b) {
  return a < b ? a : b;
}

// ---- candidates -------------------------------------------------------------

__device__ __forceinline__ pair_candidate shuffle_candidate(const pair_candidate& c, int mask) {
  pair_candidate o;
  o.d2 = __shfl_xor_sync(0xffffffffu, c.d2, mask);
  o.i = __shfl_xor_sync(0xffffffffu, c.i, mask);
  o.j = __shfl_xor_sync(0xffffffffu, c.j, mask);
  return o;
}

// The best candidate of the block, in thread 0. Every thread calls it.
__device__ __forceinline__ pair_candidate block_best(pair_candidate c) {
  // Raw storage: __shared__ variables cannot have constructors.
  __shared__ alignas(pair_candidate) unsigned char storage[32 * sizeof(pair_candidate)];
  auto* warp_best = reinterpret_cast<pair_candidate*>(storage);
  for (int mask = 16; mask > 0; mask /= 2) {
    const pair_candidate o = shuffle_candidate(c, mask);
    if (better(o, c)) c = o;
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_best[warp] = c;
  __syncthreads();
  if (warp == 0) {
    c = lane < int(blockDim.x + 31) / 32 ? warp_best[lane] : pair_candidate{};
    for (int mask = 16; mask > 0; mask /= 2) {
      const pair_candidate o = shuffle_candidate(c, mask);
      if (better(o, c)) c = o;
    }
  }
  return c;
}

// out[0] = the best of in[0, count), one block. (Kernels in this header are
// templates, so that several .cu files can include it.)
template <class Candidate = pair_candidate>
__global__ void closest_reduce_candidates(const Candidate* __restrict__ in, unsigned count,
                                          Candidate* __restrict__ out) {
  pair_candidate c;
  for (unsigned k = threadIdx.x; k < count; k += blockDim.x)
    if (better(in[k], c)) c = in[k];
  c = block_best(c);
  if (threadIdx.x == 0) *out = c;
}

// ---- 1. bounds ----------------------------------------------------------------

// Doubles as unsigned integers of the same order.
__device__ __forceinline__ unsigned long long order_bits(double v) {
  const auto b = static_cast<unsigned long long>(__double_as_longlong(v));
  return (b >> 63) ? ~b : b | (1ull << 63);
}
inline double from_order_bits(std::uint64_t b) {
  const std::uint64_t raw = (b >> 63) ? b & ~(std::uint64_t{1} << 63) : ~b;
  double v;
  std::memcpy(&v, &raw, sizeof v);
  return v;
}

// bounds[0..2]: minima, [3]: first non-finite point, [4..6]: maxima
// (encoded). bounds starts as {all ones x 4, zeros x 3}.
template <class T>
__global__ void __launch_bounds__(closest_threads)
    closest_bounds(point_set<T> s, unsigned long long* __restrict__ bounds) {
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  unsigned long long bad = ~0ull;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    for (int d = 0; d < 3; ++d) {  // constant bounds: lo and hi stay in registers
      if (d >= s.dim) break;
      const double v = static_cast<double>(s.coord[d][p * s.stride]);
      if (!isfinite(v)) {
        bad = bad < p ? bad : p;
      } else {
        lo[d] = fmin(lo[d], v);
        hi[d] = fmax(hi[d], v);
      }
    }
  }
  for (int mask = 16; mask > 0; mask /= 2) {
    for (int d = 0; d < 3; ++d) {
      lo[d] = fmin(lo[d], __shfl_xor_sync(0xffffffffu, lo[d], mask));
      hi[d] = fmax(hi[d], __shfl_xor_sync(0xffffffffu, hi[d], mask));
    }
    const unsigned long long o = __shfl_xor_sync(0xffffffffu, bad, mask);
    bad = o < bad ? o : bad;
  }
  if (threadIdx.x % 32 == 0) {
    for (int d = 0; d < 3; ++d) {
      if (d >= s.dim) break;
      atomicMin(&bounds[d], order_bits(lo[d]));
      atomicMax(&bounds[4 + d], order_bits(hi[d]));
    }
    if (bad != ~0ull) atomicMin(&bounds[3], bad);
  }
}

inline unsigned closest_grid_blocks(std::size_t n, int threads) {
  const std::uint64_t wanted = ceil_div(n, static_cast<std::uint64_t>(threads));
  const std::uint64_t cap = std::uint64_t(current_multiprocessor_count()) * 16;
  return static_cast<unsigned>(std::max<std::uint64_t>(1, std::min(wanted, cap)));
}

template <class T>
detail::point_bounds device_bounds(const point_set<T>& s, stream_t stream) {
  const scratch_buffer buffer(7 * sizeof(unsigned long long), stream);
  auto* bounds = buffer.get<unsigned long long>();
  detail::fill_bytes(bounds, 0xFF, 4 * sizeof(unsigned long long), stream);
  detail::fill_bytes(bounds + 4, 0, 3 * sizeof(unsigned long long), stream);
  launch("closest_bounds", "closest_pair", closest_bounds<T>,
         {closest_grid_blocks(s.n, closest_threads), closest_threads, 0, stream}, s, bounds);
  std::uint64_t host[7];
  detail::copy_to_host(host, bounds, sizeof host, stream);
  synchronize(stream);
  detail::point_bounds b;
  for (int d = 0; d < s.dim; ++d) {
    b.lo[d] = from_order_bits(host[d]);
    b.hi[d] = from_order_bits(host[4 + d]);
  }
  b.first_non_finite = host[3];
  return b;
}

// ---- 2. brute force and tiled -----------------------------------------------------

// Coordinates in the compute type C: float input in float (unscaled: the
// float path is only taken when squares cannot overflow), else double,
// scaled.
template <class C, class T>
__device__ __forceinline__ C load_coord(const point_set<T>& s, int d, std::size_t p) {
  if constexpr (std::is_same_v<C, float>) {
    return s.coord[d][p * s.stride];
  } else {
    return s.at(d, p);
  }
}

// Squared distance in the compute type: float with a fused multiply-add
// (within 2^-22 of the exact value, plus underflow), or exactly
// detail::squared_distance in double.
template <class C, int Dim>
__device__ __forceinline__ C compute_d2(const C* a, const C* b) {
  if constexpr (std::is_same_v<C, float>) {
    const float dx = a[0] - b[0], dy = a[1] - b[1];
    float d2 = fmaf(dy, dy, dx * dx);
    if constexpr (Dim == 3) {
      const float dz = a[2] - b[2];
      d2 = fmaf(dz, dz, d2);
    }
    return d2;
  } else {
    return detail::squared_distance<Dim>(a, b);
  }
}

__device__ __forceinline__ unsigned long long min_bits(float v) {
  return __float_as_uint(v);
}
__device__ __forceinline__ unsigned long long min_bits(double v) {
  return static_cast<unsigned long long>(__double_as_longlong(v));
}

// The pass-2 threshold: pass-1 values at most this may hold the answer.
// Float: with u = 2^-24 (a rounded float operation's relative error), the
// float d2 = fma(dy, dy, dx * dx) of a pair is within 4u (2-D; 5u in 3-D:
// one rounding per subtraction, product and fma, (1 + u)^5 - 1 < 5.01u) of
// the pair's exact squared distance e, plus at most 3 x 2^-150 where a
// product or sum underflows (a subtraction that lands below 2^-126 is
// exact). The answer is chosen by detail::squared_distance in double,
// within 5 x 2^-53 of e. Let L be the least float d2 over all pairs (pair
// p_L) and D the least double d2 (a pair p* at the minimum; every tied one
// counts). Then D <= d(p_L) <= (1 + 2^-50)(L + 2^-148)/(1 - 5.01u), and
// the float d2 of p* is at most (1 + 5.01u)(1 + 2^-50) D + 2^-148, so at
// most (1 + 10.1u)(L + 2^-148) + 2^-148 < L (1 + 10.1u) + 2^-146. The
// threshold fma(L, 2^-20, L) + 2^-140 is L (1 + 16u), less two roundings
// of u each, plus far more than 2^-146: every pair at the minimum passes.
// Overflow cannot happen: |x| <= 2^60 makes every d2 <= 3 x 2^122.
// Double: pass 1 computes detail::squared_distance itself, so L is D.
template <class C>
__device__ __forceinline__ C pass2_threshold(unsigned long long least_bits) {
  if constexpr (std::is_same_v<C, float>) {
    const float least = __uint_as_float(static_cast<unsigned>(least_bits));
    return fmaf(least, 0x1.0p-20f, least) + 0x1.0p-140f;
  } else {
    return __longlong_as_double(static_cast<long long>(least_bits));
  }
}

// Folds a block's least value into *least (non-negative floats order as
// their bits). Every thread calls it.
template <class C>
__device__ __forceinline__ void fold_least(C v, unsigned long long* least) {
  for (int mask = 16; mask > 0; mask /= 2) {
    const C o = __shfl_xor_sync(0xffffffffu, v, mask);
    v = o < v ? o : v;
  }
  if (threadIdx.x % 32 == 0 && v < C(INFINITY)) atomicMin(least, min_bits(v));
}

// Rung 1: one thread per point i, the points after it read from global memory.
template <class T, class C, int Dim>
__global__ void closest_brute_pass1(point_set<T> s, C* __restrict__ least_of,
                                    unsigned long long* __restrict__ least) {
  const std::size_t n = s.n;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t rounds = (n + stride - 1) / stride;
  for (std::size_t round = 0; round < rounds; ++round) {
    const std::size_t i = round * stride + std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    C m = C(INFINITY);
    if (i < n) {
      C a[Dim];
      for (int d = 0; d < Dim; ++d)
        a[d] = load_coord<C>(s, d, i);
      for (std::size_t j = i + 1; j < n; ++j) {
        C b[Dim];
        for (int d = 0; d < Dim; ++d)
          b[d] = load_coord<C>(s, d, j);
        const C d2 = compute_d2<C, Dim>(a, b);
        m = d2 < m ? d2 : m;
      }
      least_of[i] = m;
    }
    fold_least(m, least);
  }
}

// Pass 2's exact step for point i against the points [j, j_end): a pair
// whose distance in the pass's type C is within the threshold is measured
// again in double from the input's coordinates and kept by the tie rule.
template <class T, class C, int Dim>
__device__ void recheck_exactly(const point_set<T>& s, std::size_t i, std::size_t j,
                                std::size_t j_end, C threshold, pair_candidate& best) {
  C a[Dim];
  double ad[Dim];
  for (int d = 0; d < Dim; ++d) {
    a[d] = load_coord<C>(s, d, i);
    ad[d] = s.at(d, i);
  }
  for (; j < j_end; ++j) {
    C b[Dim];
    for (int d = 0; d < Dim; ++d)
      b[d] = load_coord<C>(s, d, j);
    if (compute_d2<C, Dim>(a, b) <= threshold) {
      double bd[Dim];
      for (int d = 0; d < Dim; ++d)
        bd[d] = s.at(d, j);
      const pair_candidate c{detail::squared_distance<Dim>(ad, bd), i, j};
      if (better(c, best)) best = c;
    }
  }
}

// Pass 2: the points whose pass-1 minimum is within the margin of the least,
// against every later point, exactly.
template <class T, class C, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_quadratic_pass2(point_set<T> s, const C* __restrict__ least_of,
                            const unsigned long long* __restrict__ least,
                            pair_candidate* __restrict__ block_out) {
  const C threshold = pass2_threshold<C>(*least);
  pair_candidate best;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < s.n; i += stride) {
    if (!(least_of[i] <= threshold)) continue;
    recheck_exactly<T, C, Dim>(s, i, i + 1, s.n, threshold, best);
  }
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

// ---- 2b. tiled --------------------------------------------------------------------
//
// Rung 2, the tiled brute force. Shape:
//  1. Work items: squares of chunk x chunk pairs (chunk = blockDim.x x
//     points per thread), the triangle j > i numbered row by row (or the
//     off-diagonal squares first and the diagonal ones last: the
//     launch option diagonals_last), each square cut into parts of
//     item_width columns j (default tiled_parts = 2 parts,
//     detail::make_tiled_plan), the last squares (about one item per
//     resident block) optionally into narrower ones (tail_item_width), so
//     that the last wave ends sooner; one block per item by default, so the
//     hardware's block scheduler balances the triangle (one block per row
//     of points, as before, left the first rows' SMs busy long after the
//     last rows' ones were idle: 7% of the FP32 peak at 2^17).
//  2. A block holds the item's points i in registers, Points per thread
//     (tiled_points = 8 in float, or 16 as a launch option, at most 256
//     threads; 4 in double; thread t: i0 + t + r x blockDim.x, coalesced
//     loads), and stages its points j in shared memory a tile of
//     blockDim.x at a time, as one vector per point (float2 in 2-D), read
//     by every lane at once (a broadcast): one shared load feeds Points
//     distances. Each thread loads its point of the next tile into
//     registers before the current tile's distance loop, so the global
//     load's latency is hidden behind it.
//  3. The distance loop in the compute type (float for float input whose
//     coordinates are within +-2^60): dx, dy (dz), d2 = fma(dy, dy, dx*dx),
//     m = min(m, d2): 5 instructions a pair in 2-D (6 flops counted),
//     unrolled over 8 tile points (four 16-byte shared loads for 64
//     pairs); the diagonal squares go by rows (see the loop), nothing else
//     tests j > i.
//  4. The item's least d2 (block minimum) into its slot (atomic minimum of
//     the bits: non-negative floats order as their bits).
//  5. Pass 2: one block finds the least slot value L, the threshold
//     (pass2_threshold) and the list of slots at most that; then every
//     point i of those slots' items against the item's points j, in the
//     compute type first and, where that is within the threshold, exactly
//     (detail::squared_distance, (d2, i, j) order). For random points one
//     item qualifies (1024 x 512 pairs: 32 K threads of tiled_pass2_span
//     = 16 points j: short loops of global loads, one after another); for a
//     lattice, where every item holds a tie, pass 2 repeats the triangle.

template <class C>
using least_bits_t = std::conditional_t<std::is_same_v<C, float>, unsigned, unsigned long long>;

__device__ __forceinline__ unsigned least_bits(float v) {
  return __float_as_uint(v);
}
__device__ __forceinline__ unsigned long long least_bits(double v) {
  return static_cast<unsigned long long>(__double_as_longlong(v));
}

__device__ __forceinline__ float cmin(float a, float b) {
  return fminf(a, b);
}
__device__ __forceinline__ double cmin(double a, double b) {
  return fmin(a, b);
}

// A point of the shared tile as one vector load: (x, y) in 2-D, (x, y, z,
// pad) in 3-D.
template <class C, int Dim>
struct alignas(std::min<std::size_t>(16, (Dim == 2 ? 2 : 4) * sizeof(C))) tile_point {
  C v[Dim == 2 ? 2 : 4];
};

// The least of v over the block, in thread 0. Every thread calls it.
template <class C>
__device__ __forceinline__ C block_least(C v) {
  __shared__ C warp_least[32];
  for (int mask = 16; mask > 0; mask /= 2)
    v = cmin(v, __shfl_xor_sync(0xffffffffu, v, mask));
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_least[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < int(blockDim.x + 31) / 32 ? warp_least[lane] : C(INFINITY);
    for (int mask = 16; mask > 0; mask /= 2)
      v = cmin(v, __shfl_xor_sync(0xffffffffu, v, mask));
  }
  return v;
}

// Pass 1 of the tiled rung (see 2b above). slot_least starts as huge bits.
// At most 1024 threads in float with 8 points per thread (64 registers),
// 256 with 16 (the 16 points and their minima need more than 64), 512 in
// double (128: the double points and their distances spill under 64).
template <class C, int Points>
inline constexpr int tiled_max_threads = sizeof(C) == 4 ? (Points > 8 ? 256 : 1024) : 512;

template <class T, class C, int Dim, int Points>
__global__ void __launch_bounds__(tiled_max_threads<C, Points>)
    closest_tiled_pass1(point_set<T> s, detail::tiled_plan w,
                        least_bits_t<C>* __restrict__ slot_least) {
  extern __shared__ __align__(16) unsigned char tile_bytes[];
  auto* tile = reinterpret_cast<tile_point<C, Dim>*>(tile_bytes);  // blockDim.x points
  const unsigned tile_size = blockDim.x;
  const std::size_t n = s.n;
  for (std::uint64_t k = blockIdx.x; k < w.items; k += gridDim.x) {
    const detail::tiled_item item = w.item(k);
    if (item.j_begin == item.j_end) continue;  // a part past n (the whole block skips it)
    const std::size_t i0 = item.i0, j_begin = item.j_begin, j_end = item.j_end;
    // The first tile's point is loaded with the points i; each later
    // tile's while the tile before it is computed (its global latency
    // hidden behind the distance loop).
    tile_point<C, Dim> next{};
    if (j_begin + threadIdx.x < j_end) {
#pragma unroll
      for (int d = 0; d < Dim; ++d)
        next.v[d] = load_coord<C>(s, d, j_begin + threadIdx.x);
    }
    C a[Points][Dim];
    C m[Points];
#pragma unroll
    for (int r = 0; r < Points; ++r) {
      const std::size_t i = i0 + threadIdx.x + std::size_t(r) * tile_size;
#pragma unroll
      for (int d = 0; d < Dim; ++d)
        a[r][d] = i < n ? load_coord<C>(s, d, i) : C(0);
      m[r] = C(INFINITY);
    }
    const bool diagonal = item.diagonal;
    for (std::size_t j0 = j_begin; j0 < j_end; j0 += tile_size) {
      __syncthreads();  // the tile's last readers are done
      tile[threadIdx.x] = next;
      __syncthreads();
      const std::size_t jn = j0 + tile_size + threadIdx.x;
      if (jn < j_end) {
#pragma unroll
        for (int d = 0; d < Dim; ++d)
          next.v[d] = load_coord<C>(s, d, jn);
      }
      const unsigned count = static_cast<unsigned>(smin(tile_size, j_end - j0));
      if (!diagonal && count == tile_size) {
        // The hot loop: every j of the tile is after every i of the item.
#pragma unroll(tiled_unroll <C>)
        for (unsigned t = 0; t < tile_size; ++t) {
          const tile_point<C, Dim> b = tile[t];
#pragma unroll
          for (int r = 0; r < Points; ++r)
            m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], b.v));
        }
      } else if (!diagonal) {
        // The last column's partial tile: j < n by the count.
        for (unsigned t = 0; t < count; ++t) {
          const tile_point<C, Dim> b = tile[t];
#pragma unroll
          for (int r = 0; r < Points; ++r)
            m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], b.v));
        }
      } else {
        // A diagonal square's tile `diag` (its points j are the rows r =
        // diag of the square's points i): rows r < diag lie wholly before
        // it, row diag meets it (j > i where t > threadIdx.x), rows after
        // it lie wholly after (skipped), so half the square is computed
        // and only 1 row in Points is masked. Rows i >= n are never
        // reached (they lie after every j < n). One shared load per pair
        // here: the diagonal is 1/rows of the work.
        const unsigned diag = static_cast<unsigned>((j0 - i0) / tile_size);
#pragma unroll
        for (int r = 0; r < Points; ++r) {
          if (unsigned(r) < diag) {
#pragma unroll 1
            for (unsigned t = 0; t < count; ++t)
              m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], tile[t].v));
          } else if (unsigned(r) == diag) {
#pragma unroll 1
            for (unsigned t = threadIdx.x + 1; t < count; ++t)
              m[r] = cmin(m[r], compute_d2<C, Dim>(a[r], tile[t].v));
          }
        }
      }
    }
    C v = m[0];
#pragma unroll
    for (int r = 1; r < Points; ++r)
      v = cmin(v, m[r]);
    v = block_least(v);
    if (threadIdx.x == 0 && v < C(INFINITY))
      atomicMin(&slot_least[k >> w.slot_shift], least_bits(v));
  }
}

// Pass 2, step 1 (one block): the least slot value into *least, and the
// slots at most the threshold into list[0, *count).
template <class C>
__global__ void __launch_bounds__(1024)
    closest_tiled_select(const least_bits_t<C>* __restrict__ slot_least, std::uint64_t slots,
                         least_bits_t<C>* __restrict__ least, unsigned* __restrict__ list,
                         unsigned* __restrict__ count) {
  __shared__ unsigned listed;
  if (threadIdx.x == 0) listed = 0;
  least_bits_t<C> v = ~least_bits_t<C>{0};
  for (std::uint64_t q = threadIdx.x; q < slots; q += blockDim.x)
    v = slot_least[q] < v ? slot_least[q] : v;
  for (int mask = 16; mask > 0; mask /= 2) {
    const least_bits_t<C> o = __shfl_xor_sync(0xffffffffu, v, mask);
    v = o < v ? o : v;
  }
  __shared__ least_bits_t<C> warp_least[32];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_least[warp] = v;
  __syncthreads();
  v = warp_least[0];
  for (int x = 1; x < int(blockDim.x + 31) / 32; ++x)
    v = warp_least[x] < v ? warp_least[x] : v;
  const C threshold = pass2_threshold<C>(v);
  for (std::uint64_t q = threadIdx.x; q < slots; q += blockDim.x) {
    const least_bits_t<C> bits = slot_least[q];
    const C value = std::is_same_v<C, float>
                        ? C(__uint_as_float(static_cast<unsigned>(bits)))
                        : C(__longlong_as_double(static_cast<long long>(bits)));
    if (value <= threshold) list[atomicAdd(&listed, 1u)] = static_cast<unsigned>(q);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    *least = v;
    *count = listed;
  }
}

inline constexpr unsigned tiled_pass2_span = 16;  // points j per pass-2 thread

// Pass 2, step 2: thread u takes point i = i0 + (u mod chunk) of a listed
// item against tiled_pass2_span of its points j (a warp: 32
// consecutive i against the same j, so the j loads are broadcasts).
template <class T, class C, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_tiled_pass2(point_set<T> s, detail::tiled_plan w, const unsigned* __restrict__ list,
                        const unsigned* __restrict__ count,
                        const least_bits_t<C>* __restrict__ least,
                        pair_candidate* __restrict__ block_out) {
  const C threshold = pass2_threshold<C>(*least);
  const std::uint64_t per_slot = std::uint64_t{1} << w.slot_shift;
  const std::uint64_t splits = (w.chunk / w.parts + tiled_pass2_span - 1) / tiled_pass2_span;
  const std::uint64_t total = std::uint64_t(*count) * per_slot * splits * w.chunk;
  pair_candidate best;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t u = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; u < total;
       u += stride) {
    const std::uint64_t r = u % w.chunk;
    std::uint64_t rest = u / w.chunk;
    const std::uint64_t split = rest % splits;
    rest /= splits;
    const std::uint64_t k = std::uint64_t(list[rest / per_slot]) * per_slot + rest % per_slot;
    if (k >= w.items) continue;
    const detail::tiled_item item = w.item(k);
    const std::size_t i = item.i0 + r;
    if (i >= s.n) continue;
    std::size_t j = item.j_begin + split * tiled_pass2_span;
    const std::size_t j_end = smin(j + tiled_pass2_span, item.j_end);
    j = j > i + 1 ? j : i + 1;
    recheck_exactly<T, C, Dim>(s, i, j, j_end, threshold, best);
  }
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

// Reduces `blocks` per-block candidates to the answer and reads it.
inline pair_candidate finish_candidates(const pair_candidate* block_out, unsigned blocks,
                                        stream_t stream) {
  const scratch_buffer result(sizeof(pair_candidate), stream);
  launch("closest_reduce_candidates", "closest_pair", closest_reduce_candidates<>,
         {1, 1024, 0, stream}, block_out, blocks, result.get<pair_candidate>());
  pair_candidate host;
  detail::copy_to_host(&host, result.get(), sizeof host, stream);
  synchronize(stream);
  return host;
}

enum class quadratic_kernel { brute_force, tiled };

// The tiled pass-1 kernels: tiled_points<C> points per thread, or 16 in
// float.
template <class T, class C, int Dim>
const void* quadratic_pass1_kernel(quadratic_kernel k, int points = 0) {
  if (k == quadratic_kernel::brute_force)
    return reinterpret_cast<const void*>(closest_brute_pass1<T, C, Dim>);
  if constexpr (std::is_same_v<C, float>) {
    if (points > tiled_points<C>)
      return reinterpret_cast<const void*>(closest_tiled_pass1<T, C, Dim, 16>);
  }
  return reinterpret_cast<const void*>(closest_tiled_pass1<T, C, Dim, tiled_points<C>>);
}

// 128 for the tiled kernel: the fastest shape of the 2026-11-24 sweep, and
// 16 resident blocks of 128 threads balance the triangle's last items
// better than 8 of 256.
inline int quadratic_default_threads(quadratic_kernel k) {
  return k == quadratic_kernel::brute_force ? 256 : 128;
}

template <class T, class C, int Dim>
std::size_t quadratic_shared_bytes(quadratic_kernel k, int threads) {
  return k == quadratic_kernel::tiled ? std::size_t(threads) * sizeof(tile_point<C, Dim>) : 0;
}

inline int checked_quadratic_threads(quadratic_kernel kind, closest_pair_launch shape) {
  const int threads = shape.threads > 0 ? shape.threads : quadratic_default_threads(kind);
  if (threads % 32 != 0 || threads > 1024) {
    throw std::invalid_argument("gpuprim::closest_pair: " + std::to_string(threads) +
                                " threads per block; a multiple of 32 up to 1024 is needed");
  }
  return threads;
}

// Rung 1: per-point least values, then pass 2 per point.
template <class T, class C, int Dim>
pair_candidate brute_force(const point_set<T>& s, closest_pair_launch shape, stream_t stream) {
  const int threads = checked_quadratic_threads(quadratic_kernel::brute_force, shape);
  const unsigned blocks = shape.blocks > 0 ? static_cast<unsigned>(shape.blocks)
                                           : static_cast<unsigned>(std::min<std::uint64_t>(
                                                 ceil_div(s.n, threads), std::uint64_t{1} << 20));
  const scratch_buffer least_of(s.n * sizeof(C), stream);
  const scratch_buffer least(sizeof(unsigned long long), stream);
  detail::fill_bytes(least.get(), 0x7F, sizeof(unsigned long long), stream);  // a huge value
  launch("closest_brute_pass1", "closest_pair", closest_brute_pass1<T, C, Dim>,
         {blocks, static_cast<unsigned>(threads), 0, stream}, s, least_of.get<C>(),
         least.get<unsigned long long>());
  const unsigned pass2_blocks = closest_grid_blocks(s.n, closest_threads);
  const scratch_buffer block_out(pass2_blocks * sizeof(pair_candidate), stream);
  launch("closest_quadratic_pass2", "closest_pair", closest_quadratic_pass2<T, C, Dim>,
         {pass2_blocks, closest_threads, 0, stream}, s, static_cast<const C*>(least_of.get<C>()),
         static_cast<const unsigned long long*>(least.get<unsigned long long>()),
         block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), pass2_blocks, stream);
}

// The tiled rung's options of `shape` (closest_pair_launch), checked as
// for float arithmetic whatever the data, so that whether a shape is
// refused does not depend on the coordinates.
inline void check_tiled_options(closest_pair_launch shape) {
  const int threads = checked_quadratic_threads(quadratic_kernel::tiled, shape);
  const int points = shape.points_per_thread;
  if (points != 0 && points != 8 && points != 16) {
    throw std::invalid_argument("gpuprim::closest_pair: " + std::to_string(points) +
                                " points per thread; 8 or 16 is needed");
  }
  if (points == 16 && threads > tiled_max_threads<float, 16>) {
    throw std::invalid_argument("gpuprim::closest_pair: 16 points per thread allow at most " +
                                std::to_string(tiled_max_threads<float, 16>) +
                                " threads per block, not " + std::to_string(threads));
  }
  const int chunk = threads * (points > 0 ? points : tiled_points<float>);
  if (shape.item_width != 0) {
    if (shape.threads <= 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: an item width needs the threads per block too");
    }
    if (shape.item_width < 0 || shape.item_width % threads != 0 || chunk % shape.item_width != 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: item width " + std::to_string(shape.item_width) +
          "; a multiple of " + std::to_string(threads) + " threads that divides " +
          std::to_string(chunk) + " (threads x points per thread) is needed");
    }
  }
  if (shape.tail_item_width != 0) {
    const int width =
        shape.item_width > 0 ? shape.item_width : chunk / static_cast<int>(tiled_parts);
    if (shape.threads <= 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: a tail item width needs the threads per block too");
    }
    if (shape.tail_item_width < 0 || shape.tail_item_width % threads != 0 ||
        width % shape.tail_item_width != 0) {
      throw std::invalid_argument(
          "gpuprim::closest_pair: tail item width " + std::to_string(shape.tail_item_width) +
          "; a multiple of " + std::to_string(threads) + " threads that divides the item width " +
          std::to_string(width) + " is needed");
    }
  }
}

// The tiled rung's work items: threads, points per thread, parts per
// square (and per square of the last wave).
struct tiled_shape {
  int threads = 0;
  int points = 0;
  std::uint64_t parts = 0;
  std::uint64_t tail_parts = 0;
  bool diagonals_last = false;
  std::uint64_t chunk() const { return std::uint64_t(threads) * std::uint64_t(points); }
};

template <class C>
tiled_shape resolve_tiled_shape(std::uint64_t n, closest_pair_launch shape) {
  check_tiled_options(shape);
  // The production shape for float, when the call names none (the H100's
  // sweep at 2^17, bench/results/h100-2026-11-25-7-closest_pair-sweep.md):
  // 64 threads x 16 points, items 512 points wide, the diagonal halves last
  // and the last wave's items 128 wide, 1506 us against 1622 us for 128
  // threads x 8 points; the narrow last wave is what pays (no tail: 1624 us).
  const bool default_shape = shape.threads <= 0 && shape.points_per_thread <= 0 &&
                             shape.item_width <= 0 && shape.tail_item_width <= 0 &&
                             !shape.diagonals_last;
  if constexpr (std::is_same_v<C, float>) {
    if (default_shape) {
      shape.threads = 64;
      shape.points_per_thread = 16;
      shape.item_width = 512;
      shape.diagonals_last = true;
      shape.tail_item_width = 128;
    }
  }
  tiled_shape t;
  t.diagonals_last = shape.diagonals_last;
  t.threads = checked_quadratic_threads(quadratic_kernel::tiled, shape);
  if constexpr (std::is_same_v<C, float>) {
    t.points = shape.points_per_thread > 0 ? shape.points_per_thread : tiled_points<C>;
    t.parts = shape.item_width > 0 ? t.chunk() / std::uint64_t(shape.item_width) : tiled_parts;
    t.tail_parts =
        shape.tail_item_width > 0 ? t.chunk() / std::uint64_t(shape.tail_item_width) : t.parts;
  } else {
    // A shape wider than the double kernel allows (only the ladder's float
    // rung asks for shapes; its points beyond +-2^60 run in double) is
    // narrowed to it, with the default items.
    t.threads = std::min(t.threads, tiled_max_threads<C, tiled_points<C>>);
    t.points = tiled_points<C>;
    t.parts = tiled_parts;
    t.tail_parts = tiled_parts;
  }
  // Small sets with the default threads: narrower blocks (smaller squares)
  // until there are 4 items per SM, so that n = 8192 (gp::closest_pair's
  // tiled range) fills the GPU (72 items at 128 threads, 1056 at 32).
  const std::uint64_t wanted_items = 4 * std::uint64_t(current_multiprocessor_count());
  while ((shape.threads <= 0 || default_shape) && t.threads > 32 &&
         detail::make_tiled_plan(n, t.chunk(), t.parts).items < wanted_items)
    t.threads /= 2;
  return t;
}

// Rung 2 (section 2b): squares of pairs, their least values per slot, the
// listed slots again in pass 2.
template <class T, class C, int Dim>
pair_candidate tiled(const point_set<T>& s, closest_pair_launch shape, stream_t stream) {
  const tiled_shape ts = resolve_tiled_shape<C>(s.n, shape);
  const int threads = ts.threads;
  const std::size_t shared_bytes =
      quadratic_shared_bytes<T, C, Dim>(quadratic_kernel::tiled, threads);
  // Narrower last items: about one per block that the grid holds at once.
  std::uint64_t tail_items = 0;
  if (ts.tail_parts > ts.parts) {
    int per_sm = 0;
    GPUPRIM_CUDA_CHECK(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_sm, quadratic_pass1_kernel<T, C, Dim>(quadratic_kernel::tiled, ts.points), threads,
            shared_bytes),
        "closest_pair");
    tail_items = shape.blocks > 0
                     ? std::uint64_t(shape.blocks)
                     : std::uint64_t(per_sm) * std::uint64_t(current_multiprocessor_count());
  }
  const detail::tiled_plan w = detail::make_tiled_plan(s.n, ts.chunk(), ts.parts, ts.diagonals_last,
                                                       ts.tail_parts, tail_items);
  const unsigned blocks =
      shape.blocks > 0
          ? static_cast<unsigned>(shape.blocks)
          : static_cast<unsigned>(std::min<std::uint64_t>(w.items, std::uint64_t{1} << 30));
  using bits_t = least_bits_t<C>;
  const scratch_buffer slot_least(w.slots * sizeof(bits_t), stream);
  detail::fill_bytes(slot_least.get(), 0x7F, w.slots * sizeof(bits_t), stream);  // huge values
  const launch_shape pass1{blocks, static_cast<unsigned>(threads),
                           static_cast<unsigned>(shared_bytes), stream};
  if (ts.points == tiled_points<C>) {
    launch("closest_tiled_pass1", "closest_pair", closest_tiled_pass1<T, C, Dim, tiled_points<C>>,
           pass1, s, w, slot_least.get<bits_t>());
  } else if constexpr (std::is_same_v<C, float>) {
    launch("closest_tiled_pass1_16", "closest_pair", closest_tiled_pass1<T, C, Dim, 16>, pass1, s,
           w, slot_least.get<bits_t>());
  }
  const scratch_buffer least(sizeof(bits_t), stream);
  const scratch_buffer list(w.slots * sizeof(unsigned), stream);
  const scratch_buffer count(sizeof(unsigned), stream);
  launch("closest_tiled_select", "closest_pair", closest_tiled_select<C>, {1, 1024, 0, stream},
         static_cast<const bits_t*>(slot_least.get<bits_t>()), w.slots, least.get<bits_t>(),
         list.get<unsigned>(), count.get<unsigned>());
  // Enough threads for one listed slot (chunk x its columns / span units)
  // at once; more listed squares stride.
  const unsigned pass2_blocks = closest_grid_blocks(
      w.chunk * ceil_div(w.chunk / w.parts, tiled_pass2_span) << w.slot_shift, closest_threads);
  const scratch_buffer block_out(pass2_blocks * sizeof(pair_candidate), stream);
  launch("closest_tiled_pass2", "closest_pair", closest_tiled_pass2<T, C, Dim>,
         {pass2_blocks, closest_threads, 0, stream}, s, w,
         static_cast<const unsigned*>(list.get<unsigned>()),
         static_cast<const unsigned*>(count.get<unsigned>()),
         static_cast<const bits_t*>(least.get<bits_t>()), block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), pass2_blocks, stream);
}

template <class T, class C, int Dim>
pair_candidate quadratic(const point_set<T>& s, quadratic_kernel kind, closest_pair_launch shape,
                         stream_t stream) {
  return kind == quadratic_kernel::tiled ? tiled<T, C, Dim>(s, shape, stream)
                                         : brute_force<T, C, Dim>(s, shape, stream);
}

// Float arithmetic for float input whose squares cannot overflow (|x| <=
// 2^60); double otherwise.
template <class T, int Dim>
pair_candidate quadratic_dispatch(const point_set<T>& s, const detail::point_bounds& b,
                                  quadratic_kernel kind, closest_pair_launch shape,
                                  stream_t stream) {
  if constexpr (std::is_same_v<T, float>) {
    bool small = true;
    for (int d = 0; d < Dim; ++d)
      small = small && std::fabs(b.lo[d]) <= 0x1.0p60 && std::fabs(b.hi[d]) <= 0x1.0p60;
    if (small) return quadratic<T, float, Dim>(s, kind, shape, stream);
  }
  return quadratic<T, double, Dim>(s, kind, shape, stream);
}

// ---- 3. grid ---------------------------------------------------------------------

template <class T, class Key, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_cell_keys(point_set<T> s, detail::grid_plan g, Key* __restrict__ keys,
                      std::uint32_t* __restrict__ index) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    double x[3];
    for (int d = 0; d < Dim; ++d)
      x[d] = s.at(d, p);
    keys[p] = static_cast<Key>(g.template key_of<Dim>(x));
    index[p] = static_cast<std::uint32_t>(p);
  }
}

// The points in cell order, as scaled doubles (Dim arrays of n).
template <class T, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_gather(point_set<T> s, const std::uint32_t* __restrict__ index,
                   double* __restrict__ sorted) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    const std::size_t i = index[p];
    for (int d = 0; d < Dim; ++d)
      sorted[d * s.n + p] = s.at(d, i);
  }
}

template <int Dim>
__device__ __forceinline__ void load_sorted(const double* sorted, std::size_t n, std::size_t p,
                                            double* x) {
  for (int d = 0; d < Dim; ++d)
    x[d] = sorted[d * n + p];
}

// bound: least squared distance of points at most closest_grid_window
// apart in cell order (bits of a non-negative double); crowding: sum over
// cells of count^2.
template <class Key, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_bound_and_crowding(const double* __restrict__ sorted, const Key* __restrict__ keys,
                               std::size_t n, unsigned long long* __restrict__ bound,
                               unsigned long long* __restrict__ crowding) {
  double b = INFINITY;
  unsigned long long w = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    double a[3], c[3];
    load_sorted<Dim>(sorted, n, p, a);
    for (std::size_t q = p + 1; q < n && q <= p + closest_grid_window; ++q) {
      load_sorted<Dim>(sorted, n, q, c);
      b = fmin(b, detail::squared_distance<Dim>(a, c));
    }
    const Key k = keys[p];
    if (p == 0 || keys[p - 1] != k) {
      const std::size_t e = detail::sorted_run_end(keys, n, p);
      w += static_cast<unsigned long long>(e - p) * (e - p);
    }
  }
  for (int mask = 16; mask > 0; mask /= 2) {
    b = fmin(b, __shfl_xor_sync(0xffffffffu, b, mask));
    w += __shfl_xor_sync(0xffffffffu, w, mask);
  }
  if (threadIdx.x % 32 == 0) {
    if (b < INFINITY) atomicMin(bound, static_cast<unsigned long long>(__double_as_longlong(b)));
    atomicAdd(crowding, w);
  }
}

// The first position in keys[0, n) whose key is >= k.
template <class Key>
__device__ __forceinline__ std::size_t lower_bound_key(const Key* keys, std::size_t n,
                                                       std::uint64_t k) {
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::uint64_t>(keys[mid]) < k) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <class Key, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_neighbour_cells(const double* __restrict__ sorted, const Key* __restrict__ keys,
                            const std::uint32_t* __restrict__ index, std::size_t n,
                            detail::grid_plan g, pair_candidate* __restrict__ block_out) {
  pair_candidate best;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    double a[3], c[3];
    load_sorted<Dim>(sorted, n, p, a);
    const std::uint64_t k = keys[p];
    auto check = [&](std::size_t q) {
      load_sorted<Dim>(sorted, n, q, c);
      const double d2 = detail::squared_distance<Dim>(a, c);
      if (d2 <= best.d2) {
        const pair_candidate cand = make_candidate(d2, index[p], index[q]);
        if (better(cand, best)) best = cand;
      }
    };
    for (std::size_t q = p + 1; q < n && static_cast<std::uint64_t>(keys[q]) <= k + 1; ++q)
      check(q);
    std::int64_t first[4], last[4];
    const int ranges = detail::forward_ranges(g, k, first, last);
    for (int r = 0; r < ranges; ++r) {
      std::size_t q = lower_bound_key(keys, n, static_cast<std::uint64_t>(first[r]));
      for (; q < n && static_cast<std::uint64_t>(keys[q]) <= static_cast<std::uint64_t>(last[r]);
           ++q)
        if (q != p) check(q);  // a range wraps onto the own cell in grids one cell wide
    }
  }
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

// One grid: keys, sort, gather. Buffers are the caller's.
template <class T, class Key, int Dim>
void sort_into_cells(const point_set<T>& s, const detail::grid_plan& g, Key* keys,
                     std::uint32_t* index, double* sorted, stream_t stream) {
  const unsigned blocks = closest_grid_blocks(s.n, closest_threads);
  launch("closest_cell_keys", "closest_pair", closest_cell_keys<T, Key, Dim>,
         {blocks, closest_threads, 0, stream}, s, g, keys, index);
  const detail::radix_sort_plan plan = detail::make_radix_sort_plan<Key>(
      s.n, sort_order::ascending, key_bits{0, g.key_bits}, 4, "closest_pair");
  detail::cuda_radix_sort<Key>(keys, keys, index, index, plan, stream);
  launch("closest_gather", "closest_pair", closest_gather<T, Dim>,
         {blocks, closest_threads, 0, stream}, s, static_cast<const std::uint32_t*>(index), sorted);
}

template <class Key, int Dim>
pair_candidate check_cells(const double* sorted, const Key* keys, const std::uint32_t* index,
                           std::size_t n, const detail::grid_plan& g, stream_t stream) {
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  const scratch_buffer block_out(blocks * sizeof(pair_candidate), stream);
  report_launch_to_tuner(closest_neighbour_cells<Key, Dim>, closest_threads, 0, blocks,
                         /*primary=*/true);
  launch("closest_neighbour_cells", "closest_pair", closest_neighbour_cells<Key, Dim>,
         {blocks, closest_threads, 0, stream}, sorted, keys, index, n, g,
         block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), blocks, stream);
}

// ---- 3b. duplicates -----------------------------------------------------------
//
// When the first grid is crowded and the input is float, copies of points
// are looked for before a second grid. If there are any, the answer is the
// lexicographically smallest pair of identical points: two floats that
// differ are at least 2^-149 apart, and that difference squared in double
// (2^-298 or more) neither vanishes nor underflows, so a squared distance
// of 0 means equal coordinates. Dense float clusters usually hold copies
// (the clustered and line 10^8 bench sets: float resolution puts many
// points of the narrowest clusters on one spot), and a second grid there
// would need cells below the float spacing: 60-bit keys (8 radix passes of
// 64-bit keys) and a binary search per point in them. Instead:
//  1. a 32-bit hash of each point's coordinates (+0 and -0 alike), with
//     the point's index;
//  2. the radix sort (stable: equal hashes keep index order), so the
//     copies of a point are in one run of equal hashes, in index order;
//  3. each position against the rest of its run until the first point with
//     equal coordinates: for i = index[p] that is the least j > i equal to
//     it. The least (0, i, j) over all positions is the answer; +inf when
//     there are no copies (the second grid follows).
// A run holds the copies of one point and the rare points of other
// coordinates whose hash collides (about n^2 / 2^33 pairs over all runs).

__device__ __forceinline__ unsigned coordinate_bits(float v) {
  return v == 0.0f ? 0u : __float_as_uint(v);  // -0 and +0 are one point
}

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_duplicate_keys(point_set<float> s, std::uint32_t* __restrict__ keys,
                           std::uint32_t* __restrict__ index) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    std::uint64_t h = (std::uint64_t(coordinate_bits(s.coord[0][p * s.stride])) << 32) |
                      coordinate_bits(s.coord[1][p * s.stride]);
    h = mix64(h);
    if constexpr (Dim == 3) h = mix64(h ^ coordinate_bits(s.coord[2][p * s.stride]));
    keys[p] = static_cast<std::uint32_t>(h >> 32);
    index[p] = static_cast<std::uint32_t>(p);
  }
}

template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_duplicate_pairs(point_set<float> s, const std::uint32_t* __restrict__ keys,
                            const std::uint32_t* __restrict__ index,
                            pair_candidate* __restrict__ block_out) {
  pair_candidate best;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    const std::uint32_t k = keys[p];
    if (p + 1 == s.n || keys[p + 1] != k) continue;  // alone in its run: most points
    const std::size_t i = index[p];
    float a[Dim];
    for (int d = 0; d < Dim; ++d)
      a[d] = s.coord[d][i * s.stride];
    for (std::size_t q = p + 1; q < s.n && keys[q] == k; ++q) {
      const std::size_t j = index[q];
      bool same = true;
      for (int d = 0; d < Dim; ++d)
        same = same && s.coord[d][j * s.stride] == a[d];
      if (same) {
        const pair_candidate c = make_candidate(0.0, i, j);
        if (better(c, best)) best = c;
        break;
      }
    }
  }
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

// The least identical pair of float points (section 3b); `keys` and
// `index` are the caller's buffers of n 32-bit words each.
template <int Dim>
pair_candidate duplicates(const point_set<float>& s, std::uint32_t* keys, std::uint32_t* index,
                          stream_t stream) {
  const unsigned blocks = closest_grid_blocks(s.n, closest_threads);
  launch("closest_duplicate_keys", "closest_pair", closest_duplicate_keys<Dim>,
         {blocks, closest_threads, 0, stream}, s, keys, index);
  const detail::radix_sort_plan plan = detail::make_radix_sort_plan<std::uint32_t>(
      s.n, sort_order::ascending, key_bits{}, 4, "closest_pair");
  detail::cuda_radix_sort<std::uint32_t>(keys, keys, index, index, plan, stream);
  const scratch_buffer block_out(blocks * sizeof(pair_candidate), stream);
  launch("closest_duplicate_pairs", "closest_pair", closest_duplicate_pairs<Dim>,
         {blocks, closest_threads, 0, stream}, s, static_cast<const std::uint32_t*>(keys),
         static_cast<const std::uint32_t*>(index), block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), blocks, stream);
}

template <class T, class Key, int Dim>
pair_candidate grid_with_keys(const point_set<T>& s, detail::grid_plan g, const double* lo,
                              const double* hi, stream_t stream) {
  const std::size_t n = s.n;
  const scratch_buffer keys_buffer(n * sizeof(std::uint64_t), stream);  // room for wide keys
  const scratch_buffer index_buffer(n * sizeof(std::uint32_t), stream);
  const scratch_buffer sorted_buffer(n * Dim * sizeof(double), stream);
  auto* index = index_buffer.get<std::uint32_t>();
  auto* sorted = sorted_buffer.get<double>();
  sort_into_cells<T, Key, Dim>(s, g, keys_buffer.get<Key>(), index, sorted, stream);

  const scratch_buffer stats(2 * sizeof(unsigned long long), stream);
  auto* bound = stats.get<unsigned long long>();
  detail::fill_bytes(bound, 0x7F, sizeof(unsigned long long), stream);
  detail::fill_bytes(bound + 1, 0, sizeof(unsigned long long), stream);
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  launch("closest_bound_and_crowding", "closest_pair", closest_bound_and_crowding<Key, Dim>,
         {blocks, closest_threads, 0, stream}, static_cast<const double*>(sorted),
         static_cast<const Key*>(keys_buffer.get<Key>()), n, bound, bound + 1);
  std::uint64_t host[2];
  detail::copy_to_host(host, bound, sizeof host, stream);
  synchronize(stream);
  double bound_d2;
  std::memcpy(&bound_d2, &host[0], sizeof bound_d2);
  const bool crowded =
      static_cast<double>(host[1]) > closest_crowding_limit * static_cast<double>(n);
  if (bound_d2 <= g.cell * g.cell && !crowded) {
    return check_cells<Key, Dim>(sorted, keys_buffer.get<Key>(), index, n, g, stream);
  }
  if constexpr (std::is_same_v<T, float>) {
    // Crowded float data: identical points first (section 3b). Dense float
    // clusters usually hold copies (the clustered and line 10^8 bench sets
    // do; float resolution), the answer is then the least pair of them,
    // and a second grid over them would need cells near the float spacing.
    // The first grid's buffers are free here (the second grid refills them).
    if (crowded) {
      const pair_candidate c = duplicates<Dim>(s, keys_buffer.get<std::uint32_t>(), index, stream);
      if (c.d2 == 0) return c;
    }
  }
  // The second grid: cells as wide as the bound.
  const detail::grid_plan g2 = detail::make_grid_plan(lo, hi, Dim, std::sqrt(bound_d2));
  if (g2.wide_keys) {
    auto* keys = keys_buffer.get<std::uint64_t>();
    sort_into_cells<T, std::uint64_t, Dim>(s, g2, keys, index, sorted, stream);
    return check_cells<std::uint64_t, Dim>(sorted, keys, index, n, g2, stream);
  }
  auto* keys = keys_buffer.get<std::uint32_t>();
  sort_into_cells<T, std::uint32_t, Dim>(s, g2, keys, index, sorted, stream);
  return check_cells<std::uint32_t, Dim>(sorted, keys, index, n, g2, stream);
}

template <class T, int Dim>
pair_candidate grid(const point_set<T>& s, const double* lo, const double* hi, stream_t stream) {
  // The tuner's "closest_pair" space (src/tune/config.cpp): the first
  // grid's cell side in percent of the one-point-per-cell side. Any side
  // gives the exact pair (the bound is checked against the cell).
  const int cell_percent =
      tuning::choose(tuning::algorithm::closest_pair, tuning::element_type_of<T>(), s.n).choice[0];
  const detail::grid_plan g = detail::make_grid_plan(
      lo, hi, Dim, detail::initial_cell(lo, hi, Dim, s.n) * (cell_percent / 100.0));
  if (g.wide_keys) return grid_with_keys<T, std::uint64_t, Dim>(s, g, lo, hi, stream);
  return grid_with_keys<T, std::uint32_t, Dim>(s, g, lo, hi, stream);
}

// ---- 4. divide and conquer -------------------------------------------------------

inline constexpr int dc_leaf_bits = 5;  // leaves of 32 points: one warp each

// Orderable bits of a double's y with the position as the tie-break are
// not needed: (y, position) pairs are compared directly.
template <int Dim>
__device__ __forceinline__ bool y_less(const double* sorted, std::size_t n, std::uint32_t a,
                                       std::uint32_t b) {
  const double ya = sorted[n + a], yb = sorted[n + b];
  return ya < yb || (ya == yb && a < b);
}

// One warp per leaf of up to 32 points (positions in x order): every pair,
// the leaf's least squared distance, and its positions sorted by y.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dc_leaves(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                      std::size_t n, std::uint32_t* __restrict__ by_y,
                      unsigned long long* __restrict__ segment_d2,
                      pair_candidate* __restrict__ best_of) {
  const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t start = warp << dc_leaf_bits;
  if (start >= n) return;
  const unsigned count = static_cast<unsigned>(smin(32, n - start));
  const std::size_t p = start + lane;
  double a[3] = {0, 0, 0}, c[3];
  if (lane < count) load_sorted<Dim>(sorted, n, p, a);
  pair_candidate best;
  for (unsigned q = lane + 1; q < count; ++q) {
    load_sorted<Dim>(sorted, n, start + q, c);
    const pair_candidate cand =
        make_candidate(detail::squared_distance<Dim>(a, c), index[p], index[start + q]);
    if (better(cand, best)) best = cand;
  }
  double least = best.d2;
  for (int mask = 16; mask > 0; mask /= 2)
    least = fmin(least, __shfl_xor_sync(0xffffffffu, least, mask));
  if (lane == 0) segment_d2[warp] = static_cast<unsigned long long>(__double_as_longlong(least));
  if (lane < count) {
    best_of[p] = best;
    unsigned rank = 0;
    for (unsigned q = 0; q < count; ++q)
      rank += y_less<Dim>(sorted, n, static_cast<std::uint32_t>(start + q),
                          static_cast<std::uint32_t>(p));
    by_y[start + rank] = static_cast<std::uint32_t>(p);
  }
}

// Level `bits`: segments of 2^bits positions, each the merge (by y) of two
// halves of 2^(bits - 1) already in y order.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dc_merge(const double* __restrict__ sorted, std::size_t n, int bits,
                     const std::uint32_t* __restrict__ from, std::uint32_t* __restrict__ to) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    const std::size_t start = (p >> bits) << bits;
    const std::size_t mid = smin(start + (std::size_t{1} << (bits - 1)), n);
    const std::size_t end = smin(start + (std::size_t{1} << bits), n);
    const std::uint32_t e = from[p];
    // Rank of e in the other half.
    std::size_t lo = p < mid ? mid : start, hi = p < mid ? end : mid;
    const std::size_t base = lo;
    while (lo < hi) {
      const std::size_t m = lo + (hi - lo) / 2;
      if (y_less<Dim>(sorted, n, from[m], e)) {
        lo = m + 1;
      } else {
        hi = m;
      }
    }
    const std::size_t own = p < mid ? p - start : p - mid;
    to[start + own + (lo - base)] = e;
  }
}

// The strip check of one point, shared by both divide-and-conquer
// variants: position p of a segment [start, end) in y order, whose halves
// split at position mid in x order, against the points above it while
// dy^2 is within d (the halves' best); only pairs across the split count.
// `order` gives the point at a y-order position, `order.position(q)` (n or
// more for padding, which comes last), and its y, `order.y(q)`. Folds what
// it finds into the segment's least (segment_d2) and the point's best.
template <int Dim, class Order>
__device__ __forceinline__ void dc_strip_check(const double* sorted, const std::uint32_t* index,
                                               std::size_t n, std::size_t p, std::size_t mid,
                                               std::size_t end, double d, const Order& order,
                                               unsigned long long* segment_d2,
                                               pair_candidate* best_of) {
  const std::uint32_t e = order.position(p);
  if (e >= n) return;
  const double split = sorted[mid];  // x of the right half's first point
  double a[3], c[3];
  load_sorted<Dim>(sorted, n, e, a);
  const double dx = a[0] - split;
  if (detail::mul_rn(dx, dx) > d) return;
  pair_candidate best = best_of[e];
  double found = INFINITY;
  for (std::size_t q = p + 1; q < end; ++q) {
    const std::uint32_t f = order.position(q);
    if (f >= n) break;
    const double dy = order.y(q) - a[1];
    if (detail::mul_rn(dy, dy) > d) break;
    if ((e < mid) == (f < mid)) continue;
    load_sorted<Dim>(sorted, n, f, c);
    const double d2 = detail::squared_distance<Dim>(a, c);
    if (d2 <= d) {
      found = fmin(found, d2);
      const pair_candidate cand = make_candidate(d2, index[e], index[f]);
      if (better(cand, best)) best = cand;
    }
  }
  if (found < INFINITY) {
    atomicMin(segment_d2, static_cast<unsigned long long>(__double_as_longlong(found)));
    best_of[e] = best;
  }
}

// The merge path's y order: positions in x order; y read from the points.
struct dc_positions_by_y {
  const std::uint32_t* by_y;
  const double* ys;  // sorted + n: the y coordinates in x order
  __device__ std::uint32_t position(std::size_t q) const { return by_y[q]; }
  __device__ double y(std::size_t q) const { return ys[by_y[q]]; }
};

// The strip check of level `bits`: point p (in y order) against the points
// above it in its segment while dy^2 is within the halves' best; only
// pairs across the split count. segment_d2 (this level) starts as all ones.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dc_strip(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                     std::size_t n, int bits, const std::uint32_t* __restrict__ by_y,
                     const unsigned long long* __restrict__ child_d2,
                     unsigned long long* __restrict__ segment_d2,
                     pair_candidate* __restrict__ best_of) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t children = (n + (std::size_t{1} << (bits - 1)) - 1) >> (bits - 1);
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    const std::size_t segment = p >> bits;
    const std::size_t start = segment << bits;
    const std::size_t mid = smin(start + (std::size_t{1} << (bits - 1)), n);
    const std::size_t end = smin(start + (std::size_t{1} << bits), n);
    unsigned long long d_bits = child_d2[2 * segment];
    if (2 * segment + 1 < children) {
      const unsigned long long other = child_d2[2 * segment + 1];
      d_bits = other < d_bits ? other : d_bits;
    }
    if (p == start) atomicMin(&segment_d2[segment], d_bits);
    if (mid >= end) continue;  // no right half: nothing crosses
    dc_strip_check<Dim>(sorted, index, n, p, mid, end,
                        __longlong_as_double(static_cast<long long>(d_bits)),
                        dc_positions_by_y{by_y, sorted + n}, &segment_d2[segment], best_of);
  }
}

template <class Candidate = pair_candidate>
__global__ void __launch_bounds__(closest_threads)
    closest_reduce_blocks(const Candidate* __restrict__ in, std::size_t count,
                          Candidate* __restrict__ block_out) {
  pair_candidate best;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t k = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < count; k += stride)
    if (better(in[k], best)) best = in[k];
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

template <class T, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_x_keys(point_set<T> s, double* __restrict__ x, std::uint32_t* __restrict__ index) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    x[p] = s.at(0, p);
    index[p] = static_cast<std::uint32_t>(p);
  }
}

template <class T, int Dim>
pair_candidate divide_and_conquer(const point_set<T>& s, stream_t stream) {
  const std::size_t n = s.n;
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  const scratch_buffer x_buffer(n * sizeof(double), stream);
  const scratch_buffer index_buffer(n * sizeof(std::uint32_t), stream);
  const scratch_buffer sorted_buffer(n * Dim * sizeof(double), stream);
  auto* index = index_buffer.get<std::uint32_t>();
  auto* sorted = sorted_buffer.get<double>();
  // Sort by x once (radix sort of the scaled doubles, stable: ties keep input order).
  launch("closest_x_keys", "closest_pair", closest_x_keys<T, Dim>,
         {blocks, closest_threads, 0, stream}, s, x_buffer.get<double>(), index);
  const detail::radix_sort_plan plan =
      detail::make_radix_sort_plan<double>(n, sort_order::ascending, key_bits{}, 4, "closest_pair");
  detail::cuda_radix_sort<double>(x_buffer.get<double>(), x_buffer.get<double>(), index, index,
                                  plan, stream);
  launch("closest_gather", "closest_pair", closest_gather<T, Dim>,
         {blocks, closest_threads, 0, stream}, s, static_cast<const std::uint32_t*>(index), sorted);

  const std::size_t leaves = (n + 31) / 32;
  const scratch_buffer by_y_a(n * sizeof(std::uint32_t), stream);
  const scratch_buffer by_y_b(n * sizeof(std::uint32_t), stream);
  const scratch_buffer d2_a(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer d2_b(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer best_of(n * sizeof(pair_candidate), stream);
  std::uint32_t* from = by_y_a.get<std::uint32_t>();
  std::uint32_t* to = by_y_b.get<std::uint32_t>();
  unsigned long long* child = d2_a.get<unsigned long long>();
  unsigned long long* level = d2_b.get<unsigned long long>();
  const unsigned leaf_blocks =
      static_cast<unsigned>(ceil_div(leaves * 32, static_cast<std::uint64_t>(closest_threads)));
  launch("closest_dc_leaves", "closest_pair", closest_dc_leaves<Dim>,
         {leaf_blocks, closest_threads, 0, stream}, static_cast<const double*>(sorted),
         static_cast<const std::uint32_t*>(index), n, from, child, best_of.get<pair_candidate>());
  for (int bits = dc_leaf_bits + 1; (std::size_t{1} << (bits - 1)) < n; ++bits) {
    const std::size_t segments = (n + (std::size_t{1} << bits) - 1) >> bits;
    launch("closest_dc_merge", "closest_pair", closest_dc_merge<Dim>,
           {blocks, closest_threads, 0, stream}, static_cast<const double*>(sorted), n, bits,
           static_cast<const std::uint32_t*>(from), to);
    detail::fill_bytes(level, 0xFF, segments * sizeof(unsigned long long), stream);
    launch("closest_dc_strip", "closest_pair", closest_dc_strip<Dim>,
           {blocks, closest_threads, 0, stream}, static_cast<const double*>(sorted),
           static_cast<const std::uint32_t*>(index), n, bits, static_cast<const std::uint32_t*>(to),
           static_cast<const unsigned long long*>(child), level, best_of.get<pair_candidate>());
    std::swap(from, to);
    std::swap(child, level);
  }
  const scratch_buffer block_out(blocks * sizeof(pair_candidate), stream);
  launch("closest_reduce_blocks", "closest_pair", closest_reduce_blocks<>,
         {blocks, closest_threads, 0, stream},
         static_cast<const pair_candidate*>(best_of.get<pair_candidate>()), n,
         block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), blocks, stream);
}

// ---- 4b. divide and conquer on the sorting networks --------------------------------
//
// The same recursion with every y ordering done by the library's bitonic
// network (gpuprim/cuda/device/device_sorting_network.cuh) instead of the
// merge path: points padded to a power of two N >= 32 (the padding sorts
// last, y = +inf), keys (y, position) of 16 bytes;
//  - leaves of 32: every pair by one warp (as above), then the leaves'
//    keys sorted by the register network (a few lanes per leaf);
//  - segments up to a shared-memory tile (2048 keys): each level's
//    segments sorted whole by the block bitonic sort (one launch: the tile
//    is loaded once and the network runs in registers and shared memory);
//  - longer segments: the halves are sorted, so one stage of the network
//    merges them: the mirror step and the half-cleaners down to the tile
//    in global memory (one launch each), the rest in shared memory.
// Each level's strip check reads y from the key (no gather for the break
// test). More passes over memory than the merge path above (one stage per
// level of log2(k / 2048) + 1 global steps), so it is the ladder's rung and
// the merge path stays in gp::closest_pair (docs/design.md).

// A point's y and its position in x order; 16 bytes (vector loads).
struct alignas(16) dc_y_key {
  double y;
  std::uint32_t pos;
  std::uint32_t unused;
};

// (y, position): a total order, so the network's result is unique.
struct dc_y_less {
  __device__ bool operator()(const dc_y_key& a, const dc_y_key& b) const {
    return a.y < b.y || (a.y == b.y && a.pos < b.pos);
  }
};

using dc_y_codec = sort_codec<dc_y_key, dc_y_less>;

__device__ __forceinline__ dc_y_key dc_padding_key() {
  return {INFINITY, 0xFFFFFFFFu, 0};
}

// One warp per leaf of 32 positions of [0, padded): every pair of the real
// points, the leaf's least squared distance (+inf for leaves of padding)
// and its keys, unsorted.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dcn_leaves(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                       std::size_t n, std::size_t padded, dc_y_key* __restrict__ keys,
                       unsigned long long* __restrict__ segment_d2,
                       pair_candidate* __restrict__ best_of) {
  const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const unsigned lane = threadIdx.x % 32;
  const std::size_t start = warp << dc_leaf_bits;
  if (start >= padded) return;
  const unsigned count = start < n ? static_cast<unsigned>(smin(32, n - start)) : 0;
  const std::size_t p = start + lane;
  double a[3] = {0, 0, 0}, c[3];
  if (lane < count) load_sorted<Dim>(sorted, n, p, a);
  pair_candidate best;
  for (unsigned q = lane + 1; q < count; ++q) {
    load_sorted<Dim>(sorted, n, start + q, c);
    const pair_candidate cand =
        make_candidate(detail::squared_distance<Dim>(a, c), index[p], index[start + q]);
    if (better(cand, best)) best = cand;
  }
  double least = best.d2;
  for (int mask = 16; mask > 0; mask /= 2)
    least = fmin(least, __shfl_xor_sync(0xffffffffu, least, mask));
  if (lane == 0) segment_d2[warp] = static_cast<unsigned long long>(__double_as_longlong(least));
  if (lane < count) best_of[p] = best;
  keys[p] = lane < count ? dc_y_key{a[1], static_cast<std::uint32_t>(p), 0} : dc_padding_key();
}

// The networks' y order: keys (y, position); y read from the key (the
// break test needs no gather).
struct dc_keys_by_y {
  const dc_y_key* keys;
  __device__ std::uint32_t position(std::size_t q) const { return keys[q].pos; }
  __device__ double y(std::size_t q) const { return keys[q].y; }
};

// The strip check of level `bits` over keys in y order per segment (see
// closest_dc_strip); padding keys are last in each segment.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dcn_strip(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                      std::size_t n, std::size_t padded, int bits,
                      const dc_y_key* __restrict__ keys,
                      const unsigned long long* __restrict__ child_d2,
                      unsigned long long* __restrict__ segment_d2,
                      pair_candidate* __restrict__ best_of) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < padded;
       p += stride) {
    const std::size_t segment = p >> bits;
    const std::size_t start = segment << bits;
    const std::size_t mid = start + (std::size_t{1} << (bits - 1));
    const std::size_t end = start + (std::size_t{1} << bits);
    unsigned long long d_bits = child_d2[2 * segment];
    const unsigned long long other = child_d2[2 * segment + 1];
    d_bits = other < d_bits ? other : d_bits;
    if (p == start) atomicMin(&segment_d2[segment], d_bits);
    if (mid >= n) continue;  // the right half is padding: nothing crosses
    dc_strip_check<Dim>(sorted, index, n, p, mid, end,
                        __longlong_as_double(static_cast<long long>(d_bits)), dc_keys_by_y{keys},
                        &segment_d2[segment], best_of);
  }
}

// Sorts each segment of k keys of keys[0, padded) by (y, position), given
// that its two halves are sorted (k >= 64, both powers of two).
inline void dc_order_segments(dc_y_key* keys, std::size_t padded, std::size_t k, stream_t stream) {
  const dc_y_codec codec{dc_y_less{}};
  const uniform_arrays segments{k};
  const std::uint64_t count = padded / k;
  constexpr unsigned tile = shared_tile_keys<dc_y_key>();
  if (k <= tile) {
    // One launch: each segment sorted whole in shared memory.
    sort_arrays(keys, segments, count, k, is_aligned(keys, 16), codec, stream);
    return;
  }
  // One stage of the network merges two sorted halves: the mirror step,
  // the half-cleaners down to the tile in global memory, the rest in tiles.
  const unsigned log2_half = unsigned(std::countr_zero(std::uint64_t(k / 2)));
  const unsigned grid = network_stride_grid(padded / 2);
  for (std::uint64_t top = k / 2; top >= tile; top /= 2) {
    const std::uint64_t mask = top == k / 2 ? k - 1 : top;
    launch("bitonic_step_global", "closest_pair",
           bitonic_step_global<dc_y_codec, dc_y_key, uniform_arrays>,
           {grid, network_threads, 0, stream}, keys, segments, count, log2_half, mask, top, codec);
  }
  launch_shared_tiles(keys, segments, count, k / tile, tile, true, codec, stream);
}

template <class T, int Dim>
pair_candidate divide_and_conquer_networks(const point_set<T>& s, stream_t stream) {
  const std::size_t n = s.n;
  const std::size_t padded = std::max<std::size_t>(std::bit_ceil(n), 32);
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  const scratch_buffer x_buffer(n * sizeof(double), stream);
  const scratch_buffer index_buffer(n * sizeof(std::uint32_t), stream);
  const scratch_buffer sorted_buffer(n * Dim * sizeof(double), stream);
  auto* index = index_buffer.get<std::uint32_t>();
  auto* sorted = sorted_buffer.get<double>();
  // The x order: the radix sort (a network would sort these n doubles in
  // log^2 n passes; the radix sort takes a few).
  launch("closest_x_keys", "closest_pair", closest_x_keys<T, Dim>,
         {blocks, closest_threads, 0, stream}, s, x_buffer.get<double>(), index);
  const detail::radix_sort_plan plan =
      detail::make_radix_sort_plan<double>(n, sort_order::ascending, key_bits{}, 4, "closest_pair");
  detail::cuda_radix_sort<double>(x_buffer.get<double>(), x_buffer.get<double>(), index, index,
                                  plan, stream);
  launch("closest_gather", "closest_pair", closest_gather<T, Dim>,
         {blocks, closest_threads, 0, stream}, s, static_cast<const std::uint32_t*>(index), sorted);

  const std::size_t leaves = padded / 32;
  const scratch_buffer keys_buffer(padded * sizeof(dc_y_key), stream);
  const scratch_buffer d2_a(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer d2_b(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer best_of(n * sizeof(pair_candidate), stream);
  auto* keys = keys_buffer.get<dc_y_key>();
  unsigned long long* child = d2_a.get<unsigned long long>();
  unsigned long long* level = d2_b.get<unsigned long long>();
  const unsigned leaf_blocks =
      static_cast<unsigned>(ceil_div(padded, static_cast<std::uint64_t>(closest_threads)));
  launch("closest_dcn_leaves", "closest_pair", closest_dcn_leaves<Dim>,
         {leaf_blocks, closest_threads, 0, stream}, static_cast<const double*>(sorted),
         static_cast<const std::uint32_t*>(index), n, padded, keys, child,
         best_of.get<pair_candidate>());
  // The leaves' y order: the register network, 16 lanes per leaf.
  sort_arrays(keys, uniform_arrays{32}, leaves, 32, is_aligned(keys, 16), dc_y_codec{dc_y_less{}},
              stream);
  const unsigned strip_blocks = closest_grid_blocks(padded, closest_threads);
  for (int bits = dc_leaf_bits + 1; (std::size_t{1} << (bits - 1)) < n; ++bits) {
    const std::size_t k = std::size_t{1} << bits;
    dc_order_segments(keys, padded, k, stream);
    detail::fill_bytes(level, 0xFF, (padded >> bits) * sizeof(unsigned long long), stream);
    launch("closest_dcn_strip", "closest_pair", closest_dcn_strip<Dim>,
           {strip_blocks, closest_threads, 0, stream}, static_cast<const double*>(sorted),
           static_cast<const std::uint32_t*>(index), n, padded, bits,
           static_cast<const dc_y_key*>(keys), static_cast<const unsigned long long*>(child), level,
           best_of.get<pair_candidate>());
    std::swap(child, level);
  }
  const scratch_buffer block_out(blocks * sizeof(pair_candidate), stream);
  launch("closest_reduce_blocks", "closest_pair", closest_reduce_blocks<>,
         {blocks, closest_threads, 0, stream},
         static_cast<const pair_candidate*>(best_of.get<pair_candidate>()), n,
         block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), blocks, stream);
}

// ---- entry -------------------------------------------------------------------------

// Checks the bounds and returns the scaled box; `all_same` when every point
// is the same.
template <class T>
double prepare(point_set<T>& s, const detail::point_bounds& b, double* lo, double* hi,
               bool& all_same) {
  detail::check_bounds(b);
  s.scale = detail::coordinate_scale<T>(b, s.dim);
  all_same = true;
  for (int d = 0; d < s.dim; ++d) {
    lo[d] = b.lo[d] * s.scale;
    hi[d] = b.hi[d] * s.scale;
    all_same = all_same && lo[d] == hi[d];
  }
  return s.scale;
}

// How the GPU divide and conquer orders each level by y: the merge path
// (gp::closest_pair's) or the sorting networks (the ladder's rung).
enum class dc_ordering { merge_path, sorting_networks };

template <class T>
closest_pair_result run_closest_pair(point_set<T> s, closest_pair_algorithm algorithm,
                                     closest_pair_launch shape, stream_t stream,
                                     dc_ordering ordering = dc_ordering::merge_path) {
  const detail::point_bounds b = device_bounds(s, stream);
  double lo[3], hi[3];
  bool all_same = false;
  prepare(s, b, lo, hi, all_same);
  if (all_same) return detail::to_result({0.0, 0, 1}, s.scale);
  if (algorithm == closest_pair_algorithm::automatic) {
    algorithm = s.n <= closest_pair_cuda_tiled_limit ? closest_pair_algorithm::tiled
                                                     : closest_pair_algorithm::grid;
  }
  auto run = [&]<int Dim>() {
    switch (algorithm) {
      case closest_pair_algorithm::brute_force:
        return quadratic_dispatch<T, Dim>(s, b, quadratic_kernel::brute_force, shape, stream);
      case closest_pair_algorithm::tiled:
        return quadratic_dispatch<T, Dim>(s, b, quadratic_kernel::tiled, shape, stream);
      case closest_pair_algorithm::divide_and_conquer:
        return ordering == dc_ordering::sorting_networks
                   ? divide_and_conquer_networks<T, Dim>(s, stream)
                   : divide_and_conquer<T, Dim>(s, stream);
      default:
        return grid<T, Dim>(s, lo, hi, stream);
    }
  };
  const pair_candidate c = s.dim == 2 ? run.template operator()<2>() : run.template operator()<3>();
  return detail::to_result(c, s.scale);
}

// The occupancy of the pass-1 kernel of `kind` at `shape` (threads per
// block, points per thread; 0 for the defaults).
template <class T, class C, int Dim>
closest_pair_occupancy quadratic_occupancy(quadratic_kernel kind, closest_pair_launch shape) {
  const int threads = shape.threads > 0 ? shape.threads : quadratic_default_threads(kind);
  const void* kernel = quadratic_pass1_kernel<T, C, Dim>(kind, shape.points_per_thread);
  cudaFuncAttributes attributes{};
  GPUPRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel), "closest_pair");
  closest_pair_occupancy o;
  o.registers = attributes.numRegs;
  o.shared_bytes = static_cast<int>(attributes.sharedSizeBytes +
                                    quadratic_shared_bytes<T, C, Dim>(kind, threads));
  GPUPRIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &o.blocks_per_multiprocessor, kernel, threads,
                         quadratic_shared_bytes<T, C, Dim>(kind, threads)),
                     "closest_pair");
  return o;
}

}  // namespace cuda_detail

namespace detail {

template <class T>
closest_pair_result cuda_closest_pair(const point_set<T>& points, closest_pair_algorithm algorithm,
                                      stream_t stream) {
  return cuda_detail::run_closest_pair(points, algorithm, {}, stream);
}

}  // namespace detail
}  // namespace gpuprim
