// Host side of the convolution ladder: launchers for the rungs of
// lab/ladder/convolve.cuh, the library's separable kernel as the
// two-pass and the fused rungs, the filter layouts and launch shapes of
// rungs 7 and 8, and the table that the tests and
// `gpuprim bench convolve --ladder` iterate.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/vector.cuh"
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

// Copies the filter `w` into a __constant__ array (convolve_ladder_filter,
// convolve_band_filter). cudaMemcpyToSymbolAsync from pageable memory
// returns once the data are staged, so `w` may go when this returns.
template <class Symbol>
void copy_filter(const Symbol& symbol, const std::vector<float>& w, stream_t stream) {
  GPUPRIM_CUDA_CHECK(
      cudaMemcpyToSymbolAsync(symbol, w.data(), w.size() * sizeof(float), 0, cudaMemcpyHostToDevice,
                              reinterpret_cast<cudaStream_t>(stream)),
      algorithm);
}

// The start of the rungs that read the filter from __constant__ memory:
// checks the problem and copies the filter there. False when the image is
// empty (nothing to launch).
bool start_with_constant_filter(device_matrix_view<const float> in, device_matrix_view<float> out,
                                std::span<const float> taps, stream_t stream) {
  check_problem(in, out, taps);
  if (in.empty()) return false;
  copy_filter(convolve_ladder_filter, outer(taps), stream);
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

cuda_impl::launch_shape one_per_thread(device_matrix_view<const float> in, stream_t stream,
                                         unsigned shared = 0) {
  cuda_impl::launch_shape shape;
  shape.block = dim3(convolve_ladder_block, convolve_ladder_block);
  shape.grid = dim3(static_cast<unsigned>(cuda_impl::ceil_div(in.cols(), convolve_ladder_block)),
                    static_cast<unsigned>(cuda_impl::ceil_div(in.rows(), convolve_ladder_block)));
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
  cuda_impl::launch("convolve_naive_global", algorithm, convolve_naive_global,
                      one_per_thread(in, stream), in.data(), out.data(), int(in.rows()),
                      int(in.cols()), (long long)in.ld(), (long long)out.ld(),
                      filter.get<const float>(), int(taps.size()));
}

void run_constant(device_matrix_view<const float> in, device_matrix_view<float> out,
                  std::span<const float> taps, stream_t stream) {
  if (!start_with_constant_filter(in, out, taps, stream)) return;
  cuda_impl::launch("convolve_constant_filter", algorithm, convolve_constant_filter,
                      one_per_thread(in, stream), in.data(), out.data(), int(in.rows()),
                      int(in.cols()), (long long)in.ld(), (long long)out.ld(), int(taps.size()));
}

void run_tiled(device_matrix_view<const float> in, device_matrix_view<float> out,
               std::span<const float> taps, stream_t stream) {
  if (!start_with_constant_filter(in, out, taps, stream)) return;
  const int side = convolve_ladder_block + static_cast<int>(taps.size()) - 1;
  const auto shared = static_cast<unsigned>(side * side * sizeof(float));
  allow_shared_bytes(convolve_tiled_halo, shared);
  cuda_impl::launch("convolve_tiled_halo", algorithm, convolve_tiled_halo,
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
  cuda_impl::launch_shape shape = one_per_thread(in, stream, shared);
  shape.grid.x = static_cast<unsigned>(
      cuda_impl::ceil_div(in.cols(), convolve_ladder_block * convolve_ladder_outputs));
  cuda_impl::launch("convolve_register_blocked", algorithm, convolve_register_blocked, shape,
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

// ---- rungs 7 and 8 ----------------------------------------------------------

template <class Kernel>
int resident_blocks(Kernel* kernel, unsigned shared) {
  int n = 0;
  GPUPRIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                         &n, kernel, convolve_band_threads, static_cast<std::size_t>(shared)),
                     algorithm);
  return std::max(n, 1);
}

// Output rows per block: `unit` rows (a band or a group) times m, m up to
// 16, for which the grid's last wave of resident blocks (slots per wave) is
// fullest, counting the `extra` rows a block stages beyond its own outputs.
int rows_per_block(std::size_t rows, std::size_t tiles_x, int slots, int unit, int extra) {
  const auto units = static_cast<long long>(cuda_impl::ceil_div(rows, unit));
  double best = -1;
  int pick = 0;
  for (int m = 1; m <= 16; ++m) {
    const long long tiles_y = (units + m - 1) / m;
    if (tiles_y > 65535) continue;
    const double waves = static_cast<double>(tiles_y) * static_cast<double>(tiles_x) / slots;
    const double own = static_cast<double>(m) * unit;
    const double score = waves / std::ceil(waves) * own / (own + extra);
    if (score > best + 1e-9) {
      best = score;
      pick = m;
    }
  }
  if (pick == 0) throw std::invalid_argument("gpuprim::ladder: the image has too many rows");
  return pick * unit;
}

convolve_band_geometry band_geometry(device_matrix_view<const float> in,
                                     device_matrix_view<float> out, int krows, int ay, int ax,
                                     int span, int sh) {
  convolve_band_geometry g{};
  g.rows = static_cast<int>(in.rows());
  g.cols = static_cast<int>(in.cols());
  g.in_ld = static_cast<long long>(in.ld());
  g.out_ld = static_cast<long long>(out.ld());
  g.krows = krows;
  g.chunks = 1;
  g.ay = ay;
  g.ax = ax;
  g.lead = (ax + 3) / 4 * 4 - ax;
  g.sw = (g.lead + convolve_band_tile_w + span - 1 + 3) / 4 * 4;
  g.sh = sh;
  g.vector_in = cuda_impl::is_aligned(in.data(), 16) && in.ld() % 4 == 0;
  g.vector_out = cuda_impl::is_aligned(out.data(), 16) && out.ld() % 4 == 0;
  return g;
}

template <class Kernel>
void launch_band(const char* name, Kernel* kernel, convolve_band_geometry g, unsigned shared,
                 int unit, int extra, device_matrix_view<const float> in,
                 device_matrix_view<float> out, stream_t stream) {
  allow_shared_bytes(kernel, shared);
  const auto tiles_x = cuda_impl::ceil_div(in.cols(), convolve_band_tile_w);
  const int slots = resident_blocks(kernel, shared) * cuda_impl::current_multiprocessor_count();
  g.out_rows = rows_per_block(in.rows(), tiles_x, slots, unit, extra);
  cuda_impl::launch_shape shape;
  shape.block = dim3(convolve_band_lanes, convolve_band_warps);
  shape.grid = dim3(static_cast<unsigned>(tiles_x),
                    static_cast<unsigned>(cuda_impl::ceil_div(in.rows(), g.out_rows)));
  shape.shared_bytes = shared;
  shape.stream = stream;
  cuda_impl::launch(name, algorithm, kernel, shape, in.data(), out.data(), g);
}

// Rung 7 with the filter padded (zero taps, same centre) to K x K, K = 5 or
// 9: the unrolled kernel.
template <int K>
void general_pipelined_unrolled(device_matrix_view<const float> in, device_matrix_view<float> out,
                                std::span<const float> taps, stream_t stream) {
  const int k = static_cast<int>(taps.size());
  const int s = K / 2 - k / 2;
  std::vector<float> w(K * K, 0.0f);
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j)
      w[(i + s) * K + j + s] = taps[i] * taps[j];
  }
  copy_filter(convolve_band_filter, w, stream);
  const convolve_band_geometry g =
      band_geometry(in, out, K, K / 2, K / 2, K, convolve_band_h + K - 1);
  const auto shared = static_cast<unsigned>(2 * g.sh * g.sw * sizeof(float));
  launch_band("convolve_general_pipelined", convolve_general_pipelined<K, true>, g, shared,
              convolve_band_h, convolve_band_h / 2, in, out, stream);
}

// Rung 7 for larger filters: k rows, columns padded (zero taps, same
// centre) to chunks of 17, each chunk's taps at a pitch of 18.
void general_pipelined_looped(device_matrix_view<const float> in, device_matrix_view<float> out,
                              std::span<const float> taps, stream_t stream) {
  const int k = static_cast<int>(taps.size());
  const int chunks = (k + convolve_band_chunk - 1) / convolve_band_chunk;
  const int span = chunks * convolve_band_chunk;
  const int s = span / 2 - k / 2;
  const int pitch = chunks * convolve_band_chunk_pitch;
  std::vector<float> w(static_cast<std::size_t>(k * pitch), 0.0f);
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) {
      const int c = (j + s) / convolve_band_chunk;
      const int f = (j + s) % convolve_band_chunk;
      w[i * pitch + c * convolve_band_chunk_pitch + f] = taps[i] * taps[j];
    }
  }
  copy_filter(convolve_band_filter, w, stream);
  convolve_band_geometry g =
      band_geometry(in, out, k, k / 2, span / 2, span, convolve_band_h + k - 1);
  g.chunks = chunks;
  const auto shared = static_cast<unsigned>(2 * g.sh * g.sw * sizeof(float));
  launch_band("convolve_general_pipelined", convolve_general_pipelined<convolve_band_chunk, false>,
              g, shared, convolve_band_h, convolve_band_h / 2, in, out, stream);
}

void run_general_pipelined(device_matrix_view<const float> in, device_matrix_view<float> out,
                           std::span<const float> taps, stream_t stream) {
  check_problem(in, out, taps);
  if (in.empty()) return;
  if (taps.size() <= 5) return general_pipelined_unrolled<5>(in, out, taps, stream);
  if (taps.size() <= 9) return general_pipelined_unrolled<9>(in, out, taps, stream);
  general_pipelined_looped(in, out, taps, stream);
}

// Rung 8 with the taps padded (zeros, same centre) to K.
template <int K>
void separable_streaming(device_matrix_view<const float> in, device_matrix_view<float> out,
                         std::span<const float> taps, stream_t stream) {
  const int k = static_cast<int>(taps.size());
  const int s = K / 2 - k / 2;
  std::vector<float> w(convolve_band_column_taps + K, 0.0f);
  for (int j = 0; j < k; ++j) {
    w[s + j] = taps[j];
    w[convolve_band_column_taps + s + j] = taps[j];
  }
  copy_filter(convolve_band_filter, w, stream);
  const convolve_band_geometry g = band_geometry(in, out, K, K / 2, K / 2, K, K);
  const auto shared =
      static_cast<unsigned>((2 * K * g.sw + K * convolve_band_tile_w) * sizeof(float));
  launch_band("convolve_separable_streaming", convolve_separable_streaming<K>, g, shared, K, K - 1,
              in, out, stream);
}

void run_separable_streaming(device_matrix_view<const float> in, device_matrix_view<float> out,
                             std::span<const float> taps, stream_t stream) {
  check_problem(in, out, taps);
  if (in.empty()) return;
  const std::size_t k = taps.size();
  if (k <= 5) return separable_streaming<5>(in, out, taps, stream);
  if (k <= 9) return separable_streaming<9>(in, out, taps, stream);
  if (k <= 17) return separable_streaming<17>(in, out, taps, stream);
  if (k <= 33) return separable_streaming<33>(in, out, taps, stream);
  separable_streaming<63>(in, out, taps, stream);
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
  {"convolve_general_pipelined",
   "general k x k: next band staged by cp.async during this band's FMAs; 17 x 17 as a loop over input rows whose body fits the instruction cache",
   run_general_pipelined},
  {"convolve_separable_streaming",
   "separable: rows streamed down the strip behind cp.async, column sums in registers (1 shared load per k FMAs, no halo re-staged)",
   run_separable_streaming},
};
// clang-format on

}  // namespace

GPUPRIM_LADDER_DEFINE(convolve_rung, convolve_rungs, convolve_ladder);

}  // namespace gpuprim::ladder
