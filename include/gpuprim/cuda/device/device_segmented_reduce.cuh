// Device-wide segmented reduction, the host driver: the launch shape from
// the average segment length (a group of lanes per segment, or parts of a
// segment per block and a second pass), the tuner's thresholds, the
// launches. The kernels and the shape of their algorithm:
// cuda/device/segmented_reduce/kernels.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/device/segmented_reduce/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/support/workspace.cuh"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// Launch shape. Thresholds are in 16-byte vectors per segment, so they mean
// the same number of loads for every element size:
//  - up to 2 vectors (8 floats): 2 lanes per segment, one load each;
//  - up to 8 vectors (32 floats): 8 lanes per segment;
//  - up to 2048 vectors (8192 floats): a warp per segment, 8 loads in flight
//    per lane (1024 floats per round);
//  - longer: parts of about 4096 vectors (16384 floats) per block, at most
//    256 parts per segment (the combining warp then takes 8 rounds).
struct segmented_reduce_config {
  static constexpr int threads = 256;
  static constexpr int unroll_small = 2;
  static constexpr int unroll_warp = 8;
  static constexpr std::uint64_t pair_max_vectors = 2;
  static constexpr std::uint64_t octet_max_vectors = 8;
  static constexpr std::uint64_t warp_max_vectors = 2048;
  static constexpr std::uint64_t part_vectors = 4096;
  static constexpr unsigned max_parts_per_segment = 256;
};

template <int G, int Unroll, class In, class T, class Offset, class Op>
void launch_segmented_reduce_by_groups(const In* in, const Offset* offsets,
                                       std::uint64_t num_segments, T* out, T init, Op op,
                                       stream_t stream, int blocks_per_sm = 0) {
  constexpr int threads = segmented_reduce_config::threads;
  const auto kernel = segmented_reduce_by_groups<threads, G, Unroll, In, T, Offset, Op>;
  const std::uint64_t segments_per_block = threads / G;
  const unsigned blocks = static_cast<unsigned>(
      std::min<std::uint64_t>(ceil_div(num_segments, segments_per_block),
                              persistent_grid_size(kernel, threads, blocks_per_sm)));
  report_launch_to_tuner(kernel, threads, 0, blocks);
  launch("segmented_reduce_by_groups", "segmented_reduce", kernel, {blocks, threads, 0, stream}, in,
         offsets, num_segments, out, init, op);
}

template <class In, class T, class Offset, class Op>
void launch_segmented_reduce_parts(const In* in, const Offset* offsets, std::uint64_t num_segments,
                                   unsigned parts_per_segment, T* out, T init, Op op,
                                   stream_t stream, int blocks_per_sm = 0) {
  using config = segmented_reduce_config;
  constexpr int threads = config::threads;
  const workspace ws =
      stream_workspace(stream, num_segments * parts_per_segment * sizeof(partial<T>));
  auto* part_results = static_cast<partial<T>*>(ws.scratch);

  const auto parts_kernel = segmented_reduce_parts<threads, config::unroll_warp, In, T, Offset, Op>;
  const unsigned part_blocks = static_cast<unsigned>(
      std::min<std::uint64_t>(num_segments * parts_per_segment,
                              persistent_grid_size(parts_kernel, threads, blocks_per_sm)));
  report_launch_to_tuner(parts_kernel, threads, 0, part_blocks);
  launch("segmented_reduce_parts", "segmented_reduce", parts_kernel,
         {part_blocks, threads, 0, stream}, in, offsets, num_segments, parts_per_segment, op,
         part_results);

  const auto combine_kernel = combine_segment_parts<threads, T, Op>;
  const unsigned combine_blocks = static_cast<unsigned>(
      std::min<std::uint64_t>(ceil_div(num_segments, threads / 32),
                              persistent_grid_size(combine_kernel, threads, blocks_per_sm)));
  launch("combine_segment_parts", "segmented_reduce", combine_kernel,
         {combine_blocks, threads, 0, stream}, part_results, parts_per_segment, num_segments, out,
         init, op);
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

// Declared in gpuprim/detail/segmented/entry.hpp; this is the definition that the library
// instantiates for its common types and that .cu files instantiate for theirs.
template <class In, class T, class Offset, class Op>
void cuda_segmented_reduce_into(const In* in, std::size_t num_values, const Offset* offsets,
                                std::size_t num_segments, T* out, T init, Op op, stream_t stream) {
  using namespace cuda_impl;
  using config = segmented_reduce_config;
  if (num_segments == 0) return;
  // The tuner's space "segmented_reduce" (src/tune/config.cpp): blocks per
  // SM of the persistent grids, 0 = as many as are resident (the default).
  const int blocks_per_sm =
      tuning::choose(tuning::algorithm::segmented_reduce, tuning::element_type_of<In>(), num_values)
          .choice[0];
  const std::uint64_t average_vectors = num_values / vector_items<In> / num_segments;
  if (average_vectors <= config::pair_max_vectors) {
    launch_segmented_reduce_by_groups<2, config::unroll_small>(in, offsets, num_segments, out, init,
                                                               op, stream, blocks_per_sm);
  } else if (average_vectors <= config::octet_max_vectors) {
    launch_segmented_reduce_by_groups<8, config::unroll_small>(in, offsets, num_segments, out, init,
                                                               op, stream, blocks_per_sm);
  } else if (average_vectors <= config::warp_max_vectors) {
    launch_segmented_reduce_by_groups<32, config::unroll_warp>(in, offsets, num_segments, out, init,
                                                               op, stream, blocks_per_sm);
  } else {
    const unsigned parts = static_cast<unsigned>(std::min<std::uint64_t>(
        config::max_parts_per_segment, ceil_div(average_vectors, config::part_vectors)));
    launch_segmented_reduce_parts(in, offsets, num_segments, parts, out, init, op, stream,
                                  blocks_per_sm);
  }
}

}  // namespace gpuprim::detail
