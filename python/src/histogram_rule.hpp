// numpy.histogram's bins, for the host and the GPU alike.
//
// Edges: with `bins` an int, NumPy takes np.linspace(first, last, bins + 1)
// (linspace_edge) and casts it to the edge type (float32 for float32
// samples, float64 otherwise). A sample x is in bin b when
// edge[b] <= x < edge[b + 1], the last bin closed (x == last counts),
// samples outside [first, last] and NaN in none; its searches compare x
// with the edges in the edge type. numpy_bin reproduces that: an estimate
// from the even spacing, then moves until the edge comparisons hold (or a
// binary search, for edges given as an array).
#pragma once

#include <cstdint>

#include "gpuprim/core/macros.hpp"

namespace gpuprim::python {

// Edge k of np.linspace(first, last, bins + 1) computed in C (NumPy's
// linspace works in the type of its end points: float32 when they are the
// min and max of float32 data, float64 for Python floats and integers):
// k * step + first with step = (last - first) / bins, two roundings (no
// fused multiply-add), the last edge = last.
template <class C>
GPUPRIM_HD inline C linspace_edge(C first, C last, int bins, int k) {
  if (k == bins) return last;
  const C step = (last - first) / static_cast<C>(bins);
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(C) == 4) {
    return __fadd_rn(__fmul_rn(static_cast<C>(k), step), first);
  } else {
    return __dadd_rn(__dmul_rn(static_cast<C>(k), step), first);
  }
#else
  volatile C product = static_cast<C>(k) * step;
  return product + first;
#endif
}

template <class Sample, class Edge>
struct numpy_bin {
  const Edge* edges;  // bins + 1 increasing edges (device memory on the GPU)
  int bins;
  bool uniform;  // edges from linspace: start from the even-spacing estimate

  GPUPRIM_HD int operator()(Sample sample) const {
    const Edge x = static_cast<Edge>(sample);
    const Edge first = edges[0];
    const Edge last = edges[bins];
    if (!(x >= first && x <= last)) return -1;  // outside, or NaN
    int b;
    if (uniform) {
      const double t = (static_cast<double>(x) - static_cast<double>(first)) /
                       (static_cast<double>(last) - static_cast<double>(first)) * bins;
      b = t >= bins ? bins - 1 : t > 0 ? static_cast<int>(t) : 0;
      while (b > 0 && x < edges[b])
        --b;
      while (b < bins - 1 && x >= edges[b + 1])
        ++b;
    } else {
      // The last edge <= x among edges[0, bins).
      int lo = 0;
      int hi = bins - 1;
      while (lo < hi) {
        const int mid = lo + (hi - lo + 1) / 2;
        if (edges[mid] <= x) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      b = lo;
    }
    return b;
  }
};

}  // namespace gpuprim::python
