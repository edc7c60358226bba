// gp::tune on a CUDA device: the measuring function of the histogram (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/histogram.hpp"

namespace gpuprim::tuning::cuda_tuning {

// Bytes into their 256 values, or floats in [0, 1) into 1024 even bins.
// Counts are exact whatever the grid: every candidate must give the
// default's counts.
tune_result tune_histogram(const tuning_job& job) {
  return for_element_type<std::uint8_t, float>(job, [&]<class T>(std::uint64_t n) {
    std::vector<T> values(n);
    {
      const std::vector<double> unit = random_values<double>(n, 2);
      for (std::size_t i = 0; i < n; ++i)
        values[i] = sizeof(T) == 1 ? static_cast<T>(unit[i] * 256.0) : static_cast<T>(unit[i]);
    }
    const tuning_input input(values);
    values = {};
    const int bins = sizeof(T) == 1 ? 256 : 1024;
    const auto binner = sizeof(T) == 1 ? gpuprim::detail::even_binner<T>(0, 256, bins)
                                       : gpuprim::detail::even_binner<T>(0, 1, bins);
    device_buffer counts(bins * sizeof(std::uint32_t));
    device_buffer left_out(sizeof(std::uint64_t));
    auto enqueue = [&](std::size_t copy) {
      gpuprim::detail::cuda_histogram_into(input.data->as<T>() + copy * n, n,
                                           counts.as<std::uint32_t>(), bins, binner,
                                           left_out.as<std::uint64_t>(), input.stream);
    };
    auto result = [&] { return copy_back(counts.as<std::uint32_t>(), bins, input.stream); };
    return search_against_default(job, double(n) * sizeof(T), input.stream, input.copies, enqueue,
                                  result);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
