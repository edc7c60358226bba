// The sector-owned tiles as the ladder rung measured them (f32, lab/ladder/transpose.cuh
// at commit 78fa916, section 6), kept for tune_transpose.cu to time beside production.
#pragma once
#include <cstdint>
namespace transpose_rung {
// 6. Sector-owned tiles. Bound attacked: on rows whose starts are not 16-byte
// aligned (odd leading dimensions) the production tiles cut every row at
// fixed columns, so each tile row has a head and a tail shorter than a vector,
// moved by extra divergent scalar instructions into sectors that the
// neighbouring tile also touches: L2 sees several requests per useful sector.
// Here the block that handles input columns [c0, c0 + 64) owns, in each
// output row c, the band of rows that starts on a 32-byte sector boundary of
// that output row: [band - a_c, band + Rows - a_c), a_c = the sector offset
// (elements) of output row c's first element. Every output sector is written
// whole, by one block, with 16-byte vectors; only the matrix's first and last
// rows have partial sectors. Loads read aligned 16-byte vectors that cover
// the tile's columns (the few neighbouring elements they also bring are
// dropped), so no load has a scalar head or tail either; the price is
// reading the `halo` rows above the band (the largest a_c, at most 7; none
// where every output row starts on a sector), which the tile above also
// reads, mostly from L2.
//
// Shape of the algorithm:
//  1. Block b takes tile (j, k) = (b / tiles_across, b % tiles_across): input
//     columns [64 k, 64 k + 64), band = Rows j.
//  2. Load: input rows [band - halo, band + Rows) into shared memory (pitch 65
//     as in the padded tile, or rotated rows, below), each row as aligned
//     16-byte vectors, transpose_sector_in_flight per thread in flight.
//  3. Store: each output row's owned band as aligned 16-byte vectors, each
//     vector four consecutive tile rows of one tile column; a warp writes 128
//     contiguous bytes into each of four output rows.
inline constexpr int transpose_sector_cols = 64;     // input columns per tile
inline constexpr int transpose_sector_floats = 8;    // floats per 32-byte sector
inline constexpr int transpose_sector_max_halo = 7;  // rows above the band that may be owned
inline constexpr int transpose_sector_threads = 256;
inline constexpr int transpose_sector_in_flight = 4;  // 16-byte loads per thread before storing
// Resident blocks per SM asked of ptxas: 40 registers on sm_90, no spill.
inline constexpr int transpose_sector_min_blocks = 6;

// The halo: the largest sector offset (elements) of an output row's first
// element, out[c * rows] for c < cols (periodic in c, period 8 at most).
inline int transpose_sector_halo(const float* out, long long rows, long long cols) {
  const auto word = static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(out) / 4);
  int halo = 0;
  for (long long c = 0; c < cols && c < transpose_sector_floats; ++c) {
    const int a = static_cast<int>((word + static_cast<unsigned long long>(c * rows)) %
                                   transpose_sector_floats);
    halo = a > halo ? a : halo;
  }
  return halo;
}

// Tiles down a matrix of `rows` rows: bands of Rows owned rows, the last
// of which may start `halo` rows above its band.
template <int Rows>
constexpr long long transpose_sector_tiles_down(long long rows, int halo) {
  return (rows + halo - 1) / Rows + 1;
}

// Rotated: tile rows of 64 floats, row h rotated by s_h + h (s_h its
// 16-byte offset at c0), and warps that load four rows x eight vectors:
// lane (h, m) writes element e of its vector to bank 4 m + h + e, all 32
// banks for any leading dimension (with pitch 65, bank h - s_h + 4 m + e
// reaches only 8 banks when the input's leading dimension is 1 mod 4, a
// 4-way conflict per element on this kernel's loads). The column reads
// stay conflict-free where the input's leading dimension is odd or the
// output's even. The 17th vector of each row (its last 1-3 elements) is
// loaded by a lane of its own, 32 rows per warp.
template <int Rows, bool Rotated>
__global__ void __launch_bounds__(transpose_sector_threads, transpose_sector_min_blocks)
    transpose_sector_tiles(const float* __restrict__ in, float* __restrict__ out, int rows,
                           int cols, unsigned tiles_across, int halo) {
  static_assert(Rows % 32 == 0, "a warp stores 32 rows of four output rows at a time");
  constexpr int C = transpose_sector_cols;
  constexpr int held_max = Rows + transpose_sector_max_halo;  // tile rows in shared memory
  constexpr int pitch = Rotated ? C : C + 1;
  constexpr int vectors = C / 4;    // 16-byte vectors per 64 aligned columns
  constexpr int slots = C / 4 + 1;  // 16-byte pieces covering 64 columns at any alignment
  constexpr int K = transpose_sector_in_flight;
  constexpr int T = transpose_sector_threads;
  __shared__ float tile[held_max * pitch];

  // 1. The tile. Offsets from 16- and 32-byte boundaries are taken from
  // addresses in 4-byte words modulo 2^32, which keeps them exact.
  const unsigned j = blockIdx.x / tiles_across;
  const int c0 = static_cast<int>(blockIdx.x % tiles_across) * C;
  const int band = static_cast<int>(j) * Rows;
  const int top = band - halo;   // input row of tile row 0
  const int held = Rows + halo;  // tile rows loaded
  const int nc = cols - c0 < C ? cols - c0 : C;
  const long long total = static_cast<long long>(rows) * cols;
  const auto in_word = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) / 4);
  const auto out_word = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(out) / 4);
  // s_h: tile row h's element offset from a 16-byte boundary at column c0.
  const auto offset = [&](int h) {
    return static_cast<int>(
        (in_word + static_cast<unsigned>(top + h) * static_cast<unsigned>(cols) + c0) & 3);
  };
  // Where element (h, c) of the tile lies in shared memory.
  const auto at = [&](int h, int c) {
    if constexpr (Rotated) {
      return h * pitch + ((c + offset(h) + h) & (C - 1));
    } else {
      return h * pitch + c;
    }
  };

  // 2. Held rows into shared memory. Piece m of tile row h starts at tile
  // column f = 4 m - s_h: a whole aligned vector, except where it would
  // reach before the matrix's first element or after its last. Item i is
  // piece (i % slots) of row i / slots; rotated, items first cover the 16
  // whole vectors of each row, 4 rows x 8 vectors a warp, then the 17th
  // piece of every row.
  const int main_items = Rotated ? (held + 3) / 4 * 4 * vectors : 0;
  const int items_in = Rotated ? main_items + held : held * slots;
  const auto piece = [&](int i, int& h, int& f) {
    int m;
    if constexpr (Rotated) {
      if (i < main_items) {
        const int w = i / 32, lane = i % 32;
        h = w / (vectors / 8) * 4 + lane / 8;
        m = w % (vectors / 8) * 8 + lane % 8;
      } else {
        h = i - main_items;
        m = vectors;
      }
    } else {
      h = i / slots;
      m = i % slots;
    }
    f = 4 * m - offset(h);
  };
  for (int base = threadIdx.x; base < items_in; base += K * T) {
    float4 v[K];
    unsigned loaded = 0;  // bit k: piece k holds elements of the tile
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int i = base + k * T;
      int h, f;
      piece(i, h, f);
      const int r = top + h;
      if (i < items_in && (!Rotated || h < held) && r >= 0 && r < rows && f < nc) {
        loaded |= 1u << k;
        const long long g = static_cast<long long>(r) * cols + c0 + f;  // the piece's first element
        const float* p = in + g;
        const bool whole = g >= 0 && g + 4 <= total;
        if (whole) {
          v[k] = *reinterpret_cast<const float4*>(p);
        } else {
          float parts[4];
#pragma unroll
          for (int e = 0; e < 4; ++e)
            parts[e] = g + e >= 0 && g + e < total ? p[e] : 0.0f;
          v[k] = make_float4(parts[0], parts[1], parts[2], parts[3]);
        }
      }
    }
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (loaded & (1u << k)) {
        int h, f;
        piece(base + k * T, h, f);
        const float parts[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
        for (int e = 0; e < 4; ++e) {
          const int c = f + e;
          if (c >= 0 && c < nc) tile[at(h, c)] = parts[e];
        }
      }
    }
  }
  __syncthreads();

  // 3. Owned bands out. Item i: warp-sized group q = i / 32 covers tile
  // columns 4 (q / G) .. + 3 (a lane's column: lane / 8) and pieces
  // 8 (q % G) .. + 7 (lane % 8) of their bands.
  constexpr int G = Rows / 32;
  const int items = (nc + 3) / 4 * G * 32;
  for (int i = threadIdx.x; i < items; i += T) {
    const int q = i / 32, lane = i % 32;
    const int cl = q / G * 4 + lane / 8;
    if (cl >= nc) continue;
    const int m = q % G * 8 + lane % 8;
    const int c = c0 + cl;
    const int a = static_cast<int>((out_word + static_cast<unsigned>(c) * rows) &
                                   (transpose_sector_floats - 1));
    const int r = band - a + 4 * m;                       // first output column of the piece
    const int h = halo - a + 4 * m;                       // its tile row
    float* o = out + static_cast<std::size_t>(c) * rows;  // output row c
    if (r >= 0 && r + 4 <= rows) {
      *reinterpret_cast<float4*>(o + r) = make_float4(tile[at(h, cl)], tile[at(h + 1, cl)],
                                                      tile[at(h + 2, cl)], tile[at(h + 3, cl)]);
    } else {
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (r + e >= 0 && r + e < rows) o[r + e] = tile[at(h + e, cl)];
    }
  }
}
}  // namespace transpose_rung
