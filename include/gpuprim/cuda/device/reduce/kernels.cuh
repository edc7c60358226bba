// Device-wide reduction in a single launch: the kernel and the device steps
// it is built from. The host driver that launches it (tile split, tuned
// grid, workspace) is cuda/device/device_reduce.cuh.
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
//  3. Warp totals meet in shared memory, where thread 0 folds them in
//     order into the block's total. The work split (warp_tile_split,
//     worked out on the host) gives input to a prefix of the warps and to
//     every block, so no total needs a "no input" flag.
//  4. The last block folds the block totals in block order and writes
//     init op total: polling the totals the others published in status
//     words, or, for totals too wide to pack, after an atomic ticket says
//     it finished last. No second launch, no host round trip, no per-call
//     allocation or memset (status words, ticket and totals live in the
//     stream's workspace).
//  Steps 3 and 4 run after the data has arrived, so their code is kept
//  short: a 2^20 sum's measured time grew with it (docs/families/reduce.md).
#pragma once

#include <cuda_runtime_api.h>
#include <cuda/atomic>

#include <cstdint>

#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/warp/warp_reduce.cuh"

namespace gpuprim::cuda_impl {

// Thread 0 folds, in order, the totals of the block's first `count` warps
// (the only ones holding one), handed over through `shared`; the result is
// in thread 0. A short loop in one thread rather than a second shuffle
// butterfly: this step is on the critical path of small inputs, where a
// longer chain of dependent steps and more code both showed up in the time
// (docs/families/reduce.md, "the finish of a small reduction").
template <int Threads, class T, class Op>
__device__ T fold_warp_totals(T (&shared)[Threads / 32], const T& warp_total, unsigned count,
                              Op op) {
  const unsigned warp = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0 && warp < count) shared[warp] = warp_total;
  __syncthreads();
  T total{};
  if (threadIdx.x == 0 && count > 0) {
    total = shared[0];
#pragma unroll
    for (unsigned w = 1; w < Threads / 32; ++w) {
      if (w < count) total = op(total, shared[w]);
    }
  }
  return total;
}

// The finishing block's fold of `count` (>= 1) block totals in block
// order; the result is in thread 0. Each thread combines a contiguous run
// of them, starting `batch` loads (issue(b)) before completing any
// (finish(b, loaded)) so their L2 round trips overlap; the threads holding
// runs are a prefix of the block, so warps fold them with
// warp_reduce_prefix and thread 0 the warps' results, with no validity
// flags. Kept small on purpose (one copy of finish(), a loop over a
// shifting window of loaded words): only this block runs this code, at the
// very end, so its instruction-cache misses are on the critical path.
template <int Threads, class T, class Op, class Issue, class Finish>
__device__ T fold_block_totals(T (&shared)[Threads / 32], unsigned count, Op op, Issue issue,
                               Finish finish) {
  constexpr unsigned batch = 4;
  const unsigned per_thread = (count + Threads - 1) / Threads;
  const unsigned first = threadIdx.x * per_thread;
  const unsigned last = min(count, first + per_thread);
  T mine{};
  for (unsigned b = first; b < last; b += batch) {
    decltype(issue(b)) loaded[batch];
#pragma unroll
    for (unsigned k = 0; k < batch; ++k) {
      if (b + k < last) loaded[k] = issue(b + k);
    }
    const unsigned in_batch = min(batch, last - b);
#pragma unroll 1
    for (unsigned k = 0; k < in_batch; ++k) {
      const T value = finish(b + k, loaded[0]);
      mine = b + k == first ? value : op(mine, value);
#pragma unroll
      for (unsigned j = 0; j + 1 < batch; ++j)
        loaded[j] = loaded[j + 1];
    }
  }
  const unsigned holders = (count + per_thread - 1) / per_thread;
  const unsigned warp = threadIdx.x / 32;
  const unsigned in_warp = holders > warp * 32 ? min(32u, holders - warp * 32) : 0u;
  return fold_warp_totals<Threads>(shared, warp_reduce_prefix(mine, in_warp, op),
                                   (holders + 31) / 32, op);
}

// How the input is shared out, worked out on the host (a 64-bit division
// in the kernel would hold back every warp's first load by hundreds of
// cycles): every warp of the grid takes `per_warp` contiguous full warp
// tiles and the first `extra` warps one more; the last warp holding tiles
// (`tail_warp`; warp 0 if there are none) also takes the elements after
// the last full tile. So the warps with input are exactly the first
// `warps_with_input`, and every block of the grid has some when n > 0
// (the grid has at most one block per 8 warp tiles, or one block):
// partial results never need a "no input" flag.
struct warp_tile_split {
  std::uint64_t per_warp;
  unsigned extra;
  unsigned tail_warp;
  unsigned warps_with_input;
};

inline warp_tile_split split_warp_tiles(std::uint64_t n, std::uint64_t warp_tiles,
                                        std::uint64_t total_warps) {
  warp_tile_split split{warp_tiles / total_warps, static_cast<unsigned>(warp_tiles % total_warps),
                        0, 0};
  if (split.per_warp > 0) {
    split.tail_warp = static_cast<unsigned>(total_warps - 1);
    split.warps_with_input = static_cast<unsigned>(total_warps);
  } else if (split.extra > 0) {
    split.tail_warp = split.extra - 1;
    split.warps_with_input = split.extra;
  } else {
    split.warps_with_input = n > 0 ? 1 : 0;
  }
  return split;
}

template <int Threads, int Vec, int Unroll, bool Polled, class In, class T, class Op, class Fetch>
__global__ void __launch_bounds__(Threads)
    reduce_single_pass(const In* __restrict__ in, std::uint64_t n, warp_tile_split split, T init,
                       Op op, Fetch fetch, T* __restrict__ block_results, unsigned* finished_blocks,
                       tile_lookback<T> published, T* out) {
  using vector_t = vector_of<In, Vec>;
  constexpr int warps = Threads / 32;
  // Two arrays: the finishing block's fold writes its warps' results while
  // thread 0 may still be reading the block total's warp totals.
  __shared__ T warp_totals[warps];
  __shared__ T fold_totals[warps];
  __shared__ bool is_last_block;

  constexpr std::uint64_t warp_load = 32 * Vec;  // elements one warp-wide vector load covers
  constexpr std::uint64_t warp_tile = warp_load * Unroll;
  const int lane = threadIdx.x % 32;
  const std::uint64_t global_warp = std::uint64_t(blockIdx.x) * warps + threadIdx.x / 32;
  const std::uint64_t tile_begin =
      global_warp * split.per_warp + min(global_warp, std::uint64_t(split.extra));
  const std::uint64_t tile_end = tile_begin + split.per_warp + (global_warp < split.extra);

  // The warp's total so far, in every lane (the first value starts it: the
  // operator need not have an identity); `have` is the same in every lane.
  T acc{};
  bool have = false;
  // Not unrolled or peeled: more code here is more instruction-cache
  // misses before the first loads go out.
#pragma unroll 1
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
      acc = have ? op(acc, x) : x;
      have = true;
    }
  }
  // The elements after the last full tile, 32 at a time, in order after
  // this warp's tiles (from here on only lane 0's acc is used).
  if (global_warp == split.tail_warp) {
    for (std::uint64_t i = tile_end * warp_tile + lane; i - lane < n; i += 32) {
      const T x =
          warp_reduce_prefix(i < n ? static_cast<T>(fetch(in[i], i)) : T{},
                             static_cast<unsigned>(min(n - (i - lane), std::uint64_t(32))), op);
      acc = have ? op(acc, x) : x;
      have = true;
    }
  }

  const unsigned first_warp = blockIdx.x * warps;
  const unsigned block_warps =
      split.warps_with_input > first_warp ? min(warps, split.warps_with_input - first_warp) : 0u;
  const T block_total = fold_warp_totals<Threads>(warp_totals, acc, block_warps, op);
  const bool any_input = split.warps_with_input > 0;  // n > 0; then every block has input

  if constexpr (Polled) {
    // Every block but the last publishes its total in one status word (no
    // fence, no atomic read-modify-write); the last block, launched last,
    // waits for them all and folds them in block order.
    const unsigned last_block = gridDim.x - 1;
    if (blockIdx.x != last_block) {
      if (threadIdx.x == 0) published.publish(blockIdx.x, published.aggregate, block_total);
      return;
    }
    T total = block_total;
    if (last_block > 0) {
      const T others = fold_block_totals<Threads>(
          fold_totals, last_block, op, [&](unsigned b) { return published.peek(b); },
          [&](unsigned b, unsigned long long word) { return published.read(b, word).value; });
      total = op(others, block_total);
    }
    if (threadIdx.x == 0) *out = any_input ? op(init, total) : init;
    return;
  }
  if (threadIdx.x == 0) {
    block_results[blockIdx.x] = block_total;
    // Release publishes this block's total; acquire (for the last block)
    // makes every other block's total visible before it reads them.
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> finished(*finished_blocks);
    is_last_block = finished.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1;
  }
  __syncthreads();
  if (!is_last_block) return;

  T total = block_total;
  if (gridDim.x > 1) {
    total = fold_block_totals<Threads>(
        fold_totals, gridDim.x, op, [&](unsigned b) { return block_results[b]; },
        [](unsigned, const T& v) { return v; });
  }
  if (threadIdx.x == 0) {
    *out = any_input ? op(init, total) : init;
    *finished_blocks = 0;  // every block has counted: leave the workspace ready for the next call
  }
}

}  // namespace gpuprim::cuda_impl
