// gp::tune on a CUDA device: the measuring function of the sorting networks
// (the pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/sorting_network.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// The bitonic sort of the whole array (n a power of two), in place. A
// network does the same work whatever the order of its input, so the timed
// runs may sort copies sorted by earlier runs; the checked run gets
// unsorted input again (restored from a pristine copy).
template <class T>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  if (n < 2 || (n & (n - 1)) != 0)
    throw std::invalid_argument("tune sorting_network: n must be a power of two of at least 2");
  const std::vector<T> keys = random_keys<T>(n, 6);
  const tuning_input input(keys);
  device_buffer pristine(n * sizeof(T));
  check(cudaMemcpy(pristine.as<T>(), keys.data(), n * sizeof(T), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  auto restore = [&] {
    check(cudaMemcpyAsync(input.data->as<T>(), pristine.as<T>(), n * sizeof(T),
                          cudaMemcpyDeviceToDevice, input.stream),
          "cudaMemcpyAsync");
  };
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_bitonic_sort(input.data->as<T>() + copy * n, n, sort_less{},
                                       input.stream);
  };
  auto result = [&] { return copy_back(input.data->as<T>(), n, input.stream); };
  restore();
  return search_for_equal_results(s, type, n, 2.0 * double(n) * sizeof(T), options, input.stream,
                                  input.copies, enqueue, result, restore);
}

}  // namespace

tune_result tune_sorting_network(const space& s, element_type type, std::uint64_t n,
                                 const tune_options& options) {
  return type == element_type::u32 ? tune_as<std::uint32_t>(s, type, n, options)
                                   : tune_as<float>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
