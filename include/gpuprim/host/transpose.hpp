// CPU backend of the transpose family: cache-blocked, OpenMP.
//
// The matrix is cut into square tiles (64 x 64 elements of 2 or 4 bytes,
// 128 x 128 of bytes, 32 x 32 of 8 bytes, 16 x 16 of 16 bytes); each thread takes whole tiles, so a
// cache line of the output is written by one thread, once. A tile is read along the input's rows
// into a local buffer, transposed there (in L1), and written along the output's rows.
//
// On x86 (SSE2): a whole tile of 4- or 8-byte elements is transposed into the buffer through 4 x 4
// (2 x 2) blocks in registers, 16-byte loads and stores instead of one element at a time; and when
// the output is large (>= 32 MiB, far past the caches of one core) its rows leave the buffer with
// non-temporal stores, as the C library's large memcpy does, so that the output's lines are not
// first read from memory (3 -> 2 bytes of traffic per byte moved), and the rows of the thread's
// next tile are prefetched while the current one is moved; the row tiles then start at the
// output's 64-byte line crossings, so that whole tiles write whole lines.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/transpose/plan.hpp"

#if defined(__SSE2__) && !defined(__CUDA_ARCH__)
#include <emmintrin.h>
#include <xmmintrin.h>
#define GPUPRIM_HOST_TRANSPOSE_SSE2 1
#else
#define GPUPRIM_HOST_TRANSPOSE_SSE2 0
#endif

namespace gpuprim {

namespace host_impl {

using detail::transpose_shape;

// An element of `Bytes` bytes, moved as a whole (alignment 1, so the
// byte-generic entry takes any buffer; x86 loads it in one instruction).
template <std::size_t Bytes>
struct raw_element {
  unsigned char bytes[Bytes];
};

#if GPUPRIM_HOST_TRANSPOSE_SSE2
// buffer[c][r] = src[r * ld][c] for a whole Tile x Tile block of 4- or 8-byte elements, through
// 4 x 4 (2 x 2) blocks held in 16-byte registers; buffer rows are 16-byte aligned.
template <std::size_t Bytes, std::size_t Tile>
inline void transpose_block_sse2(const unsigned char* src, std::size_t ld_bytes,
                                 unsigned char* buffer) {
  constexpr std::size_t n = 16 / Bytes;  // elements per register
  constexpr std::size_t row_bytes = Tile * Bytes;
  const auto load = [&](std::size_t r, std::size_t c) {
    return _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + r * ld_bytes + c * Bytes));
  };
  const auto store = [&](std::size_t c, std::size_t r, __m128i v) {
    _mm_store_si128(reinterpret_cast<__m128i*>(buffer + c * row_bytes + r * Bytes), v);
  };
  for (std::size_t r = 0; r < Tile; r += n) {
    for (std::size_t c = 0; c < Tile; c += n) {
      if constexpr (Bytes == 4) {
        const __m128i a0 = load(r, c), a1 = load(r + 1, c), a2 = load(r + 2, c),
                      a3 = load(r + 3, c);
        const __m128i t0 = _mm_unpacklo_epi32(a0, a1);  // a00 a10 a01 a11
        const __m128i t1 = _mm_unpacklo_epi32(a2, a3);  // a20 a30 a21 a31
        const __m128i t2 = _mm_unpackhi_epi32(a0, a1);  // a02 a12 a03 a13
        const __m128i t3 = _mm_unpackhi_epi32(a2, a3);  // a22 a32 a23 a33
        store(c, r, _mm_unpacklo_epi64(t0, t1));
        store(c + 1, r, _mm_unpackhi_epi64(t0, t1));
        store(c + 2, r, _mm_unpacklo_epi64(t2, t3));
        store(c + 3, r, _mm_unpackhi_epi64(t2, t3));
      } else {
        const __m128i a0 = load(r, c), a1 = load(r + 1, c);
        store(c, r, _mm_unpacklo_epi64(a0, a1));
        store(c + 1, r, _mm_unpackhi_epi64(a0, a1));
      }
    }
  }
}
#endif

template <std::size_t Bytes>
void transpose_sized(host_backend backend, const void* in_bytes, void* out_bytes,
                     const transpose_shape& s) {
  using E = raw_element<Bytes>;
  // 8-16 KiB of buffer; output rows leave in segments of 128-256 bytes
  // (64 x 64 floats beat 32 x 32 and 128 x 128 on the dev machine).
  constexpr std::size_t tile = Bytes == 1 ? 128 : Bytes <= 4 ? 64 : Bytes == 8 ? 32 : 16;
  const auto* in = static_cast<const E*>(in_bytes);
  auto* out = static_cast<E*>(out_bytes);
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  const int threads = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  const std::size_t bytes = s.batch * s.rows * s.cols * Bytes;
  // Small problems are not worth waking the team.
  const bool parallel = bytes >= (std::size_t{1} << 16);
  static_cast<void>(parallel);  // (used only by the pragma)
  // Non-temporal stores only where the output could not stay in cache anyway.
  const bool stream_out = GPUPRIM_HOST_TRANSPOSE_SSE2 && bytes >= (std::size_t{32} << 20);
  static_cast<void>(stream_out);
  // Row tiles start where the output's rows cross a 64-byte line, when every
  // output row (and matrix) is the same distance into its line: then each
  // whole tile's output segments are whole lines, all of them non-temporal,
  // instead of a partial line at both ends of every segment (a malloc'ed
  // matrix starts 16 bytes into a line; each partial line was read from
  // memory twice, once for each of the two tiles that write it). The rows
  // before the first crossing form a thin first row of tiles: the grid of
  // row tiles is moved up by `shift` rows, and its first row clipped at 0.
  std::size_t shift = 0;
  if (stream_out && (s.ld_out * Bytes) % 64 == 0 &&
      (s.batch == 1 || (s.stride_out * Bytes) % 64 == 0)) {
    const std::size_t into_line = reinterpret_cast<std::uintptr_t>(out_bytes) % 64;
    const std::size_t lead = (64 - into_line) % 64 / Bytes;  // rows before the crossing
    if (into_line % Bytes == 0 && lead > 0 && lead < s.rows) shift = tile - lead;
  }
  const std::size_t tile_rows = (s.rows + shift + tile - 1) / tile;
  const std::size_t tile_cols = (s.cols + tile - 1) / tile;
  const std::size_t tiles = s.batch * tile_rows * tile_cols;
#pragma omp parallel num_threads(threads) if (parallel)
  {
#pragma omp for schedule(static) nowait
    for (std::size_t t = 0; t < tiles; ++t) {
      const std::size_t b = t / (tile_rows * tile_cols);
      const std::size_t rest = t % (tile_rows * tile_cols);
      const std::size_t k = rest / tile_cols;  // the row of tiles
      const std::size_t r0 = k == 0 ? 0 : k * tile - shift;
      const std::size_t c0 = rest % tile_cols * tile;
      const std::size_t r1 = std::min((k + 1) * tile - shift, s.rows);
      const std::size_t c1 = std::min(c0 + tile, s.cols);
      const E* src = in + b * s.stride_in;
      E* dst = out + b * s.stride_out;
      // Through a local buffer: the strided side of the transpose is the
      // buffer (in L1), and both matrices are touched along rows only (a
      // power-of-two leading dimension would otherwise send a tile's output
      // lines to one L1 set).
      alignas(64) E buffer[tile][tile];
#if GPUPRIM_HOST_TRANSPOSE_SSE2
      // The thread's next tile (static schedule: usually the next one along
      // the same rows) is asked for now, one 64-byte line at a time, so its
      // rows arrive while this one is moved (64 row streams are more than the
      // hardware prefetcher follows).
      if (stream_out && c1 + tile <= s.cols) {
        for (std::size_t r = r0; r < r1; ++r) {
          const char* next = reinterpret_cast<const char*>(src + r * s.ld_in + c1);
          for (std::size_t o = 0; o < tile * Bytes; o += 64)
            _mm_prefetch(next + o, _MM_HINT_T0);
        }
      }
#endif
      bool done = false;
#if GPUPRIM_HOST_TRANSPOSE_SSE2
      if constexpr (Bytes == 4 || Bytes == 8) {
        if (r1 - r0 == tile && c1 - c0 == tile) {
          transpose_block_sse2<Bytes, tile>(
              reinterpret_cast<const unsigned char*>(src + r0 * s.ld_in + c0), s.ld_in * Bytes,
              reinterpret_cast<unsigned char*>(&buffer[0][0]));
          done = true;
        }
      }
#endif
      if (!done) {
        for (std::size_t r = r0; r < r1; ++r) {
          const E* row = src + r * s.ld_in;
          for (std::size_t c = c0; c < c1; ++c)
            buffer[c - c0][r - r0] = row[c];
        }
      }
      const std::size_t segment = (r1 - r0) * Bytes;
      for (std::size_t c = c0; c < c1; ++c) {
        E* to = dst + c * s.ld_out + r0;
#if GPUPRIM_HOST_TRANSPOSE_SSE2
        if (stream_out) {
          // Only whole 64-byte lines go non-temporal (a partial line written
          // so is a read-modify-write in memory): the segment's head before
          // its first line boundary and its tail after the last are ordinary
          // stores (a malloc'ed matrix's rows start 16 bytes into a line).
          auto* into = reinterpret_cast<unsigned char*>(to);
          const auto* from = reinterpret_cast<const unsigned char*>(&buffer[c - c0][0]);
          const std::size_t head = std::min<std::size_t>(
              (64 - reinterpret_cast<std::uintptr_t>(into) % 64) % 64, segment);
          const std::size_t body = (segment - head) / 64 * 64;
          std::memcpy(into, from, head);
          for (std::size_t i = head; i < head + body; i += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(into + i),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i)));
          std::memcpy(into + head + body, from + head + body, segment - head - body);
          continue;
        }
#endif
        std::memcpy(to, buffer[c - c0], segment);
      }
    }
#if GPUPRIM_HOST_TRANSPOSE_SSE2
    // Non-temporal stores are weakly ordered: fence them before the team's
    // closing barrier, after which the caller (or another thread) reads the output.
    if (stream_out) _mm_sfence();
#endif
  }
}

// The same for an element size known only at run time (1, 2, 4, 8 or 16
// bytes; the caller has checked).
inline void transpose_bytes(host_backend backend, std::size_t element_size, const void* in,
                            void* out, const transpose_shape& s) {
  detail::with_element_size(element_size, [&](auto bytes) {
    transpose_sized<decltype(bytes)::value>(backend, in, out, s);
  });
}

}  // namespace host_impl
}  // namespace gpuprim
