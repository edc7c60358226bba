// GPU sorts of the package. Keys only: one array through the library's
// radix sort, rows through its batched sorting networks (sort_batched).
// With positions (argsort, and rows of the key types the networks are not
// compiled for): the keys are radix-sorted with their global positions as
// values, then the positions are stably radix-sorted by their row, which
// leaves every row's keys sorted and in place; the positions then give the
// keys (a gather) and each key's index within its row.
#include <bit>

#include "gpu.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/sort.hpp"
#include "gpuprim/sorting_network.hpp"

namespace gpuprim::python::gpu {

namespace {

constexpr int threads = 256;

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>((n + threads - 1) / threads);
}

__global__ void iota_kernel(std::int64_t* out, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(threads) + threadIdx.x;
  if (i < n) out[i] = static_cast<std::int64_t>(i);
}

__global__ void row_of_kernel(const std::int64_t* positions, std::uint64_t* rows, std::size_t n,
                              std::size_t cols) {
  const std::size_t i = blockIdx.x * std::size_t(threads) + threadIdx.x;
  if (i < n) rows[i] = static_cast<std::uint64_t>(positions[i]) / cols;
}

// keys[i] = in[positions[i]]; indices[i] = positions[i] - (i's row start).
template <class K>
__global__ void gather_kernel(const K* in, const std::int64_t* positions, K* keys,
                              std::int64_t* indices, std::size_t n, std::size_t cols) {
  const std::size_t i = blockIdx.x * std::size_t(threads) + threadIdx.x;
  if (i >= n) return;
  const std::int64_t p = positions[i];
  if (keys) keys[i] = in[p];
  if (indices) indices[i] = p - static_cast<std::int64_t>((i / cols) * cols);
}

template <class K>
void sort_typed(const K* in, K* out, std::int64_t* indices, std::size_t rows, std::size_t cols,
                bool descending, stream_t stream) {
  const std::size_t n = rows * cols;
  if (n == 0) return;
  const cuda_backend b = cuda.on(stream);
  const sort_order order = descending ? sort_order::descending : sort_order::ascending;
  if (!indices) {
    if (rows == 1) {
      gpuprim::sort(b, device_span<const K>(in, n), device_span<K>(out, n), order);
      return;
    }
    if constexpr (detail::precompiled_sorting_network<K, sort_less>) {
      detail::copy_device_to_device(out, in, n * sizeof(K), stream);
      if (descending) {
        gpuprim::sort_batched(b, device_span<K>(out, n), cols, sort_greater{});
      } else {
        gpuprim::sort_batched(b, device_span<K>(out, n), cols, sort_less{});
      }
      return;
    }
  }
  // Keys with their global positions.
  const detail::scratch_buffer iota(n * sizeof(std::int64_t), stream);
  const detail::scratch_buffer sorted_keys(rows == 1 && out ? 0 : n * sizeof(K), stream);
  const detail::scratch_buffer positions(n * sizeof(std::int64_t), stream);
  iota_kernel<<<blocks_for(n), threads, 0, stream>>>(iota.get<std::int64_t>(), n);
  detail::check_launch("iota_kernel", "gpuprim python sort");
  K* keys_out = rows == 1 && out ? out : sorted_keys.get<K>();
  std::int64_t* first = rows == 1 ? indices : positions.get<std::int64_t>();
  gpuprim::sort_by_key(b, device_span<const K>(in, n),
                       device_span<const std::int64_t>(iota.get<std::int64_t>(), n),
                       device_span<K>(keys_out, n), device_span<std::int64_t>(first, n), order);
  if (rows == 1) return;
  // Stable by row: each row's positions keep their key order.
  const detail::scratch_buffer row_keys(2 * n * sizeof(std::uint64_t), stream);
  std::uint64_t* row = row_keys.get<std::uint64_t>();
  row_of_kernel<<<blocks_for(n), threads, 0, stream>>>(first, row, n, cols);
  detail::check_launch("row_of_kernel", "gpuprim python sort");
  const int bits = std::max(1, static_cast<int>(std::bit_width(rows - 1)));
  std::int64_t* by_row = iota.get<std::int64_t>();  // free again
  gpuprim::sort_by_key(b, device_span<const std::uint64_t>(row, n),
                       device_span<const std::int64_t>(first, n),
                       device_span<std::uint64_t>(row + n, n), device_span<std::int64_t>(by_row, n),
                       sort_order::ascending, key_bits{0, bits});
  gather_kernel<<<blocks_for(n), threads, 0, stream>>>(in, by_row, out, indices, n, cols);
  detail::check_launch("gather_kernel", "gpuprim python sort");
}

template <class F>
void visit_word(std::size_t bytes, F&& f) {
  if (bytes == 4) {
    f(type_tag<std::uint32_t>{});
  } else {
    f(type_tag<std::uint64_t>{});
  }
}

}  // namespace

void sort(dtype key, const void* in, void* out, std::int64_t* indices, std::size_t rows,
          std::size_t cols, bool descending, stream_t stream) {
  visit_dtype(key, [&]<class T>(type_tag<T>) {
    using K = stored_t<T>;
    sort_typed<K>(static_cast<const K*>(in), static_cast<K*>(out), indices, rows, cols, descending,
                  stream);
  });
}

void sort_by_key(dtype key, std::size_t value_bytes, const void* keys_in, const void* values_in,
                 void* keys_out, void* values_out, std::size_t n, bool descending,
                 stream_t stream) {
  if (n == 0) return;
  visit_dtype(key, [&]<class T>(type_tag<T>) {
    using K = stored_t<T>;
    visit_word(value_bytes, [&]<class V>(type_tag<V>) {
      gpuprim::sort_by_key(cuda.on(stream), device_span<const K>(static_cast<const K*>(keys_in), n),
                           device_span<const V>(static_cast<const V*>(values_in), n),
                           device_span<K>(static_cast<K*>(keys_out), n),
                           device_span<V>(static_cast<V*>(values_out), n),
                           descending ? sort_order::descending : sort_order::ascending);
    });
  });
}

}  // namespace gpuprim::python::gpu
