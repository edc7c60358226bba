// gp::tune on a CUDA device: the measuring function of the segmented reduce
// (the pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/segmented.hpp"

namespace gpuprim::tuning::cuda_tuning {

// Sums of segments of 1024 elements (the headline case), n elements in
// all. Each segment's sum is grouped the same whatever the grid; a
// tolerance still allows a candidate another grouping.
tune_result tune_segmented_reduce(const tuning_job& job) {
  return for_element_type<double, float>(job, [&]<class T>(std::uint64_t n) {
    constexpr std::uint64_t segment = 1024;
    const tuning_input input(random_values<T>(n, 3));
    const std::uint64_t segments = (n + segment - 1) / segment;
    std::vector<std::uint64_t> host_offsets(segments + 1);
    for (std::uint64_t i = 0; i <= segments; ++i)
      host_offsets[i] = std::min(n, i * segment);
    device_buffer offsets(host_offsets.size() * sizeof(std::uint64_t));
    check(cudaMemcpy(offsets.as<std::uint64_t>(), host_offsets.data(),
                     host_offsets.size() * sizeof(std::uint64_t), cudaMemcpyHostToDevice),
          "cudaMemcpy");
    device_buffer out(segments * sizeof(T));
    auto enqueue = [&](std::size_t copy) {
      gpuprim::detail::cuda_segmented_reduce_into(input.data->as<T>() + copy * n, n,
                                                  offsets.as<std::uint64_t>(), segments,
                                                  out.as<T>(), T{}, plus{}, input.stream);
    };
    auto result = [&] { return copy_back(out.as<T>(), segments, input.stream); };
    auto same = [](const std::vector<T>& sums, const std::vector<T>& reference) {
      const double eps = 4.0 * 11 * std::numeric_limits<T>::epsilon();
      for (std::size_t i = 0; i < sums.size(); ++i) {
        if (!(std::abs(double(sums[i]) - double(reference[i])) <= eps * std::abs(reference[i])))
          return false;
      }
      return true;
    };
    const double bytes = double(n) * sizeof(T) + double(segments) * (sizeof(T) + 8);
    return search_against_default(job, bytes, input.stream, input.copies, enqueue, result, same);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
