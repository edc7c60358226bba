// The segmented family's entry points into its backends, side by side.
//
//   host (OpenMP, gpuprim/host/)                CUDA (declared here)
//   host_impl::segmented_reduce               cuda_segmented_reduce_into
//     (segmented_reduce.hpp)
//   host_impl::segmented_scan                 cuda_scan_into (detail/scan/entry.hpp)
//     (segmented_scan.hpp)                        over head flags made by
//                                                 cuda_mark_segment_heads
//
// The CUDA ones are defined in gpuprim/cuda/device/device_segmented_reduce.cuh
// and device_segmented_scan.cuh and compiled into the library for the types
// of precompiled.hpp by src/segmented/. The row reductions NumPy's axis
// arguments need have their own entry, with their plan, in rows.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::detail {

// Enqueues out[s] = init op in[offsets[s]] op ... op in[offsets[s + 1] - 1]
// for s < num_segments on `stream`.
template <class In, class T, class Offset, class Op>
void cuda_segmented_reduce_into(const In* in, std::size_t num_values, const Offset* offsets,
                                std::size_t num_segments, T* out, T init, Op op, stream_t stream);

// Enqueues flags[offsets[s]] = 1 for every offset below n (flags must be
// zeroed first).
template <class Offset>
void cuda_mark_segment_heads(const Offset* offsets, std::size_t num_offsets, std::uint8_t* flags,
                             std::size_t n, stream_t stream);

}  // namespace gpuprim::detail
