// gp::tune on a CUDA device: the measuring function of the transpose (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/transpose.hpp"

namespace gpuprim::tuning::cuda_tuning {

// A rows x cols matrix of E (uint32: any 4-byte element, uint64: any
// 8-byte one) into a separate output; every candidate must move every
// element to the default's place.
tune_result tune_transpose(const tuning_job& job) {
  return for_element_type<std::uint64_t, std::uint32_t>(job, [&]<class E>(std::uint64_t n) {
    const tuning_input input(random_keys<E>(n, 7));
    device_buffer out(n * sizeof(E));
    gpuprim::detail::transpose_shape shape;
    shape.rows = job.rows;
    shape.cols = job.cols;
    shape.ld_in = job.cols;
    shape.ld_out = job.rows;
    auto enqueue = [&](std::size_t copy) {
      gpuprim::detail::cuda_transpose_sized<sizeof(E)>(input.data->as<E>() + copy * n, out.as<E>(),
                                                       shape, input.stream);
    };
    auto result = [&] { return copy_back(out.as<E>(), n, input.stream); };
    return search_against_default(job, 2.0 * double(n) * sizeof(E), input.stream, input.copies,
                                  enqueue, result);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
