// Device-wide transpose, the kernels: out[b][c][r] = in[b][r][c], one
// kernel per element size (elements are moved as bits). Two kernels: the
// tiles below, for rows that all start on 16-byte boundaries and for thin
// matrices, and the sector-owned tiles further down, for other alignments.
// The host driver (tile shapes, the rule between the two, launches) is
// cuda/device/device_transpose.cuh.
//
// Shape of the algorithm (tiles):
//  1. The matrix is cut into tiles of tile_rows x tile_cols elements (64 x
//     64 for elements up to 8 bytes, 32 x 32 for 16 bytes; a thin matrix
//     gets tiles as thin as it is and as long as the same budget allows, so
//     a 2^24 x 4 matrix still moves 16 KiB per tile). Blocks of 256 threads
//     walk the tiles of every matrix of the stack, grid-stride.
//  2. Load: the block reads its tile row by row, coalesced, with 16-byte
//     vector loads. Where every row starts on a 16-byte boundary (aligned
//     base, leading dimension a multiple of the vector) four vectors per
//     thread are in flight before any is stored. Otherwise (thin matrices
//     of odd leading dimension or unaligned views, edges of odd width) each
//     row is cut at the 16-byte boundaries of memory: whole pieces are
//     vector loads, the row's head and tail go element by element, five
//     pieces per thread in flight, and the (row, piece) of each thread is
//     stepped without a division. Only 16-byte elements with 8-byte
//     alignment go element by element throughout.
//  3. The tile goes into shared memory, rows padded by 4 bytes (one bank),
//     so that reading a column later touches every bank once.
//  4. Store: the block writes the tile's columns as the output's rows,
//     again coalesced and with 16-byte vector stores (output rows of any
//     alignment cut the same way), each vector gathered from consecutive
//     rows of the shared tile.
#pragma once

#include <cuda_runtime.h>

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gpuprim/detail/transpose/transpose.hpp"

namespace gpuprim::cuda_impl {

inline constexpr unsigned transpose_threads = 256;
inline constexpr unsigned transpose_in_flight = 4;  // vectors per thread loaded before storing
// The same for rows of any alignment: a 64-wide row is 17 pieces, so 5 per
// thread cover a 64 x 64 tile (1088 pieces) in one round of loads.
inline constexpr unsigned transpose_in_flight_peeled = 5;
// Resident blocks per SM asked of the peeled kernel (__launch_bounds__; 0:
// no cap). Uncapped it takes 64 registers for 4-byte elements (4 blocks of
// 256 per SM, against 6 for the aligned kernel's 38). A cap spills on sm_90
// (ptxas, 4 / 8-byte elements): 6 blocks (40 registers) 80 / 80 bytes,
// 5 blocks (48 registers) 48 / 56 bytes; with 3 pieces in flight instead
// of 5, 5 blocks spill 4 / 0 bytes. Left uncapped until measured
// (bench/results/notes-2026-11-25-dense-bf16.md).
inline constexpr unsigned transpose_peeled_min_blocks = 0;

// The type an element of `Bytes` bytes moves as.
template <std::size_t Bytes>
struct transpose_element;
template <>
struct transpose_element<1> {
  using type = unsigned char;
};
template <>
struct transpose_element<2> {
  using type = unsigned short;
};
template <>
struct transpose_element<4> {
  using type = unsigned int;
};
template <>
struct transpose_element<8> {
  using type = unsigned long long;
};
// 16-byte elements (complex<double>) need only 8-byte alignment.
struct alignas(8) transpose_pair {
  unsigned long long lo, hi;
};
template <>
struct transpose_element<16> {
  using type = transpose_pair;
};

// Item `first`, `first` + step, ... of a (line, slot) grid with `slots`
// slots per line, walked without a division per item.
struct transpose_walk {
  unsigned line, slot;
  unsigned step_lines, step_slots, slots;
  __device__ transpose_walk(unsigned first, unsigned step, unsigned slots_per_line)
      : line(first / slots_per_line),
        slot(first % slots_per_line),
        step_lines(step / slots_per_line),
        step_slots(step % slots_per_line),
        slots(slots_per_line) {}
  __device__ void advance() {
    line += step_lines;
    slot += step_slots;
    if (slot >= slots) {
      slot -= slots;
      ++line;
    }
  }
};

// Elements from the last 16-byte boundary of memory at or before p.
template <std::size_t Bytes>
__device__ __forceinline__ unsigned element_offset(const void* p) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) % 16 / Bytes);
}

// Stores tile rows r .. r + V - 1 of tile column c (shared, rows `pitch`
// elements apart) as one 16-byte vector at p (16-byte aligned).
template <unsigned V, class E>
__device__ __forceinline__ void store_tile_column(E* p, const E* tile, unsigned pitch, unsigned r,
                                                  unsigned c) {
  E parts[V];
#pragma unroll
  for (unsigned e = 0; e < V; ++e)
    parts[e] = tile[(r + e) * pitch + c];
  uint4 v;
  memcpy(&v, parts, 16);
  *reinterpret_cast<uint4*>(p) = v;
}

// Items threadIdx.x, + transpose_threads, ... below `count`, K at a time:
// load(i) of all K before store(i, loaded) of any, so that a thread has K
// loads in flight.
template <unsigned K, class Load, class Store>
__device__ __forceinline__ void copy_in_flight(unsigned count, Load load, Store store) {
  for (unsigned base = threadIdx.x; base < count; base += K * transpose_threads) {
    decltype(load(0u)) v[K];
#pragma unroll
    for (unsigned k = 0; k < K; ++k) {
      const unsigned i = base + k * transpose_threads;
      if (i < count) v[k] = load(i);
    }
#pragma unroll
    for (unsigned k = 0; k < K; ++k) {
      const unsigned i = base + k * transpose_threads;
      if (i < count) store(i, v[k]);
    }
  }
}

struct transpose_tiling {
  unsigned tile_rows;
  unsigned tile_cols;
  unsigned pitch;  // elements per row of the shared tile (tile_cols + padding)
  bool vector_loads;
  bool vector_stores;
  std::uint64_t tiles_down;    // tiles per column of one matrix
  std::uint64_t tiles_across;  // tiles per row of one matrix
};

// Peeled: rows of any alignment through vectors (step 2 below); a kernel of
// its own, so that the aligned path keeps its register count (38 against
// 64 for f32 on sm_90, 6 blocks per SM instead of 4).
template <std::size_t Bytes, bool Peeled>
__global__ void __launch_bounds__(transpose_threads, Peeled ? transpose_peeled_min_blocks : 0)
    transpose_tiles(const typename transpose_element<Bytes>::type* __restrict__ in,
                    typename transpose_element<Bytes>::type* __restrict__ out,
                    detail::transpose_shape s, transpose_tiling t) {
  using E = typename transpose_element<Bytes>::type;
  constexpr unsigned V = 16 / Bytes;  // elements per 16-byte vector
  constexpr unsigned K = transpose_in_flight;
  extern __shared__ __align__(16) unsigned char transpose_shared[];
  E* tile = reinterpret_cast<E*>(transpose_shared);

  const std::uint64_t per_matrix = t.tiles_down * t.tiles_across;
  const std::uint64_t total = per_matrix * s.batch;
  for (std::uint64_t id = blockIdx.x; id < total; id += gridDim.x) {
    const std::uint64_t b = id / per_matrix;
    const std::uint64_t rest = id % per_matrix;
    const std::uint64_t r0 = rest / t.tiles_across * t.tile_rows;
    const std::uint64_t c0 = rest % t.tiles_across * t.tile_cols;
    const unsigned nr =
        s.rows - r0 < t.tile_rows ? static_cast<unsigned>(s.rows - r0) : t.tile_rows;
    const unsigned nc =
        s.cols - c0 < t.tile_cols ? static_cast<unsigned>(s.cols - c0) : t.tile_cols;
    const E* src = in + b * s.stride_in + r0 * s.ld_in + c0;
    E* dst = out + b * s.stride_out + c0 * s.ld_out + r0;

    // 2-3. Tile rows into shared memory.
    if (t.vector_loads && nc % V == 0) {
      const unsigned per_row = nc / V;
      copy_in_flight<K>(
          nr * per_row,
          [&](unsigned i) {
            return *reinterpret_cast<const uint4*>(src + std::size_t(i / per_row) * s.ld_in +
                                                   i % per_row * V);
          },
          [&](unsigned i, const uint4& v) {
            E parts[V];
            memcpy(parts, &v, 16);
            E* row = tile + (i / per_row) * t.pitch + i % per_row * V;
#pragma unroll
            for (unsigned e = 0; e < V; ++e)
              row[e] = parts[e];
          });
    } else if constexpr (Peeled) {
      // Row starts of any alignment: each row is cut at 16-byte boundaries
      // of memory into `slots` pieces of up to V elements; a whole piece is
      // one vector load, the first and last of the row (the head before the
      // first boundary, the tail after the last) go element by element.
      const unsigned slots = (nc + 2 * V - 2) / V;
      const unsigned first_off = element_offset<Bytes>(src);
      const unsigned ld_off = static_cast<unsigned>(s.ld_in) & (V - 1);
      constexpr unsigned KP = transpose_in_flight_peeled;
      transpose_walk w(threadIdx.x, transpose_threads, slots);
      while (w.line < nr) {
        uint4 v[KP];
        unsigned row_k[KP];
        int col_k[KP];
#pragma unroll
        for (unsigned k = 0; k < KP; ++k) {
          const unsigned r = w.line;
          const int first =
              static_cast<int>(w.slot * V) - static_cast<int>((first_off + r * ld_off) & (V - 1));
          row_k[k] = r;
          col_k[k] = first;
          if (r < nr) {
            const E* row = src + std::size_t(r) * s.ld_in;
            if (first >= 0 && first + static_cast<int>(V) <= static_cast<int>(nc)) {
              v[k] = *reinterpret_cast<const uint4*>(row + first);
            } else {
              E parts[V];
#pragma unroll
              for (unsigned e = 0; e < V; ++e) {
                const int c = first + static_cast<int>(e);
                parts[e] = c >= 0 && c < static_cast<int>(nc) ? row[c] : E{};
              }
              memcpy(&v[k], parts, 16);
            }
          }
          w.advance();
        }
#pragma unroll
        for (unsigned k = 0; k < KP; ++k) {
          if (row_k[k] < nr) {
            E parts[V];
            memcpy(parts, &v[k], 16);
            E* row = tile + row_k[k] * t.pitch;
#pragma unroll
            for (unsigned e = 0; e < V; ++e) {
              const int c = col_k[k] + static_cast<int>(e);
              if (c >= 0 && c < static_cast<int>(nc)) row[c] = parts[e];
            }
          }
        }
      }
    } else {
      copy_in_flight<K>(
          nr * nc, [&](unsigned i) { return src[std::size_t(i / nc) * s.ld_in + i % nc]; },
          [&](unsigned i, const E& v) { tile[(i / nc) * t.pitch + i % nc] = v; });
    }
    __syncthreads();

    // 4. Tile columns out as rows of the output.
    if (t.vector_stores && nr % V == 0) {
      const unsigned per_row = nr / V;
      const unsigned count = nc * per_row;
      for (unsigned i = threadIdx.x; i < count; i += transpose_threads) {
        const unsigned c = i / per_row;
        const unsigned r = i % per_row * V;
        store_tile_column<V>(dst + std::size_t(c) * s.ld_out + r, tile, t.pitch, r, c);
      }
    } else if constexpr (Peeled) {
      // The same cut of each output row at 16-byte boundaries of memory.
      const unsigned slots = (nr + 2 * V - 2) / V;
      const unsigned first_off = element_offset<Bytes>(dst);
      const unsigned ld_off = static_cast<unsigned>(s.ld_out) & (V - 1);
      for (transpose_walk w(threadIdx.x, transpose_threads, slots); w.line < nc; w.advance()) {
        const unsigned c = w.line;
        const int first =
            static_cast<int>(w.slot * V) - static_cast<int>((first_off + c * ld_off) & (V - 1));
        E* row = dst + std::size_t(c) * s.ld_out;
        if (first >= 0 && first + static_cast<int>(V) <= static_cast<int>(nr)) {
          store_tile_column<V>(row + first, tile, t.pitch, static_cast<unsigned>(first), c);
        } else {
#pragma unroll
          for (unsigned e = 0; e < V; ++e) {
            const int r = first + static_cast<int>(e);
            if (r >= 0 && r < static_cast<int>(nr)) row[r] = tile[r * t.pitch + c];
          }
        }
      }
    } else {
      const unsigned count = nr * nc;
      for (unsigned i = threadIdx.x; i < count; i += transpose_threads) {
        const unsigned c = i / nr;
        const unsigned r = i % nr;
        dst[std::size_t(c) * s.ld_out + r] = tile[r * t.pitch + c];
      }
    }
    __syncthreads();  // the tile is reused by the next iteration
  }
}

// Sector-owned tiles, for rows of any alignment (the dispatch is in
// cuda_transpose_sized). Bound attacked: L1 and L2 requests per useful
// byte. Tiles cut at fixed columns leave, on rows that start inside a
// 16-byte vector, a head and a tail of 1 to V - 1 elements per tile row,
// moved by extra divergent scalar instructions into sectors that the
// neighbouring tile also writes, so L2 receives each end sector of a row
// segment in several pieces. Here the block that handles input columns
// [c0, c0 + 64) owns, in each output row c, the band of Rows output
// columns that starts on a 32-byte sector of that row: [band - a_c, band +
// Rows - a_c), a_c the sector offset (elements) of output row c's first
// element. Every output sector is written whole, by one block, with
// 16-byte vectors; only the first and last element of an output row may
// lie in a partial sector. Loads read the aligned vectors that cover the
// tile's columns (the neighbouring elements they bring are dropped, and no
// load reaches outside the matrix's first and last element), so no load
// has a scalar head or tail either; the price is reading the `halo` rows
// above the band (the largest a_c: at most 32 / Bytes - 1, none where
// every output row starts on a sector), which the tile above also reads,
// mostly from L2.
//
// Shape of the algorithm (sector-owned tiles):
//  1. A block per tile: block x of matrix y (the matrices stepped by
//     65535 past that), input columns [c0, c0 + 64), band of Rows input
//     rows; tile row 0 is input row band - halo.
//  2. Load: Rows + halo input rows into shared memory (rows padded by 4
//     bytes as in the tiles above, or rotated, below), each row as the
//     aligned 16-byte vectors covering its 64 columns, 4 per thread in
//     flight.
//  3. Store: each output row's owned band as aligned 16-byte vectors, each
//     gathered from V consecutive tile rows of one tile column; a warp
//     writes 128 contiguous bytes into each of four output rows (64 bytes
//     into each of eight for 1-byte elements).
inline constexpr unsigned transpose_sector_cols = 64;  // input columns per tile
inline constexpr unsigned transpose_sector_rows = 64;  // owned output columns per tile
inline constexpr unsigned transpose_sector_threads = 256;
inline constexpr unsigned transpose_sector_in_flight =
    4;  // 16-byte loads per thread before storing
// Resident blocks per SM asked of ptxas: 6 (40 registers on sm_90, no
// spill for 4- and 8-byte elements); 1- and 2-byte elements, whose vectors
// are 16 and 8 elements, spill at 40 registers (124 and 20 bytes) and get 4
// (64 registers).
template <std::size_t Bytes>
inline constexpr unsigned transpose_sector_min_blocks = Bytes <= 2 ? 4 : 6;

// The shape as the sector-owned tiles index it: everything inside one
// matrix in 32-bit integers (rows, columns and leading dimensions below
// transpose_sector_limit, checked by transpose_sectors_fit), products of a
// row and a leading dimension widened to 64 bits, and the stack in 64 bits.
struct transpose_sector_shape {
  int rows, cols, ld_in, ld_out;
  unsigned tiles_across;  // tiles per band of Rows input rows
  unsigned halo;          // tile rows above the band
  std::uint64_t batch, stride_in, stride_out;
};

// a * b in 64 bits as one widening multiply (IMAD.WIDE): written in C++, the
// compiler may hoist the widening of a loop-invariant factor and multiply
// in 64 bits, four instructions.
__device__ __forceinline__ long long wide_product(int a, int b) {
  long long p;
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(p) : "r"(a), "r"(b));
  return p;
}

// Stores the 16 bytes of `parts` at `p` (global memory, 16-byte aligned)
// with one vector store. Written as a uint4 store, the compiler turns it
// into a 16-byte copy of 4-byte alignment, four 4-byte stores, which costs
// the sector tiles a third of their speed. No "memory" clobber: the output
// is not read in the kernel, and a clobber would cost the input's loads
// their read-only path.
template <class E, int V>
__device__ __forceinline__ void store_vector16(E* p, const E (&parts)[V]) {
  static_assert(sizeof(E) * V == 16);
  unsigned w[4];
  memcpy(w, parts, 16);
  asm volatile("st.global.v4.u32 [%0], {%1, %2, %3, %4};" ::"l"(__cvta_generic_to_global(p)),
               "r"(w[0]), "r"(w[1]), "r"(w[2]), "r"(w[3]));
}

// Rotated (4-byte elements only; a ladder rung, it loses to the padded
// rows): tile rows of 64 elements, row h rotated by s_h + h (s_h its
// 16-byte offset at c0), and warps that load four rows x eight vectors:
// lane (h, m) writes element e of its vector to bank 4 m + h + e, all 32
// banks for any leading dimension (with padded rows, bank h - s_h + 4 m + e
// reaches only 8 banks when the input's leading dimension is 1 mod 4). The
// 17th vector of each row (its last 1-3 elements) is loaded by a lane of
// its own, 32 rows per warp.
//
// One tile per block and 32-bit arithmetic inside a matrix (one 32-bit
// division to find the tile, offsets as ints, rows times leading
// dimensions as one widening multiply, 64 bits only for the matrix's
// base) keep the instructions per element few once the traffic is a
// copy's.
template <std::size_t Bytes, unsigned Rows, bool Rotated>
__global__ void __launch_bounds__(transpose_sector_threads, transpose_sector_min_blocks<Bytes>)
    transpose_sectors(const typename transpose_element<Bytes>::type* __restrict__ in,
                      typename transpose_element<Bytes>::type* __restrict__ out,
                      transpose_sector_shape s) {
  static_assert(Bytes <= 8, "16-byte elements are one vector each: no heads or tails to remove");
  static_assert(!Rotated || Bytes == 4, "the rotated layout is for 4-byte elements");
  using E = typename transpose_element<Bytes>::type;
  constexpr int V = 16 / Bytes;  // elements per 16-byte vector
  constexpr int S = 32 / Bytes;  // elements per 32-byte sector
  constexpr int C = transpose_sector_cols;
  constexpr int P = Rows / V;       // vectors per owned band of an output row
  constexpr int L = P < 8 ? P : 8;  // lanes of a warp on one output row
  constexpr int W = 32 / L;         // output rows per warp
  constexpr int G = P / L;          // warps per W output rows
  static_assert(Rows % S == 0 && P % L == 0, "bands start on sectors, warps cover them");
  constexpr int padding = Rotated ? 0 : (Bytes < 4 ? 4 / Bytes : 1);
  constexpr int pitch = C + padding;      // elements per row of the shared tile
  constexpr int held_max = Rows + S - 1;  // tile rows in shared memory
  constexpr int vectors = C / V;          // 16-byte vectors per 64 aligned columns
  constexpr int slots = vectors + 1;      // pieces covering 64 columns at any alignment
  constexpr int K = transpose_sector_in_flight;
  constexpr int T = transpose_sector_threads;
  __shared__ E tile[held_max * pitch];

  // 1. The tile: band j and columns [c0, c0 + 64) of matrices blockIdx.y,
  // blockIdx.y + gridDim.y, ... Offsets from 16- and 32-byte boundaries are
  // taken from addresses in elements modulo 2^32, which keeps them exact.
  const unsigned j = blockIdx.x / s.tiles_across;
  const int c0 = static_cast<int>(blockIdx.x - j * s.tiles_across) * C;
  const int band = static_cast<int>(j) * Rows;
  const int halo = static_cast<int>(s.halo);
  const int top = band - halo;   // input row of tile row 0
  const int held = Rows + halo;  // tile rows loaded
  const int rows = s.rows;
  const int nc = s.cols - c0 < C ? s.cols - c0 : C;
  const long long extent = wide_product(rows - 1, s.ld_in) + s.cols;  // of a matrix
  const auto in_first = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(in) / Bytes);
  const auto out_first = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(out) / Bytes);
  for (std::uint64_t b = blockIdx.y; b < s.batch; b += gridDim.y) {
    const E* matrix_in = in + b * s.stride_in;
    E* matrix_out = out + b * s.stride_out;
    const unsigned in_at = in_first + static_cast<unsigned>(b * s.stride_in) + c0;
    const unsigned out_at = out_first + static_cast<unsigned>(b * s.stride_out);
    // s_h: tile row h's element offset from a 16-byte boundary at column c0.
    const auto offset = [&](int h) {
      return static_cast<int>(
          (in_at + static_cast<unsigned>(top + h) * static_cast<unsigned>(s.ld_in)) & (V - 1));
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
    // column f = V m - s_h: a whole aligned vector, except where it would
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
      f = V * m - offset(h);
    };
    for (int base = threadIdx.x; base < items_in; base += K * T) {
      uint4 v[K];
      unsigned loaded = 0;  // bit k: piece k holds elements of the tile
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const int i = base + k * T;
        int h, f;
        piece(i, h, f);
        const int r = top + h;
        if (i < items_in && (!Rotated || h < held) && r >= 0 && r < rows && f < nc) {
          loaded |= 1u << k;
          // The piece's first element.
          const long long g = wide_product(r, s.ld_in) + (c0 + f);
          // Read-only loads (__ldg): the vector store below is inline PTX,
          // which keeps the compiler from proving it on its own.
          if (g >= 0 && g + V <= extent) {
            v[k] = __ldg(reinterpret_cast<const uint4*>(matrix_in + g));
          } else {
            E parts[V];
#pragma unroll
            for (int e = 0; e < V; ++e)
              parts[e] = g + e >= 0 && g + e < extent ? __ldg(matrix_in + g + e) : E{};
            memcpy(&v[k], parts, 16);
          }
        }
      }
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (loaded & (1u << k)) {
          int h, f;
          piece(base + k * T, h, f);
          E parts[V];
          memcpy(parts, &v[k], 16);
#pragma unroll
          for (int e = 0; e < V; ++e) {
            const int c = f + e;
            if (c >= 0 && c < nc) tile[at(h, c)] = parts[e];
          }
        }
      }
    }
    __syncthreads();

    // 3. Owned bands out. Item i: warp-sized group q = i / 32 covers tile
    // columns W (q / G) .. + W - 1 (a lane's column: lane / L) and vectors
    // L (q % G) .. + L - 1 (lane % L) of their bands.
    const int items = (nc + W - 1) / W * G * 32;
    for (int i = threadIdx.x; i < items; i += T) {
      const int q = i / 32, lane = i % 32;
      const int cl = q / G * W + lane / L;
      if (cl >= nc) continue;
      const int m = q % G * L + lane % L;
      const int c = c0 + cl;
      const int a = static_cast<int>(
          (out_at + static_cast<unsigned>(c) * static_cast<unsigned>(s.ld_out)) & (S - 1));
      const int r = band - a + V * m;                 // the vector's first output column
      const int h = halo - a + V * m;                 // its tile row
      E* o = matrix_out + wide_product(c, s.ld_out);  // output row c
      if (r >= 0 && r + V <= rows) {
        E parts[V];
#pragma unroll
        for (int e = 0; e < V; ++e)
          parts[e] = tile[at(h + e, cl)];
        store_vector16(o + r, parts);
      } else {
#pragma unroll
        for (int e = 0; e < V; ++e)
          if (r + e >= 0 && r + e < rows) o[r + e] = tile[at(h + e, cl)];
      }
    }
    if (b + gridDim.y < s.batch) __syncthreads();  // the tile is reused for the next matrix
  }
}

}  // namespace gpuprim::cuda_impl
