// gp::tune on a CUDA device: the measuring function of reduce (the pieces
// every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/reduce.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// Sums of values in [0, 1). Another grid groups the sum differently: a
// candidate's sum must be within the rounding of a tree of log2(n)
// levels, twice, of the default's.
template <class T>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  if (n == 0) throw std::invalid_argument("tune reduce: n must be positive");
  const tuning_input input(random_values<T>(n, 1));
  device_buffer out(sizeof(T));
  const auto fetch = gpuprim::detail::unary_fetch<identity>{};
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_reduce_into(input.data->as<T>() + copy * n, n, out.as<T>(), T{}, plus{},
                                      fetch, input.stream);
  };
  auto result = [&] { return copy_back(out.as<T>(), 1, input.stream)[0]; };
  const T reference = default_result(s, input.stream, enqueue, result);
  const double tolerance =
      4.0 * (std::log2(double(n)) + 1) * std::numeric_limits<T>::epsilon() * std::abs(reference);
  auto result_ok = [&] { return std::abs(double(result()) - double(reference)) <= tolerance; };
  return run_search(s, type, n, double(n) * sizeof(T), options, input.stream, input.copies, enqueue,
                    result_ok);
}

}  // namespace

tune_result tune_reduce(const space& s, element_type type, std::uint64_t n,
                        const tune_options& options) {
  return type == element_type::f64 ? tune_as<double>(s, type, n, options)
                                   : tune_as<float>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
