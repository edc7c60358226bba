// histogram(x, bins=10, range=None) -> (counts, edges), as numpy.histogram.
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpu.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/reduce.hpp"
#include "histogram_rule.hpp"

namespace gpuprim::python {

namespace {

std::string number_text(double v) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// The samples' min and max on the host (NaN propagates, as NumPy's).
void host_extremes(const array& x, double& lo, double& hi) {
  visit_dtype(x.type, [&]<class T>(type_tag<T>) {
    const std::span<const T> s(x.ptr<const T>(), x.size());
    lo = static_cast<double>(reduce(host, s, s[0], minimum{}));
    hi = static_cast<double>(reduce(host, s, s[0], maximum{}));
  });
}

template <class T, class Edge>
void host_count(const array& x, const Edge* edges, int bins, bool uniform, std::int64_t* counts) {
  const std::span<const T> s(x.ptr<const T>(), x.size());
  const std::span<std::uint64_t> c(reinterpret_cast<std::uint64_t*>(counts),
                                   static_cast<std::size_t>(bins));
  histogram(host, s, c, numpy_bin<T, Edge>{edges, bins, uniform});
}

nb::object histogram_call(nb::handle x_obj, nb::handle bins_obj, nb::handle range_obj,
                          nb::handle stream) {
  const char* fn = "histogram";
  array x = import_array(x_obj, "histogram: x");
  if (x.type == dtype::float16 || x.type == dtype::bool8) {
    unsupported_dtype(fn, x, "samples are int8-64, uint8-64, float32, float64");
  }
  // bins: an int (even bins) or an array of increasing edges.
  int bins = 0;
  array user_edges;
  bool have_user_edges = false;
  if (PyLong_Check(bins_obj.ptr()) ||
      (PyIndex_Check(bins_obj.ptr()) && !nb::hasattr(bins_obj, "__len__"))) {
    if (PyBool_Check(bins_obj.ptr())) type_error("histogram: bins must be an int or an array");
    const std::int64_t b = nb::cast<std::int64_t>(nb::int_(bins_obj));
    if (b < 1) value_error("histogram: `bins` must be positive, when an integer");
    if (b >= (std::int64_t{1} << 31) - 1) value_error("histogram: too many bins");
    bins = static_cast<int>(b);
  } else {
    if (PyUnicode_Check(bins_obj.ptr())) {
      value_error(
          "histogram: bin estimators ('auto', ...) are not supported; give an int or edges");
    }
    user_edges = import_array(bins_obj, "histogram: bins");
    have_user_edges = true;
    if (user_edges.ndim != 1) value_error("histogram: `bins` must be 1d, when an array");
    if (user_edges.size() < 2) value_error("histogram: `bins` needs at least 2 edges");
    bins = static_cast<int>(user_edges.size() - 1);
  }
  const bool range_given = !range_obj.is_none();
  double first = 0.0;
  double last = 1.0;
  if (range_given) {
    nb::sequence r;
    try {
      r = nb::cast<nb::sequence>(range_obj);
      if (nb::len(r) != 2) throw nb::cast_error();
      first = nb::cast<double>(r[0]);
      last = nb::cast<double>(r[1]);
    } catch (const nb::cast_error&) {
      type_error("histogram: range must be a pair of numbers (min, max)");
    }
    if (first > last) value_error("histogram: max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last)) {
      value_error("histogram: supplied range of [" + number_text(first) + ", " + number_text(last) +
                  "] is not finite");
    }
  }
  const bool float32_edges = x.type == dtype::float32;
  const context ctx = have_user_edges ? make_context(fn, {&x, &user_edges}, stream)
                                      : make_context(fn, {&x}, stream);
  array counts = empty_array(ctx, {std::int64_t(bins)}, dtype::int64);
  const std::size_t n = x.size();

  if (ctx.on_device) {
    if (x.type == dtype::int64 || x.type == dtype::uint64) {
      unsupported_dtype(fn, x, "on the GPU samples are int8-32, uint8-32, float32, float64");
    }
    if (have_user_edges && user_edges.type != dtype::float64) {
      type_error("histogram: edges (bins) on the GPU must be float64");
    }
    nb::object edges_obj = have_user_edges ? user_edges.obj : nb::object();
    array edges;
    if (!have_user_edges) {
      edges = empty_array(ctx, {std::int64_t(bins) + 1},
                          float32_edges ? dtype::float32 : dtype::float64);
      edges_obj = edges.obj;
    }
    const bool from_data = !range_given && n > 0;
    if (!range_given && n == 0) {
      first = 0.0;
      last = 1.0;
    } else if (range_given && first == last) {
      first -= 0.5;
      last += 0.5;
    }
    device_guard guard(ctx);
    {
      nb::gil_scoped_release release;
      gpu::histogram(x.type, x.data, n, bins, !from_data, first, last,
                     have_user_edges ? user_edges.ptr<const double>() : nullptr, edges.data,
                     counts.ptr<std::int64_t>(), ctx.stream);
    }
    return nb::make_tuple(counts.obj, edges_obj);
  }

  // Host.
  if (have_user_edges) {
    std::vector<double> e(user_edges.size());
    visit_dtype(user_edges.type, [&]<class T>(type_tag<T>) {
      for (std::size_t i = 0; i < e.size(); ++i)
        e[i] = static_cast<double>(user_edges.ptr<const T>()[i]);
    });
    for (std::size_t i = 1; i < e.size(); ++i) {
      if (!(e[i] >= e[i - 1]))
        value_error("histogram: `bins` must increase monotonically, when an array");
    }
    {
      nb::gil_scoped_release release;
      visit_dtype(x.type, [&]<class T>(type_tag<T>) {
        if constexpr (!std::is_same_v<T, bool>) {
          host_count<T, double>(x, e.data(), bins, false, counts.ptr<std::int64_t>());
        }
      });
    }
    return nb::make_tuple(counts.obj, user_edges.obj);
  }
  // The end points' type: the data's for float32 data without a range
  // (NumPy's linspace of two float32 scalars), else float64.
  const bool float32_math = float32_edges && !range_given && n > 0;
  if (!range_given && n > 0) {
    host_extremes(x, first, last);
    if (!std::isfinite(first) || !std::isfinite(last)) {
      value_error("histogram: autodetected range of [" + number_text(first) + ", " +
                  number_text(last) + "] is not finite");
    }
  }
  if (first == last) {
    first -= 0.5;
    last += 0.5;
  }
  array edges =
      empty_array(ctx, {std::int64_t(bins) + 1}, float32_edges ? dtype::float32 : dtype::float64);
  {
    nb::gil_scoped_release release;
    visit_dtype(edges.type, [&]<class E>(type_tag<E>) {
      E* e = edges.ptr<E>();
      for (int k = 0; k <= bins; ++k) {
        e[k] = float32_math ? static_cast<E>(linspace_edge<float>(
                                  static_cast<float>(first), static_cast<float>(last), bins, k))
                            : static_cast<E>(linspace_edge<double>(first, last, bins, k));
      }
      visit_dtype(x.type, [&]<class T>(type_tag<T>) {
        if constexpr (!std::is_same_v<T, bool> && std::is_floating_point_v<E>) {
          host_count<T, E>(x, e, bins, true, counts.ptr<std::int64_t>());
        }
      });
    });
  }
  return nb::make_tuple(counts.obj, edges.obj);
}

}  // namespace

void bind_histogram(nb::module_& m) {
  m.def(
      "histogram",
      [](nb::object x, nb::object bins, nb::object range, nb::object stream) {
        return histogram_call(x, bins, range, stream);
      },
      nb::arg("x"), nb::arg("bins") = 10, nb::arg("range").none() = nb::none(), nb::kw_only(),
      nb::arg("stream").none() = nb::none(),
      "(counts, edges) as numpy.histogram: `bins` even bins over `range` (default: the data's "
      "min and max; a single value v gives [v - 0.5, v + 0.5]) or the given increasing edges; "
      "every bin half-open but the last; samples outside and NaN not counted. counts are int64; "
      "edges float32 for float32 samples, else float64. On the GPU nothing waits: a NaN in the "
      "data with range=None gives NaN edges and zero counts there (NumPy raises).");
}

}  // namespace gpuprim::python
