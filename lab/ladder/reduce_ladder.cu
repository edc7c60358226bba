// Host side of the reduction ladder: one multi-pass driver for the lecture
// rungs, the production single pass as the last rung, and the table that the
// tests and `gpuprim bench reduce --ladder` iterate.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"
#include "gpuprim/reduce.hpp"
#include "lab/ladder/ladder.hpp"
#include "lab/ladder/reduce.cuh"

namespace gpuprim::ladder {
namespace {

constexpr unsigned threads = reduce_ladder_threads;
constexpr const char* algorithm = "reduce ladder";

// How a pass sizes its grid over `count` elements: one block per
// threads * items_per_thread elements, and for grid-stride kernels no more
// blocks than the device holds at once (so items_per_thread is a minimum:
// below it, another block's partial costs more than its loads save).
struct grid_rule {
  std::uint64_t items_per_thread;
  bool grid_stride;
};
constexpr grid_rule one_item_per_thread{1, false};
constexpr grid_rule two_items_per_thread{2, false};
constexpr grid_rule resident_grid{16, true};

template <auto Kernel>
std::uint64_t resident_blocks() {
  // Occupancy depends on the kernel and the architecture only; computed once.
  static const int per_multiprocessor = [] {
    int blocks = 0;
    GPUPRIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                           &blocks, reinterpret_cast<const void*>(Kernel), threads, 0),
                       algorithm);
    return std::max(blocks, 1);
  }();
  return std::uint64_t(per_multiprocessor) * cuda_impl::current_multiprocessor_count();
}

template <auto Kernel, grid_rule Grid>
std::uint64_t blocks_for(std::uint64_t count) {
  const std::uint64_t tiles = cuda_impl::ceil_div(count, threads * Grid.items_per_thread);
  return Grid.grid_stride ? std::min(tiles, resident_blocks<Kernel>()) : tiles;
}

template <class T>
void require_output(device_span<T> out) {
  if (out.empty()) throw std::invalid_argument("gpuprim::ladder: the output span is empty");
}

// Rungs 1-9, as in the lectures: each pass writes one sum per block, and
// passes repeat over the block sums until a single block writes out[0].
template <class T, auto Kernel, grid_rule Grid, kernel_name Name>
void run_passes(device_span<const T> in, device_span<T> out, stream_t stream) {
  require_output(out);
  std::uint64_t count = in.size();
  if (count == 0) {
    GPUPRIM_CUDA_CHECK(cudaMemsetAsync(out.data(), 0, sizeof(T), stream), Name.text);
    return;
  }
  const std::uint64_t first_blocks = blocks_for<Kernel, Grid>(count);
  if (first_blocks > std::uint64_t(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(
        "gpuprim::ladder: the input needs more blocks than a grid can have");
  }
  // Block counts shrink pass by pass, so two buffers sized for the first
  // two passes serve all of them in turn.
  const std::uint64_t second_blocks = first_blocks > 1 ? blocks_for<Kernel, Grid>(first_blocks) : 0;
  const std::size_t first_bytes =
      first_blocks > 1 ? cuda_impl::align_up(first_blocks * sizeof(T), 16) : 0;
  cuda_impl::scratch_buffer scratch(first_bytes + second_blocks * sizeof(T), stream);
  T* const buffers[2] = {scratch.get<T>(), reinterpret_cast<T*>(scratch.get<char>() + first_bytes)};

  const T* source = in.data();
  for (int pass = 0;; ++pass) {
    const std::uint64_t blocks = blocks_for<Kernel, Grid>(count);
    T* target = blocks == 1 ? out.data() : buffers[pass % 2];
    Kernel<<<static_cast<unsigned>(blocks), threads, 0, stream>>>(source, target, count);
    detail::check_launch(Name.text, algorithm);
    if (blocks == 1) return;
    source = target;
    count = blocks;
  }
}

// Rung 10: the library's own reduction.
template <class T>
void run_single_pass(device_span<const T> in, device_span<T> out, stream_t stream) {
  require_output(out);
  detail::cuda_reduce_into(in.data(), in.size(), out.data(), T{}, plus{},
                           detail::unary_fetch<identity>{}, stream);
}

// clang-format off
// A rung that runs `kernel<args...>` in passes (run_passes), named after it.
#define GPUPRIM_REDUCE_PASSES_RUNG(kernel, fixes, items, ...) \
  { #kernel, fixes, run_passes<T, kernel<__VA_ARGS__>, items, #kernel> }
// A rung of reduce_shared_tree<Tree, Loads> in passes, named `name`.
#define GPUPRIM_REDUCE_TREE_RUNG(name, fixes, tree, loads, items) \
  { name, fixes, run_passes<T, reduce_shared_tree<shared_tree::tree, loads, T>, items, name> }

template <class T>
constexpr reduce_rung<T> reduce_ladder[] = {
  GPUPRIM_REDUCE_TREE_RUNG("reduce_interleaved_divergent",
      "baseline: shared-memory tree, divergent warps",
      interleaved_divergent, 1, one_item_per_thread),
  GPUPRIM_REDUCE_TREE_RUNG("reduce_interleaved_strided_index",
      "no divergence (strided index); bank conflicts",
      interleaved_strided_index, 1, one_item_per_thread),
  GPUPRIM_REDUCE_TREE_RUNG("reduce_sequential_addressing",
      "sequential addressing: no bank conflicts",
      sequential_addressing, 1, one_item_per_thread),
  GPUPRIM_REDUCE_TREE_RUNG("reduce_first_add_during_load",
      "first add during load: no idle half, half the blocks",
      sequential_addressing, 2, two_items_per_thread),
  GPUPRIM_REDUCE_TREE_RUNG("reduce_unrolled_last_warp",
      "last warp unrolled, __syncwarp instead of __syncthreads",
      unrolled_last_warp, 2, two_items_per_thread),
  GPUPRIM_REDUCE_PASSES_RUNG(reduce_complete_unroll,
      "block size as template parameter: tree fully unrolled", two_items_per_thread, threads, T),
  GPUPRIM_REDUCE_PASSES_RUNG(reduce_multiple_elements_per_thread,
      "grid-stride loop: many elements per thread", resident_grid, threads, T),
  GPUPRIM_REDUCE_PASSES_RUNG(reduce_warp_shuffle,
      "warp shuffles replace the shared-memory tree", resident_grid, threads, T),
  GPUPRIM_REDUCE_PASSES_RUNG(reduce_vector_loads,
      "16-byte vector loads", resident_grid, threads, T),
  {"reduce_single_pass", "single pass: last block adds the block sums, no second launch",
   run_single_pass<T>},
};
// clang-format on

}  // namespace

GPUPRIM_LADDER_DEFINE_TYPED(reduce_rung, reduce_rungs, reduce_ladder);

}  // namespace gpuprim::ladder
