// gp::tune on a CUDA device: the measuring function of the sorting networks
// (the pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/sort.hpp"

namespace gpuprim::tuning::cuda_tuning {

// The bitonic sort of the whole array (n a power of two), in place. A
// network does the same work whatever the order of its input, so the timed
// runs may sort copies sorted by earlier runs; the checked run gets
// unsorted input again (restored from a pristine copy).
tune_result tune_sorting_network(const tuning_job& job) {
  return for_element_type<std::uint32_t, float>(job, [&]<class T>(std::uint64_t n) {
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
    return search_against_default(job, 2.0 * double(n) * sizeof(T), input.stream, input.copies,
                                  enqueue, result, std::equal_to<>{}, restore);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
