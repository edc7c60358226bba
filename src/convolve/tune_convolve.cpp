// gp::tune on a CUDA device: the measuring function of the convolution (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/convolve.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// One rows x cols image (n pixels) through a general 5 x 5 filter of
// random weights, mirrored borders. Another kernel variant may contract
// the 25 products differently: a tolerance of a few roundings.
template <class T>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  const auto [rows, cols] = square_of(n, "convolve");
  const tuning_input input(random_values<T>(n, 8));
  device_buffer out(n * sizeof(T));
  std::vector<double> weights(25);
  {
    const std::vector<double> unit = random_values<double>(25, 9);
    for (std::size_t i = 0; i < 25; ++i)
      weights[i] = 0.02 + unit[i] / 12.5;  // nonzero, about 1 in all
  }
  const gpuprim::detail::convolve_plan plan =
      gpuprim::detail::make_general_plan("convolve", filter(5, 5, weights), border::mirror, true);
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::convolve_images<T> images;
    images.in = input.data->as<T>() + copy * n;
    images.out = out.as<T>();
    images.count = 1;
    images.rows = rows;
    images.cols = cols;
    images.in_ld = cols;
    images.in_stride = n;
    images.out_ld = cols;
    images.out_stride = n;
    gpuprim::detail::cuda_convolve(images, plan, input.stream);
  };
  auto result = [&] { return copy_back(out.as<T>(), n, input.stream); };
  const std::vector<T> reference = default_result(s, input.stream, enqueue, result);
  auto result_ok = [&] {
    return agrees(result(), reference, 64.0 * std::numeric_limits<T>::epsilon());
  };
  return run_search(s, type, n, 2.0 * double(n) * sizeof(T), options, input.stream, input.copies,
                    enqueue, result_ok);
}

}  // namespace

tune_result tune_convolve(const space& s, element_type type, std::uint64_t n,
                          const tune_options& options) {
  return type == element_type::f64 ? tune_as<double>(s, type, n, options)
                                   : tune_as<float>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
