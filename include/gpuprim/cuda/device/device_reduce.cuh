// Device-wide reduction in a single launch.
//
// Shape of the algorithm (read top to bottom):
//  1. The input is cut into warp tiles of 32 * Vec * Unroll elements. The
//     grid is persistent (about as many blocks as fit on the GPU at once) and
//     every warp of the grid takes one contiguous run of tiles, so the
//     partition, and with it the float rounding, depends only on n and the
//     grid size: results are the same run to run.
//  2. A warp loads Unroll 16-byte vectors per lane before using any (several
//     loads in flight per thread hide memory latency), reduces each lane's
//     vector, then the 32 lane values with a butterfly of shuffles. Doing the
//     warp step per load keeps input order, so the operator only has to be
//     associative, not commutative.
//  3. Warp results meet in a block_reduce; each block writes one partial.
//  4. The last block to finish (a device-scope atomic ticket) reduces the
//     block partials in block order and writes init op total. No second
//     launch, no host round trip, no per-call allocation or memset (the
//     ticket and the partials live in the stream's workspace).
#pragma once

#include <cuda_runtime_api.h>
#include <cuda/atomic>

#include <algorithm>
#include <cstdint>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/cuda/block/block_reduce.cuh"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/detail/launch.cuh"
#include "gpuprim/cuda/detail/partial.cuh"
#include "gpuprim/cuda/detail/vector.cuh"
#include "gpuprim/cuda/detail/workspace.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/warp/warp_reduce.cuh"

namespace gpuprim::cuda_detail {

// The finishing block's fold of the first `count` block partials: each
// thread combines a contiguous run of them in block order, starting
// `batch` loads (issue(b)) before completing any (finish(b, loaded): all
// their L2 round trips in flight together, since this tail is on the
// critical path of small inputs); then the block combines the runs.
template <int Threads, class T, class Op, class Issue, class Finish>
__device__ partial<T> fold_block_partials(typename block_reduce<Threads, T>::storage& storage,
                                          unsigned count, Op op, Issue issue, Finish finish) {
  constexpr unsigned batch = 4;
  const unsigned per_thread = (count + Threads - 1) / Threads;
  const unsigned first = threadIdx.x * per_thread;
  const unsigned last = min(count, first + per_thread);
  partial<T> mine{T{}, false};
  for (unsigned b = first; b < last; b += batch) {
    decltype(issue(b)) loaded[batch];
#pragma unroll
    for (unsigned k = 0; k < batch; ++k) {
      if (b + k < last) loaded[k] = issue(b + k);
    }
#pragma unroll
    for (unsigned k = 0; k < batch; ++k) {
      if (b + k < last) mine = combine(mine, finish(b + k, loaded[k]), op);
    }
  }
  return block_reduce<Threads, T>{storage}.reduce(mine, op);
}

template <int Threads, int Vec, int Unroll, bool Polled, class In, class T, class Op, class Fetch>
__global__ void __launch_bounds__(Threads)
    reduce_single_pass(const In* __restrict__ in, std::uint64_t n, T init, Op op, Fetch fetch,
                       partial<T>* __restrict__ block_results, unsigned* finished_blocks,
                       tile_lookback<partial<T>> published, T* out) {
  using block_reduce_t = block_reduce<Threads, T>;
  using vector_t = vector_of<In, Vec>;
  __shared__ typename block_reduce_t::storage storage;
  __shared__ bool is_last_block;

  constexpr int warps = Threads / 32;
  constexpr std::uint64_t warp_load = 32 * Vec;  // elements one warp-wide vector load covers
  constexpr std::uint64_t warp_tile = warp_load * Unroll;
  const int lane = threadIdx.x % 32;
  const std::uint64_t total_warps = std::uint64_t(gridDim.x) * warps;
  const std::uint64_t global_warp = std::uint64_t(blockIdx.x) * warps + threadIdx.x / 32;
  const std::uint64_t full_tiles = n / warp_tile;
  const std::uint64_t tile_begin = global_warp * full_tiles / total_warps;
  const std::uint64_t tile_end = (global_warp + 1) * full_tiles / total_warps;

  partial<T> acc{T{}, false};
  for (std::uint64_t tile = tile_begin; tile < tile_end; ++tile) {
    const std::uint64_t base = tile * warp_tile + lane * Vec;
    vector_t v[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      v[u] = load_vector<Vec>(in + base + u * warp_load);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
      const std::uint64_t i = base + u * warp_load;
      T x = static_cast<T>(fetch(v[u].items[0], i));
#pragma unroll
      for (int k = 1; k < Vec; ++k)
        x = op(x, static_cast<T>(fetch(v[u].items[k], i + k)));
      x = warp_reduce(x, op);
      acc = {acc.valid ? op(acc.value, x) : x, true};
    }
  }
  // The last warp of the grid owns the last tiles, so it also takes the
  // elements after the last full tile: order is kept.
  if (global_warp == total_warps - 1) {
    for (std::uint64_t i = full_tiles * warp_tile + lane; i - lane < n; i += 32) {
      partial<T> x{T{}, false};
      if (i < n) x = {static_cast<T>(fetch(in[i], i)), true};
      acc = combine(acc, warp_reduce(x, op), op);
    }
  }

  // acc is a warp total (every lane holds it), not a per-thread value.
  const partial<T> block_total = block_reduce_t{storage}.reduce_warp_totals(acc, op);
  if constexpr (Polled) {
    // Every block but the last publishes its partial in one status word
    // (no fence, no atomic read-modify-write); the last block, launched
    // last, waits for them all and folds them in block order.
    const unsigned last_block = gridDim.x - 1;
    if (blockIdx.x != last_block) {
      if (threadIdx.x == 0) published.publish(blockIdx.x, published.aggregate, block_total);
      return;
    }
    __syncthreads();  // warp 0's reads of `storage` are done: it is reused below
    const partial<T> others = fold_block_partials<Threads, T>(
        storage, last_block, op, [&](unsigned b) { return published.peek(b); },
        [&](unsigned b, unsigned long long word) { return published.read(b, word).value; });
    if (threadIdx.x == 0) {
      const partial<T> total = combine(others, block_total, op);
      *out = total.valid ? op(init, total.value) : init;
    }
    return;
  }
  if (threadIdx.x == 0) {
    block_results[blockIdx.x] = block_total;
    // Release publishes this block's partial; acquire (for the last block)
    // makes every other block's partial visible before it reads them.
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> finished(*finished_blocks);
    is_last_block = finished.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();  // also ends warp 0's reads of `storage`, which is reused below
  if (!is_last_block) return;

  const partial<T> total = fold_block_partials<Threads, T>(
      storage, gridDim.x, op, [&](unsigned b) { return block_results[b]; },
      [](unsigned, const partial<T>& p) { return p; });
  if (threadIdx.x == 0) {
    *out = total.valid ? op(init, total.value) : init;
    *finished_blocks = 0;  // every block has counted: leave the workspace ready for the next call
  }
}

// Measured on an H100 (docs/performance.md): 256 threads, 4 loads of 16
// bytes in flight per thread and 4 blocks per SM (half the resident
// maximum) read 2^28 floats at CUB's speed; more blocks or deeper unrolling
// were slower, fewer starved small inputs.
struct reduce_config {
  static constexpr int threads = 256;
  static constexpr int unroll = 4;
  // Blocks per multiprocessor of the persistent grid (capped by occupancy).
  int blocks_per_multiprocessor = 4;
};

// Threads and Unroll other than reduce_config's are for tuning
// (scripts/tune_reduce.cu).
// How the block partials meet (step 4 of the kernel): the last block polls
// the partials the others published, or the last block to finish, found by
// an atomic ticket, reads them. Automatic: polled where a partial fits one
// status word with its flag (values of up to 4 bytes), else the ticket.
// Measured on the H100 (scripts/tune_reduce.cu, 2^20 floats): polled
// 10.85 us isolated and 6.25 us queued against the ticket's 11.58 and
// 6.83 (data in L2), 11.78 against 12.45 from memory. Polling partials that
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
                          (Finish == reduce_finish::automatic && tile_lookback<partial<T>>::packed);
  const auto kernel = reduce_single_pass<threads, Vec, unroll, Polled, In, T, Op, Fetch>;
  const std::uint64_t warp_tiles = n / (32 * Vec * unroll);
  const std::uint64_t blocks_needed =
      std::max<std::uint64_t>(1, ceil_div(warp_tiles, threads / 32));
  const unsigned blocks = static_cast<unsigned>(std::min<std::uint64_t>(
      blocks_needed, persistent_grid_size(kernel, threads, config.blocks_per_multiprocessor)));

  using status = tile_lookback<partial<T>>;
  if constexpr (Polled) {
    const lookback_workspace ws =
        stream_lookback_workspace(stream, blocks, status::packed ? 0 : 2 * sizeof(partial<T>));
    const status published{ws.status, static_cast<partial<T>*>(ws.values), ws.epoch};
    launch("reduce_single_pass", "reduce", kernel, {blocks, threads, 0, stream}, in, n, init, op,
           fetch, nullptr, nullptr, published, out);
  } else {
    const workspace ws = stream_workspace(stream, blocks * sizeof(partial<T>));
    launch("reduce_single_pass", "reduce", kernel, {blocks, threads, 0, stream}, in, n, init, op,
           fetch, static_cast<partial<T>*>(ws.scratch), ws.counter, status{}, out);
  }
}

}  // namespace gpuprim::cuda_detail

namespace gpuprim::detail {

// Declared in gpuprim/reduce.hpp; this is the definition that the library
// instantiates for its common types and that .cu files instantiate for theirs.
template <class In, class T, class Op, class Fetch>
void cuda_reduce_into(const In* in, std::size_t n, T* out, T init, Op op, Fetch fetch,
                      stream_t stream) {
  using namespace cuda_detail;
  constexpr int vec = vector_items<In>;
  const reduce_config config{};
  // 16-byte loads need 16-byte alignment; a subspan may start anywhere.
  if (vec > 1 && is_aligned(in, vec * sizeof(In))) {
    launch_reduce_single_pass<vec>(in, n, out, init, op, fetch, stream, config);
  } else {
    launch_reduce_single_pass<1>(in, n, out, init, op, fetch, stream, config);
  }
}

}  // namespace gpuprim::detail
