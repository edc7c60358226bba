// Host side of the closest-pair ladder: the rungs of
// lab/ladder/closest_pair.cuh as calls of the device algorithms by
// name, and the table the tests and `gpuprim bench closest_pair --ladder`
// iterate.
#include <span>

#include "gpuprim/cuda/device/device_closest_pair.cuh"
#include "lab/ladder/closest_pair.cuh"
#include "lab/ladder/closest_pair_dc_networks.cuh"

// Compiled in src/closest_pair/closest_pair_float.cu.
extern template gpuprim::closest_pair_result gpuprim::cuda_impl::run_closest_pair<float>(
    const gpuprim::detail::point_set<float>&, gpuprim::closest_pair_algorithm,
    gpuprim::closest_pair_launch, gpuprim::stream_t);

namespace gpuprim::ladder {
namespace {

detail::point_set<float> checked_points(device_matrix_view<const float> points) {
  detail::check_point_count(points.rows());
  return detail::matrix_points<float>(points.data(), points.rows(), points.cols(), points.ld());
}

template <closest_pair_algorithm Algorithm>
closest_pair_result run(device_matrix_view<const float> points, closest_pair_launch shape,
                        stream_t stream) {
  return cuda_impl::run_closest_pair<float>(checked_points(points), Algorithm, shape, stream);
}

closest_pair_result run_dc_networks(device_matrix_view<const float> points, closest_pair_launch,
                                    stream_t stream) {
  return closest_pair_dc_networks<float>(checked_points(points), stream);
}

template <cuda_impl::quadratic_kernel Kind>
closest_pair_occupancy occupancy(closest_pair_launch shape) {
  return cuda_impl::quadratic_occupancy<float, float, 2>(Kind, shape);
}

closest_pair_occupancy no_occupancy(closest_pair_launch) {
  return {};
}

constexpr closest_pair_rung rungs[] = {
    {"closest_pair_brute_force_global",
     "baseline: one thread per point against every later point, read from global memory (L1/L2)",
     true, run<closest_pair_algorithm::brute_force>,
     occupancy<cuda_impl::quadratic_kernel::brute_force>},
    {"closest_pair_tiled_shared",
     "items of 1024 x 512 pairs, one block each; points j staged in shared memory, 8 points i "
     "per thread in registers: one shared load feeds 8 float distances (double recheck of the "
     "few within a rounding margin); 16 points, other item widths and the diagonal items last "
     "as launch options",
     true, run<closest_pair_algorithm::tiled>, occupancy<cuda_impl::quadratic_kernel::tiled>},
    {"closest_pair_divide_and_conquer_networks",
     "n log^2 n instead of n^2 (the thesis's D&C): radix sort by x, warp leaves; each level's y "
     "order by the bitonic network (registers, block tiles, global merge steps), strip checks",
     false, run_dc_networks, no_occupancy},
    {"closest_pair_divide_and_conquer",
     "one merge per level instead of a network stage: halves merged by y with a binary search "
     "per element (gp::closest_pair's divide and conquer)",
     false, run<closest_pair_algorithm::divide_and_conquer>, no_occupancy},
    {"closest_pair_grid",
     "about n: cells sorted by radix sort, each point against its neighbouring cells; a second "
     "grid for clustered data",
     false, run<closest_pair_algorithm::grid>, no_occupancy},
};

}  // namespace

GPUPRIM_LADDER_DEFINE(closest_pair_rung, closest_pair_rungs, rungs);

}  // namespace gpuprim::ladder
