// Per-stream device workspace for single-pass kernels.
//
// A single-pass kernel needs a counter that is zero when it starts (the
// "finished blocks" ticket of the last-block-finishes pattern) and room for
// one partial per block. Allocating and zeroing those on every call costs
// two extra stream operations, more than the whole kernel for small inputs.
// Instead each (thread, device, stream) keeps one workspace while the thread
// lives: its counter is zeroed once, when the workspace is made, and every
// kernel that uses it leaves it at zero again (its last block resets it).
// Work on one stream runs in order, so the calls of one thread on a stream
// never share it concurrently; other streams and other threads (also on the
// same stream, whose kernels may come between a call's kernels) get
// workspaces of their own. The lookup takes no lock: a thread-local table,
// a compare when the stream is the thread's last one. A workspace is freed
// when its thread ends (cudaFree waits for the kernels still using it),
// unless a CUDA graph captured a call using it: the graph may replay later.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"

#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#include <cuda_runtime_api.h>
#endif

namespace gpuprim::cuda_impl {

// The stream a call's stream 0 means in the including translation unit, as
// launch() reads it: its thread's own default stream when built with
// per-thread default streams.
inline stream_t workspace_stream(stream_t stream) {
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
  if (stream == nullptr) return cudaStreamPerThread;
#endif
  return stream;
}

struct workspace {
  unsigned* counter;  // zero at kernel start; the kernel must leave it zero
  void* scratch;      // at least the bytes asked for, 256-byte aligned, uninitialized
};

workspace stream_workspace_of(stream_t stream, std::size_t scratch_bytes);

// This thread's workspace for `stream` on the current device, grown to hold
// `scratch_bytes`.
inline workspace stream_workspace(stream_t stream, std::size_t scratch_bytes) {
  return stream_workspace_of(workspace_stream(stream), scratch_bytes);
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::cuda_impl {

// Tile-status storage for decoupled look-back kernels, per (thread, device,
// stream) as the workspace above.
// One 64-bit status word per tile whose upper half is always a flag
// (epoch * 8 + spare bit * 4 + kind); the lower half may hold a value of up
// to 4 bytes.
// Larger values live in a separate array. Instead of clearing the flags
// before every call (an extra launch), each call gets a new `epoch`: a flag
// counts only if it carries the current epoch, so words left by earlier
// calls read as "not yet published". Status words are zeroed when the
// storage is made or grown, epochs start at 1 and only grow, and nothing
// but flags is ever written to the upper halves.
struct lookback_workspace {
  unsigned long long* status;  // one per tile
  void* values;                // value_bytes_per_tile per tile, 256-byte aligned
  unsigned epoch;              // in [1, 2^29)
};

lookback_workspace stream_lookback_workspace_of(stream_t stream, std::size_t tiles,
                                                std::size_t value_bytes_per_tile);

inline lookback_workspace stream_lookback_workspace(stream_t stream, std::size_t tiles,
                                                    std::size_t value_bytes_per_tile) {
  return stream_lookback_workspace_of(workspace_stream(stream), tiles, value_bytes_per_tile);
}

}  // namespace gpuprim::cuda_impl
