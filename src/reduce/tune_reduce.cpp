// gp::tune on a CUDA device: the measuring function of reduce (the pieces
// every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/reduce.hpp"

namespace gpuprim::tuning::cuda_tuning {

// Sums of values in [0, 1). Another grid groups the sum differently: a
// candidate's sum must be within the rounding of a tree of log2(n)
// levels, twice, of the default's.
tune_result tune_reduce(const tuning_job& job) {
  return for_element_type<double, float>(job, [&]<class T>(std::uint64_t n) {
    const tuning_input input(random_values<T>(n, 1));
    device_buffer out(sizeof(T));
    auto enqueue = [&](std::size_t copy) {
      gpuprim::detail::cuda_reduce_into(input.data->as<T>() + copy * n, n, out.as<T>(), T{}, plus{},
                                        gpuprim::detail::unary_fetch<identity>{}, input.stream);
    };
    auto result = [&] { return copy_back(out.as<T>(), 1, input.stream)[0]; };
    const double rounding = 4.0 * (std::log2(double(n)) + 1) * std::numeric_limits<T>::epsilon();
    auto same = [&](T value, T reference) {
      return std::abs(double(value) - double(reference)) <= rounding * std::abs(reference);
    };
    return search_against_default(job, double(n) * sizeof(T), input.stream, input.copies, enqueue,
                                  result, same);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
