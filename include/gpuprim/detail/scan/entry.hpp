// The scans' entry points into their backends, side by side.
//
//   host (OpenMP, gpuprim/host/scan.hpp)   CUDA (declared here)
//   host_impl::scan<Exclusive>           cuda_scan_into (kind: scan_kind)
//
// The CUDA one is defined in gpuprim/cuda/device/device_scan.cuh and
// compiled into the library for GPUPRIM_SCAN_TYPES (precompiled.hpp) by
// src/scan/; cuda_scan_checked adds the check that a plain C++ caller names
// a precompiled instance.
#pragma once

#include <cstddef>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/scan/precompiled.hpp"

namespace gpuprim {

enum class scan_kind { inclusive, exclusive };

namespace detail {

// Defined in gpuprim/cuda/device/device_scan.cuh. Enqueues the scan of
// in[0, n) into out[0, n) on `stream` (init is used by exclusive scans).
template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_into(const In* in, Out* out, std::size_t n, scan_kind kind, T init, Op op,
                    Fetch fetch, stream_t stream);

template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_checked(device_span<const In> in, device_span<Out> out, scan_kind kind, T init,
                       Op op, Fetch fetch, stream_t stream) {
#if !defined(__CUDACC__)
  static_assert(precompiled_scan<In, Out, T, Op, Fetch>,
                "gpuprim: this scan's type/operator combination is not precompiled into the "
                "library; call it from a .cu file that includes gpuprim/cuda/scan.cuh");
#endif
  on_cuda("scan",
          [&] { cuda_scan_into(in.data(), out.data(), in.size(), kind, init, op, fetch, stream); });
}

}  // namespace detail

}  // namespace gpuprim
