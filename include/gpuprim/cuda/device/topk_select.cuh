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
//  2. The pre-filter, for large arrays of keys of 4 or 8 bytes and k well
//     below n (topk_sample_rank says when), so that the digit passes need
//     not read the array:
//     a. topk_sample_gather_kernel: the patterns' top 32 bits (the whole
//        pattern for keys of at most 4 bytes) of topk_sample_size elements
//        at even strides; one block of topk_rows_block_kernel finds their
//        m largest (m from k: about 8 k S / n + 3, so that the expected
//        count of elements at or above the m-th is several times k);
//     b. topk_select_filter_kernel: one read of the array writes every
//        element whose pattern is at least the m-th sample's (its top bits),
//        as (u, index), to a buffer of `filter capacity` (staged in
//        shared memory, one global atomic a block);
//     c. topk_select_filter_done_kernel: when at least k and at most the
//        capacity passed, the buffer holds the top k (they are all at or
//        above the pivot), and the steps below read it instead of the array;
//        otherwise (too few, or ties at the pivot overflowing the buffer)
//        they read the array, as without the pre-filter.
//  3. For each 8-bit digit of u from the top, then of r (the last one maybe
//     narrower), while not done:
//     a. topk_select_histogram_kernel: a read of the array (or the buffer);
//        the elements whose known top bits equal the bucket's prefix are
//        counted by their next digit (per-warp shared counters, a warp's
//        lanes of one digit adding together; then one 64-bit integer atomic
//        per digit and block: exact, so deterministic);
//     b. topk_select_choose_kernel: one block scans the digit counts from
//        the top and keeps the digit d where the count above d is < need
//        <= the count above d plus d's: the prefix gets d, need drops by
//        the count above, the bucket becomes d's count. Done when the
//        bucket is at most the threshold, or all of it is needed.
//  4. topk_select_compact_kernel: one read of the array (or the buffer)
//     writes each element beyond the bucket or in it, as (u, index), to the
//     candidate buffer (staged the same way). There are fewer than
//     k + threshold candidates; the buffer's unused tail holds sentinels
//     that sort last.
//  5. The candidates are sorted by (u descending, index ascending) with the
//     library's stable merge sort (cuda_merge_sort_into), and the first k
//     written: the value read back from x, and the index.
// With the pre-filter the array is read once (plus its few samples);
// without it, once per digit pass and once by the compaction.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/device/device_merge.cuh"
#include "gpuprim/cuda/device/topk_keys.cuh"
#include "gpuprim/cuda/device/topk_rows_block.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"

namespace gpuprim::cuda_impl {

// What the digit passes know of the k-th composite key (u, r).
struct topk_select_state {
  std::uint64_t value_prefix;  // its pattern's known top bits (low bits 0)
  std::uint64_t index_prefix;  // its index rank's known top bits
  std::uint64_t need;          // how many of the bucket are in the top k
  std::uint64_t bucket;        // elements sharing the known prefix
  std::uint64_t candidates;    // the compaction's slot counter
  std::uint64_t filtered;      // the pre-filter's slot counter
  int value_known;             // bits of the pattern known
  int index_known;             // bits of the index rank known
  int done;                    // the bucket is small enough, or all needed
  int from_buffer;             // the passes read the pre-filter's buffer
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
inline constexpr int topk_select_unroll = 4;

// One digit pass: which field (0: the pattern, 1: the index rank), the
// digit's shift and width.
struct topk_digit_pass {
  int field;
  int shift;
  int width;
};

// The elements a pass reads: the array x[0, n), or (from_buffer) the
// pre-filter's candidates buffer[0, state.filtered).
template <class T>
struct topk_select_source {
  const T* x;
  std::uint64_t n;
  bool largest;
  const topk_candidate* buffer;
};

// Calls visit(valid, u, index) for every element of the source, all lanes
// of a warp together (each lane's element or valid = false), so that visit
// may use warp-wide votes. The array is read topk_select_unroll elements a
// thread at a time.
template <class T, class Visit>
__device__ __forceinline__ void topk_for_each(const topk_select_source<T>& src,
                                              const topk_select_state& s, Visit&& visit) {
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t stride = std::uint64_t{gridDim.x} * blockDim.x;
  const std::uint64_t first = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x - lane;
  if (s.from_buffer) {
    for (std::uint64_t base = first; base < s.filtered; base += stride) {
      const std::uint64_t j = base + lane;
      const bool valid = j < s.filtered;
      const topk_candidate c = valid ? src.buffer[j] : topk_candidate{0, 0};
      visit(valid, c.pattern, static_cast<std::uint64_t>(c.index));
    }
    return;
  }
  for (std::uint64_t base = first; base < src.n; base += stride * topk_select_unroll) {
    T v[topk_select_unroll];
#pragma unroll
    for (int j = 0; j < topk_select_unroll; ++j) {
      const std::uint64_t i = base + lane + j * stride;
      v[j] = i < src.n ? src.x[i] : T{};
    }
#pragma unroll
    for (int j = 0; j < topk_select_unroll; ++j) {
      const std::uint64_t i = base + lane + j * stride;
      if (base + j * stride >= src.n) break;  // warp-uniform
      visit(i < src.n, topk_pattern(v[j], src.largest), i);
    }
  }
}

// Appending candidates to a global list through a block's shared staging
// area: a warp's takers reserve staging slots with one shared atomic, what
// does not fit goes straight to the list, and at its end the block moves
// the staged ones with one global atomic (a global atomic per warp that
// takes an element would queue on one address). Slots of the list at or
// past `capacity` are counted in *counter but not written.
inline constexpr int topk_stage_size = 512;

struct topk_stage {
  topk_candidate items[topk_stage_size];
  unsigned count;
  std::uint64_t first;  // the staged ones' first slot in the list
};

// Every lane of the warp calls it, with take = false where it has none.
__device__ __forceinline__ void topk_stage_append(topk_stage& stage, bool take,
                                                  const topk_candidate& c, std::uint64_t* counter,
                                                  topk_candidate* out, std::uint64_t capacity) {
  const unsigned lane = threadIdx.x % 32;
  const unsigned taken = __ballot_sync(0xffffffffu, take);
  if (taken == 0) return;
  const unsigned leader = __ffs(taken) - 1;
  unsigned first = 0;
  if (lane == leader) first = atomicAdd(&stage.count, static_cast<unsigned>(__popc(taken)));
  first = __shfl_sync(0xffffffffu, first, leader);
  if (!take) return;
  const unsigned slot = first + __popc(taken & ((1u << lane) - 1));
  if (slot < topk_stage_size) {
    stage.items[slot] = c;
    return;
  }
  const unsigned long long g = atomicAdd(reinterpret_cast<unsigned long long*>(counter), 1ull);
  if (g < capacity) out[g] = c;
}

// The whole block calls it once, after its last append.
__device__ __forceinline__ void topk_stage_flush(topk_stage& stage, std::uint64_t* counter,
                                                 topk_candidate* out, std::uint64_t capacity) {
  __syncthreads();
  const unsigned staged = min(stage.count, static_cast<unsigned>(topk_stage_size));
  if (threadIdx.x == 0 && staged != 0)
    stage.first = atomicAdd(reinterpret_cast<unsigned long long*>(counter),
                            static_cast<unsigned long long>(staged));
  __syncthreads();
  for (unsigned j = threadIdx.x; j < staged; j += blockDim.x) {
    const std::uint64_t g = stage.first + j;
    if (g < capacity) out[g] = stage.items[j];
  }
}

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

// The top 32 bits of the patterns of S elements at even strides of x
// (n >= S): for keys of at most 4 bytes the whole pattern.
template <class T>
__global__ void topk_sample_gather_kernel(const T* __restrict__ x, std::uint64_t n, bool largest,
                                          int shift, int samples, std::uint32_t* __restrict__ out) {
  const int j = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (j >= samples) return;
  const T v = x[std::uint64_t(j) * n / std::uint64_t(samples) + n / (2 * samples)];
  out[j] = static_cast<std::uint32_t>(topk_pattern(v, largest) >> shift);
}

// Keeps the elements whose pattern is at least the pivot's top bits.
template <class T>
__global__ void __launch_bounds__(topk_select_threads)
    topk_select_filter_kernel(topk_select_source<T> src, int shift,
                              const std::uint32_t* __restrict__ pivot,
                              topk_select_state* __restrict__ state,
                              topk_candidate* __restrict__ buffer, std::uint64_t capacity) {
  __shared__ topk_stage stage;
  const topk_select_state s = *state;  // not from the buffer yet
  if (s.done) return;
  if (threadIdx.x == 0) stage.count = 0;
  __syncthreads();
  const std::uint64_t at_least = std::uint64_t{*pivot} << shift;
  topk_for_each(src, s, [&](bool valid, std::uint64_t u, std::uint64_t i) {
    topk_stage_append(stage, valid && u >= at_least,
                      topk_candidate{u, static_cast<std::int64_t>(i)}, &state->filtered, buffer,
                      capacity);
  });
  topk_stage_flush(stage, &state->filtered, buffer, capacity);
}

template <class T>
__global__ void topk_select_filter_done_kernel(topk_select_state* state, std::uint64_t k,
                                               std::uint64_t capacity, std::uint64_t threshold) {
  topk_select_state s = *state;
  if (s.done || s.filtered < k || s.filtered > capacity) return;
  s.from_buffer = 1;
  s.bucket = s.filtered;
  s.done = s.bucket <= threshold || s.bucket == k;
  *state = s;
}

template <class T>
__global__ void __launch_bounds__(topk_select_threads)
    topk_select_histogram_kernel(topk_select_source<T> src, int value_bits, int index_bits,
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
  const unsigned lane = threadIdx.x % 32;
  topk_for_each(src, s, [&](bool valid, std::uint64_t u, std::uint64_t i) {
    const std::uint64_t r = src.n - 1 - i;
    const bool counted = valid && topk_against_bucket(u, r, s, value_bits, index_bits) == 0;
    const unsigned digit = static_cast<unsigned>((pass.field == 0 ? u : r) >> pass.shift) & mask;
    // A warp whose counted lanes share one digit (keys alike in their top
    // bits) adds once; otherwise each lane adds its own.
    const unsigned lanes = __ballot_sync(0xffffffffu, counted);
    if (lanes == 0) return;
    const unsigned leader = __ffs(lanes) - 1;
    const unsigned first = __shfl_sync(0xffffffffu, digit, leader);
    if (__all_sync(0xffffffffu, !counted || digit == first)) {
      if (lane == leader) atomicAdd(&mine[first], static_cast<unsigned>(__popc(lanes)));
    } else if (counted) {
      atomicAdd(&mine[digit], 1u);
    }
  });
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
    topk_select_compact_kernel(topk_select_source<T> src, int value_bits, int index_bits,
                               topk_select_state* __restrict__ state,
                               topk_candidate* __restrict__ out, std::uint64_t capacity) {
  __shared__ topk_stage stage;
  const topk_select_state s = *state;
  if (threadIdx.x == 0) stage.count = 0;
  __syncthreads();
  topk_for_each(src, s, [&](bool valid, std::uint64_t u, std::uint64_t i) {
    const bool take =
        valid && topk_against_bucket(u, src.n - 1 - i, s, value_bits, index_bits) >= 0;
    topk_stage_append(stage, take, topk_candidate{u, static_cast<std::int64_t>(i)},
                      &state->candidates, out, capacity);
  });
  topk_stage_flush(stage, &state->candidates, out, capacity);
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
// With the pre-filter the passes read only its buffer, so they may go on
// to a smaller bucket (and a smaller sort).
inline constexpr std::uint64_t topk_select_filtered_threshold = std::uint64_t{1} << 12;

// The pre-filter's sample (at most topk_block_max_cols: one block of
// topk_rows_block_kernel finds its largest) and the arrays it is for.
inline constexpr int topk_sample_size = 4096;
inline constexpr std::uint64_t topk_sample_min_n = std::uint64_t{1} << 20;
inline constexpr std::uint64_t topk_sample_max_rank = 64;

// How the radix select runs; the defaults are the production path, the
// other values test hooks (and the ladder's rung without the pre-filter).
struct topk_select_tuning {
  std::uint64_t threshold = topk_select_threshold;  // stop the digit passes at this bucket size
  std::uint64_t filtered_threshold = topk_select_filtered_threshold;  // ... with the pre-filter
  std::uint64_t sample_min_n = topk_sample_min_n;  // pre-filter arrays of at least this many
  std::uint64_t sample_rank = 0;             // the pivot is the m-th largest sample; 0: from k
  std::uint64_t filter_capacity = 0;         // the pre-filter's buffer; 0: from the pivot's rank
  topk_select_state* final_state = nullptr;  // device memory the last state is copied to
};

// The pivot's rank m among the samples (0: no pre-filter): about 8 k S / n
// + 3, so that the count at or above it (m times n / S on average, with a
// relative spread of 1 / sqrt(m)) falls below k only with a small chance.
inline std::uint64_t topk_sample_rank(std::uint64_t n, std::uint64_t k) {
  const std::uint64_t per_sample = n / topk_sample_size;
  const std::uint64_t m = ceil_div(8 * k, per_sample) + 3;
  return m <= topk_sample_max_rank ? m : 0;
}

// Enqueues the top k of x[0, n) by radix select (the steps above).
template <class T>
void topk_radix_select(const T* x, std::uint64_t n, std::uint64_t k, bool largest, T* values,
                       std::int64_t* indices, stream_t stream,
                       const topk_select_tuning& tuning = {}, const char* algorithm = "topk") {
  if (n == 0 || k == 0) return;
  std::uint64_t threshold = tuning.threshold;
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
  const bool trivial = n <= threshold || k == n;
  if (trivial) pass_count = 0;
  // 2.'s choice: the pivot's rank m (0: no pre-filter) and the buffer's
  // capacity. Keys of 1 or 2 bytes tie too often for it, unless a test asks.
  std::uint64_t rank = 0, filter_capacity = 0;
  if (!trivial && n >= tuning.sample_min_n && n >= std::uint64_t(topk_sample_size) &&
      (sizeof(T) >= 4 || tuning.sample_rank != 0)) {
    rank = tuning.sample_rank != 0 ? tuning.sample_rank : topk_sample_rank(n, k);
    rank = std::min<std::uint64_t>(rank, topk_block_max_k);
    filter_capacity = tuning.filter_capacity != 0 ? tuning.filter_capacity
                                                  : 4 * rank * ceil_div(n, topk_sample_size);
    filter_capacity = std::min(filter_capacity, n);
    threshold = std::min(threshold, tuning.filtered_threshold);
  }
  const std::uint64_t capacity = std::min(n, k + threshold);
  const std::size_t hist_bytes =
      std::size_t(pass_count) * topk_select_digits * sizeof(unsigned long long);
  const scratch_buffer work(sizeof(topk_select_state) + hist_bytes, stream);
  auto* state = work.get<topk_select_state>();
  auto* hist =
      reinterpret_cast<unsigned long long*>(work.get<unsigned char>() + sizeof(topk_select_state));
  const scratch_buffer candidate_buffer(capacity * sizeof(topk_candidate), stream);
  auto* candidates = candidate_buffer.get<topk_candidate>();
  const scratch_buffer filter_buffer(filter_capacity * sizeof(topk_candidate), stream);
  const topk_select_source<T> src{x, n, largest, filter_buffer.get<topk_candidate>()};

  // 1.
  launch("topk_select_init_kernel", algorithm, &topk_select_init_kernel<T>, {1, 1, 0, stream},
         state, n, k, threshold);
  if (hist_bytes > 0) GPUPRIM_CUDA_CHECK(cudaMemsetAsync(hist, 0, hist_bytes, stream), algorithm);
  // A grid of a few blocks per SM, and enough that no warp counts 2^32.
  const unsigned blocks = static_cast<unsigned>(std::max<std::uint64_t>(
      std::min<std::uint64_t>(ceil_div(n, topk_select_threads * topk_select_unroll),
                              std::uint64_t(current_multiprocessor_count()) * 8),
      ceil_div(n, std::uint64_t{1} << 31)));
  // 2.
  if (rank != 0) {
    constexpr int samples = topk_sample_size;
    const int shift = std::max(0, value_bits - 32);
    // The m best samples' indices, the samples' patterns, the m best.
    const scratch_buffer sample_buffer(
        rank * sizeof(std::int64_t) + (samples + rank) * sizeof(std::uint32_t), stream);
    auto* top_index = sample_buffer.get<std::int64_t>();
    auto* sample = reinterpret_cast<std::uint32_t*>(top_index + rank);
    auto* top = sample + samples;
    launch("topk_sample_gather_kernel", algorithm, &topk_sample_gather_kernel<T>,
           {samples / 256, 256, 0, stream}, x, n, largest, shift, samples, sample);
    launch("topk_rows_block_kernel", algorithm, &topk_rows_block_kernel<std::uint32_t>,
           {1, topk_block_threads, 0, stream}, static_cast<const std::uint32_t*>(sample),
           std::uint64_t(samples), std::uint64_t(samples), rank, true,
           static_cast<int>(std::bit_width(unsigned(samples - 1))), top, rank, top_index, rank);
    launch("topk_select_filter_kernel", algorithm, &topk_select_filter_kernel<T>,
           {blocks, topk_select_threads, 0, stream}, src, shift,
           static_cast<const std::uint32_t*>(top + (rank - 1)), state,
           filter_buffer.get<topk_candidate>(), filter_capacity);
    launch("topk_select_filter_done_kernel", algorithm, &topk_select_filter_done_kernel<T>,
           {1, 1, 0, stream}, state, k, filter_capacity, threshold);
  }
  // 3.
  for (int p = 0; p < pass_count; ++p) {
    launch("topk_select_histogram_kernel", algorithm, &topk_select_histogram_kernel<T>,
           {blocks, topk_select_threads, 0, stream}, src, value_bits, index_bits,
           static_cast<const topk_select_state*>(state), passes[p],
           hist + std::size_t(p) * topk_select_digits);
    launch("topk_select_choose_kernel", algorithm, &topk_select_choose_kernel<T>,
           {1, topk_select_digits, 0, stream}, state,
           static_cast<const unsigned long long*>(hist + std::size_t(p) * topk_select_digits),
           passes[p], value_bits, index_bits, threshold);
  }
  // 4.
  const unsigned fill_blocks =
      static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(capacity, 256), 1u << 12));
  launch("topk_select_fill_kernel", algorithm, &topk_select_fill_kernel<T>,
         {fill_blocks, 256, 0, stream}, candidates, capacity);
  launch("topk_select_compact_kernel", algorithm, &topk_select_compact_kernel<T>,
         {blocks, topk_select_threads, 0, stream}, src, value_bits, index_bits, state, candidates,
         capacity);
  // 5.
  cuda_merge_sort_into(candidates, static_cast<order_no_value*>(nullptr), capacity,
                       topk_candidate_before{}, stream);
  const unsigned write_blocks =
      static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(k, 256), 1u << 12));
  launch("topk_select_write_kernel", algorithm, &topk_select_write_kernel<T>,
         {write_blocks, 256, 0, stream}, x, static_cast<const topk_candidate*>(candidates), k,
         values, indices);
  if (tuning.final_state) {
    GPUPRIM_CUDA_CHECK(cudaMemcpyAsync(tuning.final_state, state, sizeof(topk_select_state),
                                       cudaMemcpyDeviceToDevice, stream),
                       algorithm);
  }
}

}  // namespace gpuprim::cuda_impl
