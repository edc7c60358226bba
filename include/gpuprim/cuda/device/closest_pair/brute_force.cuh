// Brute force (the ladder's first rung, and gp::closest_pair's
// closest_pair_algorithm::brute_force): one thread per point i against the
// points after it, read from global memory, in two passes (see
// quadratic.cuh for the compute type and the threshold).
#pragma once

#include "gpuprim/cuda/device/closest_pair/quadratic.cuh"

namespace gpuprim {
namespace cuda_impl {

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

}  // namespace cuda_impl
}  // namespace gpuprim
