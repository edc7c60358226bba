// CPU backend of the N-D filters (convolve_nd.hpp): scipy.ndimage's
// correlate1d, uniform_filter1d and correlate, with its arithmetic.
//
// Shape of the algorithm:
//  1. Along one axis (correlate1d, uniform_filter1d): the array is a set of
//     lines along that axis; OpenMP over groups of lines (16 lines
//     consecutive along the last axis when the filtered axis is another
//     one, so the reads are contiguous runs). Each line is copied into a
//     double buffer extended on both sides by the border mode (cval outside
//     for `border::zero`), shifted by the origin, then filtered in double in
//     SciPy's order of operations: an odd filter whose two halves are equal
//     (or opposite) within DBL_EPSILON adds the pairs (x[-j] + x[j]) * w
//     (or differences); otherwise the last tap first, then the others from
//     the first; the running mean keeps one sum, adds the entering value
//     minus the leaving one, and divides each output by the size.
//  2. General N-D weights (correlate): the taps with |w| > DBL_EPSILON in C
//     order. OpenMP over the output's rows along the last axis; for each
//     row and tap, the source row (border-mapped on the other axes, or all
//     cval) and a border-mapped index table along the last axis give one
//     sweep acc[x] += w * src[map[x + j]], so each output adds its taps in
//     the order SciPy does, starting from 0.0.
//  3. Every result is rounded once from double to the output type: floats
//     by the cast, integers truncated toward zero and wrapped to the type's
//     width (two's complement), out-of-range values as SciPy's C casts give
//     them on x86-64 (nd_store).
#pragma once

#include <omp.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/nd_view.hpp"
#include "gpuprim/detail/convolve/nd.hpp"
#include "gpuprim/detail/convolve/plan.hpp"

namespace gpuprim::host_impl {

using detail::nd_load;
using detail::nd_store;
using detail::nd_store_unsigned_safe;

inline int nd_threads(host_backend backend) {
  return backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
}

// The offset of line `line` (an index over every axis but `axis`, C order)
// in an array of `shape` and `strides`.
inline std::ptrdiff_t nd_line_offset(std::size_t line, const std::vector<std::size_t>& shape,
                                     const std::vector<std::ptrdiff_t>& strides, std::size_t axis) {
  std::ptrdiff_t off = 0;
  for (std::size_t a = shape.size(); a-- > 0;) {
    if (a == axis) continue;
    off += static_cast<std::ptrdiff_t>(line % shape[a]) * strides[a];
    line /= shape[a];
  }
  return off;
}

// buf[t] = the value at index t - left of the line (n values `stride`
// apart) under `mode` (cval outside for border::zero), t in [0, width).
template <class In>
void nd_extend_line(const In* line, std::ptrdiff_t stride, long long n, long long left,
                    long long width, border mode, double cval, double* buf) {
  for (long long t = 0; t < width; ++t) {
    const long long i = detail::border_index(t - left, n, mode);
    buf[t] = i < 0 ? cval : nd_load(line[i * stride]);
  }
}

// Lines filtered together when the axis is not the last one: lanes of
// consecutive last-axis indices, so each read of the source is a short
// contiguous run instead of one element per cache line.
inline constexpr std::size_t nd_lanes = 16;

// Correlation with w (or, running_mean, the mean of w.size() values) along
// `axis`. Lines go in groups of `lanes` (consecutive along the last axis,
// or one line when the axis is the last): the group's padded lines are
// interleaved in buf (buf[t * lanes + b] is value t of lane b), and every
// output is computed with SciPy's operations in SciPy's order, lane by
// lane in the innermost loops.
template <class In, class Out>
void nd_along_axis(host_backend backend, const nd_view<const In>& in, const std::vector<double>& w,
                   std::size_t axis, const nd_view<Out>& out, border mode, double cval,
                   long long origin, bool running_mean) {
  const std::size_t total = in.size();
  if (total == 0) return;
  const std::size_t last = in.ndim() - 1;
  const long long n = static_cast<long long>(in.shape[axis]);
  const long long k = static_cast<long long>(w.size());
  const long long size1 = k / 2;
  const long long size2 = k - size1 - 1;
  const long long left = size1 + origin;
  const long long width = n + k - 1;
  const std::size_t lines = total / static_cast<std::size_t>(n);
  const bool blocked = axis != last && in.shape[last] > 1;
  const std::size_t inner = blocked ? in.shape[last] : 1;  // lines per outer index
  const std::size_t lanes = blocked ? std::min(nd_lanes, inner) : 1;
  const std::size_t groups_per_outer = (inner + lanes - 1) / lanes;
  const std::size_t groups = lines / inner * groups_per_outer;
  const std::ptrdiff_t in_step = in.strides[axis];
  const std::ptrdiff_t out_step = out.strides[axis];
  const std::ptrdiff_t in_lane = blocked ? in.strides[last] : 0;
  const std::ptrdiff_t out_lane = blocked ? out.strides[last] : 0;
  const int sym = running_mean ? 0 : detail::nd_symmetry(w);
  const double* fw = w.data() + size1;  // centred: fw[-size1 .. size2]
  const long long L = static_cast<long long>(lanes);
#pragma omp parallel num_threads(nd_threads(backend))
  {
    std::vector<double> buf(static_cast<std::size_t>(width) * lanes);
    std::vector<double> acc(lanes);
#pragma omp for schedule(static)
    for (std::size_t g = 0; g < groups; ++g) {
      const std::size_t line0 = g / groups_per_outer * inner + g % groups_per_outer * lanes;
      const long long nb =
          static_cast<long long>(std::min(lanes, inner - g % groups_per_outer * lanes));
      const In* src = in.data + nd_line_offset(line0, in.shape, in.strides, axis);
      Out* dst = out.data + nd_line_offset(line0, out.shape, out.strides, axis);
      // 1. The padded lines, interleaved (one line: the inside copied
      // straight, the ends through the border mode).
      const long long t0 = std::min(width, std::max(0LL, left));
      const long long t1 = std::max(t0, std::min(width, left + n));
      if (!blocked) {
        const In* at = src + (t0 - left) * in_step;
        double* row = buf.data();
        if (in_step == 1) {
          for (long long t = t0; t < t1; ++t)
            row[t] = nd_load(at[t - t0]);
        } else {
          for (long long t = t0; t < t1; ++t)
            row[t] = nd_load(at[(t - t0) * in_step]);
        }
      }
      for (long long t = 0; t < width; ++t) {
        if (!blocked && t == t0) t = t1;  // the inside is copied
        if (t >= width) break;
        const long long i = detail::border_index(t - left, n, mode);
        double* row = buf.data() + t * L;
        if (i < 0) {
          for (long long b = 0; b < nb; ++b)
            row[b] = cval;
        } else {
          const In* at = src + i * in_step;
          for (long long b = 0; b < nb; ++b)
            row[b] = nd_load(at[b * in_lane]);
        }
      }
      // 2. The outputs.
      if (running_mean && !blocked) {
        const double kd = static_cast<double>(k);
        const double* l1 = buf.data();
        const double* l2 = buf.data() + k;
        double a = 0.0;
        for (long long j = 0; j < k; ++j)
          a += buf[j];
        dst[0] = nd_store<Out>(a / kd);
        for (long long x = 1; x < n; ++x) {
          a += *l2++ - *l1++;
          dst[x * out_step] = nd_store<Out>(a / kd);
        }
        continue;
      }
      if (running_mean) {
        const double kd = static_cast<double>(k);
        for (long long b = 0; b < nb; ++b)
          acc[b] = 0.0;
        for (long long j = 0; j < k; ++j)
          for (long long b = 0; b < nb; ++b)
            acc[b] += buf[j * L + b];
        for (long long b = 0; b < nb; ++b)
          dst[b * out_lane] = nd_store<Out>(acc[b] / kd);
        for (long long x = 1; x < n; ++x) {
          const double* enter = buf.data() + (x - 1 + k) * L;
          const double* leave = buf.data() + (x - 1) * L;
          for (long long b = 0; b < nb; ++b) {
            acc[b] += enter[b] - leave[b];
            dst[x * out_step + b * out_lane] = nd_store<Out>(acc[b] / kd);
          }
        }
        continue;
      }
      if (!blocked) {  // one line: one sum at a time
        Out* o = dst;
        for (long long x = 0; x < n; ++x, o += out_step) {
          const double* p = buf.data() + x + size1;  // p[j]: tap j
          double a;
          if (sym > 0) {
            a = p[0] * fw[0];
            for (long long j = -size1; j < 0; ++j)
              a += (p[j] + p[-j]) * fw[j];
          } else if (sym < 0) {
            a = p[0] * fw[0];
            for (long long j = -size1; j < 0; ++j)
              a += (p[j] - p[-j]) * fw[j];
          } else {
            a = p[size2] * fw[size2];
            for (long long j = -size1; j < size2; ++j)
              a += p[j] * fw[j];
          }
          *o = nd_store<Out>(a);
        }
        continue;
      }
      for (long long x = 0; x < n; ++x) {
        const double* p = buf.data() + (x + size1) * L;  // p[j * L + b]: tap j of lane b
        if (sym != 0) {
          for (long long b = 0; b < nb; ++b)
            acc[b] = p[b] * fw[0];
          for (long long j = -size1; j < 0; ++j) {
            const double* lo = p + j * L;
            const double* hi = p - j * L;
            const double wj = fw[j];
            if (sym > 0) {
              for (long long b = 0; b < nb; ++b)
                acc[b] += (lo[b] + hi[b]) * wj;
            } else {
              for (long long b = 0; b < nb; ++b)
                acc[b] += (lo[b] - hi[b]) * wj;
            }
          }
        } else {
          for (long long b = 0; b < nb; ++b)
            acc[b] = p[size2 * L + b] * fw[size2];
          for (long long j = -size1; j < size2; ++j) {
            const double* pj = p + j * L;
            const double wj = fw[j];
            for (long long b = 0; b < nb; ++b)
              acc[b] += pj[b] * wj;
          }
        }
        for (long long b = 0; b < nb; ++b)
          dst[x * out_step + b * out_lane] = nd_store<Out>(acc[b]);
      }
    }
  }
}

template <class In, class Out>
void nd_correlate(host_backend backend, const nd_view<const In>& in,
                  const nd_view<const double>& weights, const nd_view<Out>& out, border mode,
                  double cval, const std::vector<long long>& origins) {
  const std::size_t nd = in.ndim();
  const std::size_t total = in.size();
  if (total == 0) return;
  std::vector<double> tw;
  std::vector<long long> toff;  // nd offsets per tap
  detail::nd_taps(weights, origins, tw, toff);
  const std::size_t taps = tw.size();
  const std::size_t last = nd - 1;
  const long long n = static_cast<long long>(in.shape[last]);
  // Along the last axis, index x + o (o a tap's offset) maps to map[x + o - lo].
  long long lo = 0, hi = 0;
  for (std::size_t t = 0; t < taps; ++t) {
    lo = std::min(lo, toff[t * nd + last]);
    hi = std::max(hi, toff[t * nd + last]);
  }
  std::vector<long long> map(static_cast<std::size_t>(n + hi - lo));
  for (long long i = 0; i < static_cast<long long>(map.size()); ++i)
    map[static_cast<std::size_t>(i)] = detail::border_index(i + lo, n, mode);
  const std::size_t rows = total / static_cast<std::size_t>(n);
  const std::ptrdiff_t in_step = in.strides[last];
  const std::ptrdiff_t out_step = out.strides[last];
#pragma omp parallel num_threads(nd_threads(backend))
  {
    std::vector<double> acc(static_cast<std::size_t>(n));
    std::vector<long long> pos(nd);
#pragma omp for schedule(static)
    for (std::size_t row = 0; row < rows; ++row) {
      std::size_t r = row;
      for (std::size_t a = last; a-- > 0;) {
        pos[a] = static_cast<long long>(r % in.shape[a]);
        r /= in.shape[a];
      }
      std::fill(acc.begin(), acc.end(), 0.0);
      for (std::size_t t = 0; t < taps; ++t) {
        const long long* o = toff.data() + t * nd;
        const double wt = tw[t];
        std::ptrdiff_t base = 0;
        bool outside = false;
        for (std::size_t a = 0; a < last; ++a) {
          const long long i =
              detail::border_index(pos[a] + o[a], static_cast<long long>(in.shape[a]), mode);
          if (i < 0) {
            outside = true;
            break;
          }
          base += static_cast<std::ptrdiff_t>(i) * in.strides[a];
        }
        if (outside) {
          for (long long x = 0; x < n; ++x)
            acc[x] += wt * cval;
          continue;
        }
        const In* src = in.data + base;
        const long long* m = map.data() + (o[last] - lo);
        // Inside the row (x + offset in [0, n)) the map is the identity: a
        // plain sweep; the ends go through the map.
        const long long ol = o[last];
        const long long x0 = std::min(n, std::max(0LL, -ol));
        const long long x1 = std::max(x0, std::min(n, n - ol));
        for (long long x = 0; x < x0; ++x) {
          const long long i = m[x];
          acc[x] += wt * (i < 0 ? cval : nd_load(src[i * in_step]));
        }
        if (in_step == 1) {
          const In* s0 = src + ol;
          for (long long x = x0; x < x1; ++x)
            acc[x] += wt * nd_load(s0[x]);
        } else {
          for (long long x = x0; x < x1; ++x)
            acc[x] += wt * nd_load(src[(x + ol) * in_step]);
        }
        for (long long x = x1; x < n; ++x) {
          const long long i = m[x];
          acc[x] += wt * (i < 0 ? cval : nd_load(src[i * in_step]));
        }
      }
      std::ptrdiff_t obase = 0;
      for (std::size_t a = 0; a < last; ++a)
        obase += static_cast<std::ptrdiff_t>(pos[a]) * out.strides[a];
      Out* dst = out.data + obase;
      for (long long x = 0; x < n; ++x)
        dst[x * out_step] = nd_store_unsigned_safe<Out>(acc[x]);
    }
  }
}

}  // namespace gpuprim::host_impl
