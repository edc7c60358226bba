// The host keys-only sort on AVX-512 (include/gpuprim/host/simd_sort.hpp):
// a vectorised quicksort. The library compiles for baseline x86-64; every
// function that uses AVX-512 carries a target attribute and runs only after
// __builtin_cpu_supports said yes. The shape of it:
//  1. Keys become integers whose signed (int32 / int64) or unsigned order
//     is gpuprim's order: integers as they are, inverted for descending; a
//     float's bits with all but the sign flipped where the sign is set (so
//     -0.0 < +0.0), inverted for descending. Out of place, the first
//     partition (2.) does this as it copies the input to the output; in
//     place, or when that partition meets a NaN, a pass does it, moving
//     NaNs out of the way (their payloads and input order survive) to be
//     written after the sorted keys at the end.
//  2. Quicksort: the pivot is the middle of 2 vectors of samples sorted by
//     the network of 4.; a partition reads vectors from whichever end of
//     the unread middle has less free space and writes each vector's keys
//     below the pivot to the left, the rest to the right (compress into a
//     register, then a store: a compressing store to memory is slow on Zen
//     4), with 2 x 4 vectors of each end held in registers so the writes
//     never overtake the reads. It also gives the range's smallest and
//     largest key: a range of equal keys is done.
//  3. Duplicates: when the pivot is the samples' smallest, the partition is
//     by <= pivot, and a side that can hold only keys equal to the pivot is
//     not sorted again, so many equal keys cannot stall the recursion. A
//     depth limit (2 log2 n) hands a bad range to heap sort.
//  4. Ranges of at most 16 vectors (256 32-bit or 128 64-bit keys) are
//     sorted in registers by a bitonic network: masked loads padded with
//     the largest key, compare-exchanges within a vector by a lane shuffle
//     and a masked min, between vectors by min / max.
//  5. Each range is written back as the caller's keys (the inverse of 1.)
//     where it is done: the network's stores, ranges of equal keys, the
//     heap sort's output. No pass follows the sort.
#include "gpuprim/host/simd_sort.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GPUPRIM_HAS_SIMD_SORT 1
#include <immintrin.h>
#endif

namespace gpuprim::host_impl {
namespace {

std::atomic<bool> simd_allowed{true};

#if GPUPRIM_HAS_SIMD_SORT

bool cpu_has_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("popcnt");
  return has;
}

#define GP_AVX512 __attribute__((target("avx512f,popcnt")))
#define GP_AVX512_INLINE __attribute__((target("avx512f,popcnt"), always_inline)) inline
#define GP_AVX512_LAMBDA __attribute__((target("avx512f,popcnt"), always_inline))

// ---- vectors of 32- and 64-bit lanes ----------------------------------------

struct lanes32 {
  using reg = __m512i;
  using mask = __mmask16;
  static constexpr int lanes = 16;
  GP_AVX512_INLINE static reg load_n(const void* p, int n, reg fill) {
    return _mm512_mask_loadu_epi32(fill, mask((1u << n) - 1), p);
  }
  GP_AVX512_INLINE static void store_n(void* p, int n, reg v) {
    _mm512_mask_storeu_epi32(p, mask((1u << n) - 1), v);
  }
  GP_AVX512_INLINE static void store_first(void* p, mask m, reg v) {
    _mm512_mask_storeu_epi32(p, m, v);
  }
  GP_AVX512_INLINE static reg compress(mask m, reg v) { return _mm512_maskz_compress_epi32(m, v); }
  GP_AVX512_INLINE static reg permute(reg idx, reg v) { return _mm512_permutexvar_epi32(idx, v); }
  // Lanes of m from b, the others from a.
  GP_AVX512_INLINE static reg blend(mask m, reg a, reg b) {
    return _mm512_mask_blend_epi32(m, a, b);
  }
  // Every bit but the sign flipped where the sign is set: a float's bits
  // as a signed integer in gpuprim's order (NaNs aside). Its own inverse.
  GP_AVX512_INLINE static reg flip_negative(reg v) {
    return _mm512_xor_si512(
        v, _mm512_and_si512(_mm512_srai_epi32(v, 31), _mm512_set1_epi32(0x7fffffff)));
  }
  GP_AVX512_INLINE static reg lane_xor(int j) {
    return _mm512_xor_si512(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                            _mm512_set1_epi32(j));
  }
  // Lane l of the result is lane l ^ j of v (j constant once unrolled):
  // in-lane shuffles where they reach, a full permutation otherwise.
  GP_AVX512_INLINE static reg swap(reg v, int j) {
    switch (j) {
      case 1:
        return _mm512_shuffle_epi32(v, _MM_PERM_ENUM(0xb1));
      case 2:
        return _mm512_shuffle_epi32(v, _MM_PERM_ENUM(0x4e));
      case 3:
        return _mm512_shuffle_epi32(v, _MM_PERM_ENUM(0x1b));
      case 4:
        return _mm512_shuffle_i32x4(v, v, 0xb1);
      case 8:
        return _mm512_shuffle_i32x4(v, v, 0x4e);
      case 12:
        return _mm512_shuffle_i32x4(v, v, 0x1b);
      default:
        return permute(lane_xor(j), v);
    }
  }
};

struct lanes64 {
  using reg = __m512i;
  using mask = __mmask8;
  static constexpr int lanes = 8;
  GP_AVX512_INLINE static reg load_n(const void* p, int n, reg fill) {
    return _mm512_mask_loadu_epi64(fill, mask((1u << n) - 1), p);
  }
  GP_AVX512_INLINE static void store_n(void* p, int n, reg v) {
    _mm512_mask_storeu_epi64(p, mask((1u << n) - 1), v);
  }
  GP_AVX512_INLINE static void store_first(void* p, mask m, reg v) {
    _mm512_mask_storeu_epi64(p, m, v);
  }
  GP_AVX512_INLINE static reg compress(mask m, reg v) { return _mm512_maskz_compress_epi64(m, v); }
  GP_AVX512_INLINE static reg permute(reg idx, reg v) { return _mm512_permutexvar_epi64(idx, v); }
  GP_AVX512_INLINE static reg blend(mask m, reg a, reg b) {
    return _mm512_mask_blend_epi64(m, a, b);
  }
  GP_AVX512_INLINE static reg flip_negative(reg v) {
    return _mm512_xor_si512(
        v, _mm512_and_si512(_mm512_srai_epi64(v, 63), _mm512_set1_epi64(0x7fffffffffffffffLL)));
  }
  GP_AVX512_INLINE static reg lane_xor(int j) {
    return _mm512_xor_si512(_mm512_set_epi64(7, 6, 5, 4, 3, 2, 1, 0), _mm512_set1_epi64(j));
  }
  GP_AVX512_INLINE static reg swap(reg v, int j) {
    switch (j) {
      case 1:
        return _mm512_shuffle_epi32(v, _MM_PERM_ENUM(0x4e));
      case 2:
        return _mm512_shuffle_i64x2(v, v, 0xb1);
      case 4:
        return _mm512_shuffle_i64x2(v, v, 0x4e);
      case 6:
        return _mm512_shuffle_i64x2(v, v, 0x1b);
      default:
        return permute(lane_xor(j), v);
    }
  }
};

struct vec_i32 : lanes32 {
  using T = std::int32_t;
  GP_AVX512_INLINE static reg set1(T x) { return _mm512_set1_epi32(x); }
  GP_AVX512_INLINE static reg min(reg a, reg b) { return _mm512_min_epi32(a, b); }
  GP_AVX512_INLINE static reg max(reg a, reg b) { return _mm512_max_epi32(a, b); }
  // min(a, b) in the lanes of m, src's lanes elsewhere.
  GP_AVX512_INLINE static reg min_into(reg src, mask m, reg a, reg b) {
    return _mm512_mask_min_epi32(src, m, a, b);
  }
  GP_AVX512_INLINE static mask lt(reg a, reg b) { return _mm512_cmplt_epi32_mask(a, b); }
  GP_AVX512_INLINE static T hmin(reg v) { return _mm512_reduce_min_epi32(v); }
  GP_AVX512_INLINE static T hmax(reg v) { return _mm512_reduce_max_epi32(v); }
};
struct vec_u32 : lanes32 {
  using T = std::uint32_t;
  GP_AVX512_INLINE static reg set1(T x) { return _mm512_set1_epi32(static_cast<int>(x)); }
  GP_AVX512_INLINE static reg min(reg a, reg b) { return _mm512_min_epu32(a, b); }
  GP_AVX512_INLINE static reg max(reg a, reg b) { return _mm512_max_epu32(a, b); }
  // min(a, b) in the lanes of m, src's lanes elsewhere.
  GP_AVX512_INLINE static reg min_into(reg src, mask m, reg a, reg b) {
    return _mm512_mask_min_epu32(src, m, a, b);
  }
  GP_AVX512_INLINE static mask lt(reg a, reg b) { return _mm512_cmplt_epu32_mask(a, b); }
  GP_AVX512_INLINE static T hmin(reg v) { return _mm512_reduce_min_epu32(v); }
  GP_AVX512_INLINE static T hmax(reg v) { return _mm512_reduce_max_epu32(v); }
};
struct vec_i64 : lanes64 {
  using T = std::int64_t;
  GP_AVX512_INLINE static reg set1(T x) { return _mm512_set1_epi64(x); }
  GP_AVX512_INLINE static reg min(reg a, reg b) { return _mm512_min_epi64(a, b); }
  GP_AVX512_INLINE static reg max(reg a, reg b) { return _mm512_max_epi64(a, b); }
  // min(a, b) in the lanes of m, src's lanes elsewhere.
  GP_AVX512_INLINE static reg min_into(reg src, mask m, reg a, reg b) {
    return _mm512_mask_min_epi64(src, m, a, b);
  }
  GP_AVX512_INLINE static mask lt(reg a, reg b) { return _mm512_cmplt_epi64_mask(a, b); }
  GP_AVX512_INLINE static T hmin(reg v) { return _mm512_reduce_min_epi64(v); }
  GP_AVX512_INLINE static T hmax(reg v) { return _mm512_reduce_max_epi64(v); }
};
struct vec_u64 : lanes64 {
  using T = std::uint64_t;
  GP_AVX512_INLINE static reg set1(T x) { return _mm512_set1_epi64(static_cast<long long>(x)); }
  GP_AVX512_INLINE static reg min(reg a, reg b) { return _mm512_min_epu64(a, b); }
  GP_AVX512_INLINE static reg max(reg a, reg b) { return _mm512_max_epu64(a, b); }
  // min(a, b) in the lanes of m, src's lanes elsewhere.
  GP_AVX512_INLINE static reg min_into(reg src, mask m, reg a, reg b) {
    return _mm512_mask_min_epu64(src, m, a, b);
  }
  GP_AVX512_INLINE static mask lt(reg a, reg b) { return _mm512_cmplt_epu64_mask(a, b); }
  GP_AVX512_INLINE static T hmin(reg v) { return _mm512_reduce_min_epu64(v); }
  GP_AVX512_INLINE static T hmax(reg v) { return _mm512_reduce_max_epu64(v); }
};

// A float's bits as a signed integer with gpuprim's order (NaNs aside):
// negative floats have every bit but the sign flipped. Its own inverse.
template <class I>
I flip_negative(I bits) {
  static_assert(std::is_signed_v<I>);
  constexpr int top = 8 * sizeof(I) - 1;
  return I(bits ^ (I(bits >> top) & std::numeric_limits<I>::max()));
}

// Lanes l of a vector of `lanes` with (l & j) == 0: the lower of each pair
// l, l ^ j, which keeps the minimum.
constexpr unsigned low_lanes(int j, int lanes) {
  unsigned m = 0;
  for (int l = 0; l < lanes; ++l)
    if ((l & j) == 0) m |= 1u << l;
  return m;
}

// ---- 4. the bitonic network over R vectors ----------------------------------

// Compare-exchange of lanes l and l ^ j within v (partner by `idx`), the
// lanes of `low` keeping the minimum.
template <class V>
GP_AVX512_INLINE typename V::reg exchange_lanes(typename V::reg v, int j, typename V::mask low) {
  const typename V::reg s = V::swap(v, j);
  return V::min_into(V::max(v, s), low, v, s);
}

// Sorts the R * lanes keys of v ascending, element e = r * lanes + l. Each
// merge stage k starts by pairing e with e ^ (k - 1) (the second half read
// backwards), then halves with e ^ j, so every exchange puts the minimum at
// the lower index.
template <class V, int R>
GP_AVX512_INLINE void sort_registers(typename V::reg (&v)[R]) {
  using reg = typename V::reg;
  constexpr int L = V::lanes;
  const reg reverse = V::lane_xor(L - 1);
#pragma GCC unroll 16
  for (int k = 2; k <= R * L; k *= 2) {
    if (k <= L) {
      const auto low = typename V::mask(low_lanes(k / 2, L));
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r)
        v[r] = exchange_lanes<V>(v[r], k - 1, low);
    } else {
      const int block = k / L;  // vectors in one block of k keys
#pragma GCC unroll 16
      for (int r = 0; r < R; ++r) {
        if ((r & (block - 1)) >= block / 2) continue;
        const int r2 = r ^ (block - 1);
        const reg back = V::permute(reverse, v[r2]);
        const reg lo = V::min(v[r], back);
        v[r2] = V::permute(reverse, V::max(v[r], back));
        v[r] = lo;
      }
    }
#pragma GCC unroll 16
    for (int j = k / 4; j >= 1; j /= 2) {
      if (j >= L) {
        const int jv = j / L;
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r) {
          if (r & jv) continue;
          const reg lo = V::min(v[r], v[r | jv]);
          v[r | jv] = V::max(v[r], v[r | jv]);
          v[r] = lo;
        }
      } else {
        const auto low = typename V::mask(low_lanes(j, L));
#pragma GCC unroll 16
        for (int r = 0; r < R; ++r)
          v[r] = exchange_lanes<V>(v[r], j, low);
      }
    }
  }
}

// What the sorted keys are written as: the sort's integers turned back
// into the caller's keys (step 5), applied where each range is done.
// `invert`: descending (the keys were inverted); `flip`: float bits.
template <class V>
struct key_out {
  using T = typename V::T;
  bool invert = false;
  bool flip = false;
  GP_AVX512_INLINE typename V::reg operator()(typename V::reg v) const {
    if (invert) v = _mm512_xor_si512(v, _mm512_set1_epi32(-1));
    return flip ? V::flip_negative(v) : v;
  }
  T operator()(T x) const {
    if (invert) x = T(~x);
    return flip ? T(flip_negative(std::make_signed_t<T>(x))) : x;
  }
  bool identity() const { return !invert && !flip; }
};

// Writes a[0, n) as keys: a range that is done without passing through the
// network (equal keys, the heap sort).
template <class V>
GP_AVX512 void finish(typename V::T* a, std::size_t n, const key_out<V>& out) {
  if (out.identity()) return;
  constexpr std::size_t L = V::lanes;
  std::size_t i = 0;
  for (; i + L <= n; i += L)
    _mm512_storeu_si512(a + i, out(_mm512_loadu_si512(a + i)));
  for (; i < n; ++i)
    a[i] = out(a[i]);
}

// Sorts p[0, n), n <= R * lanes, in registers, writing keys.
template <class V, int R>
GP_AVX512 void sort_block(typename V::T* p, std::size_t n, const key_out<V>& out) {
  using reg = typename V::reg;
  constexpr int L = V::lanes;
  const reg pad = V::set1(std::numeric_limits<typename V::T>::max());
  reg v[R];
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const std::size_t at = std::size_t(r) * L;
    const int c = at >= n ? 0 : static_cast<int>(std::min<std::size_t>(L, n - at));
    v[r] = c == L ? _mm512_loadu_si512(p + at) : V::load_n(p + at, c, pad);
  }
  sort_registers<V, R>(v);
#pragma GCC unroll 16
  for (int r = 0; r < R; ++r) {
    const std::size_t at = std::size_t(r) * L;
    const int c = at >= n ? 0 : static_cast<int>(std::min<std::size_t>(L, n - at));
    if (c == L) {
      _mm512_storeu_si512(p + at, out(v[r]));
    } else if (c > 0) {
      V::store_n(p + at, c, out(v[r]));
    }
  }
}

template <class V>
constexpr std::size_t block_keys = std::size_t{16} * V::lanes;

template <class V>
GP_AVX512 void sort_small(typename V::T* p, std::size_t n, const key_out<V>& out) {
  constexpr std::size_t L = V::lanes;
  if (n == 0) return;
  if (n <= L) return sort_block<V, 1>(p, n, out);
  if (n <= 2 * L) return sort_block<V, 2>(p, n, out);
  if (n <= 4 * L) return sort_block<V, 4>(p, n, out);
  if (n <= 8 * L) return sort_block<V, 8>(p, n, out);
  sort_block<V, 16>(p, n, out);
}

// ---- 2. pivot and partition ---------------------------------------------------

// The upper middle of 2 vectors of samples spread over a[0, n); *least
// receives the samples' smallest.
template <class V>
GP_AVX512 typename V::T choose_pivot(const typename V::T* a, std::size_t n, typename V::T* least) {
  using T = typename V::T;
  constexpr int L = V::lanes;
  alignas(64) T s[2 * L];
  const std::size_t step = n / (2 * L);
  for (int i = 0; i < 2 * L; ++i)
    s[i] = a[i * step + step / 2];
  typename V::reg v[2] = {_mm512_load_si512(s), _mm512_load_si512(s + L)};
  sort_registers<V, 2>(v);
  _mm512_store_si512(s, v[0]);
  _mm512_store_si512(s + L, v[1]);
  *least = s[0];
  return s[L];
}

// Moves the keys of a[0, n) below `pivot` to the front and returns their
// count; *smallest and *largest receive the range's extremes. n >= 2 *
// unroll vectors.
template <class V>
GP_AVX512 std::size_t partition(typename V::T* a, std::size_t n, typename V::T pivot,
                                typename V::T* smallest, typename V::T* largest) {
  using reg = typename V::reg;
  using mask = typename V::mask;
  constexpr int L = V::lanes;
  constexpr int unroll = 4;
  constexpr std::size_t block = std::size_t(unroll) * L;
  const reg pv = V::set1(pivot);
  // Written: [0, lw) below the pivot, [rw, n) not; read: [0, lr) and [rr, n).
  std::size_t lw = 0, rw = n, lr = block, rr = n - block;
  reg first[unroll], last[unroll];
  for (int u = 0; u < unroll; ++u) {
    first[u] = _mm512_loadu_si512(a + u * L);
    last[u] = _mm512_loadu_si512(a + n - block + u * L);
  }
  reg lo_min = first[0], hi_max = first[0];
  constexpr unsigned all_lanes = (1u << L) - 1;
  // One vector's keys below the pivot to [lw, ...), the rest to [..., rw).
  // `wide`: at least a vector of free space at lw, so the left store may
  // write every lane (the lanes past the keys land in free space).
  const auto put = [&](reg v, unsigned valid, bool wide) GP_AVX512_LAMBDA {
    const unsigned below = unsigned(V::lt(v, pv)) & valid;
    const unsigned above = ~below & valid;
    const std::size_t nb = std::popcount(below);
    const std::size_t na = std::size_t(std::popcount(valid)) - nb;
    const reg low = V::compress(mask(below), v);
    if (wide) {
      _mm512_storeu_si512(a + lw, low);
    } else {
      V::store_first(a + lw, mask(all_lanes >> (L - nb)), low);
    }
    lw += nb;
    rw -= na;
    V::store_first(a + rw, mask(all_lanes >> (L - na)), V::compress(mask(above), v));
    lo_min = V::min(lo_min, v);
    hi_max = V::max(hi_max, v);
  };
  // Reading from the end with less free space leaves the other end at least
  // `block` free: every write fits.
  while (rr - lr >= block) {
    reg cur[unroll];
    if (lr - lw <= rw - rr) {
      for (int u = 0; u < unroll; ++u)
        cur[u] = _mm512_loadu_si512(a + lr + u * L);
      lr += block;
    } else {
      rr -= block;
      for (int u = 0; u < unroll; ++u)
        cur[u] = _mm512_loadu_si512(a + rr + u * L);
    }
    for (int u = 0; u < unroll; ++u)
      put(cur[u], all_lanes, true);
  }
  while (rr - lr >= std::size_t(L)) {
    reg cur;
    if (lr - lw <= rw - rr) {
      cur = _mm512_loadu_si512(a + lr);
      lr += L;
    } else {
      rr -= L;
      cur = _mm512_loadu_si512(a + rr);
    }
    put(cur, all_lanes, true);
  }
  if (rr > lr) {
    const int c = static_cast<int>(rr - lr);
    reg cur;  // the lanes past c repeat keys of first[0]: no new extreme
    if (lr - lw <= rw - rr) {
      cur = V::load_n(a + lr, c, first[0]);
      lr += c;
    } else {
      rr -= c;
      cur = V::load_n(a + rr, c, first[0]);
    }
    put(cur, (1u << c) - 1, false);
  }
  for (int u = 0; u < unroll; ++u) {
    put(first[u], all_lanes, false);
    put(last[u], all_lanes, false);
  }
  *smallest = V::hmin(lo_min);
  *largest = V::hmax(hi_max);
  return lw;
}

// partition's counterpart from in[0, n) to out[0, n) (disjoint): the first
// level of an out-of-place sort, which then needs no copy. `key_in` turns
// a vector of the input into sort keys (key_in(v)) and names its NaN lanes
// (key_in.nan(v)); a NaN stops it: it returns no_split, its output half
// written. n >= 1 vector.
inline constexpr std::size_t no_split = ~std::size_t{0};

template <class V>
struct integers_in {
  GP_AVX512_INLINE typename V::reg operator()(typename V::reg v) const { return v; }
  GP_AVX512_INLINE unsigned nan(typename V::reg) const { return 0; }
};

template <class V, class KeyIn>
GP_AVX512 std::size_t partition_copy(const typename V::T* in, typename V::T* out, std::size_t n,
                                     typename V::T pivot, typename V::T* smallest,
                                     typename V::T* largest, KeyIn key_in) {
  using reg = typename V::reg;
  using mask = typename V::mask;
  constexpr std::size_t L = V::lanes;
  constexpr unsigned all_lanes = (1u << L) - 1;
  const reg pv = V::set1(pivot);
  const reg raw_first = _mm512_loadu_si512(in);
  const reg first = key_in(raw_first);
  reg lo_min = first, hi_max = first;
  std::size_t lw = 0, rw = n;
  const auto put = [&](reg v, unsigned valid) GP_AVX512_LAMBDA {
    const unsigned below = unsigned(V::lt(v, pv)) & valid;
    const std::size_t nb = std::popcount(below);
    const std::size_t na = std::size_t(std::popcount(valid)) - nb;
    const reg low = V::compress(mask(below), v);
    if (lw + L <= rw) {
      _mm512_storeu_si512(out + lw, low);
    } else {
      V::store_first(out + lw, mask(all_lanes >> (L - nb)), low);
    }
    lw += nb;
    rw -= na;
    V::store_first(out + rw, mask(all_lanes >> (L - na)), V::compress(mask(~below & valid), v));
    lo_min = V::min(lo_min, v);
    hi_max = V::max(hi_max, v);
  };
  std::size_t i = 0;
  for (; i + L <= n; i += L) {
    const reg raw = _mm512_loadu_si512(in + i);
    if (key_in.nan(raw)) return no_split;
    put(key_in(raw), all_lanes);
  }
  if (i < n) {
    const int c = static_cast<int>(n - i);
    const reg raw = V::load_n(in + i, c, raw_first);  // lanes past c repeat `first`
    if (key_in.nan(raw)) return no_split;
    put(key_in(raw), (1u << c) - 1);
  }
  *smallest = V::hmin(lo_min);
  *largest = V::hmax(hi_max);
  return lw;
}

// ---- 3. the quicksort -----------------------------------------------------------

template <class V>
GP_AVX512 void quicksort(typename V::T* a, std::size_t n, int depth, const key_out<V>& out) {
  using T = typename V::T;
  constexpr T top = std::numeric_limits<T>::max();
  while (n > block_keys<V>) {
    if (depth-- == 0) {
      std::make_heap(a, a + n);
      std::sort_heap(a, a + n);
      return finish<V>(a, n, out);
    }
    T least;
    const T p = choose_pivot<V>(a, n, &least);
    // Many copies of the samples' smallest: split by <= p, which leaves
    // p's copies on the left.
    const bool at_most = p == least && p != top;
    T smallest, largest;
    std::size_t split = partition<V>(a, n, at_most ? T(p + 1) : p, &smallest, &largest);
    if (smallest == largest) return finish<V>(a, n, out);
    // The sides still to sort: [0, l1) and [r0, r1); what lies between
    // holds copies of p only.
    std::size_t l1 = split, r0 = split, r1 = n;
    if (at_most) {
      if (smallest == p) {
        l1 = 0;
      } else if (split == n) {
        // Every key <= p and some below: split off p's copies at the right.
        split = partition<V>(a, n, p, &smallest, &largest);
        l1 = r0 = r1 = split;
      }
    } else {
      if (largest == p) {
        r0 = r1;
      } else if (split == 0) {
        // p is the smallest key, below the largest: split off its copies.
        split = partition<V>(a, n, T(p + 1), &smallest, &largest);
        r0 = split;
      }
    }
    finish<V>(a + l1, r0 - l1, out);
    finish<V>(a + r1, n - r1, out);
    // Recurse into the smaller side, loop on the larger.
    if (l1 < r1 - r0) {
      quicksort<V>(a, l1, depth, out);
      a += r0;
      n = r1 - r0;
    } else {
      quicksort<V>(a + r0, r1 - r0, depth, out);
      n = l1;
    }
  }
  sort_small<V>(a, n, out);
}

template <class V>
GP_AVX512 void sort_native(typename V::T* a, std::size_t n, const key_out<V>& out) {
  quicksort<V>(a, n, 2 * static_cast<int>(std::bit_width(n)), out);
}

// ---- 1. keys in ------------------------------------------------------------------

// Integers are their own sort keys; descending sorts their inverses.
template <class K, class V>
GP_AVX512 void sort_integers(const K* in_keys, K* out_keys, std::size_t n, bool descending) {
  using T = typename V::T;
  static_assert(sizeof(T) == sizeof(K) && std::is_signed_v<T> == std::is_signed_v<K>);
  const T* in = reinterpret_cast<const T*>(in_keys);
  T* out = reinterpret_cast<T*>(out_keys);
  if (!descending && in != out && n > block_keys<V>) {
    // The first partition copies.
    T least, smallest, largest;
    const T p = choose_pivot<V>(in, n, &least);
    const std::size_t split =
        partition_copy<V>(in, out, n, p, &smallest, &largest, integers_in<V>{});
    if (smallest == largest) return;
    const int depth = 2 * static_cast<int>(std::bit_width(n));
    quicksort<V>(out, split, depth, key_out<V>{});
    quicksort<V>(out + split, n - split, depth, key_out<V>{});
    return;
  }
  if (!descending) {
    if (in != out) std::memcpy(out, in, n * sizeof(T));
  } else {
    constexpr std::size_t L = V::lanes;
    const __m512i ones = _mm512_set1_epi32(-1);
    std::size_t i = 0;
    for (; i + L <= n; i += L)
      _mm512_storeu_si512(out + i, _mm512_xor_si512(_mm512_loadu_si512(in + i), ones));
    for (; i < n; ++i)
      out[i] = T(~in[i]);
  }
  sort_native<V>(out, n, key_out<V>{descending, false});
}

template <class V>
struct float_nan;
template <>
struct float_nan<vec_i32> {
  GP_AVX512_INLINE static __mmask16 of(__m512i v) {
    const __m512 f = _mm512_castsi512_ps(v);
    return _mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q);
  }
};
template <>
struct float_nan<vec_i64> {
  GP_AVX512_INLINE static __mmask8 of(__m512i v) {
    const __m512d f = _mm512_castsi512_pd(v);
    return _mm512_cmp_pd_mask(f, f, _CMP_UNORD_Q);
  }
};

// Vectors of float bits as sort keys (flipped, inverted for descending).
template <class F, class V>
struct floats_in {
  __m512i invert;
  GP_AVX512_INLINE __m512i operator()(__m512i v) const {
    return _mm512_xor_si512(V::flip_negative(v), invert);
  }
  GP_AVX512_INLINE unsigned nan(__m512i v) const { return float_nan<V>::of(v); }
};

// F: float or double; V: the vector of signed integers of its size.
template <class F, class V>
GP_AVX512 void sort_floats(const F* in_keys, F* out_keys, std::size_t n, bool descending) {
  using I = typename V::T;
  constexpr std::size_t L = V::lanes;
  const I* in = reinterpret_cast<const I*>(in_keys);
  I* out = reinterpret_cast<I*>(out_keys);
  const __m512i invert = _mm512_set1_epi32(descending ? -1 : 0);
  const key_out<V> back{descending, true};
  if (in != out && n > block_keys<V>) {
    // The first partition flips and copies, unless it meets a NaN (then
    // the pass below, from the input, which is still as it was).
    const I inverted = descending ? I(-1) : I(0);
    alignas(64) I s[2 * L];
    const std::size_t step = n / (2 * L);
    for (std::size_t j = 0; j < 2 * L; ++j)
      s[j] = I(flip_negative(in[j * step + step / 2]) ^ inverted);
    I least, smallest, largest;
    const I p = choose_pivot<V>(s, 2 * L, &least);
    const std::size_t split =
        partition_copy<V>(in, out, n, p, &smallest, &largest, floats_in<F, V>{invert});
    if (split != no_split) {
      if (smallest == largest) return finish<V>(out, n, back);
      const int depth = 2 * static_cast<int>(std::bit_width(n));
      quicksort<V>(out, split, depth, back);
      quicksort<V>(out + split, n - split, depth, back);
      return;
    }
  }
  // Flipped (and inverted for descending) into out; NaNs, as their bits,
  // into `nans` in input order. Writes never pass reads: an in-place sort
  // reads ahead of what it writes.
  std::vector<I> nans;
  std::size_t w = 0, i = 0;
  for (; i + L <= n; i += L) {
    const __m512i v = _mm512_loadu_si512(in + i);
    const auto bad = float_nan<V>::of(v);
    const __m512i key = _mm512_xor_si512(V::flip_negative(v), invert);
    if (bad == 0) {
      _mm512_storeu_si512(out + w, key);
      w += L;
    } else {
      for (std::size_t l = 0; l < L; ++l)
        if (bad >> l & 1) nans.push_back(in[i + l]);
      const auto good = decltype(bad)(~bad);
      const int count = std::popcount(unsigned(good));
      V::store_n(out + w, count, V::compress(good, key));
      w += count;
    }
  }
  for (; i < n; ++i) {
    const I bits = in[i];
    const auto key = std::bit_cast<F>(bits);
    if (key != key) {
      nans.push_back(bits);
    } else {
      out[w++] = I(flip_negative(bits) ^ (descending ? I(-1) : I(0)));
    }
  }
  sort_native<V>(out, w, back);
  std::copy(nans.begin(), nans.end(), out + w);
}

#endif  // GPUPRIM_HAS_SIMD_SORT

bool usable() {
#if GPUPRIM_HAS_SIMD_SORT
  return simd_allowed.load(std::memory_order_relaxed) && cpu_has_avx512();
#else
  return false;
#endif
}

}  // namespace

bool simd_sort_available() {
  return usable();
}

void allow_simd_sort(bool allowed) {
  simd_allowed.store(allowed, std::memory_order_relaxed);
}

#if GPUPRIM_HAS_SIMD_SORT
#define GPUPRIM_SIMD_SORT_CALL(...) \
  if (!usable()) return false;      \
  __VA_ARGS__;                      \
  return true
#else
#define GPUPRIM_SIMD_SORT_CALL(...) return false
#endif

bool simd_sort_keys(const std::int32_t* in, std::int32_t* out, std::size_t n, bool descending) {
  GPUPRIM_SIMD_SORT_CALL(sort_integers<std::int32_t, vec_i32>(in, out, n, descending));
}
bool simd_sort_keys(const std::uint32_t* in, std::uint32_t* out, std::size_t n, bool descending) {
  GPUPRIM_SIMD_SORT_CALL(sort_integers<std::uint32_t, vec_u32>(in, out, n, descending));
}
bool simd_sort_keys(const std::int64_t* in, std::int64_t* out, std::size_t n, bool descending) {
  GPUPRIM_SIMD_SORT_CALL(sort_integers<std::int64_t, vec_i64>(in, out, n, descending));
}
bool simd_sort_keys(const std::uint64_t* in, std::uint64_t* out, std::size_t n, bool descending) {
  GPUPRIM_SIMD_SORT_CALL(sort_integers<std::uint64_t, vec_u64>(in, out, n, descending));
}
bool simd_sort_keys(const float* in, float* out, std::size_t n, bool descending) {
  GPUPRIM_SIMD_SORT_CALL(sort_floats<float, vec_i32>(in, out, n, descending));
}
bool simd_sort_keys(const double* in, double* out, std::size_t n, bool descending) {
  GPUPRIM_SIMD_SORT_CALL(sort_floats<double, vec_i64>(in, out, n, descending));
}

}  // namespace gpuprim::host_impl
