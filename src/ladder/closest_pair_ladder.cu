// Host side of the closest-pair ladder: the rungs of
// gpuprim/ladder/closest_pair.cuh as calls of the device algorithms by
// name, and the table the tests and `gpuprim bench closest_pair --ladder`
// iterate.
#include <span>

#include "gpuprim/cuda/device/device_closest_pair.cuh"
#include "gpuprim/ladder/closest_pair.cuh"

// Compiled in src/closest_pair/closest_pair_float.cu.
extern template gpuprim::closest_pair_result gpuprim::cuda_detail::run_closest_pair<float>(
    gpuprim::detail::point_set<float>, gpuprim::closest_pair_algorithm,
    gpuprim::closest_pair_launch, gpuprim::stream_t);

namespace gpuprim::ladder {
namespace {

template <closest_pair_algorithm Algorithm>
closest_pair_result run(device_matrix_view<const float> points, closest_pair_launch shape,
                        stream_t stream) {
  detail::check_point_count(points.rows());
  const auto s =
      detail::matrix_points<float>(points.data(), points.rows(), points.cols(), points.ld());
  return cuda_detail::run_closest_pair<float>(s, Algorithm, shape, stream);
}

template <cuda_detail::quadratic_kernel Kind>
closest_pair_occupancy occupancy(int threads) {
  return cuda_detail::quadratic_occupancy<float, float, 2>(Kind, threads);
}

closest_pair_occupancy no_occupancy(int) {
  return {};
}

constexpr closest_pair_rung rungs[] = {
    {"closest_pair_brute_force_global",
     "baseline: one thread per point against every later point, read from global memory (L1/L2)",
     true, run<closest_pair_algorithm::brute_force>,
     occupancy<cuda_detail::quadratic_kernel::brute_force>},
    {"closest_pair_tiled_shared",
     "blocks of points staged in shared memory, 4 points per thread in registers: one shared "
     "load feeds 4 distances",
     true, run<closest_pair_algorithm::tiled>, occupancy<cuda_detail::quadratic_kernel::tiled>},
    {"closest_pair_divide_and_conquer",
     "n log^2 n instead of n^2: radix sort by x, warp leaves, merge by y and strip checks per "
     "level (log n launches)",
     false, run<closest_pair_algorithm::divide_and_conquer>, no_occupancy},
    {"closest_pair_grid",
     "about n: cells sorted by radix sort, each point against its neighbouring cells; a second "
     "grid for clustered data",
     false, run<closest_pair_algorithm::grid>, no_occupancy},
};

}  // namespace

std::span<const closest_pair_rung> closest_pair_rungs() {
  return rungs;
}

}  // namespace gpuprim::ladder
