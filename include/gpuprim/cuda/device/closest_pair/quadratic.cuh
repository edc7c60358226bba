// What the two quadratic algorithms (brute_force.cuh, tiled.cuh) share:
// coordinates and squared distances in the compute type (float for float
// input within +-2^60, else double), the pass-2 threshold that bounds the
// float rounding, and the exact recheck in double.
#pragma once

#include "gpuprim/cuda/device/closest_pair/common.cuh"

namespace gpuprim {
namespace cuda_impl {

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

enum class quadratic_kernel { brute_force, tiled };

// 128 for the tiled kernel: the fastest of the threads-per-block sweeps
// (bench/results/*closest_pair-sweep.md), and 16 resident blocks of 128
// threads balance the triangle's last items better than 8 of 256.
inline int quadratic_default_threads(quadratic_kernel k) {
  return k == quadratic_kernel::brute_force ? 256 : 128;
}

inline int checked_quadratic_threads(quadratic_kernel kind, closest_pair_launch shape) {
  const int threads = shape.threads > 0 ? shape.threads : quadratic_default_threads(kind);
  if (threads % 32 != 0 || threads > 1024) {
    throw std::invalid_argument("gpuprim::closest_pair: " + std::to_string(threads) +
                                " threads per block; a multiple of 32 up to 1024 is needed");
  }
  return threads;
}

}  // namespace cuda_impl
}  // namespace gpuprim
