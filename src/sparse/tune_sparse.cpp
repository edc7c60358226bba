// gp::tune on a CUDA device: the measuring function of the SpMV (the pieces
// every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"

namespace gpuprim::tuning::cuda_tuning {
namespace {

// y = A x for the 5-point Poisson matrix of a side x side grid (n = side^2
// rows), with copies of the matrix covering twice the L2. The grid does not
// change how a row is summed; a tolerance is kept all the same.
template <class T>
tune_result tune_as(const space& s, element_type type, std::uint64_t n,
                    const tune_options& options) {
  const auto [side, other_side] = square_of(n, "spmv");
  if (side != other_side)
    throw std::invalid_argument("tune spmv: n must be a square (an even power of two)");
  const csr_matrix<T, int> host = poisson2d<T, int>(side);
  const double matrix_bytes = double(host.values().size()) * (sizeof(T) + sizeof(int)) +
                              double(host.rows() + 1) * sizeof(int);
  const std::size_t copies = input_copies(static_cast<std::size_t>(matrix_bytes));
  std::vector<device_csr_matrix<T, int>> matrices;
  for (std::size_t c = 0; c < copies; ++c)
    matrices.push_back(to_device(host));
  const std::vector<T> x_host = random_values<T>(host.cols(), 10);
  device_buffer x(x_host.size() * sizeof(T));
  check(cudaMemcpy(x.as<T>(), x_host.data(), x_host.size() * sizeof(T), cudaMemcpyHostToDevice),
        "cudaMemcpy");
  device_buffer y(host.rows() * sizeof(T));
  const tuning_stream stream;
  const spmv_choice choice = choose_spmv_kernel(host.stats());
  auto enqueue = [&](std::size_t copy) {
    gpuprim::detail::cuda_spmv<T, int>(T(1), matrices[copy].view(), x.as<T>(), T(0), y.as<T>(),
                                       choice, stream.stream);
  };
  auto result = [&] { return copy_back(y.as<T>(), host.rows(), stream.stream); };
  const std::vector<T> reference = default_result(s, stream.stream, enqueue, result);
  auto result_ok = [&] {
    return agrees(result(), reference, 16.0 * std::numeric_limits<T>::epsilon());
  };
  const double bytes = matrix_bytes + double(host.cols() + host.rows()) * sizeof(T);
  return run_search(s, type, n, bytes, options, stream.stream, copies, enqueue, result_ok);
}

}  // namespace

tune_result tune_spmv(const space& s, element_type type, std::uint64_t n,
                      const tune_options& options) {
  return type == element_type::f64 ? tune_as<double>(s, type, n, options)
                                   : tune_as<float>(s, type, n, options);
}

}  // namespace gpuprim::tuning::cuda_tuning
