// The closest-pair ladder: the thesis's GPU algorithms, oldest first, each
// callable by name on float points (n x 2 or n x 3, device memory), with
// the launch shape of the quadratic rungs free (the --sweep of
// `gpuprim bench closest_pair`). Plain C++: the rungs are compiled into the lab
// library (lab/ladder/closest_pair_ladder.cu); their kernels are the
// library's (gpuprim/cuda/device/device_closest_pair.cuh) but for the divide
// and conquer on the sorting networks (closest_pair_dc_networks.cuh).
#pragma once

#include <cstddef>
#include <span>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/closest_pair/point_set.hpp"
#include "lab/ladder/ladder.hpp"

namespace gpuprim::ladder {

struct closest_pair_rung {
  const char* name;   // "closest_pair_brute_force_global", ...
  const char* fixes;  // one line: what it fixes over the rung before
  bool quadratic;     // every pair (launch shape matters; cost n^2)
  // Runs the rung (synchronizes; throws std::invalid_argument for bad
  // input and gp::cuda_error on failure). `shape` applies to quadratic
  // rungs; {0, 0} is the default.
  closest_pair_result (*run)(device_matrix_view<const float> points, closest_pair_launch shape,
                             stream_t stream);
  // The occupancy of the rung's main kernel at `shape` (threads per block
  // and, for the tiled rung, points per thread; 2-D float points); zeros
  // for rungs without one kernel that dominates.
  closest_pair_occupancy (*occupancy)(closest_pair_launch shape);
};

GPUPRIM_LADDER_TABLE(closest_pair_rung, closest_pair_rungs);

}  // namespace gpuprim::ladder
