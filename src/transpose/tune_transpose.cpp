// gp::tune on a CUDA device: the measuring function of the transpose (the
// pieces every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/transpose.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// A rows x cols matrix of E (uint32: any 4-byte element, uint64: any 8-byte
// one) into a separate output; every candidate must move every element to
// the default's place.
template <class E>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  const auto [rows, cols] = square_of(n, "transpose");
  const tuning_input input(random_keys<E>(n, 7));
  device_buffer out(n * sizeof(E));
  gpuprim::detail::transpose_shape shape;
  shape.rows = rows;
  shape.cols = cols;
  shape.ld_in = cols;
  shape.ld_out = rows;
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_transpose_sized<sizeof(E)>(input.data->as<E>() + copy * n, out.as<E>(),
                                                     shape, input.stream);
  };
  auto result = [&] { return copy_back(out.as<E>(), n, input.stream); };
  return search_for_equal_results(s, type, n, 2.0 * double(n) * sizeof(E), options, input.stream,
                                  input.copies, enqueue, result);
}

}  // namespace

tune_result tune_transpose(const space& s, element_type type, std::uint64_t n,
                           const tune_options& options) {
  return type == element_type::u64 ? tune_as<std::uint64_t>(s, type, n, options)
                                   : tune_as<std::uint32_t>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
