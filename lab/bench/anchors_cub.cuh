// How the CUB anchors call CUB: its two-phase form, call(temp, bytes) with
// temp == nullptr asking for the size of the temporary storage.
#pragma once

#include <cuda_runtime_api.h>

#include <climits>
#include <cstddef>

#include "anchors.hpp"
#include "gpuprim/cuda/support/check.cuh"

namespace gpuprim::bench {

// The storage `call` asks for, allocated (cudaError_t call(void* temp,
// std::size_t& bytes)).
template <class Call>
cub_storage make_cub_storage(Call call) {
  std::size_t bytes = 0;
  GPUPRIM_CUDA_CHECK(call(nullptr, bytes), "cub anchor");
  return cub_storage(bytes);
}

// Enqueues `call` with the storage made for it.
template <class Call>
void run_cub(const cub_storage& storage, Call call) {
  std::size_t bytes = storage.bytes();
  GPUPRIM_CUDA_CHECK(call(storage.data(), bytes), "cub anchor");
}

// CUB picks its offset type from the type of num_items; a user with fewer
// than 2^31 elements passes an int and gets the faster 32-bit offsets:
// call(n) with n an int where it fits, a std::size_t otherwise.
template <class Call>
cudaError_t call_with_cub_size(std::size_t n, Call call) {
  if (n <= static_cast<std::size_t>(INT_MAX)) return call(static_cast<int>(n));
  return call(n);
}

// How cub_span_anchor<T, Kind> calls CUB and names the call, for each Kind;
// each is defined in its family's anchors_cub_<family>.cu, which
// instantiates cub_span_anchor for its types.
template <class T, class Size>
cudaError_t cub_span_call(reduce_op op, void* temp, std::size_t& temp_bytes, const T* in, T* out,
                          Size n, cudaStream_t stream);
template <class T, class Size>
cudaError_t cub_span_call(scan_kind kind, void* temp, std::size_t& temp_bytes, const T* in, T* out,
                          Size n, cudaStream_t stream);
const char* cub_span_name(reduce_op op);
const char* cub_span_name(scan_kind kind);

template <class T, class Kind>
cub_span_anchor<T, Kind>::cub_span_anchor(Kind kind, std::size_t n, stream_t stream)
    : cub_anchor(stream, make_cub_storage([&](void* temp, std::size_t& bytes) {
                   return call_with_cub_size(n, [&](auto size) {
                     return cub_span_call<T>(kind, temp, bytes, nullptr, nullptr, size, stream);
                   });
                 })),
      kind_(kind),
      n_(n) {}

template <class T, class Kind>
void cub_span_anchor<T, Kind>::enqueue(const T* in, T* out) const {
  run_cub(temp_, [&](void* temp, std::size_t& bytes) {
    return call_with_cub_size(n_, [&](auto size) {
      return cub_span_call<T>(kind_, temp, bytes, in, out, size, stream_);
    });
  });
}

template <class T, class Kind>
const char* cub_span_anchor<T, Kind>::name(Kind kind) {
  return cub_span_name(kind);
}

}  // namespace gpuprim::bench
