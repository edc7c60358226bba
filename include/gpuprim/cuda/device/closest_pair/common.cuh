// Pieces every GPU closest-pair algorithm shares: the candidate (d2, i, j)
// and its reductions, the bounds pass, the points gathered in a sorted
// order, and the entry step that checks the bounds and scales the points
// (closest_pair_with). The algorithms are in the files beside this one;
// gpuprim/cuda/device/device_closest_pair.cuh says how they fit together.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/detail/closest_pair/closest_pair.hpp"
#include "gpuprim/core/device_info.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"

namespace gpuprim {
namespace cuda_impl {

using detail::better;
using detail::make_candidate;
using detail::pair_candidate;
using detail::point_set;

inline constexpr int closest_threads = 256;

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

// The best of the per-point candidates best_of[0, n), read back.
inline pair_candidate best_of_points(const pair_candidate* best_of, std::size_t n, unsigned blocks,
                                     stream_t stream) {
  const scratch_buffer block_out(blocks * sizeof(pair_candidate), stream);
  launch("closest_reduce_blocks", "closest_pair", closest_reduce_blocks<>,
         {blocks, closest_threads, 0, stream}, best_of, n, block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), blocks, stream);
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

// ---- points in a sorted order ---------------------------------------------------

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

// ---- entry step ------------------------------------------------------------------

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

// The steps every algorithm starts with: the bounds (one synchronization;
// NaN and inf throw), the scale, and the answer (0, 1) at distance 0 when
// every point is the same; then solve.template operator()<Dim>(s, b, lo,
// hi) on the scaled set, lo and hi its scaled box.
template <class T, class Solve>
closest_pair_result closest_pair_with(point_set<T> s, stream_t stream, Solve&& solve) {
  const detail::point_bounds b = device_bounds(s, stream);
  double lo[3], hi[3];
  bool all_same = false;
  prepare(s, b, lo, hi, all_same);
  if (all_same) return detail::to_result({0.0, 0, 1}, s.scale);
  const pair_candidate c = s.dim == 2 ? solve.template operator()<2>(s, b, lo, hi)
                                      : solve.template operator()<3>(s, b, lo, hi);
  return detail::to_result(c, s.scale);
}

}  // namespace cuda_impl
}  // namespace gpuprim
