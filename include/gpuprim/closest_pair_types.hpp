// The closest-pair family's public vocabulary (gpuprim/closest_pair.hpp is
// the header to include): the result, the algorithms, the automatic
// choice's thresholds, the launch shapes the bench sweeps and the host brute
// force's progress report.
#pragma once

#include <cstddef>
#include <functional>

namespace gpuprim {

// The answer of gp::closest_pair: indices into the input (i < j), the
// distance sqrt(squared_distance), and the squared distance the pair was
// chosen by (double; detail::squared_distance in
// gpuprim/detail/closest_pair/point_set.hpp).
struct closest_pair_result {
  std::size_t i = 0;
  std::size_t j = 0;
  double distance = 0.0;
  double squared_distance = 0.0;
};

// The algorithms of the family, each callable by name (closest_pair's last
// argument); `automatic` picks by n (see gpuprim/closest_pair.hpp).
enum class closest_pair_algorithm { automatic, brute_force, tiled, divide_and_conquer, grid };

// Launch shape of the quadratic kernels (the sweep of `gpuprim bench
// closest_pair --sweep`): threads per block and blocks per grid, 0 for the
// defaults. The grid strides over the points, so any block count works.
struct closest_pair_launch {
  int threads = 0;
  int blocks = 0;
  // The tiled rung's work items (float arithmetic; the double path keeps
  // its defaults), 0 / false for the defaults: points i per thread (8 or
  // 16; 16 allows at most 256 threads), points j per item (item_width: a
  // multiple of threads dividing threads x points per thread; needs
  // threads; default half the square), the order of the items (the
  // full off-diagonal squares first, the diagonal halves last), and the
  // width of the last wave's items (tail_item_width: about one item per
  // resident block at the end, in whole squares; a multiple of threads
  // dividing the item width; 0: as wide as the others).
  int points_per_thread = 0;
  int item_width = 0;
  bool diagonals_last = false;
  int tail_item_width = 0;
};

// What the occupancy calculator says about one kernel at one block size.
struct closest_pair_occupancy {
  int registers = 0;
  int shared_bytes = 0;
  int blocks_per_multiprocessor = 0;
};

// The automatic choice's thresholds (closest_pair_algorithm::automatic).
inline constexpr std::size_t closest_pair_host_brute_limit = 2048;
inline constexpr std::size_t closest_pair_cuda_tiled_limit = 8192;

// Progress of the host brute force (O(n^2) pairs): `report` is called by
// one thread at a time with the fraction of the pairs done and the seconds since the
// start, once `interval` seconds have passed and then every `interval`
// seconds (never for a run that ends sooner). Without `report` nothing is
// counted.
struct closest_pair_progress {
  std::function<void(double fraction, double seconds)> report;
  double interval = 1.0;
};

}  // namespace gpuprim
