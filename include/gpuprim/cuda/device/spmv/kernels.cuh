// Device-wide sparse matrix-vector product y = alpha A x + beta y (CSR),
// the kernels of sections 1 and 2 below and the row statistics of a device
// matrix; section 3's are in spmv/hot_columns.cuh. The host driver that
// launches them (a kernel chosen per matrix: choose_spmv_kernel in
// gpuprim/sparse.hpp) is cuda/device/device_spmv.cuh.
//
// Shape of the algorithm:
//  1. row_groups (row_per_thread and subwarp): a group of G lanes (G = 1,
//     2, ..., 32, a power of two near the mean row length) owns a row; its
//     lanes read the row's entries G at a time, so a warp's loads of
//     values and column indices are contiguous, and fold their sums with
//     G - 1 shuffles. Groups walk rows in a grid-stride loop over a grid
//     sized to the resident blocks. The epilogue is a functor (row, A x of
//     the row) so the solvers fuse their vector updates and dot products
//     into the same pass (device_solve.cuh).
//  2. merge_path (very uneven rows): the rows + nnz "items" (row ends and
//     nonzeros, merged in order) are cut into equal tiles of 256 threads x
//     8 items, so a row of 10^5 entries costs what 10^5 short rows cost.
//     Each thread finds its start by a binary search along its merge-path
//     diagonal, walks its items, and writes every row it finishes except
//     the first; the threads' open-row sums are combined by a segmented
//     scan in the block, which completes each thread's first row. A row
//     that began in an earlier tile gets its earlier part from
//     merge_path_fixup, which adds the tiles' carried sums in tile order
//     (no floating-point atomics: the result is run-to-run deterministic).
//  3. hot_columns (a matrix analysed by prepare_spmv, large, uneven and with
//     skewed columns): the merge path again, over tiles of one warp (32 x 8
//     items, no block barrier), walked by the warps of persistent blocks
//     of 1024 threads, one a SM. Each block first copies x of the matrix's
//     hottest columns (packed by spmv_hot_gather, in 16-byte vectors) into
//     shared memory, all that the SM has beside the warps' stages; the
//     analysis recoded those columns' indices as flag | slot, so their
//     gathers read shared memory. The bound it attacks: each 4-byte gather
//     of x that misses L1 is a 32-byte L2 sector (the merge path is
//     L2-bound on R-MAT, not DRAM-bound); the values and column indices
//     are read with L1::no_allocate so that the little L1 left keeps x,
//     in 16-byte groups of 4 entries where both arrays start 16-byte
//     aligned (one block a SM is half the warps of full occupancy: each
//     lane needs all its tile's loads in flight at once; scalar loads
//     otherwise). Carried sums and their fixup as in 2.
//  4. x is read through the read-only cache (__ldg); values and column
//     indices are streamed once.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/block/block_sum_by_key.cuh"
#include "gpuprim/detail/sparse/spmv.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int spmv_threads = 256;

// ---- operators: one row of A times x, by a group of G lanes -------------------

template <class T, class I>
struct csr_device_operator {
  std::size_t rows;
  const I* offsets;
  const I* cols;
  const T* values;

  // The group's partial of row `row` (lane `lane` of G); the caller folds.
  template <int G>
  __device__ __forceinline__ T row_partial(std::size_t row, int lane, const T* x) const {
    const I begin = __ldg(offsets + row);
    const I end = __ldg(offsets + row + 1);
    T sum = 0;
    for (I k = begin + lane; k < end; k += G)
      sum += __ldg(values + k) * __ldg(x + __ldg(cols + k));
    return sum;
  }
  // The sum of the row's entries on the diagonal (0 when there is none).
  __device__ T diagonal(std::size_t row) const {
    return detail::sparse::csr_diagonal(offsets, cols, values, row);
  }
};

// A row-major dense n x n matrix with leading dimension ld.
template <class T>
struct dense_device_operator {
  std::size_t rows;
  const T* data;
  std::size_t ld;

  template <int G>
  __device__ __forceinline__ T row_partial(std::size_t row, int lane, const T* x) const {
    const T* a = data + row * ld;
    T sum = 0;
    for (std::size_t c = lane; c < rows; c += G)
      sum += __ldg(a + c) * __ldg(x + c);
    return sum;
  }
  __device__ T diagonal(std::size_t row) const { return data[row * ld + row]; }
};

template <int G, class T>
__device__ __forceinline__ T fold_group(T sum) {
#pragma unroll
  for (int m = G / 2; m > 0; m /= 2)
    sum += __shfl_xor_sync(0xffffffffu, sum, m);
  return sum;
}

// ---- 1. row groups --------------------------------------------------------------

// The plain SpMV epilogue.
template <class T>
struct axpby_epilogue {
  T alpha;
  T beta;
  T* y;
  __device__ __forceinline__ void operator()(std::size_t row, T ax) const {
    y[row] = beta == T(0) ? alpha * ax : alpha * ax + beta * y[row];
  }
};

// Threads a grid needs for `rows` rows with groups of G lanes (the staged
// strategy, G = 0, has a lane per row).
template <int G>
constexpr std::size_t row_threads(std::size_t rows) {
  return G == 0 ? rows : rows * G;
}

// The G of the staged-rows strategy (spmv_kernel::staged_rows): a warp owns
// 32 consecutive rows, one per lane.
inline constexpr int staged_group = 0;
// Entries of a warp's 32 rows staged at once (8 per lane): chunks of rows
// with more entries fall back to a warp per row.
inline constexpr int staged_entries = 256;

// Staged rows, for short rows (mean length up to 8): a warp reads the
// entries of its 32 rows as one contiguous run, 8 independent loads per
// lane, so every lane is busy and many loads are in flight at once (a
// group of G lanes per row leaves lanes idle on a row's last pass and
// waits on a chain offsets -> entries -> x per row). The products go to
// shared memory; each lane then sums its own row's products in order.
template <class T, class I, class RowDone>
__device__ __forceinline__ void for_each_staged_row(const csr_device_operator<T, I>& A, const T* x,
                                                    RowDone row_done) {
  constexpr int warps = spmv_threads / 32;
  constexpr int per_lane = staged_entries / 32;
  __shared__ T stage[warps][staged_entries];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T* products = stage[warp];
  const std::size_t chunks = (A.rows + 31) / 32;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * warps;
  for (std::size_t chunk = static_cast<std::size_t>(blockIdx.x) * warps + warp; chunk < chunks;
       chunk += stride) {
    const std::size_t row = chunk * 32 + lane;
    // Row ends, one coalesced load; a row's begin is the previous lane's end.
    const I end = __ldg(A.offsets + (row < A.rows ? row + 1 : A.rows));
    const I chunk_begin = __ldg(A.offsets + chunk * 32);
    I begin = __shfl_up_sync(0xffffffffu, end, 1);
    if (lane == 0) begin = chunk_begin;
    const I chunk_end = __shfl_sync(0xffffffffu, end, 31);
    const I count = chunk_end - chunk_begin;
    T sum = 0;
    if (count <= staged_entries) {
      T v[per_lane];
      I c[per_lane];
#pragma unroll
      for (int j = 0; j < per_lane; ++j) {
        const I k = lane + j * 32;
        if (k < count) {
          v[j] = __ldg(A.values + chunk_begin + k);
          c[j] = __ldg(A.cols + chunk_begin + k);
        }
      }
#pragma unroll
      for (int j = 0; j < per_lane; ++j) {
        const I k = lane + j * 32;
        if (k < count) products[k] = v[j] * __ldg(x + c[j]);
      }
      __syncwarp();
      for (I k = begin - chunk_begin; k < end - chunk_begin; ++k)
        sum += products[k];
      __syncwarp();  // the next chunk overwrites the products
    } else {
      for (int r = 0; r < 32; ++r) {
        const I row_begin = __shfl_sync(0xffffffffu, begin, r);
        const I row_end = __shfl_sync(0xffffffffu, end, r);
        T part = 0;
        for (I k = row_begin + lane; k < row_end; k += 32)
          part += __ldg(A.values + k) * __ldg(x + __ldg(A.cols + k));
        part = fold_group<32>(part);
        if (lane == r) sum = part;
      }
    }
    if (row < A.rows) row_done(row, sum);
  }
}

template <class Op>
inline constexpr bool is_csr_operator = false;
template <class T, class I>
inline constexpr bool is_csr_operator<csr_device_operator<T, I>> = true;

// Calls row_done(row, A x of the row) for every row: in lane 0 of the
// row's group of G lanes, groups walking rows in a grid-stride loop (whole
// warps iterate together: the folds' shuffles need every lane); or, for
// G = staged_group on a CSR matrix, for_each_staged_row (a warp per row on
// other operators).
template <int G, class Op, class T, class RowDone>
__device__ __forceinline__ void for_each_row(const Op& A, const T* x, RowDone row_done) {
  if constexpr (G == staged_group) {
    if constexpr (is_csr_operator<Op>) {
      for_each_staged_row(A, x, row_done);
    } else {
      for_each_row<32>(A, x, row_done);
    }
  } else {
    const std::size_t groups = static_cast<std::size_t>(gridDim.x) * (spmv_threads / G);
    const int lane = threadIdx.x % G;
    const std::size_t first =
        (static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x) / G;
    const std::size_t warp_rows = (A.rows + groups - 1) / groups * groups;
    for (std::size_t row = first; row < warp_rows; row += groups) {
      T sum = row < A.rows ? A.template row_partial<G>(row, lane, x) : T(0);
      sum = fold_group<G>(sum);
      if (lane == 0 && row < A.rows) row_done(row, sum);
    }
  }
}

// The staged strategy asks for 5 resident blocks per SM (51 registers
// instead of 62): more warps, more of their loads in flight.
template <int G>
inline constexpr int row_group_min_blocks = G == staged_group ? 5 : 1;

template <int G, class Op, class T, class Epilogue>
__global__ void __launch_bounds__(spmv_threads, row_group_min_blocks<G>)
    spmv_row_groups(Op A, const T* __restrict__ x, Epilogue epilogue) {
  for_each_row<G>(A, x, [&](std::size_t row, T ax) { epilogue(row, ax); });
}

// ---- 2. merge path ------------------------------------------------------------------

inline constexpr int merge_items = 8;
inline constexpr int merge_tile = spmv_threads * merge_items;

// The (row, nonzero) coordinate where diagonal d crosses the merge of the
// row ends offsets[1..rows] with the nonzero indices 0..nnz-1 (a row end
// goes first when it equals the nonzero index: the row is then finished).
template <class I>
__device__ __forceinline__ void merge_path_search(std::int64_t d, const I* offsets,
                                                  std::int64_t rows, std::int64_t nnz,
                                                  std::int64_t& row, std::int64_t& k) {
  std::int64_t lo = d > nnz ? d - nnz : 0;
  std::int64_t hi = d < rows ? d : rows;
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (static_cast<std::int64_t>(__ldg(offsets + mid + 1)) <= d - mid - 1) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  row = lo;
  k = d - lo;
}

// Where each tile's part of the merge path starts: (row, nonzero) of the
// diagonals t * merge_tile, t = 0 .. tiles, a thread per search. Searched
// up front so that a tile's block does not wait on a ~22-step chain of
// dependent loads before its first useful one.
template <class I, int TileItems = merge_tile>
__global__ void __launch_bounds__(spmv_threads)
    spmv_merge_path_partition(std::int64_t tiles, const I* __restrict__ offsets, std::int64_t rows,
                              std::int64_t nnz, std::int64_t* __restrict__ tile_corners) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * spmv_threads + threadIdx.x;
  if (t > tiles) return;
  std::int64_t r, k;
  merge_path_search(std::min<std::int64_t>(rows + nnz, t * TileItems), offsets, rows, nnz, r, k);
  tile_corners[2 * t] = r;
  tile_corners[2 * t + 1] = k;
}

template <class T, class I>
__global__ void __launch_bounds__(spmv_threads)
    spmv_merge_path(std::int64_t rows, std::int64_t nnz, const I* __restrict__ offsets,
                    const I* __restrict__ cols, const T* __restrict__ values,
                    const T* __restrict__ x, T alpha, T beta, T* __restrict__ y,
                    const std::int64_t* __restrict__ tile_corners,
                    std::int64_t* __restrict__ carry_rows, T* __restrict__ carry_values) {
  // The tile's nonzeros (as products with x) and row ends, staged by the
  // whole block with coalesced loads: a thread's own 8 items are
  // contiguous, so reading them straight from memory would make each of a
  // warp's loads touch 32 lines 8 items apart.
  __shared__ T products[merge_tile];
  __shared__ I row_ends[merge_tile + 1];
  __shared__ std::int64_t scan_keys[spmv_threads];
  __shared__ T scan_values[spmv_threads];
  __shared__ std::int64_t warp_keys[spmv_threads / 32];
  __shared__ T warp_values[spmv_threads / 32];

  const std::int64_t total = rows + nnz;
  const std::int64_t tile_start = static_cast<std::int64_t>(blockIdx.x) * merge_tile;
  // The tile's corners on the merge path (spmv_merge_path_partition).
  const std::int64_t r0 = tile_corners[2 * blockIdx.x], k0 = tile_corners[2 * blockIdx.x + 1];
  const std::int64_t r1 = tile_corners[2 * blockIdx.x + 2], k1 = tile_corners[2 * blockIdx.x + 3];
  for (std::int64_t i = threadIdx.x; i < k1 - k0; i += spmv_threads)
    products[i] = __ldg(values + k0 + i) * __ldg(x + __ldg(cols + k0 + i));
  // Ends of rows r0 .. r1 (row r1 may still be open at the tile's end).
  const std::int64_t staged_rows = std::min(r1 - r0 + 1, rows - r0);
  for (std::int64_t i = threadIdx.x; i < staged_rows; i += spmv_threads)
    row_ends[i] = __ldg(offsets + r0 + i + 1);
  __syncthreads();

  // The thread's start: the merge-path search again, within the tile.
  const std::int64_t start = std::min<std::int64_t>(
      total, tile_start + static_cast<std::int64_t>(threadIdx.x) * merge_items);
  const std::int64_t stop = std::min<std::int64_t>(total, start + merge_items);
  std::int64_t lo = std::max<std::int64_t>(0, start - r0 - k1);
  std::int64_t hi = std::min<std::int64_t>(r1 - r0, start - r0 - k0);
  while (lo < hi) {
    const std::int64_t mid = (lo + hi) / 2;
    if (static_cast<std::int64_t>(row_ends[mid]) <= start - (r0 + mid) - 1) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  std::int64_t row = r0 + lo;
  std::int64_t k = start - row;

  // Walk the items: finish rows, sum nonzeros. The first row finished is
  // held back until the sums of the threads before are known.
  std::int64_t first_row = -1;
  T first_sum = 0;
  T sum = 0;
  std::int64_t row_end = row < rows ? static_cast<std::int64_t>(row_ends[row - r0]) : nnz;
  for (std::int64_t item = start; item < stop; ++item) {
    if (row < rows && row_end <= k) {
      if (first_row < 0) {
        first_row = row;
        first_sum = sum;
      } else {
        y[row] = beta == T(0) ? alpha * sum : alpha * sum + beta * y[row];
      }
      sum = 0;
      ++row;
      row_end = row < rows ? static_cast<std::int64_t>(row_ends[row - r0]) : nnz;
    } else {
      sum += products[k - k0];
      ++k;
    }
  }

  // Inclusive segmented scan of (open row, sum) over the block's threads:
  // keys do not decrease, so equal keys are one contiguous run.
  const std::int64_t key = row;
  const T value = block_inclusive_sum_by_key(key, sum, warp_keys, warp_values);
  scan_keys[threadIdx.x] = key;
  scan_values[threadIdx.x] = value;
  __syncthreads();

  if (first_row >= 0) {
    // The sums of earlier threads of this block for the row open at start.
    if (threadIdx.x > 0 && scan_keys[threadIdx.x - 1] == first_row) {
      first_sum = scan_values[threadIdx.x - 1] + first_sum;
    }
    y[first_row] = beta == T(0) ? alpha * first_sum : alpha * first_sum + beta * y[first_row];
  }
  if (threadIdx.x == spmv_threads - 1) {
    carry_rows[blockIdx.x] = key;  // rows: no open row
    carry_values[blockIdx.x] = value;
  }
}

// Adds the tiles' carried sums to the rows they belong to: the first tile of
// each run of equal carried rows sums the run in tile order.
template <class T>
__global__ void __launch_bounds__(spmv_threads)
    spmv_merge_path_fixup(std::int64_t tiles, std::int64_t rows,
                          const std::int64_t* __restrict__ carry_rows,
                          const T* __restrict__ carry_values, T alpha, T* __restrict__ y) {
  const std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * spmv_threads + threadIdx.x;
  if (t >= tiles) return;
  const std::int64_t row = carry_rows[t];
  if (row >= rows || (t > 0 && carry_rows[t - 1] == row)) return;
  T sum = carry_values[t];
  for (std::int64_t u = t + 1; u < tiles && carry_rows[u] == row; ++u)
    sum += carry_values[u];
  y[row] += alpha * sum;
}

// ---- row statistics of a device matrix -------------------------------------------

template <class I>
__global__ void __launch_bounds__(spmv_threads)
    spmv_row_stats(std::size_t rows, const I* __restrict__ offsets,
                   unsigned long long* __restrict__ out) {
  unsigned long long longest = 0, empty = 0;
  for (std::size_t r = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x; r < rows;
       r += static_cast<std::size_t>(gridDim.x) * spmv_threads) {
    const auto len = static_cast<unsigned long long>(offsets[r + 1] - offsets[r]);
    longest = len > longest ? len : longest;
    empty += len == 0;
  }
  for (int m = 16; m > 0; m /= 2) {
    const unsigned long long other = __shfl_xor_sync(0xffffffffu, longest, m);
    longest = other > longest ? other : longest;
    empty += __shfl_xor_sync(0xffffffffu, empty, m);
  }
  if (threadIdx.x % 32 == 0) {
    atomicMax(out, longest);
    atomicAdd(out + 1, empty);
  }
}

}  // namespace gpuprim::cuda_impl
