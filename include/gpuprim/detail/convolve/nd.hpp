// What the backends of the N-D filters (gpuprim/convolve_nd.hpp) share:
// SciPy's conversions of a double result to each output type (compiled for
// the host and the device alike, so both round the same), its symmetry
// test of 1-D weights, the taps its N-D correlate adds, and the type-erased description of one call
// that the facade hands to the CUDA backend.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "gpuprim/convolve_types.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/nd_view.hpp"
#include "gpuprim/detail/convolve/precompiled.hpp"

namespace gpuprim::detail {

// x86-64's truncating conversions (cvttsd2si): NaN and values out of
// range give the type's lowest value.
GPUPRIM_HD inline std::int64_t nd_trunc64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
  return static_cast<std::int64_t>(v);
}
GPUPRIM_HD inline std::int32_t nd_trunc32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return INT32_MIN;
  return static_cast<std::int32_t>(v);
}

// v (a double result) as an Out, as SciPy's C casts give it on x86-64
// (compiled by GCC): truncated toward zero, through a 32-bit conversion
// for the types narrower than 32 bits and int32, a 64-bit one for uint32
// and int64, and for uint64 values from 2^63 up the 64-bit conversion of
// v - 2^63 with the top bit flipped. The low bits of the conversion are
// kept (two's complement wrap). bool arrays are handled as their bytes
// (uint8) by the Python package: SciPy writes and reads npy_bool, an
// unsigned char.
template <class Out>
GPUPRIM_HD Out nd_store(double v) {
  if constexpr (std::is_floating_point_v<Out>) {
    return static_cast<Out>(v);
  } else if constexpr (std::is_same_v<Out, std::uint64_t>) {
    if (!(v >= 9223372036854775808.0)) return static_cast<std::uint64_t>(nd_trunc64(v));
    return static_cast<std::uint64_t>(nd_trunc64(v - 9223372036854775808.0)) ^
           (std::uint64_t{1} << 63);
  } else if constexpr (sizeof(Out) == 8 || std::is_same_v<Out, std::uint32_t>) {
    return static_cast<Out>(static_cast<std::uint64_t>(nd_trunc64(v)));
  } else {
    return static_cast<Out>(static_cast<std::uint32_t>(nd_trunc32(v)));
  }
}

// SciPy's N-D correlate converts to unsigned types as v > -1 ? (T)v :
// -(T)(-v) (which differs from the plain cast below -2^63).
template <class Out>
GPUPRIM_HD Out nd_store_unsigned_safe(double v) {
  if constexpr (std::is_unsigned_v<Out>) {
    if (!(v > -1.0)) return static_cast<Out>(Out(0) - nd_store<Out>(-v));
  }
  return nd_store<Out>(v);
}

template <class In>
GPUPRIM_HD double nd_load(In v) {
  return static_cast<double>(v);
}

// 1: symmetric, -1: antisymmetric, 0: neither (SciPy's test; odd sizes).
inline int nd_symmetry(std::span<const double> w) {
  const std::size_t k = w.size();
  if (k % 2 == 0) return 0;
  const std::size_t h = k / 2;
  bool sym = true;
  for (std::size_t i = 1; i <= h && sym; ++i)
    sym = std::fabs(w[h + i] - w[h - i]) <= DBL_EPSILON;
  if (sym) return 1;
  for (std::size_t i = 1; i <= h; ++i)
    if (std::fabs(w[h + i] + w[h - i]) > DBL_EPSILON) return 0;
  return -1;
}

// The taps SciPy's correlate adds: |w| > DBL_EPSILON, in C order, each
// with its offset per axis (index - (k / 2 + origin)), nd offsets a tap.
inline void nd_taps(const nd_view<const double>& weights, const std::vector<long long>& origins,
                    std::vector<double>& tw, std::vector<long long>& toff) {
  const std::size_t nd = weights.ndim();
  tw.clear();
  toff.clear();
  std::vector<std::size_t> idx(nd, 0);
  const std::size_t count = weights.size();
  for (std::size_t t = 0; t < count; ++t) {
    std::ptrdiff_t at = 0;
    for (std::size_t a = 0; a < nd; ++a)
      at += static_cast<std::ptrdiff_t>(idx[a]) * weights.strides[a];
    const double v = weights.data[at];
    if (std::fabs(v) > DBL_EPSILON) {
      tw.push_back(v);
      for (std::size_t a = 0; a < nd; ++a) {
        const long long k = static_cast<long long>(weights.shape[a]);
        toff.push_back(static_cast<long long>(idx[a]) - (k / 2 + origins[a]));
      }
    }
    for (std::size_t a = nd; a-- > 0;) {
      if (++idx[a] < weights.shape[a]) break;
      idx[a] = 0;
    }
  }
}

// ---- one call on the GPU, type-erased --------------------------------------

// The element types of the N-D filters (the names of
// GPUPRIM_CONVOLVE_ND_TYPES' rows).
enum class nd_type : std::uint8_t {
  boolean,
  int8,
  uint8,
  int16,
  uint16,
  int32,
  uint32,
  int64,
  uint64,
  float32,
  float64
};

// The element types (GPUPRIM_CONVOLVE_ND_TYPES, precompiled.hpp).
template <class T>
inline constexpr bool nd_element =
    one_of<std::remove_const_t<T> GPUPRIM_CONVOLVE_ND_TYPES(GPUPRIM_TYPE_OF)>;

template <class T>
constexpr nd_type nd_type_of() {
  using U = std::remove_const_t<T>;
  static_assert(nd_element<U>, "the N-D filters take bool, 8-64-bit integers, float, double");
#define GPUPRIM_ND_TYPE_OF(name, type) \
  if constexpr (std::is_same_v<U, type>) return nd_type::name;
  GPUPRIM_CONVOLVE_ND_TYPES(GPUPRIM_ND_TYPE_OF)
#undef GPUPRIM_ND_TYPE_OF
  return nd_type::float64;
}

inline constexpr std::size_t nd_max_axes = 32;

// A strided device array of nd_type `type` (the input's data is only read).
struct nd_array {
  void* data = nullptr;
  nd_type type = nd_type::float64;
  int ndim = 0;
  long long shape[nd_max_axes] = {};
  long long strides[nd_max_axes] = {};  // in elements
};

enum class nd_filter : std::uint8_t { correlate1d, uniform1d, correlate };

// A checked call: correlate1d (weights: the k taps; sym: nd_symmetry),
// uniform1d (size taps of the running mean), or correlate (weights: the
// kept taps in C order, offsets: ndim offsets x + offset of each).
struct nd_call {
  nd_filter kind = nd_filter::correlate1d;
  nd_array in, out;
  std::vector<double> weights;
  std::vector<long long> offsets;
  int axis = 0;
  long long size = 0;
  long long origin = 0;
  int sym = 0;
  border mode = border::reflect;
  double cval = 0.0;
};

}  // namespace gpuprim::detail
