// GPU top-k of one array by radix select (the production path of
// gpuprim::topk, driven by cuda_topk_into in device_topk.cuh).
//
// Every element gets a composite key: its order pattern u (radix_key's
// ascending bits, -0.0 made +0.0 so the zeros tie, NaN the largest; all bits
// inverted for the smallest) followed by its index rank r = n - 1 - i. The
// composite keys are distinct and the k largest of them are exactly the
// top k with ties to the smaller index, so the selection never has to break
// a tie by itself.
//
// The shape of the algorithm (one stream-ordered sequence of launches, no
// host synchronization; the narrowing state lives on the device):
//  1. topk_select_init_kernel: the state: the whole array is the bucket,
//     need = k; already done when the array is small (n <= threshold) or
//     k == n.
//  2. For each 8-bit digit of u from the top, then of r (the last one maybe
//     narrower), while not done:
//     a. topk_select_histogram_kernel: a read of the array; the elements
//        whose known top bits equal the bucket's prefix are counted by
//        their next digit (per-warp shared counters, then one 64-bit
//        integer atomic per digit and block: exact, so deterministic);
//     b. topk_select_choose_kernel: one block scans the digit counts from
//        the top and keeps the digit d where the count above d is < need
//        <= the count above d plus d's: the prefix gets d, need drops by
//        the count above, the bucket becomes d's count. Done when the
//        bucket is at most the threshold, or all of it is needed.
//  3. topk_select_compact_kernel: one read of the array writes each element
//     beyond the bucket or in it, as (u, index), to the candidate buffer
//     (one atomic slot a warp). There are fewer than k + threshold
//     candidates; the buffer's unused tail holds sentinels that sort last.
//  4. The candidates are sorted by (u descending, index ascending) with the
//     library's stable merge sort (cuda_merge_sort_into), and the first k
//     written: the value read back from x, and the index.
// Every digit pass reads the whole array (the next rung would copy the
// bucket out once it is small, and read only that).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"
#include "gpuprim/cuda/device/device_merge.cuh"
#include "gpuprim/sort_types.hpp"

namespace gpuprim::cuda_impl {

template <class T>
inline constexpr bool topk_select_key = is_radix_key_v<T>;

// The order pattern top-k selects the largest of: NaN largest (every NaN
// alike), -0.0 equal to +0.0, inverted for the smallest.
template <class T>
GPUPRIM_HD std::uint64_t topk_pattern(T x, bool largest) {
  if constexpr (std::is_floating_point_v<T>) {
    if (x == T(0)) x = T(0);
  }
  using U = typename radix_key<T>::bits_type;
  const U b = radix_key<T>::to_bits(x);
  return largest ? std::uint64_t{b} : std::uint64_t{U(~b)};
}

// What the digit passes know of the k-th composite key (u, r).
struct topk_select_state {
  std::uint64_t value_prefix;  // its pattern's known top bits (low bits 0)
  std::uint64_t index_prefix;  // its index rank's known top bits
  std::uint64_t need;          // how many of the bucket are in the top k
  std::uint64_t bucket;        // elements sharing the known prefix
  std::uint64_t candidates;    // the compaction's slot counter
  int value_known;             // bits of the pattern known
  int index_known;             // bits of the index rank known
  int done;                    // the bucket is small enough, or all needed
};

// The top `known` of a `width`-bit field.
GPUPRIM_HD inline std::uint64_t topk_top_bits(std::uint64_t x, int width, int known) {
  return known == 0 ? 0 : x >> (width - known);
}

// 1 when (u, r)'s known top bits are above the bucket's prefix, 0 in the
// bucket, -1 below.
GPUPRIM_HD inline int topk_against_bucket(std::uint64_t u, std::uint64_t r,
                                          const topk_select_state& s, int value_bits,
                                          int index_bits) {
  const std::uint64_t uh = topk_top_bits(u, value_bits, s.value_known);
  const std::uint64_t ph = topk_top_bits(s.value_prefix, value_bits, s.value_known);
  if (uh != ph) return uh > ph ? 1 : -1;
  const std::uint64_t rh = topk_top_bits(r, index_bits, s.index_known);
  const std::uint64_t qh = topk_top_bits(s.index_prefix, index_bits, s.index_known);
  if (rh != qh) return rh > qh ? 1 : -1;
  return 0;
}

// A candidate: its pattern and its index; sorted by topk_candidate_before.
struct topk_candidate {
  std::uint64_t pattern;
  std::int64_t index;
};

struct topk_candidate_before {
  GPUPRIM_HD bool operator()(const topk_candidate& a, const topk_candidate& b) const {
    return a.pattern > b.pattern || (a.pattern == b.pattern && a.index < b.index);
  }
};

inline constexpr int topk_select_threads = 256;
inline constexpr int topk_select_digits = 256;
inline constexpr int topk_select_unroll = 4;

// One digit pass: which field (0: the pattern, 1: the index rank), the
// digit's shift and width.
struct topk_digit_pass {
  int field;
  int shift;
  int width;
};

// (The kernels without an element type are templates on it all the same,
// as every kernel of the library's headers: one definition per instance.)
template <class T>
__global__ void topk_select_init_kernel(topk_select_state* state, std::uint64_t n, std::uint64_t k,
                                        std::uint64_t threshold) {
  topk_select_state s{};
  s.need = k;
  s.bucket = n;
  s.done = n <= threshold || k == n;
  *state = s;
}

template <class T>
__global__ void __launch_bounds__(topk_select_threads)
    topk_select_histogram_kernel(const T* __restrict__ x, std::uint64_t n, bool largest,
                                 int value_bits, int index_bits,
                                 const topk_select_state* __restrict__ state, topk_digit_pass pass,
                                 unsigned long long* __restrict__ hist) {
  constexpr int warps = topk_select_threads / 32;
  __shared__ unsigned counts[warps][topk_select_digits];
  const topk_select_state s = *state;
  if (s.done) return;
  unsigned* mine = counts[threadIdx.x / 32];
  for (int d = threadIdx.x; d < warps * topk_select_digits; d += topk_select_threads)
    (&counts[0][0])[d] = 0;
  __syncthreads();
  const unsigned mask = (1u << pass.width) - 1;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * topk_select_threads;
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * topk_select_threads + threadIdx.x; base < n;
       base += stride * topk_select_unroll) {
    T v[topk_select_unroll];
#pragma unroll
    for (int j = 0; j < topk_select_unroll; ++j) {
      const std::uint64_t i = base + j * stride;
      if (i < n) v[j] = x[i];
    }
#pragma unroll
    for (int j = 0; j < topk_select_unroll; ++j) {
      const std::uint64_t i = base + j * stride;
      if (i >= n) break;
      const std::uint64_t u = topk_pattern(v[j], largest);
      const std::uint64_t r = n - 1 - i;
      if (topk_against_bucket(u, r, s, value_bits, index_bits) != 0) continue;
      const std::uint64_t field = pass.field == 0 ? u : r;
      atomicAdd(&mine[static_cast<unsigned>(field >> pass.shift) & mask], 1u);
    }
  }
  __syncthreads();
  for (int d = threadIdx.x; d <= static_cast<int>(mask); d += topk_select_threads) {
    unsigned long long sum = 0;
#pragma unroll
    for (int w = 0; w < warps; ++w)
      sum += counts[w][d];
    if (sum != 0) atomicAdd(&hist[d], sum);
  }
}

// One block of topk_select_digits threads.
template <class T>
__global__ void __launch_bounds__(topk_select_digits)
    topk_select_choose_kernel(topk_select_state* __restrict__ state,
                              const unsigned long long* __restrict__ hist, topk_digit_pass pass,
                              int value_bits, int index_bits, std::uint64_t threshold) {
  __shared__ unsigned long long at_or_above[topk_select_digits];
  if (state->done) return;
  // Read before any thread can write the state below.
  const std::uint64_t need = state->need;
  const int d = threadIdx.x;
  const int digits = 1 << pass.width;
  const unsigned long long mine = d < digits ? hist[d] : 0;
  at_or_above[d] = mine;
  __syncthreads();
  // Suffix sums: at_or_above[d] = the count of digits >= d.
  for (int offset = 1; offset < topk_select_digits; offset *= 2) {
    const unsigned long long add = d + offset < topk_select_digits ? at_or_above[d + offset] : 0ull;
    __syncthreads();
    at_or_above[d] += add;
    __syncthreads();
  }
  const std::uint64_t above = at_or_above[d] - mine;
  if (d < digits && above < need && need <= at_or_above[d]) {
    topk_select_state s = *state;
    if (pass.field == 0) {
      s.value_prefix |= std::uint64_t(d) << pass.shift;
      s.value_known += pass.width;
    } else {
      s.index_prefix |= std::uint64_t(d) << pass.shift;
      s.index_known += pass.width;
    }
    s.need = need - above;
    s.bucket = mine;
    s.done = s.bucket <= threshold || s.bucket == s.need ||
             (s.value_known == value_bits && s.index_known == index_bits);
    *state = s;
  }
}

template <class T>
__global__ void topk_select_fill_kernel(topk_candidate* __restrict__ out, std::uint64_t m) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < m; j += stride)
    out[j] = topk_candidate{0, std::numeric_limits<std::int64_t>::max()};
}

template <class T>
__global__ void __launch_bounds__(topk_select_threads)
    topk_select_compact_kernel(const T* __restrict__ x, std::uint64_t n, bool largest,
                               int value_bits, int index_bits,
                               topk_select_state* __restrict__ state,
                               topk_candidate* __restrict__ out, std::uint64_t capacity) {
  const topk_select_state s = *state;
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * topk_select_threads;
  // Each warp's lanes share `base`, so they run the same iterations.
  for (std::uint64_t base = std::uint64_t{blockIdx.x} * topk_select_threads + threadIdx.x - lane;
       base < n; base += stride) {
    const std::uint64_t i = base + lane;
    std::uint64_t u = 0;
    bool take = false;
    if (i < n) {
      u = topk_pattern(x[i], largest);
      take = topk_against_bucket(u, n - 1 - i, s, value_bits, index_bits) >= 0;
    }
    const unsigned taken = __ballot_sync(0xffffffffu, take);
    if (taken == 0) continue;
    const unsigned leader = __ffs(taken) - 1;
    unsigned long long first = 0;
    if (lane == leader)
      first = atomicAdd(reinterpret_cast<unsigned long long*>(&state->candidates),
                        static_cast<unsigned long long>(__popc(taken)));
    first = __shfl_sync(0xffffffffu, first, leader);
    const std::uint64_t slot = first + __popc(taken & ((1u << lane) - 1));
    if (take && slot < capacity) out[slot] = topk_candidate{u, static_cast<std::int64_t>(i)};
  }
}

template <class T>
__global__ void topk_select_write_kernel(const T* __restrict__ x,
                                         const topk_candidate* __restrict__ sorted, std::uint64_t k,
                                         T* __restrict__ values,
                                         std::int64_t* __restrict__ indices) {
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < k; j += stride) {
    const std::int64_t i = sorted[j].index;
    values[j] = x[i];
    indices[j] = i;
  }
}

// The bucket size at which the digit passes stop: each pass reads the whole
// array, and sorting this many more candidates costs less than one pass of
// a large array.
inline constexpr std::uint64_t topk_select_threshold = std::uint64_t{1} << 16;

// Enqueues the top k of x[0, n) by radix select (the steps above); the
// digit passes stop once the bucket holds at most `threshold` elements.
template <class T>
void topk_radix_select(const T* x, std::uint64_t n, std::uint64_t k, bool largest, T* values,
                       std::int64_t* indices, stream_t stream,
                       std::uint64_t threshold = topk_select_threshold,
                       const char* algorithm = "topk") {
  if (n == 0 || k == 0) return;
  const int value_bits = 8 * static_cast<int>(sizeof(T));
  const int index_bits = static_cast<int>(std::bit_width(n - 1));
  topk_digit_pass passes[16];
  int pass_count = 0;
  for (int shift = value_bits - 8; shift >= 0; shift -= 8)
    passes[pass_count++] = {0, shift, 8};
  for (int known = 0; known < index_bits;) {
    const int width = std::min(8, index_bits - known);
    passes[pass_count++] = {1, index_bits - known - width, width};
    known += width;
  }
  // Where the init kernel finds the state done, no pass would run.
  if (n <= threshold || k == n) pass_count = 0;
  const std::uint64_t capacity = std::min(n, k + threshold);
  const std::size_t hist_bytes =
      std::size_t(pass_count) * topk_select_digits * sizeof(unsigned long long);
  const scratch_buffer work(sizeof(topk_select_state) + hist_bytes, stream);
  auto* state = work.get<topk_select_state>();
  auto* hist =
      reinterpret_cast<unsigned long long*>(work.get<unsigned char>() + sizeof(topk_select_state));
  const scratch_buffer candidate_buffer(capacity * sizeof(topk_candidate), stream);
  auto* candidates = candidate_buffer.get<topk_candidate>();

  // 1.
  launch("topk_select_init_kernel", algorithm, &topk_select_init_kernel<T>, {1, 1, 0, stream},
         state, n, k, threshold);
  if (hist_bytes > 0) GPUPRIM_CUDA_CHECK(cudaMemsetAsync(hist, 0, hist_bytes, stream), algorithm);
  // 2. A grid of a few blocks per SM, and enough that no warp counts 2^32.
  const unsigned blocks = static_cast<unsigned>(std::max<std::uint64_t>(
      std::min<std::uint64_t>(ceil_div(n, topk_select_threads * topk_select_unroll),
                              std::uint64_t(current_multiprocessor_count()) * 8),
      ceil_div(n, std::uint64_t{1} << 31)));
  for (int p = 0; p < pass_count; ++p) {
    launch("topk_select_histogram_kernel", algorithm, &topk_select_histogram_kernel<T>,
           {blocks, topk_select_threads, 0, stream}, x, n, largest, value_bits, index_bits,
           static_cast<const topk_select_state*>(state), passes[p],
           hist + std::size_t(p) * topk_select_digits);
    launch("topk_select_choose_kernel", algorithm, &topk_select_choose_kernel<T>,
           {1, topk_select_digits, 0, stream}, state,
           static_cast<const unsigned long long*>(hist + std::size_t(p) * topk_select_digits),
           passes[p], value_bits, index_bits, threshold);
  }
  // 3.
  const unsigned fill_blocks =
      static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(capacity, 256), 1u << 12));
  launch("topk_select_fill_kernel", algorithm, &topk_select_fill_kernel<T>,
         {fill_blocks, 256, 0, stream}, candidates, capacity);
  launch("topk_select_compact_kernel", algorithm, &topk_select_compact_kernel<T>,
         {blocks, topk_select_threads, 0, stream}, x, n, largest, value_bits, index_bits, state,
         candidates, capacity);
  // 4.
  cuda_merge_sort_into(candidates, static_cast<order_no_value*>(nullptr), capacity,
                       topk_candidate_before{}, stream);
  const unsigned write_blocks =
      static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(k, 256), 1u << 12));
  launch("topk_select_write_kernel", algorithm, &topk_select_write_kernel<T>,
         {write_blocks, 256, 0, stream}, x, static_cast<const topk_candidate*>(candidates), k,
         values, indices);
}

}  // namespace gpuprim::cuda_impl
