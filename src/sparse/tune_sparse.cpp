// gp::tune on a CUDA device: the measuring function of the SpMV (the pieces
// every family shares, and the search: src/tune/tuner_cuda.hpp).
#include "../tune/tuner_cuda.hpp"

#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"

namespace gpuprim::tuning::cuda_tuning {

// y = A x for the 5-point Poisson matrix of a side x side grid (n =
// side^2 rows), with copies of the matrix covering twice the L2. The grid
// does not change how a row is summed; a tolerance is kept all the same.
tune_result tune_spmv(const tuning_job& job) {
  return for_element_type<double, float>(job, [&]<class T>(std::uint64_t n) {
    const csr_matrix<T, int> host = poisson2d<T, int>(job.rows);
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
    auto same = [](const std::vector<T>& values, const std::vector<T>& reference) {
      return agrees(values, reference, 16.0 * std::numeric_limits<T>::epsilon());
    };
    const double bytes = matrix_bytes + double(host.cols() + host.rows()) * sizeof(T);
    return search_against_default(job, bytes, stream.stream, copies, enqueue, result, same);
  });
}

}  // namespace gpuprim::tuning::cuda_tuning
