// gp::tune on a CUDA device: the measuring function of the radix sort (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/sort.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// Keys-only ascending sorts, out of place (the input copies stay unsorted);
// every candidate must give the default's keys exactly.
template <class K>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  if (n == 0) throw std::invalid_argument("tune radix_sort: n must be positive");
  const tuning_input input(random_keys<K>(n, 5));
  device_buffer out(n * sizeof(K));
  const gpuprim::detail::radix_sort_plan plan =
      gpuprim::detail::make_radix_sort_plan<K>(n, sort_order::ascending, {}, 0, "tune");
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_radix_sort(input.data->as<K>() + copy * n, out.as<K>(), nullptr, nullptr,
                                     plan, input.stream);
  };
  auto result = [&] { return copy_back(out.as<K>(), n, input.stream); };
  return search_for_equal_results(s, type, n, 2.0 * double(n) * sizeof(K), options, input.stream,
                                  input.copies, enqueue, result);
}

}  // namespace

tune_result tune_radix_sort(const space& s, element_type type, std::uint64_t n,
                            const tune_options& options) {
  if (type == element_type::u64) return tune_as<std::uint64_t>(s, type, n, options);
  if (type == element_type::f32) return tune_as<float>(s, type, n, options);
  return tune_as<std::uint32_t>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
