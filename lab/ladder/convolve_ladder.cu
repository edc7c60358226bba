// Host side of the convolution ladder: launchers for the rungs of
// lab/ladder/convolve.cuh, the library's separable kernel as the
// two-pass and the fused rungs, and the table that the tests and
// `gpuprim bench convolve --ladder` iterate.
#include <cuda_runtime_api.h>

#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/detail/launch.cuh"
#include "lab/ladder/convolve.cuh"
#include "lab/ladder/convolve_ladder.hpp"

namespace gpuprim::ladder {
namespace {

constexpr const char* algorithm = "convolve ladder";

void check_problem(device_matrix_view<const float> in, device_matrix_view<float> out,
                   std::span<const float> taps) {
  if (taps.empty() || taps.size() > 63) {
    throw std::invalid_argument("gpuprim::ladder: the convolution ladder takes 1 to 63 taps, got " +
                                std::to_string(taps.size()));
  }
  if (in.rows() != out.rows() || in.cols() != out.cols()) {
    throw std::invalid_argument("gpuprim::ladder: in and out differ in shape");
  }
  if (ranges_overlap(in, out)) throw std::invalid_argument("gpuprim::ladder: out overlaps in");
  if (in.rows() > 0x7fffffff || in.cols() > 0x7fffffff) {
    throw std::invalid_argument("gpuprim::ladder: the image is too large");
  }
}

std::vector<float> outer(std::span<const float> taps) {
  std::vector<float> w(taps.size() * taps.size());
  for (std::size_t i = 0; i < taps.size(); ++i) {
    for (std::size_t j = 0; j < taps.size(); ++j)
      w[i * taps.size() + j] = taps[i] * taps[j];
  }
  return w;
}

// cudaMemcpyToSymbolAsync from pageable memory returns once the data are
// staged, so `w` may go when this returns.
void copy_filter(const std::vector<float>& w, stream_t stream) {
  GPUPRIM_CUDA_CHECK(
      cudaMemcpyToSymbolAsync(convolve_ladder_filter, w.data(), w.size() * sizeof(float), 0,
                              cudaMemcpyHostToDevice, reinterpret_cast<cudaStream_t>(stream)),
      algorithm);
}

// The start of the rungs that read the filter from __constant__ memory:
// checks the problem and copies the filter there. False when the image is
// empty (nothing to launch).
bool start_with_constant_filter(device_matrix_view<const float> in, device_matrix_view<float> out,
                                std::span<const float> taps, stream_t stream) {
  check_problem(in, out, taps);
  if (in.empty()) return false;
  copy_filter(outer(taps), stream);
  return true;
}

// Lets `kernel` take `shared` bytes of dynamic shared memory (past the
// default 48 KiB only on request).
template <class Kernel>
void allow_shared_bytes(Kernel* kernel, unsigned shared) {
  if (shared <= 48 * 1024) return;
  GPUPRIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(shared)),
                     algorithm);
}

cuda_detail::launch_shape one_per_thread(device_matrix_view<const float> in, stream_t stream,
                                         unsigned shared = 0) {
  cuda_detail::launch_shape shape;
  shape.block = dim3(convolve_ladder_block, convolve_ladder_block);
  shape.grid = dim3(static_cast<unsigned>(cuda_detail::ceil_div(in.cols(), convolve_ladder_block)),
                    static_cast<unsigned>(cuda_detail::ceil_div(in.rows(), convolve_ladder_block)));
  shape.shared_bytes = shared;
  shape.stream = stream;
  return shape;
}

void run_naive(device_matrix_view<const float> in, device_matrix_view<float> out,
               std::span<const float> taps, stream_t stream) {
  check_problem(in, out, taps);
  if (in.empty()) return;
  // (A copy from pageable memory returns once `w` is staged; the scratch
  // filter is freed in stream order, after the kernel.)
  const std::vector<float> w = outer(taps);
  const detail::scratch_buffer filter(w.size() * sizeof(float), stream);
  detail::copy_to_device(filter.get(), w.data(), w.size() * sizeof(float), stream);
  cuda_detail::launch("convolve_naive_global", algorithm, convolve_naive_global,
                      one_per_thread(in, stream), in.data(), out.data(), int(in.rows()),
                      int(in.cols()), (long long)in.ld(), (long long)out.ld(),
                      filter.get<const float>(), int(taps.size()));
}

void run_constant(device_matrix_view<const float> in, device_matrix_view<float> out,
                  std::span<const float> taps, stream_t stream) {
  if (!start_with_constant_filter(in, out, taps, stream)) return;
  cuda_detail::launch("convolve_constant_filter", algorithm, convolve_constant_filter,
                      one_per_thread(in, stream), in.data(), out.data(), int(in.rows()),
                      int(in.cols()), (long long)in.ld(), (long long)out.ld(), int(taps.size()));
}

void run_tiled(device_matrix_view<const float> in, device_matrix_view<float> out,
               std::span<const float> taps, stream_t stream) {
  if (!start_with_constant_filter(in, out, taps, stream)) return;
  const int side = convolve_ladder_block + static_cast<int>(taps.size()) - 1;
  const auto shared = static_cast<unsigned>(side * side * sizeof(float));
  allow_shared_bytes(convolve_tiled_halo, shared);
  cuda_detail::launch("convolve_tiled_halo", algorithm, convolve_tiled_halo,
                      one_per_thread(in, stream, shared), in.data(), out.data(), int(in.rows()),
                      int(in.cols()), (long long)in.ld(), (long long)out.ld(), int(taps.size()));
}

void run_register_blocked(device_matrix_view<const float> in, device_matrix_view<float> out,
                          std::span<const float> taps, stream_t stream) {
  if (!start_with_constant_filter(in, out, taps, stream)) return;
  const int k = static_cast<int>(taps.size());
  const auto shared =
      static_cast<unsigned>((convolve_ladder_block * convolve_ladder_outputs + k - 1) *
                            (convolve_ladder_block + k - 1) * sizeof(float));
  allow_shared_bytes(convolve_register_blocked, shared);
  cuda_detail::launch_shape shape = one_per_thread(in, stream, shared);
  shape.grid.x = static_cast<unsigned>(
      cuda_detail::ceil_div(in.cols(), convolve_ladder_block * convolve_ladder_outputs));
  cuda_detail::launch("convolve_register_blocked", algorithm, convolve_register_blocked, shape,
                      in.data(), out.data(), int(in.rows()), int(in.cols()), (long long)in.ld(),
                      (long long)out.ld(), k);
}

std::vector<double> widened(std::span<const float> taps) {
  return std::vector<double>(taps.begin(), taps.end());
}

// Rung 5: the rows, then the columns, each a pass over the whole image
// (the library's separable kernel with a one-tap filter in the other
// direction), through a temporary image.
void run_two_pass(device_matrix_view<const float> in, device_matrix_view<float> out,
                  std::span<const float> taps, stream_t stream) {
  check_problem(in, out, taps);
  if (in.empty()) return;
  const auto w = widened(taps);
  const std::vector<double> one = {1.0};
  const detail::scratch_buffer tmp(in.rows() * in.cols() * sizeof(float), stream);
  const device_matrix_view<float> t(tmp.get<float>(), in.rows(), in.cols());
  correlate_separable(cuda.on(stream), in, w, one, t, border::replicate);
  correlate_separable(cuda.on(stream), device_matrix_view<const float>(t), one, w, out,
                      border::replicate);
}

// Rung 6: the library's fused separable kernel.
void run_fused(device_matrix_view<const float> in, device_matrix_view<float> out,
               std::span<const float> taps, stream_t stream) {
  check_problem(in, out, taps);
  const auto w = widened(taps);
  correlate_separable(cuda.on(stream), in, w, w, out, border::replicate);
}

// clang-format off
constexpr convolve_rung convolve_ladder[] = {
  {"convolve_naive_global", "baseline: one output per thread, window and filter from global memory",
   run_naive},
  {"convolve_constant_filter", "filter in constant memory: one broadcast per tap, not a load per thread",
   run_constant},
  {"convolve_tiled_halo", "tile + halo in shared memory: each pixel read once per block",
   run_tiled},
  {"convolve_register_blocked", "4 outputs per thread: each tap loaded once for 4 FMAs",
   run_register_blocked},
  {"convolve_separable_two_pass",
   "separable: 2k FMAs per pixel, not k^2 (a row pass and a column pass, a temporary image)",
   run_two_pass},
  {"convolve_separable_fused", "row pass into shared memory, column pass from it: image read once, written once",
   run_fused},
};
// clang-format on

}  // namespace

std::span<const convolve_rung> convolve_rungs() {
  return convolve_ladder;
}

}  // namespace gpuprim::ladder
