// The transpose ladder of the optimization text (float, 32 x 32 tiles,
// blocks of 32 x 8 threads, each thread 4 elements), oldest first; the
// launchers are in lab/ladder/transpose_ladder.cu. After the text's rungs
// comes the library's own gp::transpose (cuda/device/device_transpose.cuh),
// then attempts beyond it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpuprim::ladder {

inline constexpr int transpose_tile = 32;
inline constexpr int transpose_block_rows = 8;

// Rungs 0 and 1: each thread moves 4 elements of the block's 32 x 32 tile
// straight from in to out, to the same place (a copy) or transposed.
template <bool Transposed>
__device__ __forceinline__ void move_tile_directly(const float* __restrict__ in,
                                                   float* __restrict__ out, int rows, int cols) {
  const int c = blockIdx.x * transpose_tile + threadIdx.x;
  const int r0 = blockIdx.y * transpose_tile + threadIdx.y;
  for (int j = 0; j < transpose_tile; j += transpose_block_rows) {
    const int r = r0 + j;
    const std::size_t to = Transposed ? std::size_t(c) * rows + r : std::size_t(r) * cols + c;
    if (r < rows && c < cols) out[to] = in[std::size_t(r) * cols + c];
  }
}

// 0. The ceiling: a copy of the same bytes, coalesced on both sides.
__global__ void transpose_copy(const float* __restrict__ in, float* __restrict__ out, int rows,
                               int cols) {
  move_tile_directly<false>(in, out, rows, cols);
}

// 1. Naive: reads along rows (coalesced), writes down columns (a 4-byte write per 32-byte sector).
__global__ void transpose_naive(const float* __restrict__ in, float* __restrict__ out, int rows,
                                int cols) {
  move_tile_directly<true>(in, out, rows, cols);
}

// Loads the block's 32 x 32 tile into shared memory and writes it back
// transposed; Pitch = 32 has 32-way bank conflicts on the column reads,
// Pitch = 33 none. (bx, by) is the tile this block handles.
template <int Pitch>
__device__ __forceinline__ void transpose_through_tile(const float* __restrict__ in,
                                                       float* __restrict__ out, int rows, int cols,
                                                       int bx, int by) {
  __shared__ float tile[transpose_tile][Pitch];
  int c = bx * transpose_tile + threadIdx.x;
  int r = by * transpose_tile + threadIdx.y;
  for (int j = 0; j < transpose_tile; j += transpose_block_rows)
    if (r + j < rows && c < cols)
      tile[threadIdx.y + j][threadIdx.x] = in[std::size_t(r + j) * cols + c];
  __syncthreads();
  // Output tile (by, bx): its rows are the input tile's columns.
  c = by * transpose_tile + threadIdx.x;
  r = bx * transpose_tile + threadIdx.y;
  for (int j = 0; j < transpose_tile; j += transpose_block_rows)
    if (r + j < cols && c < rows)
      out[std::size_t(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

// 2. Coalesced: through a shared tile, so reads and writes are both along rows; column reads of the
// tile conflict 32-way.
__global__ void transpose_shared_tile(const float* __restrict__ in, float* __restrict__ out,
                                      int rows, int cols) {
  transpose_through_tile<transpose_tile>(in, out, rows, cols, blockIdx.x, blockIdx.y);
}

// 3. Padded tile: one extra column shifts each row by a bank, no conflicts.
__global__ void transpose_padded_tile(const float* __restrict__ in, float* __restrict__ out,
                                      int rows, int cols) {
  transpose_through_tile<transpose_tile + 1>(in, out, rows, cols, blockIdx.x, blockIdx.y);
}

// 4. Diagonal block order: consecutive blocks take tiles along diagonals, so concurrent writes
// spread over memory partitions. The padded tile's body, only the block coordinates remapped; on a
// square grid the remapping is an add and a conditional subtract (blockIdx.x + blockIdx.y <
// 2 gridDim.x), no division, so that its cost before the first load is a few instructions.
__global__ void transpose_diagonal(const float* __restrict__ in, float* __restrict__ out, int rows,
                                   int cols) {
  int bx, by;
  if (gridDim.x == gridDim.y) {
    by = blockIdx.x;
    const unsigned sum = blockIdx.x + blockIdx.y;
    bx = static_cast<int>(sum >= gridDim.x ? sum - gridDim.x : sum);
  } else {
    const int id = blockIdx.x + gridDim.x * blockIdx.y;
    by = id % gridDim.y;
    bx = (id / gridDim.y + by) % gridDim.x;
  }
  transpose_through_tile<transpose_tile + 1>(in, out, rows, cols, bx, by);
}

// 5. The library's gp::transpose (cuda/device/device_transpose.cuh): vector
// tiles where rows start on 16-byte boundaries, sector-owned tiles
// elsewhere. The rotated variants of the sector-owned tiles, which lose to
// production's padded rows, are production's kernel with Rotated set
// (launched from transpose_ladder.cu).

}  // namespace gpuprim::ladder
