// The typed bindings under gpuprim.histogram (python/gpuprim/_histograms.py,
// which parses NumPy's arguments): the library's numpy_histogram for even
// bins and numpy_histogram_of_edges for an array of edges, on the host or
// on the GPU. The library's histogram_argument_error (numpy's ValueError
// cases: a bad range, too many bins for the data's range) is raised as
// ValueError with NumPy's words.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>

#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/histogram.hpp"

namespace gpuprim::python {

namespace {

// The sample types the library bins on each side: every integer and
// float16 / float32 / float64 on the host; on the GPU those whose NumPy-rule
// histograms (even bins and an array of edges, int64 counts) are
// precompiled into the library.
template <class T>
constexpr bool host_sample = numpy_histogram_sample<T>;
template <class T>
constexpr bool precompiled_numpy_rule() {
  using detail::numpy_binner, detail::numpy_edges_binner, detail::precompiled_histogram;
  return precompiled_histogram<T, std::uint64_t, numpy_binner<T>> &&
         precompiled_histogram<T, std::uint64_t, numpy_edges_binner<T>>;
}
template <class T>
constexpr bool gpu_sample = precompiled_numpy_rule<T>();

constexpr const char* host_dtypes = "samples are int8-64, uint8-64, float16, float32, float64";
constexpr const char* gpu_dtypes = "on the GPU samples are int8-32, uint8-32, float32, float64";

// Runs f(type_tag<T>) for x's sample type (gp::half for float16), or
// raises TypeError.
template <class F>
void visit_sample(const char* fn, const array& x, bool on_device, F&& f) {
  if (x.type == dtype::bool8 || (on_device && x.type == dtype::float16)) {
    unsupported_dtype(fn, x, on_device ? gpu_dtypes : host_dtypes);
  }
  if (x.type == dtype::float16) {
    f(type_tag<half>{});
    return;
  }
  visit_dtype(x.type, [&]<class T>(type_tag<T>) {
    if constexpr (gpu_sample<T>) {
      f(type_tag<T>{});
    } else if constexpr (host_sample<T>) {
      if (on_device) unsupported_dtype(fn, x, gpu_dtypes);
      f(type_tag<T>{});
    }
  });
}

// The library's numpy.histogram errors as ValueError, in NumPy's words.
template <class F>
void numpy_errors_as_value_error(F&& f) {
  try {
    f();
  } catch (const histogram_argument_error& e) {
    value_error(e.reason());
  }
}

std::span<std::uint64_t> host_counts(const array& counts) {
  return {counts.ptr<std::uint64_t>(), counts.size()};  // int64 counts, never negative
}
device_span<std::uint64_t> device_counts(const array& counts) {
  return {counts.ptr<std::uint64_t>(), counts.size()};
}

// The type np.linspace computes a given range's edges in: 64 (Python
// numbers), 32 or 16 (NumPy float32 / float16 bounds).
numpy_float range_arithmetic(int bits) {
  if (bits == 32) return numpy_float::float32;
  if (bits == 16) return numpy_float::float16;
  if (bits != 64) value_error("histogram: the range's arithmetic is 16, 32 or 64 bits");
  return numpy_float::float64;
}

// (counts, edges) of numpy.histogram(x, bins, range) for an int `bins`; the
// edges of float16 data come as float32 (holding float16 values exactly).
nb::object histogram_even(nb::handle x_obj, int bins, std::optional<std::pair<double, double>> r,
                          int bits, nb::handle stream) {
  const char* fn = "histogram";
  const array x = import_array(x_obj, "histogram: a");
  const context ctx = make_context(fn, {&x}, stream);
  if (!r) {
    refuse_capture(ctx, fn,
                   "without range= it waits for the data's min and max to place the bins; pass "
                   "range=(lo, hi) to capture it");
  }
  const std::optional<numpy_range> range =
      r ? std::optional{numpy_range{r->first, r->second, range_arithmetic(bits)}} : std::nullopt;
  const array counts = empty_array(ctx, {bins}, dtype::int64);
  const bool float_edges = x.type == dtype::float32 || x.type == dtype::float16;
  const array edges =
      empty_array(ctx, {std::int64_t(bins) + 1}, float_edges ? dtype::float32 : dtype::float64);
  visit_sample(fn, x, ctx.on_device, [&]<class T>(type_tag<T>) {
    using Edge =
        std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, half>, float, double>;
    numpy_errors_as_value_error([&] {
      if (ctx.on_device) {
        if constexpr (gpu_sample<T>) {
          const device_guard guard(ctx);
          const nb::gil_scoped_release release;
          numpy_histogram_into(
              cuda.on(ctx.stream), device_span<const T>(x.ptr<const T>(), x.size()),
              device_counts(counts), device_span<Edge>(edges.ptr<Edge>(), edges.size()), range);
        }
      } else {
        const nb::gil_scoped_release release;
        numpy_histogram(host, std::span<const T>(x.ptr<const T>(), x.size()), host_counts(counts),
                        std::span<Edge>(edges.ptr<Edge>(), edges.size()), range);
      }
    });
  });
  return nb::make_tuple(result_object(ctx, counts), result_object(ctx, edges));
}

// counts of numpy.histogram(x, bins=edges) for float64 edges that do not
// decrease (checked by the caller on the GPU).
nb::object histogram_of_edges(nb::handle x_obj, nb::handle edges_obj, nb::handle stream) {
  const char* fn = "histogram";
  const array x = import_array(x_obj, "histogram: a");
  const array edges = import_array(edges_obj, "histogram: bins");
  if (edges.type != dtype::float64 || edges.ndim != 1 || edges.size() < 2) {
    type_error("histogram: the edges reach the binding as a 1-d float64 array of >= 2 values");
  }
  const context ctx = make_context(fn, {&x, &edges}, stream);
  const array counts = empty_array(ctx, {std::int64_t(edges.size()) - 1}, dtype::int64);
  visit_sample(fn, x, ctx.on_device, [&]<class T>(type_tag<T>) {
    numpy_errors_as_value_error([&] {
      if (ctx.on_device) {
        if constexpr (gpu_sample<T>) {
          const device_guard guard(ctx);
          const nb::gil_scoped_release release;
          numpy_histogram_of_edges_into(
              cuda.on(ctx.stream), device_span<const T>(x.ptr<const T>(), x.size()),
              device_counts(counts),
              device_span<const double>(edges.ptr<const double>(), edges.size()));
        }
      } else {
        const nb::gil_scoped_release release;
        numpy_histogram_of_edges(host, std::span<const T>(x.ptr<const T>(), x.size()),
                                 host_counts(counts),
                                 std::span<const double>(edges.ptr<const double>(), edges.size()));
      }
    });
  });
  return result_object(ctx, counts);
}

// Runs f(type_tag<W>) for the weights' type: float64, float32, int64 or
// uint64 (gpuprim.histogram converts the others), or raises TypeError.
template <class F>
void visit_weight(const array& w, F&& f) {
  switch (w.type) {
    case dtype::float64:
      return f(type_tag<double>{});
    case dtype::float32:
      return f(type_tag<float>{});
    case dtype::int64:
      return f(type_tag<std::int64_t>{});
    case dtype::uint64:
      return f(type_tag<std::uint64_t>{});
    default:
      unsupported_dtype("histogram", w, "weights reach the binding as float64, float32, int64 "
                                        "or uint64");
  }
}

array host_weights(const array& x, nb::handle w_obj) {
  array w = import_array(w_obj, "histogram: weights");
  if (x.on_device || w.on_device) {
    type_error("histogram: weights= is computed on the CPU only (NumPy arrays); the GPU has no "
               "weighted histogram yet");
  }
  return w;
}

// (sums, edges) of numpy.histogram(x, bins, range, weights=w) for an int
// `bins`, on the host; sums of the weights' type.
nb::object histogram_even_weighted(nb::handle x_obj, nb::handle w_obj, int bins,
                                   std::optional<std::pair<double, double>> r, int bits) {
  const char* fn = "histogram";
  const array x = import_array(x_obj, "histogram: a");
  const array w = host_weights(x, w_obj);
  const context ctx = make_context(fn, {&x, &w}, nb::none());
  const std::optional<numpy_range> range =
      r ? std::optional{numpy_range{r->first, r->second, range_arithmetic(bits)}} : std::nullopt;
  const array sums = empty_array(ctx, {bins}, w.type);
  const bool float_edges = x.type == dtype::float32 || x.type == dtype::float16;
  const array edges =
      empty_array(ctx, {std::int64_t(bins) + 1}, float_edges ? dtype::float32 : dtype::float64);
  visit_sample(fn, x, false, [&]<class T>(type_tag<T>) {
    using Edge =
        std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, half>, float, double>;
    visit_weight(w, [&]<class W>(type_tag<W>) {
      numpy_errors_as_value_error([&] {
        const nb::gil_scoped_release release;
        numpy_histogram_weighted(host, std::span<const T>(x.ptr<const T>(), x.size()),
                                 std::span<const W>(w.ptr<const W>(), w.size()),
                                 std::span<W>(sums.ptr<W>(), sums.size()),
                                 std::span<Edge>(edges.ptr<Edge>(), edges.size()), range);
      });
    });
  });
  return nb::make_tuple(result_object(ctx, sums), result_object(ctx, edges));
}

// sums of numpy.histogram(x, bins=edges, weights=w) for float64 edges, on
// the host.
nb::object histogram_of_edges_weighted(nb::handle x_obj, nb::handle w_obj, nb::handle edges_obj) {
  const char* fn = "histogram";
  const array x = import_array(x_obj, "histogram: a");
  const array w = host_weights(x, w_obj);
  const array edges = import_array(edges_obj, "histogram: bins");
  if (edges.type != dtype::float64 || edges.ndim != 1 || edges.size() < 2) {
    type_error("histogram: the edges reach the binding as a 1-d float64 array of >= 2 values");
  }
  const context ctx = make_context(fn, {&x, &w, &edges}, nb::none());
  const array sums = empty_array(ctx, {std::int64_t(edges.size()) - 1}, w.type);
  visit_sample(fn, x, false, [&]<class T>(type_tag<T>) {
    visit_weight(w, [&]<class W>(type_tag<W>) {
      numpy_errors_as_value_error([&] {
        const nb::gil_scoped_release release;
        numpy_histogram_of_edges_weighted(
            host, std::span<const T>(x.ptr<const T>(), x.size()),
            std::span<const W>(w.ptr<const W>(), w.size()), std::span<W>(sums.ptr<W>(), sums.size()),
            std::span<const double>(edges.ptr<const double>(), edges.size()));
      });
    });
  });
  return result_object(ctx, sums);
}

// A weight of numpy's object dtype (a Python object, such as a Decimal) as
// the library's number-like weight type: + and - are Python's own (the
// binding keeps the GIL), and the zero is Python's 0, as numpy's
// np.zeros(..., object).
struct object_weight {
  nb::object value = nb::int_(0);
  friend object_weight operator+(const object_weight& a, const object_weight& b) {
    return {a.value + b.value};
  }
  friend object_weight operator-(const object_weight& a, const object_weight& b) {
    return {a.value - b.value};
  }
};

// sums (a list) of numpy.histogram(x, bins=edges, weights=w) for object
// weights (a sequence of x's size), on the host: the library's cumulative
// form with Python's arithmetic, so the sums are numpy's (numpy takes that
// form for object weights with even bins too).
nb::list histogram_of_edges_object_weighted(nb::handle x_obj, nb::sequence w_seq,
                                            nb::handle edges_obj) {
  const char* fn = "histogram";
  const array x = import_array(x_obj, "histogram: a");
  const array edges = import_array(edges_obj, "histogram: bins");
  if (x.on_device || edges.on_device) {
    type_error("histogram: object weights (such as Decimal) are summed on the CPU only (NumPy "
               "arrays), not over a GPU array");
  }
  if (edges.type != dtype::float64 || edges.ndim != 1 || edges.size() < 2) {
    type_error("histogram: the edges reach the binding as a 1-d float64 array of >= 2 values");
  }
  std::vector<object_weight> weights;
  weights.reserve(nb::len(w_seq));
  for (nb::handle w : w_seq)
    weights.push_back({nb::borrow(w)});
  std::vector<object_weight> sums(edges.size() - 1);
  visit_sample(fn, x, false, [&]<class T>(type_tag<T>) {
    numpy_errors_as_value_error([&] {
      numpy_histogram_of_edges_weighted(
          host, std::span<const T>(x.ptr<const T>(), x.size()), weights, sums,
          std::span<const double>(edges.ptr<const double>(), edges.size()));
    });
  });
  nb::list out;
  for (const object_weight& s : sums)
    out.append(s.value);
  return out;
}

}  // namespace

void bind_histogram(nb::module_& m) {
  m.def("_histogram_even", &histogram_even, nb::arg("a"), nb::arg("bins"), nb::arg("range").none(),
        nb::arg("range_bits"), nb::arg("stream").none(),
        "(counts, edges) of numpy.histogram(a, bins, range) for an int `bins` in [1, 2^31 - 1] "
        "and range None or a (min, max) pair of floats whose edges np.linspace computes in "
        "float<range_bits>; see gpuprim.histogram.");
  m.def("_histogram_of_edges", &histogram_of_edges, nb::arg("a"), nb::arg("edges"),
        nb::arg("stream").none(),
        "counts of numpy.histogram(a, bins=edges) for a 1-d float64 array of edges that do not "
        "decrease; see gpuprim.histogram.");
  m.def("_histogram_even_weighted", &histogram_even_weighted, nb::arg("a"), nb::arg("weights"),
        nb::arg("bins"), nb::arg("range").none(), nb::arg("range_bits"),
        "(sums, edges) of numpy.histogram(a, bins, range, weights=weights) on the host, for "
        "weights of a's size (float64, float32, int64, uint64); see gpuprim.histogram.");
  m.def("_histogram_of_edges_weighted", &histogram_of_edges_weighted, nb::arg("a"),
        nb::arg("weights"), nb::arg("edges"),
        "sums of numpy.histogram(a, bins=edges, weights=weights) on the host; see "
        "gpuprim.histogram.");
  m.def("_histogram_of_edges_object_weighted", &histogram_of_edges_object_weighted, nb::arg("a"),
        nb::arg("weights"), nb::arg("edges"),
        "sums (a list) of numpy.histogram(a, bins=edges, weights=weights) on the host for "
        "object weights (a sequence of Python numbers, such as Decimals), added with Python's "
        "+ and - in NumPy's order; see gpuprim.histogram.");
}

}  // namespace gpuprim::python
