// Probe of the transpose's kernels at every element size (1, 2, 4, 8 bytes)
// on shapes whose rows do not start on 16-byte boundaries, where production
// (gp::detail::cuda_transpose_sized) takes the sector-owned tiles for 1-,
// 2- and 4-byte elements and the peeled tiles for 8-byte ones: times
// production's dispatch, the sector-owned tiles and the peeled vector tiles
// launched directly (at 8 bytes, the row that says whether the sector
// tiles should take those elements too), and a
// device-to-device copy of the same bytes, the ceiling a transpose can
// reach. Checks: each kernel's output equals the host transpose of the
// input. Built and run by scripts/device-check.sh --probe-transpose
// (tune-transpose.txt). Medians of 20 isolated calls after 3 warm-ups.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include "gpuprim/cuda/device/device_transpose.cuh"
#include "probe_timing.cuh"

namespace gd = gpuprim::detail;
namespace gc = gpuprim::cuda_impl;

namespace {

// The peeled vector tiles at the library's default tile, one block a tile
// (what gp::transpose launched for unaligned rows before the sector tiles).
template <std::size_t Bytes>
void launch_peeled(const void* in, void* out, const gd::transpose_shape& s) {
  using E = typename gc::transpose_element<Bytes>::type;
  const gc::transpose_tiling t = gc::transpose_tiling_for<Bytes>(s, in, out);
  gc::launch_shape shape;
  const std::uint64_t tiles = t.tiles_down * t.tiles_across * s.batch;
  shape.grid = dim3(static_cast<unsigned>(std::min<std::uint64_t>(tiles, 1u << 20)));
  shape.block = dim3(gc::transpose_threads);
  shape.shared_bytes = t.tile_rows * t.pitch * static_cast<unsigned>(Bytes);
  gc::launch("transpose_tiles", "transpose", gc::transpose_tiles<Bytes, true>, shape,
             static_cast<const E*>(in), static_cast<E*>(out), s, t);
}

template <std::size_t Bytes>
void compare(std::size_t rows, std::size_t cols) {
  const std::size_t n = rows * cols, bytes = n * Bytes;
  std::vector<unsigned char> host(bytes), expect(bytes), got(bytes);
  std::mt19937_64 rng(20261127);
  for (auto& b : host)
    b = static_cast<unsigned char>(rng());
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      std::memcpy(&expect[(c * rows + r) * Bytes], &host[(r * cols + c) * Bytes], Bytes);
  void *in = nullptr, *out = nullptr;
  CHECK_CUDA(cudaMalloc(&in, bytes));
  CHECK_CUDA(cudaMalloc(&out, bytes));
  CHECK_CUDA(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  gd::transpose_shape s;
  s.rows = rows;
  s.cols = cols;
  s.ld_in = cols;
  s.ld_out = rows;
  const float copy_ms =
      median_ms([&] { CHECK_CUDA(cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice)); });
  std::printf("%zu x %zu, %zu-byte elements: copy of the same bytes %.1f us (%.0f GB/s)\n", rows,
              cols, Bytes, copy_ms * 1e3, 2.0 * bytes / (copy_ms * 1e6));
  const auto row = [&](const char* name, auto enqueue) {
    const float ms = median_ms(enqueue);
    CHECK_CUDA(cudaMemset(out, 0xA5, bytes));
    enqueue();
    CHECK_CUDA(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
    std::printf("  %-36s %8.1f us %6.0f GB/s %6.1f %% of copy  %s\n", name, ms * 1e3,
                2.0 * bytes / (ms * 1e6), 100.0 * copy_ms / ms,
                got == expect ? "equals the host transpose" : "DIFFERS FROM THE HOST TRANSPOSE");
  };
  row("production (cuda_transpose_sized)",
      [&] { gd::cuda_transpose_sized<Bytes>(in, out, s, nullptr); });
  row("sector-owned tiles, 64 rows", [&] {
    gc::launch_transpose_sectors<Bytes, gc::transpose_sector_rows, false>(in, out, s, nullptr);
  });
  row("peeled vector tiles", [&] { launch_peeled<Bytes>(in, out, s); });
  free_device(in, out);
}

template <std::size_t Bytes>
void shapes() {
  compare<Bytes>(10007, 3001);
  compare<Bytes>(3001, 10007);
  compare<Bytes>(8191, 8193);
}

}  // namespace

int main() {
  shapes<1>();
  shapes<2>();
  shapes<4>();
  shapes<8>();
}
