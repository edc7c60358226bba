// gp::tune on a CUDA device: the measuring function of histogram (the pieces
// every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/histogram.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// even bins. Counts are exact whatever the grid: every candidate must give
// the default's counts.
template <class T>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  if (n == 0) throw std::invalid_argument("tune histogram: n must be positive");
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
  return search_for_equal_results(s, type, n, double(n) * sizeof(T), options, input.stream,
                                  input.copies, enqueue, result);
}

}  // namespace

tune_result tune_histogram(const space& s, element_type type, std::uint64_t n,
                           const tune_options& options) {
  return type == element_type::u8 ? tune_as<std::uint8_t>(s, type, n, options)
                                  : tune_as<float>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
