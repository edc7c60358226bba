// Host side of the transpose ladder: launchers for the rungs of
// lab/ladder/transpose.cuh, the production gp::transpose, the attempts
// beyond it, and the table that the tests and `gpuprim bench transpose --ladder`
// iterate.
#include <cuda_runtime_api.h>

#include <climits>
#include <span>
#include <stdexcept>
#include <string>

#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/device/device_transpose.cuh"
#include "gpuprim/transpose.hpp"
#include "lab/ladder/dense.hpp"
#include "lab/ladder/transpose.cuh"

namespace gpuprim::ladder {
namespace {

using rung_kernel = void (*)(const float*, float*, int, int);

void check_shapes(device_matrix_view<const float> in, device_matrix_view<float> out) {
  if (!in.packed() || !out.packed() || out.rows() != in.cols() || out.cols() != in.rows()) {
    throw std::invalid_argument(
        "gpuprim::ladder: transpose rungs take packed in (rows x cols) and out (cols x rows)");
  }
  if (in.rows() > INT_MAX || in.cols() > INT_MAX ||
      (in.rows() + transpose_tile - 1) / transpose_tile > 65535) {
    throw std::invalid_argument("gpuprim::ladder: matrix too large for the transpose rungs");
  }
}

template <rung_kernel Kernel>
void run_rung(device_matrix_view<const float> in, device_matrix_view<float> out, stream_t stream) {
  check_shapes(in, out);
  if (in.empty()) return;
  const int rows = static_cast<int>(in.rows()), cols = static_cast<int>(in.cols());
  const dim3 grid((cols + transpose_tile - 1) / transpose_tile,
                  (rows + transpose_tile - 1) / transpose_tile);
  Kernel<<<grid, dim3(transpose_tile, transpose_block_rows), 0,
           reinterpret_cast<cudaStream_t>(stream)>>>(in.data(), out.data(), rows, cols);
  detail::check_launch("transpose ladder rung", "transpose ladder");
}

// Production's sector-owned tiles with bands of Rows output rows and
// rotated shared rows (the rungs that lost to its padded rows).
template <int Rows>
void run_rotated_sectors(device_matrix_view<const float> in, device_matrix_view<float> out,
                         stream_t stream) {
  check_shapes(in, out);
  const detail::transpose_shape s{
      .rows = in.rows(), .cols = in.cols(), .ld_in = in.ld(), .ld_out = out.ld()};
  cuda_impl::launch_transpose_sectors<4, Rows, true>(in.data(), out.data(), s, stream);
}

void run_production(device_matrix_view<const float> in, device_matrix_view<float> out,
                    stream_t stream) {
  check_shapes(in, out);
  transpose(cuda.on(stream), in, out);
}

// clang-format off
constexpr transpose_rung transpose_ladder[] = {
  {"transpose_copy", "(ceiling) a plain copy of the same bytes, coalesced both ways", true,
   run_rung<transpose_copy>},
  {"transpose_naive", "baseline: coalesced reads, strided writes (one 4-byte write per sector)", false,
   run_rung<transpose_naive>},
  {"transpose_shared_tile", "through a 32 x 32 shared tile: reads and writes both coalesced", false,
   run_rung<transpose_shared_tile>},
  {"transpose_padded_tile", "tile rows padded by one float: no shared-memory bank conflicts", false,
   run_rung<transpose_padded_tile>},
  {"transpose_diagonal", "diagonal block order: the partition-camping fix of the text", false,
   run_rung<transpose_diagonal>},
  {"gp::transpose",
   "production: 64 x 64 tiles of 16-byte vectors where rows start on 16-byte boundaries; elsewhere "
   "each output row's band starts on a 32-byte sector: whole sectors from one block, every access "
   "a 16-byte vector (no scalar heads and tails on odd rows); up to 7 rows above the band re-read",
   false, run_production},
  {"transpose_sector_tiles<64, rotated>",
   "shared rows rotated by their offset, loads 4 rows x 8 vectors a warp: no bank conflicts on the "
   "loads at any leading dimension",
   false, run_rotated_sectors<64>},
  {"transpose_sector_tiles<128, rotated>",
   "bands of 128 output rows: half the re-read rows per byte, 512 bytes per output row per tile",
   false, run_rotated_sectors<128>},
};
// clang-format on

}  // namespace

GPUPRIM_LADDER_DEFINE(transpose_rung, transpose_rungs, transpose_ladder);

}  // namespace gpuprim::ladder
