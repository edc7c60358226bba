// gp::tune on a CUDA device: the measuring function of the closest pair (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/closest_pair.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// n random points in the unit square, the grid algorithm. Any cell size
// finds the same pair (the library breaks ties the same way): every
// candidate must give the default's pair and distance exactly. A call
// returns to the host with its answer, so the times include its host steps.
template <class T>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  if (n < 2) throw std::invalid_argument("tune closest_pair: n must be at least 2");
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
  const closest_pair_result reference = default_result(s, input.stream, enqueue, result);
  auto result_ok = [&] {
    return last.i == reference.i && last.j == reference.j &&
           last.squared_distance == reference.squared_distance;
  };
  return run_search(s, type, n, 2.0 * double(n) * sizeof(T), options, input.stream, input.copies,
                    enqueue, result_ok);
}

}  // namespace

tune_result tune_closest_pair(const space& s, element_type type, std::uint64_t n,
                              const tune_options& options) {
  return type == element_type::f32 ? tune_as<float>(s, type, n, options)
                                   : tune_as<double>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
