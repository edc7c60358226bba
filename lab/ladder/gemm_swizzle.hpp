// Where a 16-byte chunk of a staged gemm tile lives in shared memory: the
// XOR swizzle of the pipelined tensor-core rung (lab/ladder/gemm_mma.cuh),
// plain C++ so that the host tests can check it (tests/host/gemm_swizzle_test.cpp).
//
// A tile is `rows` x `chunks_per_row` chunks of 16 bytes (8 bf16 elements),
// unpadded. ldmatrix reads eight 16-byte rows per phase; with rows of 64 or
// 512 bytes the same chunk of 8 consecutive rows would fall on 2 or 1 of the
// 8 bank groups of 16 bytes (4- or 8-way conflicts). XOR-ing the chunk index
// with bits of the row spreads them over all 8 groups, for the stores of
// cp.async as well (8 neighbouring threads fill one 128-byte line).
#pragma once

#include "gpuprim/core/macros.hpp"

namespace gpuprim::ladder {

// Chunk index (in 16-byte units from the tile's start) of chunk `chunk` of
// row `row`. ChunksPerRow is 4 (64-byte rows: two rows share a 128-byte line)
// or a multiple of 8 (a row is one or more whole lines).
template <int ChunksPerRow>
GPUPRIM_HD constexpr int swizzled_chunk(int row, int chunk) {
  static_assert(ChunksPerRow == 4 || ChunksPerRow % 8 == 0,
                "gemm tiles have rows of 64 bytes or of whole 128-byte lines");
  if constexpr (ChunksPerRow == 4) {
    // Rows r and r + 1 share a line (halves 0 and 1); lines differ in the
    // low two bits of the chunk.
    return row * 4 + (chunk ^ ((row >> 1) & 3));
  } else {
    // Only the chunk's low three bits change: it stays in its own line.
    return row * ChunksPerRow + (chunk ^ (row & 7));
  }
}

}  // namespace gpuprim::ladder
