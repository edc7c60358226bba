// Per-stream device workspace for single-pass kernels.
//
// A single-pass kernel needs a counter that is zero when it starts (the
// "finished blocks" ticket of the last-block-finishes pattern) and room for
// one partial per block. Allocating and zeroing those on every call costs
// two extra stream operations, more than the whole kernel for small inputs.
// Instead each (device, stream) pair keeps one workspace for the life of the
// process: its counter is zeroed once, when the workspace is made, and every
// kernel that uses it leaves it at zero again (its last block resets it).
// Work on one stream runs in order, so calls on a stream never share it
// concurrently; different streams get different workspaces.
#pragma once

#include <cstddef>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::cuda_impl {

struct workspace {
  unsigned* counter;  // zero at kernel start; the kernel must leave it zero
  void* scratch;      // at least the bytes asked for, 256-byte aligned, uninitialized
};

// The current device's workspace for `stream`, grown to hold `scratch_bytes`.
workspace stream_workspace(stream_t stream, std::size_t scratch_bytes);

}  // namespace gpuprim::cuda_impl

namespace gpuprim::cuda_impl {

// Tile-status storage for decoupled look-back kernels, per (device, stream).
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

lookback_workspace stream_lookback_workspace(stream_t stream, std::size_t tiles,
                                             std::size_t value_bytes_per_tile);

}  // namespace gpuprim::cuda_impl
