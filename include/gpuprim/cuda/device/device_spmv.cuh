// Device-wide sparse matrix-vector product y = alpha A x + beta y (CSR),
// the host driver: the kernel chosen per matrix (choose_spmv_kernel in
// gpuprim/sparse.hpp), the row groups' lanes and the tuner's grid, the
// merge paths' scratch and launches, the row statistics. The kernels and
// the shape of their algorithm: cuda/device/spmv/kernels.cuh and
// spmv/hot_columns.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/cuda/device/spmv/hot_columns.cuh"
#include "gpuprim/cuda/device/spmv/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/detail/sparse/spmv.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// Blocks of a grid-stride kernel: enough to fill the device (blocks_per_sm
// per SM if positive and resident, else all that are resident), no more
// than the work needs.
template <class Kernel>
unsigned grid_for(Kernel kernel, std::size_t threads_of_work, int blocks_per_sm = 0) {
  const std::size_t needed =
      std::max<std::size_t>(1, (threads_of_work + spmv_threads - 1) / spmv_threads);
  const std::size_t resident = persistent_grid_size(kernel, spmv_threads, blocks_per_sm);
  return static_cast<unsigned>(std::min(needed, std::max<std::size_t>(1, resident)));
}

// Calls f(std::integral_constant<int, G>{}) for lanes G in {1, 2, ..., 32},
// or G = staged_group (0) for the staged-rows strategy.
template <class F>
void with_lanes(int lanes, F&& f) {
  switch (lanes) {
    case staged_group:
      return f(std::integral_constant<int, staged_group>{});
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
                       stream_t stream, int blocks_per_sm = 0) {
  auto kernel = spmv_row_groups<G, Op, T, Epilogue>;
  const unsigned grid = grid_for(kernel, row_threads<G>(A.rows), blocks_per_sm);
  report_launch_to_tuner(kernel, spmv_threads, 0, grid);
  launch("spmv_row_groups", algorithm, kernel, {dim3(grid), dim3(spmv_threads), 0, stream}, A, x,
         epilogue);
}

template <class T, class I>
void launch_merge_path(T alpha, const device_csr_view<T, I>& A, const T* x, T beta, T* y,
                       stream_t stream) {
  const std::int64_t rows = static_cast<std::int64_t>(A.rows);
  const std::int64_t nnz = static_cast<std::int64_t>(A.nnz());
  const std::int64_t tiles = (rows + nnz + merge_tile - 1) / merge_tile;
  // Scratch: the tiles' corners (tiles + 1 pairs), then their carried rows
  // and sums (8-byte slots first, so every part stays aligned).
  const detail::scratch_buffer scratch(
      (2 * (tiles + 1) + tiles) * sizeof(std::int64_t) + tiles * sizeof(T), stream);
  auto* tile_corners = scratch.get<std::int64_t>();
  auto* carry_rows = tile_corners + 2 * (tiles + 1);
  auto* carry_values = reinterpret_cast<T*>(carry_rows + tiles);
  launch("spmv_merge_path_partition", "spmv", spmv_merge_path_partition<I>,
         {dim3(static_cast<unsigned>((tiles + 1 + spmv_threads - 1) / spmv_threads)),
          dim3(spmv_threads), 0, stream},
         tiles, A.row_offsets.data(), rows, nnz, tile_corners);
  launch("spmv_merge_path", "spmv", spmv_merge_path<T, I>,
         {dim3(static_cast<unsigned>(tiles)), dim3(spmv_threads), 0, stream}, rows, nnz,
         A.row_offsets.data(), A.col_indices.data(), A.values.data(), x, alpha, beta, y,
         tile_corners, carry_rows, carry_values);
  launch("spmv_merge_path_fixup", "spmv", spmv_merge_path_fixup<T>,
         {dim3(static_cast<unsigned>((tiles + spmv_threads - 1) / spmv_threads)),
          dim3(spmv_threads), 0, stream},
         tiles, rows, carry_rows, carry_values, alpha, y);
}

// The hot-columns SpMV; false (nothing enqueued) when the view has no hot
// columns or their table does not fit this device's shared memory (a
// matrix analysed on a larger GPU).
template <class T, class I>
bool launch_merge_path_hot(T alpha, const device_csr_view<T, I>& A, const T* x, T beta, T* y,
                           stream_t stream) {
  const std::int64_t rows = static_cast<std::int64_t>(A.rows);
  const std::int64_t nnz = static_cast<std::int64_t>(A.nnz());
  const std::int64_t n_hot = static_cast<std::int64_t>(A.hot.columns.size());
  if (n_hot == 0 || A.hot.col_indices.size() != A.nnz()) return false;
  const std::int64_t slots = (n_hot + 3) / 4 * 4;
  const std::size_t shared = detail::sparse::hot_shared_bytes<T>(static_cast<std::size_t>(slots));
  int device = 0, optin = 0;
  GPUPRIM_CUDA_CHECK(cudaGetDevice(&device), "spmv");
  GPUPRIM_CUDA_CHECK(
      cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device), "spmv");
  if (shared > static_cast<std::size_t>(optin)) return false;
  // 16-byte loads of the streams where both start 16-byte aligned
  // (device allocations do; a view into the middle of an array may not).
  const bool aligned = reinterpret_cast<std::uintptr_t>(A.hot.col_indices.data()) % 16 == 0 &&
                       reinterpret_cast<std::uintptr_t>(A.values.data()) % 16 == 0;
  auto kernel = aligned ? spmv_merge_path_hot<true, T, I> : spmv_merge_path_hot<false, T, I>;
  // Always the device's whole opt-in (the attribute is a maximum): calls
  // with smaller tables, from any thread, never lower what another needs.
  GPUPRIM_CUDA_CHECK(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin), "spmv");
  const std::int64_t tiles = (rows + nnz + hot_tile - 1) / hot_tile;
  // Scratch: the packed table (first: 16-byte aligned), the tiles'
  // corners and carried rows (8-byte slots), then their carried sums.
  const std::size_t table_bytes = (static_cast<std::size_t>(slots) * sizeof(T) + 15) / 16 * 16;
  const detail::scratch_buffer scratch(
      table_bytes + (2 * (tiles + 1) + tiles) * sizeof(std::int64_t) + tiles * sizeof(T), stream);
  auto* hot_x = scratch.get<T>();
  auto* tile_corners = reinterpret_cast<std::int64_t*>(scratch.get<unsigned char>() + table_bytes);
  auto* carry_rows = tile_corners + 2 * (tiles + 1);
  auto* carry_values = reinterpret_cast<T*>(carry_rows + tiles);
  const auto blocks = [](std::int64_t n) {
    return dim3(
        static_cast<unsigned>(std::max<std::int64_t>(1, (n + spmv_threads - 1) / spmv_threads)));
  };
  launch("spmv_merge_path_partition", "spmv", spmv_merge_path_partition<I, hot_tile>,
         {blocks(tiles + 1), dim3(spmv_threads), 0, stream}, tiles, A.row_offsets.data(), rows, nnz,
         tile_corners);
  launch("spmv_hot_gather", "spmv", spmv_hot_gather<T, I>,
         {blocks(slots), dim3(spmv_threads), 0, stream}, x, A.hot.columns.data(), n_hot, slots,
         hot_x);
  // A persistent grid: one block a SM (the table takes the SM's shared memory).
  const unsigned grid = static_cast<unsigned>(
      std::min<std::int64_t>(current_multiprocessor_count(),
                             (tiles + spmv_hot_threads / 32 - 1) / (spmv_hot_threads / 32)));
  launch("spmv_merge_path_hot", "spmv", kernel,
         {dim3(grid), dim3(spmv_hot_threads), static_cast<unsigned>(shared), stream}, nnz, tiles,
         A.row_offsets.data(), A.hot.col_indices.data(), A.values.data(), x, alpha, beta, y,
         tile_corners, carry_rows, carry_values, hot_x, static_cast<int>(slots));
  launch("spmv_merge_path_fixup", "spmv", spmv_merge_path_fixup<T>,
         {blocks(tiles), dim3(spmv_threads), 0, stream}, tiles, rows, carry_rows, carry_values,
         alpha, y);
  return true;
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class I>
csr_row_stats cuda_row_stats(std::size_t rows, const I* offsets, stream_t stream) {
  csr_row_stats s;
  s.known = true;
  s.rows = rows;
  if (rows == 0) return s;
  const scratch_buffer out(2 * sizeof(unsigned long long), stream);
  fill_bytes(out.get(), 0, 2 * sizeof(unsigned long long), stream);
  auto kernel = cuda_impl::spmv_row_stats<I>;
  cuda_impl::launch(
      "spmv_row_stats", "spmv", kernel,
      {dim3(cuda_impl::grid_for(kernel, rows)), dim3(cuda_impl::spmv_threads), 0, stream}, rows,
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
  if (choice.kernel == spmv_kernel::hot_columns &&
      cuda_impl::launch_merge_path_hot(alpha, A, x, beta, y, stream)) {
    return;
  }
  if (choice.kernel == spmv_kernel::merge_path || choice.kernel == spmv_kernel::hot_columns) {
    cuda_impl::launch_merge_path(alpha, A, x, beta, y, stream);
    return;
  }
  const cuda_impl::csr_device_operator<T, I> op{A.rows, A.row_offsets.data(),
                                                  A.col_indices.data(), A.values.data()};
  const cuda_impl::axpby_epilogue<T> epilogue{alpha, beta, y};
  // The tuner's "spmv" space (src/tune/config.cpp), keyed by rows: blocks
  // per SM of the row-group kernels' grid (0: all resident).
  const int blocks_per_sm =
      tuning::choose(tuning::algorithm::spmv, tuning::element_type_of<T>(), A.rows).choice[0];
  cuda_impl::with_lanes(choice.lanes, [&](auto g) {
    cuda_impl::launch_row_groups<decltype(g)::value>("spmv", op, x, epilogue, stream,
                                                       blocks_per_sm);
  });
}

}  // namespace gpuprim::detail
