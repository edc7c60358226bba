// GPU sorts of the package. Keys only: one array through the library's
// radix sort, rows through its batched sorting networks (sort_batched).
// With positions (argsort, and rows of the key types the networks are not
// compiled for): the library's batched argsort (gp::argsort_batched,
// gpuprim/sort.hpp). This file launches nothing itself.
#include "gpu.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/sort.hpp"

namespace gpuprim::python::gpu {

namespace {

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
  // The positions: argsort's result, or scratch beside the sorted keys.
  const detail::scratch_buffer scratch(indices ? 0 : n * sizeof(std::int64_t), stream);
  const device_span<std::int64_t> positions(indices ? indices : scratch.get<std::int64_t>(), n);
  const device_span<const K> keys(in, n);
  if (out) {
    argsort_batched(b, keys, cols, positions, device_span<K>(out, n), order);
  } else {
    argsort_batched(b, keys, cols, positions, order);
  }
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
