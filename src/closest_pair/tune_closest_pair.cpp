// gp::tune on a CUDA device: the measuring function of the closest pair (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/closest_pair.hpp"

namespace gpuprim::tuning::cuda_tuning {

// n random points in the unit square, the grid algorithm. Any cell size
// finds the same pair (the library breaks ties the same way): every
// candidate must give the default's pair and distance exactly. A call
// returns to the host with its answer, so the times include its host steps.
tune_result tune_closest_pair(const tuning_job& job) {
  return for_element_type<float, double>(job, [&]<class T>(std::uint64_t n) {
    const tuning_input input(random_values<T>(2 * n, 11));  // x then y, per copy
    closest_pair_result last;
    auto enqueue = [&](std::size_t copy) {
      gpuprim::detail::point_set<T> points;
      points.coord[0] = input.data->as<T>() + copy * 2 * n;
      points.coord[1] = points.coord[0] + n;
      points.n = n;
      points.dim = 2;
      last = gpuprim::detail::cuda_closest_pair(points, closest_pair_algorithm::grid, input.stream);
    };
    auto result = [&] { return last; };
    auto same = [](const closest_pair_result& a, const closest_pair_result& b) {
      return a.i == b.i && a.j == b.j && a.squared_distance == b.squared_distance;
    };
    return search_against_default(job, 2.0 * double(n) * sizeof(T), input.stream, input.copies,
                                  enqueue, result, same);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
