// Device-wide sparse matrix-vector product y = alpha A x + beta y (CSR),
// three kernels chosen per matrix (choose_spmv_kernel in gpuprim/sparse.hpp).
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
//  3. x is read through the read-only cache (__ldg); values and column
//     indices are streamed once.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/detail/launch.cuh"
#include "gpuprim/sparse.hpp"

namespace gpuprim::cuda_detail {

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
    T d = 0;
    for (I k = offsets[row]; k < offsets[row + 1]; ++k)
      if (static_cast<std::size_t>(cols[k]) == row) d += values[k];
    return d;
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

template <int G, class Op, class T, class Epilogue>
__global__ void __launch_bounds__(spmv_threads)
    spmv_row_groups(Op A, const T* __restrict__ x, Epilogue epilogue) {
  const std::size_t groups = static_cast<std::size_t>(gridDim.x) * (spmv_threads / G);
  const int lane = threadIdx.x % G;
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x) / G;
  // Whole warps iterate together (the fold's shuffles need every lane).
  const std::size_t warp_rows = (A.rows + groups - 1) / groups * groups;
  for (std::size_t row = first; row < warp_rows; row += groups) {
    T sum = row < A.rows ? A.template row_partial<G>(row, lane, x) : T(0);
    sum = fold_group<G>(sum);
    if (lane == 0 && row < A.rows) epilogue(row, sum);
  }
}

// Blocks of a grid-stride kernel: enough to fill the device, no more than
// the work needs.
template <class Kernel>
unsigned grid_for(Kernel kernel, std::size_t threads_of_work) {
  const std::size_t needed =
      std::max<std::size_t>(1, (threads_of_work + spmv_threads - 1) / spmv_threads);
  const std::size_t resident = persistent_grid_size(kernel, spmv_threads, 0);
  return static_cast<unsigned>(std::min(needed, std::max<std::size_t>(1, resident)));
}

// Calls f(std::integral_constant<int, G>{}) for lanes G in {1, 2, ..., 32}.
template <class F>
void with_lanes(int lanes, F&& f) {
  switch (lanes) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    case 8:
      return f(std::integral_constant<int, 8>{});
    case 16:
      return f(std::integral_constant<int, 16>{});
    default:
      return f(std::integral_constant<int, 32>{});
  }
}

template <int G, class Op, class T, class Epilogue>
void launch_row_groups(const char* algorithm, const Op& A, const T* x, Epilogue epilogue,
                       stream_t stream) {
  auto kernel = spmv_row_groups<G, Op, T, Epilogue>;
  const unsigned grid = grid_for(kernel, A.rows * G);
  launch("spmv_row_groups", algorithm, kernel, {dim3(grid), dim3(spmv_threads), 0, stream}, A, x,
         epilogue);
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

template <class T, class I>
__global__ void __launch_bounds__(spmv_threads)
    spmv_merge_path(std::int64_t rows, std::int64_t nnz, const I* __restrict__ offsets,
                    const I* __restrict__ cols, const T* __restrict__ values,
                    const T* __restrict__ x, T alpha, T beta, T* __restrict__ y,
                    std::int64_t* __restrict__ carry_rows, T* __restrict__ carry_values) {
  __shared__ std::int64_t scan_keys[spmv_threads];
  __shared__ T scan_values[spmv_threads];
  __shared__ std::int64_t warp_keys[spmv_threads / 32];
  __shared__ T warp_values[spmv_threads / 32];

  const std::int64_t total = rows + nnz;
  const std::int64_t start = std::min<std::int64_t>(
      total, (static_cast<std::int64_t>(blockIdx.x) * spmv_threads + threadIdx.x) * merge_items);
  std::int64_t row, k;
  merge_path_search(start, offsets, rows, nnz, row, k);
  const std::int64_t stop = std::min<std::int64_t>(total, start + merge_items);

  // Walk the items: finish rows, sum nonzeros. The first row finished is
  // held back until the sums of the threads before are known.
  std::int64_t first_row = -1;
  T first_sum = 0;
  T sum = 0;
  std::int64_t row_end = row < rows ? static_cast<std::int64_t>(__ldg(offsets + row + 1)) : nnz;
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
      row_end = row < rows ? static_cast<std::int64_t>(__ldg(offsets + row + 1)) : nnz;
    } else {
      sum += __ldg(values + k) * __ldg(x + __ldg(cols + k));
      ++k;
    }
  }

  // Inclusive segmented scan of (open row, sum) over the block's threads:
  // keys do not decrease, so equal keys are one contiguous run.
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  std::int64_t key = row;
  T value = sum;
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const std::int64_t other_key = __shfl_up_sync(0xffffffffu, key, offset);
    const T other_value = __shfl_up_sync(0xffffffffu, value, offset);
    if (lane >= offset && other_key == key) value = other_value + value;
  }
  if (lane == 31) {
    warp_keys[warp] = key;
    warp_values[warp] = value;
  }
  __syncthreads();
  for (int w = warp - 1; w >= 0 && warp_keys[w] == key; --w)
    value = warp_values[w] + value;
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

template <class T, class I>
void launch_merge_path(T alpha, const device_csr_view<T, I>& A, const T* x, T beta, T* y,
                       stream_t stream) {
  const std::int64_t rows = static_cast<std::int64_t>(A.rows);
  const std::int64_t nnz = static_cast<std::int64_t>(A.nnz());
  const std::int64_t tiles = (rows + nnz + merge_tile - 1) / merge_tile;
  const detail::scratch_buffer carry(tiles * (sizeof(std::int64_t) + sizeof(T)), stream);
  auto* carry_rows = carry.get<std::int64_t>();
  auto* carry_values = reinterpret_cast<T*>(carry_rows + tiles);
  launch("spmv_merge_path", "spmv", spmv_merge_path<T, I>,
         {dim3(static_cast<unsigned>(tiles)), dim3(spmv_threads), 0, stream}, rows, nnz,
         A.row_offsets.data(), A.col_indices.data(), A.values.data(), x, alpha, beta, y, carry_rows,
         carry_values);
  launch("spmv_merge_path_fixup", "spmv", spmv_merge_path_fixup<T>,
         {dim3(static_cast<unsigned>((tiles + spmv_threads - 1) / spmv_threads)),
          dim3(spmv_threads), 0, stream},
         tiles, rows, carry_rows, carry_values, alpha, y);
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

}  // namespace gpuprim::cuda_detail

namespace gpuprim::detail {

template <class I>
csr_row_stats cuda_row_stats(std::size_t rows, const I* offsets, stream_t stream) {
  csr_row_stats s;
  s.known = true;
  s.rows = rows;
  if (rows == 0) return s;
  const scratch_buffer out(2 * sizeof(unsigned long long), stream);
  fill_bytes(out.get(), 0, 2 * sizeof(unsigned long long), stream);
  auto kernel = cuda_detail::spmv_row_stats<I>;
  cuda_detail::launch(
      "spmv_row_stats", "spmv", kernel,
      {dim3(cuda_detail::grid_for(kernel, rows)), dim3(cuda_detail::spmv_threads), 0, stream}, rows,
      offsets, out.get<unsigned long long>());
  unsigned long long host[2];
  I nnz = 0;
  copy_to_host(host, out.get(), sizeof host, stream);
  copy_to_host(&nnz, offsets + rows, sizeof nnz, stream);
  synchronize(stream);
  s.max_row = static_cast<std::size_t>(host[0]);
  s.empty_rows = static_cast<std::size_t>(host[1]);
  s.nnz = static_cast<std::size_t>(nnz);
  return s;
}

template <class T, class I>
void cuda_spmv(T alpha, const device_csr_view<T, I>& A, const T* x, T beta, T* y,
               spmv_choice choice, stream_t stream) {
  if (A.rows == 0) return;
  if (choice.kernel == spmv_kernel::merge_path) {
    cuda_detail::launch_merge_path(alpha, A, x, beta, y, stream);
    return;
  }
  const cuda_detail::csr_device_operator<T, I> op{A.rows, A.row_offsets.data(),
                                                  A.col_indices.data(), A.values.data()};
  const cuda_detail::axpby_epilogue<T> epilogue{alpha, beta, y};
  cuda_detail::with_lanes(choice.lanes, [&](auto g) {
    cuda_detail::launch_row_groups<decltype(g)::value>("spmv", op, x, epilogue, stream);
  });
}

}  // namespace gpuprim::detail
