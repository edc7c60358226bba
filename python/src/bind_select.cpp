// The selection family's typed bindings, under gpuprim._core (the NumPy
// names and their arguments are in python/gpuprim/select.py):
//   _count_nonzero(a)              the number of nonzero elements (an int)
//   _flatnonzero(a)                the int64 indices of the nonzero elements
//   _compact(flags, a)             the elements of a whose one-byte flag is set
//   _unique_runs(s, values, counts, equal_nan)
//                                  the first element of each run of equal
//                                  elements of s, with its value and its length
// A result's size depends on the data: on the GPU each of these counts
// first and waits for that count once (one synchronization), then writes
// its exact output asynchronously on the stream. Under CUDA graph capture
// they raise RuntimeError (refuse_capture) before enqueueing anything.
#include <nanobind/stl/tuple.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpuprim/select.hpp"

namespace gpuprim::python {

namespace {

// Calls f(type_tag<K>{}) with the type the library sees the elements of `a`
// as. On the host every dtype as itself (bool as its bytes). On the GPU the
// precompiled types: floats as themselves (-0.0 is zero, NaN is not equal to
// itself), integers and bools by their bits as the unsigned type of their
// size (equal and nonzero exactly when the bits are).
template <class F>
void visit_select_type(const char* fn, const array& a, bool on_device, F&& f) {
  if (a.type == dtype::float16) unsupported_dtype(fn, a, "float16 is not taken");
  if (!on_device) {
    visit_dtype(a.type, [&]<class T>(type_tag<T>) { f(type_tag<stored_t<T>>{}); });
    return;
  }
  switch (a.type) {
    case dtype::float32:
      f(type_tag<float>{});
      return;
    case dtype::float64:
      f(type_tag<double>{});
      return;
    default:
      break;
  }
  switch (dtype_size(a.type)) {
    case 1:
      f(type_tag<std::uint8_t>{});
      return;
    case 4:
      f(type_tag<std::uint32_t>{});
      return;
    case 8:
      f(type_tag<std::uint64_t>{});
      return;
    default:
      unsupported_dtype(fn, a, "on the GPU, 2-byte integers are not taken");
  }
}

// The selection's counted total: on the GPU one synchronization.
template <class S>
std::uint64_t count_of(const context& ctx, S s, std::size_t n) {
  s.emits = false;
  if (ctx.on_device) {
    // (visit_select_type hands the GPU only precompiled types.)
    if constexpr (detail::precompiled_select<S>) {
      device_guard guard(ctx);
      nb::gil_scoped_release release;
      return detail::cuda_select_to_host(cuda.on(ctx.stream), s, n)[0];
    }
  }
  nb::gil_scoped_release release;
  return host_impl::select(host, s, n)[0];
}

// Runs a selection whose outputs were sized by count_of (so its writes stay
// inside them); on the GPU asynchronously, nothing waited for.
template <class S>
void run_sized(const context& ctx, const S& s, std::size_t n) {
  if (ctx.on_device) {
    if constexpr (detail::precompiled_select<S>) {
      device_guard guard(ctx);
      nb::gil_scoped_release release;
      const detail::scratch_buffer counts(2 * sizeof(std::uint64_t), ctx.stream);
      detail::cuda_select_checked(s, n, counts.get<std::uint64_t>(), ctx.stream);
      return;
    }
  }
  nb::gil_scoped_release release;
  host_impl::select(host, s, n);
}

std::int64_t count_nonzero_call(nb::handle a_obj, nb::handle stream) {
  const char* fn = "count_nonzero";
  array a = import_array(a_obj, "count_nonzero: a");
  const context ctx = make_context(fn, {&a}, stream);
  refuse_capture(ctx, fn, output_sized_by_data);
  std::uint64_t k = 0;
  visit_select_type(fn, a, ctx.on_device, [&]<class T>(type_tag<T>) {
    detail::select_if<T, nonzero> s;
    s.input = a.ptr<const T>();
    k = count_of(ctx, s, a.size());
  });
  return static_cast<std::int64_t>(k);
}

nb::object flatnonzero_call(nb::handle a_obj, nb::handle stream) {
  const char* fn = "flatnonzero";
  array a = import_array(a_obj, "flatnonzero: a");
  const context ctx = make_context(fn, {&a}, stream);
  refuse_capture(ctx, fn, output_sized_by_data);
  nb::object result;
  visit_select_type(fn, a, ctx.on_device, [&]<class T>(type_tag<T>) {
    detail::select_index_if<T, nonzero, std::int64_t> s;
    s.input = a.ptr<const T>();
    const std::uint64_t k = count_of(ctx, s, a.size());
    array out = empty_array(ctx, {std::int64_t(k)}, dtype::int64);
    s.out = out.ptr<std::int64_t>();
    if (k) run_sized(ctx, s, a.size());
    result = result_object(ctx, out);
  });
  return result;
}

nb::object compact_call(nb::handle flags_obj, nb::handle a_obj, nb::handle stream) {
  const char* fn = "extract";
  array flags = import_array(flags_obj, "extract: condition");
  array a = import_array(a_obj, "extract: arr");
  if (dtype_size(flags.type) != 1) unsupported_dtype(fn, flags, "the condition is one byte");
  if (flags.size() != a.size()) {
    value_error("extract: the condition has " + std::to_string(flags.size()) +
                " elements, the array " + std::to_string(a.size()));
  }
  const context ctx = make_context(fn, {&flags, &a}, stream);
  refuse_capture(ctx, fn, output_sized_by_data);
  nb::object result;
  visit_select_type(fn, a, ctx.on_device, [&]<class T>(type_tag<T>) {
    detail::select_flagged<T, std::uint8_t> s;
    s.input = a.ptr<const T>();
    s.flags = flags.ptr<const std::uint8_t>();
    const std::uint64_t k = count_of(ctx, s, a.size());
    array out = empty_array(ctx, {std::int64_t(k)}, a.type);
    s.out = out.ptr<T>();
    if (k) run_sized(ctx, s, a.size());
    result = result_object(ctx, out);
  });
  return result;
}

// The runs of s under equality Eq: their first elements, the values at
// their heads (int64, when `values` is given) and their lengths (int64).
template <class K, class Eq>
nb::tuple unique_runs(const context& ctx, const array& s, const array* values, bool want_counts) {
  const std::size_t n = s.size();
  detail::unique_runs<K, detail::no_values, Eq> counting;
  counting.input = s.ptr<const K>();
  const std::uint64_t k = count_of(ctx, counting, n);
  const std::vector<std::int64_t> shape{std::int64_t(k)};
  array u = empty_array(ctx, shape, s.type);
  nb::object first = nb::none(), counts = nb::none();
  if (values) {
    array v = empty_array(ctx, shape, dtype::int64);
    detail::unique_runs<K, std::int64_t, Eq> sel;
    sel.input = s.ptr<const K>();
    sel.values = values->ptr<const std::int64_t>();
    sel.keys_out = u.ptr<K>();
    sel.values_out = v.ptr<std::int64_t>();
    if (k) run_sized(ctx, sel, n);
    first = result_object(ctx, v);
  }
  if (want_counts) {
    array c = empty_array(ctx, shape, dtype::int64);
    detail::reduce_runs<K, detail::unit_values<std::int64_t>, plus, Eq> sel;
    sel.input = s.ptr<const K>();
    sel.keys_out = u.ptr<K>();
    sel.values_out = c.ptr<std::int64_t>();
    if (k) run_sized(ctx, sel, n);
    counts = result_object(ctx, c);
  }
  if (!values && !want_counts) {
    detail::unique_runs<K, detail::no_values, Eq> sel;
    sel.input = s.ptr<const K>();
    sel.keys_out = u.ptr<K>();
    if (k) run_sized(ctx, sel, n);
  }
  return nb::make_tuple(result_object(ctx, u), first, counts);
}

nb::tuple unique_runs_call(nb::handle s_obj, nb::handle values_obj, bool want_counts,
                           bool equal_nan, nb::handle stream) {
  const char* fn = "unique";
  array s = import_array(s_obj, "unique: ar");
  if (s.ndim != 1) value_error("unique: the runs are taken of a 1-D array");
  std::optional<array> values;
  if (!values_obj.is_none()) {
    values.emplace(import_array(values_obj, "unique: values"));
    if (values->type != dtype::int64 || values->size() != s.size())
      value_error("unique: the values are int64, one per element");
  }
  const context ctx =
      values ? make_context(fn, {&s, &*values}, stream) : make_context(fn, {&s}, stream);
  refuse_capture(ctx, fn, output_sized_by_data);
  nb::tuple result;
  visit_select_type(fn, s, ctx.on_device, [&]<class K>(type_tag<K>) {
    const array* v = values ? &*values : nullptr;
    if (std::is_floating_point_v<K> && equal_nan) {
      result = unique_runs<K, detail::plain_equality_t<K, same_value>>(ctx, s, v, want_counts);
    } else {
      result = unique_runs<K, equal_to>(ctx, s, v, want_counts);
    }
  });
  return result;
}

}  // namespace

void bind_select(nb::module_& m) {
  m.def("_count_nonzero", &count_nonzero_call, nb::arg("a"), nb::kw_only(),
        nb::arg("stream").none() = nb::none(),
        "The number of nonzero elements, as an int (on the GPU: one synchronization).");
  m.def("_flatnonzero", &flatnonzero_call, nb::arg("a"), nb::kw_only(),
        nb::arg("stream").none() = nb::none(),
        "The int64 indices of the nonzero elements of the flattened array, in order.");
  m.def("_compact", &compact_call, nb::arg("condition"), nb::arg("arr"), nb::kw_only(),
        nb::arg("stream").none() = nb::none(),
        "The elements of arr (flattened) whose one-byte condition is nonzero, in order.");
  m.def("_unique_runs", &unique_runs_call, nb::arg("ar"), nb::arg("values").none(),
        nb::arg("return_counts"), nb::arg("equal_nan"), nb::kw_only(),
        nb::arg("stream").none() = nb::none(),
        "(first element of each run of equal elements of the 1-D ar, the values at the runs' "
        "heads or None, the runs' lengths or None); NaNs form one run when equal_nan.");
}

}  // namespace gpuprim::python
