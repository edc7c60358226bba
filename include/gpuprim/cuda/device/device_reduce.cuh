// Device-wide reduction in a single launch, the host driver: the work split
// among a persistent grid's warps, the grid size the tuner chose, and the
// stream workspace where block totals meet. The kernel and the shape of
// its algorithm: cuda/device/reduce/kernels.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/device/reduce/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/support/workspace.cuh"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// Measured (bench/results/history-reduce-scan.md): 256 threads, 4 loads of 16
// bytes in flight per thread and 4 blocks per SM (half the resident
// maximum) read 2^28 floats at CUB's speed; more blocks or deeper unrolling
// were slower, fewer starved small inputs.
// The tuner's space for it (src/tune/config.cpp, "reduce") is the run-time
// blocks_per_sm alone, so tuning adds no instantiations; its default is
// this struct's.
struct reduce_config {
  static constexpr int threads = 256;
  static constexpr int unroll = 4;
  // Blocks per multiprocessor of the persistent grid (capped by occupancy).
  int blocks_per_multiprocessor = 4;

  // The config for n elements of In on the current device: the tuned one
  // (tune/cache.hpp) if any, else the default.
  template <class In>
  static reduce_config choose(std::uint64_t n) {
    const tuning::used_config c =
        tuning::choose(tuning::algorithm::reduce, tuning::element_type_of<In>(), n);
    return reduce_config{c.choice[0]};
  }
};

// Threads and Unroll other than reduce_config's are for tuning
// (lab/probes/probe_reduce.cu).
// How the block totals meet (step 4 of the kernel): the last block polls
// the totals the others published, or the last block to finish, found by
// an atomic ticket, reads them. Automatic: polled where a total fits one
// status word with its flag (values of up to 4 bytes), else the ticket.
// Measured (lab/probes/probe_reduce.cu, 2^20 floats): polled
// 10.85 us isolated and 6.25 us queued against the ticket's 11.58 and
// 6.83 (data in L2), 11.78 against 12.45 from memory. Polling totals that
// do not pack (a value, a fence, then the flag) made the harness's 2^24
// double sum 10 us slower.
enum class reduce_finish { automatic, polled, ticket };

template <int Vec, int Threads = reduce_config::threads, int Unroll = reduce_config::unroll,
          reduce_finish Finish = reduce_finish::automatic, class In, class T, class Op, class Fetch>
void launch_reduce_single_pass(const In* in, std::uint64_t n, T* out, T init, Op op, Fetch fetch,
                               stream_t stream, const reduce_config& config) {
  constexpr int threads = Threads;
  constexpr int unroll = Unroll;
  constexpr bool Polled = Finish == reduce_finish::polled ||
                          (Finish == reduce_finish::automatic && tile_lookback<T>::packed);
  const auto kernel = reduce_single_pass<threads, Vec, unroll, Polled, In, T, Op, Fetch>;
  const std::uint64_t warp_tiles = n / (32 * Vec * unroll);
  const std::uint64_t blocks_needed =
      std::max<std::uint64_t>(1, ceil_div(warp_tiles, threads / 32));
  const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>(
      blocks_needed, persistent_grid_size(kernel, threads, config.blocks_per_multiprocessor)));
  report_launch_to_tuner(kernel, threads, 0, blocks);

  const warp_tile_split split =
      split_warp_tiles(n, warp_tiles, std::uint64_t(blocks) * (threads / 32));

  using status = tile_lookback<T>;
  if constexpr (Polled) {
    const status published = stream_tile_lookback<T>(stream, blocks, "gpuprim::reduce");
    launch("reduce_single_pass", "reduce", kernel, {blocks, threads, 0, stream}, in, n, split, init,
           op, fetch, nullptr, nullptr, published, out);
  } else {
    const workspace ws = stream_workspace(stream, blocks * sizeof(T));
    launch("reduce_single_pass", "reduce", kernel, {blocks, threads, 0, stream}, in, n, split, init,
           op, fetch, static_cast<T*>(ws.scratch), ws.counter, status{}, out);
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

// Declared in gpuprim/detail/reduce/entry.hpp; this is the definition that the library
// instantiates for its common types and that .cu files instantiate for theirs.
template <class In, class T, class Op, class Fetch>
void cuda_reduce_into(const In* in, std::size_t n, T* out, T init, Op op, Fetch fetch,
                      stream_t stream) {
  using namespace cuda_impl;
  constexpr int vec = vector_items<In>;
  const reduce_config config = reduce_config::choose<In>(n);
  // 16-byte loads need 16-byte alignment; a subspan may start anywhere.
  if (vec > 1 && is_aligned(in, vec * sizeof(In))) {
    launch_reduce_single_pass<vec>(in, n, out, init, op, fetch, stream, config);
  } else {
    launch_reduce_single_pass<1>(in, n, out, init, op, fetch, stream, config);
  }
}

}  // namespace gpuprim::detail
