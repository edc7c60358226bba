// The reduction's entry points into its backends, side by side, and the
// steps both the facade and the other families (histogram's range, the
// distributed reductions) call the GPU one through.
//
//   host (OpenMP, gpuprim/host/reduce.hpp)   CUDA (declared here)
//   host_impl::transform_reduce            cuda_reduce_into
//
// Both take a fetch (an element -> the value reduced) and the operator; the
// CUDA one is defined in gpuprim/cuda/device/device_reduce.cuh and compiled
// into the library for GPUPRIM_REDUCE_TYPES (precompiled.hpp) by src/reduce/.
#pragma once

#include <cstddef>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/reduce/precompiled.hpp"

namespace gpuprim::detail {

// Enqueues the reduction of in[0, n) on `stream`; *out (device memory)
// receives the result.
template <class In, class T, class Op, class Fetch>
void cuda_reduce_into(const In* in, std::size_t n, T* out, T init, Op op, Fetch fetch,
                      stream_t stream);

template <class In, class T, class Op, class Fetch>
void cuda_reduce_checked(device_span<const In> in, T* out, T init, Op op, Fetch fetch,
                         stream_t stream) {
  using plain_op = without_needless_nan_rule_t<In, Op>;
  if constexpr (!std::is_same_v<plain_op, Op>) {
    cuda_reduce_checked(in, out, init, plain_op{}, fetch, stream);
  } else {
#if !defined(__CUDACC__)
    static_assert(precompiled_reduce<In, T, Op, Fetch>,
                  "gpuprim: this type/operator combination is not precompiled into the library; "
                  "call it from a .cu file that includes gpuprim/cuda/reduce.cuh");
#endif
    on_cuda("reduce",
            [&] { cuda_reduce_into(in.data(), in.size(), out, init, op, fetch, stream); });
  }
}

// Runs a device reduction and brings its one-element result to the host.
template <class In, class T, class Op, class Fetch>
T cuda_reduce_to_host(cuda_backend backend, device_span<const In> in, T init, Op op, Fetch fetch) {
  const scratch_buffer out(sizeof(T), backend.stream);
  T result;
  cuda_reduce_checked(in, out.get<T>(), init, op, fetch, backend.stream);
  copy_to_host(&result, out.get(), sizeof(T), backend.stream);
  synchronize(backend.stream);
  return result;
}

}  // namespace gpuprim::detail
