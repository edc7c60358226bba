// gp::tune on a CUDA device: the measuring function of the scan and the
// segmented scan (the pieces every family shares, and the search:
// src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"

namespace gpuprim::tuning::cuda_tuning {

// Inclusive sums of values in [0, 1); the segmented scan: segments of
// 1024. The prefetch distance does not change how the sums are grouped, so
// every candidate must give the default's sums (a tolerance is kept all
// the same).
tune_result tune_scan(const tuning_job& job) {
  return for_element_type<double, float>(job, [&]<class T>(std::uint64_t n) {
    const bool segmented = job.s.id == algorithm::segmented_scan;
    const tuning_input input(random_values<T>(n, 4));
    device_buffer out(n * sizeof(T));
    device_buffer flags(segmented ? n : 1);
    if (segmented) {
      std::vector<std::uint8_t> heads(n, 0);
      for (std::uint64_t i = 0; i < n; i += 1024)
        heads[i] = 1;
      check(cudaMemcpy(flags.as<std::uint8_t>(), heads.data(), n, cudaMemcpyHostToDevice),
            "cudaMemcpy");
    }
    auto enqueue = [&](std::size_t copy) {
      const T* in = input.data->as<T>() + copy * n;
      if (segmented) {
        gpuprim::detail::cuda_scan_into(
            in, out.as<T>(), n, scan_kind::inclusive, flagged<T>{}, gpuprim::segmented<plus>{},
            gpuprim::detail::head_flag_fetch<T, std::uint8_t>{flags.as<std::uint8_t>()},
            input.stream);
      } else {
        gpuprim::detail::cuda_scan_into(in, out.as<T>(), n, scan_kind::inclusive, T{}, plus{},
                                        gpuprim::detail::unary_fetch<identity>{}, input.stream);
      }
    };
    auto result = [&] { return copy_back(out.as<T>(), n, input.stream); };
    const double tolerance = 4.0 * (std::log2(double(n)) + 1) * std::numeric_limits<T>::epsilon();
    auto same = [&](const std::vector<T>& sums, const std::vector<T>& reference) {
      return agrees(sums, reference, tolerance);
    };
    const double bytes = double(n) * (2 * sizeof(T) + (segmented ? 1 : 0));
    return search_against_default(job, bytes, input.stream, input.copies, enqueue, result, same);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
