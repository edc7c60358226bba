// Device-wide batched argsort (gp::argsort_batched, gpuprim/sort.hpp):
// for each of `rows` runs ("rows") of `cols` keys, the positions (int64,
// within the row) that sort it stably, and optionally the sorted keys, as
// numpy.argsort(kind="stable") along the last axis.
//
// Shape of the algorithm (read top to bottom):
//  1. positions[i] = i for every element (fill_positions).
//  2. One radix sort of all keys with their positions as values: every key
//     is now in its global order, equal keys in input order (the radix sort
//     is stable).
//  3. Each sorted position's row, position / cols (row_of_positions), and
//     a stable radix sort of the positions by their row, on the row's
//     bits only: the rows come back together, each row's positions still
//     in key order.
//  4. A gather: keys_out[i] = in[position], indices[i] = position minus
//     its row's start (gather_sorted_rows).
// Four passes over n keys plus two radix sorts, whatever the row length:
// the batched sorting networks (sort_batched) are faster for keys alone;
// this is the form with positions, and for any row length.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/sort/argsort_batched.hpp"
#include "gpuprim/detail/sort/sort.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int argsort_threads = 256;

// (The kernels are templates so that every file including this header
// shares one definition of each.)
template <class Index>
__global__ void __launch_bounds__(argsort_threads)
    fill_positions(Index* positions, std::uint64_t n) {
  const std::uint64_t i = blockIdx.x * std::uint64_t(argsort_threads) + threadIdx.x;
  if (i < n) positions[i] = static_cast<Index>(i);
}

template <class Index>
__global__ void __launch_bounds__(argsort_threads)
    row_of_positions(const Index* positions, std::uint64_t* rows, std::uint64_t n,
                     std::uint64_t cols) {
  const std::uint64_t i = blockIdx.x * std::uint64_t(argsort_threads) + threadIdx.x;
  if (i < n) rows[i] = static_cast<std::uint64_t>(positions[i]) / cols;
}

// keys[i] = in[positions[i]] (when keys is not null); indices[i] =
// positions[i] minus the start of i's row.
template <class K>
__global__ void __launch_bounds__(argsort_threads)
    gather_sorted_rows(const K* in, const std::int64_t* positions, K* keys, std::int64_t* indices,
                       std::uint64_t n, std::uint64_t cols) {
  const std::uint64_t i = blockIdx.x * std::uint64_t(argsort_threads) + threadIdx.x;
  if (i >= n) return;
  const std::int64_t p = positions[i];
  if (keys) keys[i] = in[p];
  indices[i] = p - static_cast<std::int64_t>(i / cols * cols);
}

inline launch_shape elementwise_shape(std::uint64_t n, stream_t stream) {
  return {dim3(static_cast<unsigned>(ceil_div(n, argsort_threads))), dim3(argsort_threads), 0,
          stream};
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class K>
void cuda_argsort_batched(const K* in, K* keys_out, std::int64_t* indices, std::size_t rows,
                          std::size_t cols, sort_order order, stream_t stream) {
  using cuda_impl::elementwise_shape;
  using cuda_impl::launch;
  const std::size_t n = rows * cols;
  if (n == 0) return;
  // 1-2. Keys with their global positions, sorted.
  const scratch_buffer iota(n * sizeof(std::int64_t), stream);
  launch("fill_positions", "argsort_batched", cuda_impl::fill_positions<std::int64_t>,
         elementwise_shape(n, stream), iota.get<std::int64_t>(), n);
  const scratch_buffer sorted_keys(rows == 1 && keys_out ? 0 : n * sizeof(K), stream);
  K* keys = rows == 1 && keys_out ? keys_out : sorted_keys.get<K>();
  const scratch_buffer positions(rows == 1 ? 0 : n * sizeof(std::int64_t), stream);
  std::int64_t* by_key = rows == 1 ? indices : positions.get<std::int64_t>();
  cuda_radix_sort<K>(in, keys, iota.get<std::int64_t>(), by_key,
                     make_radix_sort_plan<K>(n, order, key_bits{}, 8, "argsort_batched"), stream);
  if (rows == 1) return;  // the positions are the indices
  // 3. Stable by row.
  const scratch_buffer row_keys(2 * n * sizeof(std::uint64_t), stream);
  std::uint64_t* row = row_keys.get<std::uint64_t>();
  launch("row_of_positions", "argsort_batched", cuda_impl::row_of_positions<std::int64_t>,
         elementwise_shape(n, stream), by_key, row, n, cols);
  const int bits = std::max(1, static_cast<int>(std::bit_width(rows - 1)));
  std::int64_t* by_row = iota.get<std::int64_t>();  // free again
  cuda_radix_sort<std::uint64_t>(
      row, row + n, by_key, by_row,
      make_radix_sort_plan<std::uint64_t>(n, sort_order::ascending, key_bits{0, bits}, 8,
                                          "argsort_batched"),
      stream);
  // 4. Keys and in-row indices.
  launch("gather_sorted_rows", "argsort_batched", cuda_impl::gather_sorted_rows<K>,
         elementwise_shape(n, stream), in, by_row, keys_out, indices, n, cols);
}

}  // namespace gpuprim::detail
