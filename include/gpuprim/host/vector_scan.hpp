// Prefix sums of one 16-byte SSE2 vector at a time, for the host scan's
// common case: gp::plus over float, double and 32/64-bit integers, input
// and output of the same type.
//
// Why: the scalar scan stores one element per instruction, and a core
// retires about one store per cycle, so the scalar loop cannot go faster
// than one element per cycle even with its eight lanes hiding the adds'
// latency. Here a vector of W = 16 / sizeof(T) elements is scanned in
// registers (log2 W shift-and-add steps), the lane's carry added, and
// stored with one instruction; the carry chain per vector (an add and a
// broadcast) is hidden by the eight lanes running side by side.
//
// Floating-point sums come out associated differently from a sequential
// loop (pairs before the carry), as the lanes of the two-pass scan already
// do; integer sums are exact.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"

namespace gpuprim::host_impl {

#if defined(__SSE2__)

template <class T>
struct vector_scan_ops;  // defined for the types below only

template <>
struct vector_scan_ops<float> {
  using vec = __m128;
  static constexpr std::size_t width = 4;
  static vec load(const float* p) { return _mm_loadu_ps(p); }
  static void store(float* p, vec x) { _mm_storeu_ps(p, x); }
  static void stream(float* p, vec x) { _mm_stream_ps(p, x); }  // p 16-byte aligned
  static vec splat(float x) { return _mm_set1_ps(x); }
  static vec add(vec a, vec b) { return _mm_add_ps(a, b); }
  // Moves every element up by `Elements`, zeros in at the bottom.
  template <int Elements>
  static vec shift_up(vec x) {
    return _mm_castsi128_ps(_mm_slli_si128(_mm_castps_si128(x), Elements * 4));
  }
  static vec splat_last(vec x) { return _mm_shuffle_ps(x, x, 0xFF); }
};

template <>
struct vector_scan_ops<double> {
  using vec = __m128d;
  static constexpr std::size_t width = 2;
  static vec load(const double* p) { return _mm_loadu_pd(p); }
  static void store(double* p, vec x) { _mm_storeu_pd(p, x); }
  static void stream(double* p, vec x) { _mm_stream_pd(p, x); }
  static vec splat(double x) { return _mm_set1_pd(x); }
  static vec add(vec a, vec b) { return _mm_add_pd(a, b); }
  template <int Elements>
  static vec shift_up(vec x) {
    return _mm_castsi128_pd(_mm_slli_si128(_mm_castpd_si128(x), Elements * 8));
  }
  static vec splat_last(vec x) { return _mm_unpackhi_pd(x, x); }
};

// 32- and 64-bit integers, signed or not (two's complement sums are the
// same bits either way).
template <class T, std::size_t Size = sizeof(T)>
struct integer_vector_scan_ops {
  using vec = __m128i;
  static constexpr std::size_t width = 16 / Size;
  static vec load(const T* p) { return _mm_loadu_si128(reinterpret_cast<const vec*>(p)); }
  static void store(T* p, vec x) { _mm_storeu_si128(reinterpret_cast<vec*>(p), x); }
  static void stream(T* p, vec x) { _mm_stream_si128(reinterpret_cast<vec*>(p), x); }
  static vec splat(T x) {
    if constexpr (Size == 4)
      return _mm_set1_epi32(static_cast<int>(x));
    else
      return _mm_set1_epi64x(static_cast<long long>(x));
  }
  static vec add(vec a, vec b) {
    if constexpr (Size == 4)
      return _mm_add_epi32(a, b);
    else
      return _mm_add_epi64(a, b);
  }
  template <int Elements>
  static vec shift_up(vec x) {
    return _mm_slli_si128(x, Elements * int(Size));
  }
  static vec splat_last(vec x) {
    if constexpr (Size == 4)
      return _mm_shuffle_epi32(x, 0xFF);
    else
      return _mm_unpackhi_epi64(x, x);
  }
};

template <class T>
requires(std::is_integral_v<T> && !std::is_same_v<T, bool> &&
         (sizeof(T) == 4 || sizeof(T) == 8)) struct vector_scan_ops<T>
    : integer_vector_scan_ops<T> {
};

template <class T, class = void>
inline constexpr bool has_vector_scan_ops = false;
template <class T>
inline constexpr bool has_vector_scan_ops<T, std::void_t<decltype(vector_scan_ops<T>::width)>> =
    true;

// Sums of one vector's elements up to each (inclusive), before any carry.
template <class T>
typename vector_scan_ops<T>::vec vector_inclusive_sums(typename vector_scan_ops<T>::vec x) {
  using ops = vector_scan_ops<T>;
  x = ops::add(x, ops::template shift_up<1>(x));
  if constexpr (ops::width == 4) x = ops::add(x, ops::template shift_up<2>(x));
  return x;
}

// Elements of a 64-byte cache line.
template <class T>
inline constexpr std::size_t line_elements = 64 / sizeof(T);

// Scans `Lanes` lanes of `length` elements side by side: lane k is
// in[k * stride ...] into out[k * stride ...], starting from carry[k];
// returns each lane's carry in `carry`. `length` is a whole number of
// vectors, or with Stream of lines.
//
// Stream: the output is written with streaming stores, a whole cache line
// per lane at a time (its vectors stored back to back, so the write
// combining buffer fills at once), so memory sees one write per element and
// no read of the old line first: for outputs far larger than the caches, a
// third less traffic. Every out + k * stride must then start a line. The
// caller calls streaming_stores_done() before others read the output.
template <bool Exclusive, bool Stream, std::size_t Lanes, class T>
void vector_scan_lanes(const T* in, T* out, std::size_t stride, std::size_t length,
                       T (&carry)[Lanes]) {
  using ops = vector_scan_ops<T>;
  using vec = typename ops::vec;
  // One vector per step, or one line (line_elements / width vectors).
  constexpr std::size_t step = Stream ? line_elements<T> : ops::width;
  vec c[Lanes];
  for (std::size_t k = 0; k < Lanes; ++k)
    c[k] = ops::splat(carry[k]);
  for (std::size_t i = 0; i < length; i += step) {
    for (std::size_t k = 0; k < Lanes; ++k) {
      for (std::size_t j = i; j < i + step; j += ops::width) {
        const vec sums = vector_inclusive_sums<T>(ops::load(in + k * stride + j));
        const vec inclusive = ops::add(c[k], sums);
        const vec result = Exclusive ? ops::add(c[k], ops::template shift_up<1>(sums)) : inclusive;
        if constexpr (Stream) {
          ops::stream(out + k * stride + j, result);
        } else {
          ops::store(out + k * stride + j, result);
        }
        c[k] = ops::splat_last(inclusive);
      }
    }
  }
  alignas(16) T last[ops::width];
  for (std::size_t k = 0; k < Lanes; ++k) {
    ops::store(last, c[k]);
    carry[k] = last[0];
  }
}

#else

template <class T>
inline constexpr bool has_vector_scan_ops = false;

#endif

// Whether the host scan of In into Out (accumulating T) with Op and Fetch
// runs on vectors: a plain sum, no transform.
template <class In, class Out, class T, class Op, class Fetch>
inline constexpr bool vector_scan_applies =
    std::is_same_v<In, T>&& std::is_same_v<Out, T>&& std::is_same_v<Op, plus>&&
        std::is_same_v<Fetch, detail::unary_fetch<identity>>&& has_vector_scan_ops<T>;

}  // namespace gpuprim::host_impl
