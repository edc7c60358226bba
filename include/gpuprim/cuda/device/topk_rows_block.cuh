// GPU top-k of short rows (gpuprim::topk_rows with rows of at most
// topk_block_max_cols elements, k at most topk_block_max_k, element types
// of at most 4 bytes): one block per row, the row held in registers, a radix
// select in shared memory.
//
// Each element's composite key is its order pattern (topk_pattern: NaN
// largest, -0.0 == +0.0, inverted for the smallest; 8 * sizeof(T) bits)
// above its index rank (cols - 1 - col, index_bits bits): distinct keys
// whose k largest are the row's top k, ties to the smaller column.
//
// The shape of the algorithm, per block:
//  1. load the row: each thread holds topk_block_items keys, columns
//     threadIdx.x + j * threads (coalesced);
//  2. while more than topk_block_candidates keys are above or in the bucket,
//     and bits of the key are still unknown: count the bucket's keys by
//     their next 8-bit digit (shared-memory integer atomics), suffix-sum the
//     256 counts, and keep the digit where the k-th key lies (the prefix
//     gains it, need drops by the count above it);
//  3. copy every key above or in the bucket into a shared list (at most
//     topk_block_candidates), sentinels after them;
//  4. sort the list descending (bitonic, in shared memory) and write the
//     first k: the value read back from the row, and its column.
#pragma once

#include <cuda_runtime_api.h>

#include <bit>
#include <cstdint>

#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/device/topk_keys.cuh"

namespace gpuprim::cuda_impl {

inline constexpr int topk_block_threads = 256;
inline constexpr int topk_block_items = 16;
inline constexpr std::uint64_t topk_block_max_cols = topk_block_threads * topk_block_items;
inline constexpr int topk_block_candidates = 256;
inline constexpr std::uint64_t topk_block_max_k = 128;
static_assert(topk_block_threads == topk_select_digits, "one thread a digit");

template <class T>
inline constexpr bool topk_block_key = topk_select_key<T> && sizeof(T) <= 4;

template <class T>
__global__ void __launch_bounds__(topk_block_threads)
    topk_rows_block_kernel(const T* __restrict__ x, std::uint64_t cols, std::uint64_t ld,
                           std::uint64_t k, bool largest, int index_bits, T* __restrict__ values,
                           std::uint64_t ldv, std::int64_t* __restrict__ indices,
                           std::uint64_t ldi) {
  __shared__ unsigned at_or_above[topk_select_digits];  // counts <= topk_block_max_cols
  __shared__ std::uint64_t list[topk_block_candidates];
  __shared__ std::uint64_t prefix_s, need_s, total_s;
  __shared__ unsigned listed;
  const int t = threadIdx.x;
  const T* row = x + std::uint64_t{blockIdx.x} * ld;
  const int width_all = 8 * static_cast<int>(sizeof(T)) + index_bits;
  const std::uint64_t rank_top = cols - 1;

  // 1. Keys plus one, so that 0 is free for the sentinels.
  std::uint64_t key[topk_block_items];
#pragma unroll
  for (int j = 0; j < topk_block_items; ++j) {
    const std::uint64_t c = std::uint64_t(t) + std::uint64_t(j) * topk_block_threads;
    key[j] = c < cols ? ((topk_pattern(row[c], largest) << index_bits) | (rank_top - c)) + 1 : 0;
  }
  if (t == 0) {
    prefix_s = 0;
    need_s = k;
    total_s = cols;
    listed = 0;
  }
  __syncthreads();

  // 2.
  int known = 0;
  while (total_s > std::uint64_t(topk_block_candidates) && known < width_all) {
    const int width = min(8, width_all - known);
    const int shift = width_all - known - width;
    const std::uint64_t prefix = prefix_s;
    at_or_above[t] = 0;
    __syncthreads();
    // One atomic a distinct digit a warp: the lanes holding one digit add
    // their count together (a row whose keys share their top bits would
    // otherwise send every key's atomic to one counter).
    const unsigned lane = t % 32;
#pragma unroll
    for (int j = 0; j < topk_block_items; ++j) {
      const std::uint64_t c = key[j] - 1;
      const bool counted = key[j] != 0 && (known == 0 || (c >> (width_all - known)) ==
                                                             (prefix >> (width_all - known)));
      const unsigned digit =
          counted ? static_cast<unsigned>((c >> shift) & ((1u << width) - 1)) : ~0u;
      const unsigned same = __match_any_sync(~0u, digit);
      if (counted && lane == static_cast<unsigned>(__ffs(same) - 1))
        atomicAdd(&at_or_above[digit], static_cast<unsigned>(__popc(same)));
    }
    __syncthreads();
    const unsigned mine = at_or_above[t];
    for (int offset = 1; offset < topk_select_digits; offset *= 2) {
      const unsigned add = t + offset < topk_select_digits ? at_or_above[t + offset] : 0;
      __syncthreads();
      at_or_above[t] += add;
      __syncthreads();
    }
    const std::uint64_t need = need_s;
    const std::uint64_t above = at_or_above[t] - mine;
    __syncthreads();  // every thread has read need_s
    if (t < (1 << width) && above < need && need <= at_or_above[t]) {
      prefix_s = prefix | (std::uint64_t(t) << shift);
      need_s = need - above;
      total_s = k - (need - above) + mine;
    }
    known += width;
    __syncthreads();
  }

  // 3.
  const std::uint64_t prefix = prefix_s;
  for (int j = t; j < topk_block_candidates; j += topk_block_threads)
    list[j] = 0;
  __syncthreads();
#pragma unroll
  for (int j = 0; j < topk_block_items; ++j) {
    if (key[j] == 0) continue;
    const std::uint64_t c = key[j] - 1;
    if (known != 0 && (c >> (width_all - known)) < (prefix >> (width_all - known))) continue;
    const unsigned slot = atomicAdd(&listed, 1u);
    if (slot < topk_block_candidates) list[slot] = key[j];
  }
  __syncthreads();

  // 4. Bitonic sort, descending: each thread orders one pair per step.
  for (int size = 2; size <= topk_block_candidates; size *= 2) {
    for (int stride = size / 2; stride > 0; stride /= 2) {
      for (int p = t; p < topk_block_candidates / 2; p += topk_block_threads) {
        const int lo = 2 * p - (p & (stride - 1));
        const int hi = lo + stride;
        const bool descending = (lo & size) == 0;
        const std::uint64_t a = list[lo], b = list[hi];
        if ((a < b) == descending) {
          list[lo] = b;
          list[hi] = a;
        }
      }
      __syncthreads();
    }
  }
  for (std::uint64_t j = t; j < k; j += topk_block_threads) {
    const std::uint64_t c = list[j] - 1;
    const std::uint64_t col = rank_top - (c & ((std::uint64_t{1} << index_bits) - 1));
    values[std::uint64_t{blockIdx.x} * ldv + j] = row[col];
    indices[std::uint64_t{blockIdx.x} * ldi + j] = static_cast<std::int64_t>(col);
  }
}

// Whether topk_rows_block takes rows of `cols` and this k (one row too: a
// short array's top k in one launch, where the radix select would run
// several kernels for a few thousand elements).
template <class T>
bool topk_block_fits(std::uint64_t rows, std::uint64_t cols, std::uint64_t k) {
  return topk_block_key<T> && rows > 0 && cols <= topk_block_max_cols && k <= topk_block_max_k &&
         rows < (std::uint64_t{1} << 31);
}

// Enqueues the top k of every row (steps above), one block a row.
template <class T>
void topk_rows_block(const T* x, std::uint64_t rows, std::uint64_t cols, std::uint64_t ld,
                     std::uint64_t k, bool largest, T* values, std::uint64_t ldv,
                     std::int64_t* indices, std::uint64_t ldi, stream_t stream,
                     const char* algorithm = "topk_rows") {
  const int index_bits = static_cast<int>(std::bit_width(cols - 1));
  launch("topk_rows_block_kernel", algorithm, &topk_rows_block_kernel<T>,
         {static_cast<unsigned>(rows), topk_block_threads, 0, stream}, x, cols, ld, k, largest,
         index_bits, values, ldv, indices, ldi);
}

}  // namespace gpuprim::cuda_impl
