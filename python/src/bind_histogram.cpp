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

[[noreturn]] void value_error(const std::string& msg) {
  throw nb::value_error(msg.c_str());
}
[[noreturn]] void type_error(const std::string& msg) {
  throw nb::type_error(msg.c_str());
}

// The library's messages start "gpuprim::<function>: "; ours "histogram: ".
[[noreturn]] void rethrow_value_error(const std::invalid_argument& e) {
  std::string what = e.what();
  if (what.rfind("gpuprim::", 0) == 0) {
    const std::size_t colon = what.find(": ");
    if (colon != std::string::npos) what.erase(0, colon + 2);
  }
  value_error("histogram: " + what);
}

// numpy.histogram's even bins for samples of type T: over the given range,
// else over the samples' min and max (NaN propagates, as numpy's; a
// non-finite one raises as numpy does), else (0, 1) for no samples. On the
// GPU the min and max are read back to the host: the library's NumPy rule
// checks the bins there, before anything is counted.
template <class T>
numpy_bins even_bins(const context& ctx, const array& x, bool range_given, double first,
                     double last) {
  if (range_given) return numpy_bins::with_range<T>(first, last);
  if (x.size() == 0) return numpy_bins::of_empty<T>();
  T min_max[2];
  if (ctx.on_device) {
    nb::gil_scoped_release release;
    gpu::histogram_extremes(x.type, x.data, x.size(), min_max, ctx.stream);
  } else {
    const std::span<const T> s(x.ptr<const T>(), x.size());
    nb::gil_scoped_release release;
    min_max[0] = reduce(host, s, s[0], minimum{});
    min_max[1] = reduce(host, s, s[0], maximum{});
  }
  return numpy_bins::of_data<T>(min_max[0], min_max[1]);
}

// Counts the samples into the even bins of `spec` on the host (the
// library's NumPy rule; int64 samples, which numpy compares as float64,
// through the same binner as a classifier).
template <class T>
void host_count_even(const array& x, const numpy_bins& spec, int bins, std::int64_t* counts) {
  const std::span<const T> s(x.ptr<const T>(), x.size());
  const std::span<std::uint64_t> c(reinterpret_cast<std::uint64_t*>(counts),
                                   static_cast<std::size_t>(bins));
  if constexpr (histogram_sample<T>) {
    histogram_even(host, s, c, spec);
  } else {
    histogram(host, s, c, detail::numpy_binner_for<T>("histogram", c.size(), spec));
  }
}

nb::object histogram_call(nb::handle x_obj, nb::handle bins_obj, nb::handle range_obj,
                          nb::handle stream) {
  const char* fn = "histogram";
  array x = import_array(x_obj, "histogram: x");
  if (x.type == dtype::float16 || x.type == dtype::bool_) {
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
  }
  const dtype edge_type = x.type == dtype::float32 ? dtype::float32 : dtype::float64;
  const context ctx = have_user_edges ? make_context(fn, {&x, &user_edges}, stream)
                                      : make_context(fn, {&x}, stream);
  array counts = empty_array(ctx, {std::int64_t(bins)}, dtype::int64);
  const std::size_t n = x.size();

  if (ctx.on_device) {
    if (have_user_edges && user_edges.type != dtype::float64) {
      type_error("histogram: edges (bins) on the GPU must be float64");
    }
    device_guard guard(ctx);
    if (have_user_edges) {
      nb::gil_scoped_release release;
      gpu::histogram(x.type, x.data, n, bins, nullptr, user_edges.ptr<const double>(), nullptr,
                     counts.ptr<std::int64_t>(), ctx.stream);
      return nb::make_tuple(counts.obj, user_edges.obj);
    }
    array edges = empty_array(ctx, {std::int64_t(bins) + 1}, edge_type);
    try {
      const numpy_bins spec = visit_dtype(x.type, [&]<class T>(type_tag<T>) {
        if constexpr (std::is_same_v<T, bool>) {
          return numpy_bins{};  // rejected above
        } else {
          return even_bins<T>(ctx, x, range_given, first, last);
        }
      });
      nb::gil_scoped_release release;
      gpu::histogram(x.type, x.data, n, bins, &spec, nullptr, edges.data,
                     counts.ptr<std::int64_t>(), ctx.stream);
    } catch (const std::invalid_argument& e) {
      rethrow_value_error(e);
    }
    return nb::make_tuple(counts.obj, edges.obj);
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
        const std::span<const T> s(x.ptr<const T>(), n);
        const std::span<std::uint64_t> c(
            reinterpret_cast<std::uint64_t*>(counts.ptr<std::int64_t>()),
            static_cast<std::size_t>(bins));
        histogram(host, s, c, edges_bin<T, double>{e.data(), bins});
      });
    }
    return nb::make_tuple(counts.obj, user_edges.obj);
  }
  array edges = empty_array(ctx, {std::int64_t(bins) + 1}, edge_type);
  try {
    visit_dtype(x.type, [&]<class T>(type_tag<T>) {
      if constexpr (std::is_same_v<T, bool>) return;  // rejected above
      const numpy_bins spec = even_bins<T>(ctx, x, range_given, first, last);
      // Checks the bins (and throws) before anything is counted.
      const std::vector<double> e = numpy_histogram_edges(spec, static_cast<std::size_t>(bins));
      nb::gil_scoped_release release;
      visit_dtype(edge_type, [&]<class E>(type_tag<E>) {
        if constexpr (std::is_floating_point_v<E>) {
          for (std::size_t k = 0; k < e.size(); ++k)
            edges.ptr<E>()[k] = static_cast<E>(e[k]);
        }
      });
      host_count_even<T>(x, spec, bins, counts.ptr<std::int64_t>());
    });
  } catch (const std::invalid_argument& e) {
    rethrow_value_error(e);
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
      "edges float32 for float32 samples, else float64. With range=None on the GPU the data's "
      "min and max are read back to the host (the call waits for them); a NaN or infinity "
      "among them raises ValueError, as NumPy's.");
}

}  // namespace gpuprim::python
