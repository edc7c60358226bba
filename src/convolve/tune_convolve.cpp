// gp::tune on a CUDA device: the measuring function of the convolution (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/convolve.hpp"

namespace gpuprim::tuning::cuda_tuning {

// One rows x cols image (n pixels) through a general 5 x 5 filter of
// random weights, mirrored borders. Another kernel variant may contract
// the 25 products differently: a tolerance of a few roundings.
tune_result tune_convolve(const tuning_job& job) {
  return for_element_type<double, float>(job, [&]<class T>(std::uint64_t n) {
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
      images.rows = job.rows;
      images.cols = job.cols;
      images.in_ld = job.cols;
      images.in_stride = n;
      images.out_ld = job.cols;
      images.out_stride = n;
      gpuprim::detail::cuda_convolve(images, plan, input.stream);
    };
    auto result = [&] { return copy_back(out.as<T>(), n, input.stream); };
    auto same = [](const std::vector<T>& pixels, const std::vector<T>& reference) {
      return agrees(pixels, reference, 64.0 * std::numeric_limits<T>::epsilon());
    };
    return search_against_default(job, 2.0 * double(n) * sizeof(T), input.stream, input.copies,
                                  enqueue, result, same);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
