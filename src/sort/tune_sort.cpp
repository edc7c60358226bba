// gp::tune on a CUDA device: the measuring function of the radix sort (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/sort.hpp"

namespace gpuprim::tuning::cuda_tuning {

// Keys-only ascending sorts, out of place (the input copies stay
// unsorted); every candidate must give the default's keys exactly.
tune_result tune_radix_sort(const tuning_job& job) {
  return for_element_type<std::uint64_t, float, std::uint32_t>(job, [&]<class K>(std::uint64_t n) {
    const tuning_input input(random_keys<K>(n, 5));
    device_buffer out(n * sizeof(K));
    const gpuprim::detail::radix_sort_plan plan =
        gpuprim::detail::make_radix_sort_plan<K>(n, sort_order::ascending, {}, 0, "tune");
    auto enqueue = [&](std::size_t copy) {
      gpuprim::detail::cuda_radix_sort(input.data->as<K>() + copy * n, out.as<K>(), nullptr,
                                       nullptr, plan, input.stream);
    };
    auto result = [&] { return copy_back(out.as<K>(), n, input.stream); };
    return search_against_default(job, 2.0 * double(n) * sizeof(K), input.stream, input.copies,
                                  enqueue, result);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
