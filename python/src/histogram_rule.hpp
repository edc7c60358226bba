// numpy.histogram's bins for edges given as an array, for the host and the
// GPU alike. (Even bins, `bins` an int, are the library's NumPy rule:
// gp::numpy_bins with histogram_even.)
//
// A sample x is in bin b when edges[b] <= x < edges[b + 1], the last bin
// closed (x == the last edge counts), samples outside [first, last] and NaN
// in none. numpy compares x with the edges in the edges' type and allows
// equal consecutive edges (empty bins), which gp::histogram_range (strictly
// increasing boundaries, every bin half-open) does not: hence this
// classifier, a binary search over the edges.
#pragma once

#include "gpuprim/core/macros.hpp"

namespace gpuprim::python {

template <class Sample, class Edge>
struct edges_bin {
  const Edge* edges;  // bins + 1 non-decreasing edges (device memory on the GPU)
  int bins;

  GPUPRIM_HD int operator()(Sample sample) const {
    const Edge x = static_cast<Edge>(sample);
    if (!(x >= edges[0] && x <= edges[bins])) return -1;  // outside, or NaN
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
    return lo;
  }
};

}  // namespace gpuprim::python
