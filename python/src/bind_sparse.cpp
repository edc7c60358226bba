// gpuprim.sparse.spmv and gpuprim.sparse.linalg's solvers on a CSR matrix
// given as its three arrays (data, indices, indptr) and its shape;
// python/gpuprim/sparse reads them from SciPy / cupyx matrices and turns the
// solver's result into SciPy's (x, info).
//
// The structure is checked before use (the library's views are unchecked):
// on the host all of it; on the GPU the row offsets for every call and the
// column indices too for the solvers (spmv trusts a device matrix's column
// indices, as cupyx does: checking them would cost a third of the product).
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <tuple>

#include "arrays.hpp"
#include "bind.hpp"
#include "gpu_sparse.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/solve.hpp"
#include "gpuprim/sparse.hpp"

namespace gpuprim::python {

namespace {

struct csr_args {
  array data, indices, indptr;
  std::size_t rows = 0, cols = 0;

  // The library's views of these arrays, for values T and indices I (as
  // visit_csr gives them).
  template <class T, class I>
  csr_view<T, I> host_view() const {
    return {rows, cols, std::span<const I>(indptr.ptr<const I>(), rows + 1),
            std::span<const I>(indices.ptr<const I>(), indices.size()),
            std::span<const T>(data.ptr<const T>(), data.size())};
  }
  template <class T, class I>
  device_csr_view<T, I> device_view(const csr_row_stats& stats) const {
    return {rows,
            cols,
            device_span<const I>(indptr.ptr<const I>(), rows + 1),
            device_span<const I>(indices.ptr<const I>(), indices.size()),
            device_span<const T>(data.ptr<const T>(), data.size()),
            stats};
  }
};

void require_1d(const char* fn, const array& a, const char* name) {
  if (a.ndim != 1) {
    value_error(std::string(fn) + ": " + name + " must be 1-D (it has " + std::to_string(a.ndim) +
                " dimensions)");
  }
}

csr_args import_csr(const char* fn, nb::handle data, nb::handle indices, nb::handle indptr,
                    std::int64_t rows, std::int64_t cols) {
  const std::string f(fn);
  csr_args A{import_array(data, f + ": A.data"), import_array(indices, f + ": A.indices"),
             import_array(indptr, f + ": A.indptr")};
  if (rows < 0 || cols < 0) value_error(f + ": the matrix shape must not be negative");
  A.rows = static_cast<std::size_t>(rows);
  A.cols = static_cast<std::size_t>(cols);
  require_1d(fn, A.data, "A.data");
  require_1d(fn, A.indices, "A.indices");
  require_1d(fn, A.indptr, "A.indptr");
  if (A.data.type != dtype::float32 && A.data.type != dtype::float64) {
    unsupported_dtype(fn, A.data, "the matrix is float32 or float64");
  }
  if (A.indices.type != dtype::int32 && A.indices.type != dtype::int64) {
    unsupported_dtype(fn, A.indices, "indices are int32 or int64");
  }
  if (A.indptr.type != A.indices.type) {
    type_error(f + ": A.indptr is " + dtype_name(A.indptr.type) + " but A.indices is " +
               dtype_name(A.indices.type) + "; they must have one index type");
  }
  if (A.indptr.size() != A.rows + 1) {
    value_error(f + ": A.indptr has " + std::to_string(A.indptr.size()) + " entries; " +
                std::to_string(A.rows) + " rows need " + std::to_string(A.rows + 1));
  }
  if (A.indices.size() != A.data.size()) {
    value_error(f + ": A.indices has " + std::to_string(A.indices.size()) +
                " entries but A.data has " + std::to_string(A.data.size()));
  }
  return A;
}

template <class I>
csr_row_stats check_host(const char* fn, const csr_args& A) {
  try {
    sparse_detail::check_csr<I>(
        fn, A.rows, A.cols, std::span<const I>(A.indptr.ptr<const I>(), A.rows + 1),
        std::span<const I>(A.indices.ptr<const I>(), A.indices.size()), A.data.size());
  } catch (const std::invalid_argument& e) {
    std::string m = e.what();
    const std::string prefix = std::string("gpuprim::") + fn + ": ";
    if (m.rfind(prefix, 0) == 0) m = m.substr(prefix.size());
    value_error(std::string(fn) + ": A is not a valid CSR matrix: " + m);
  }
  return {};
}

// The device check; returns the statistics (for the SpMV kernel choice).
csr_row_stats check_device(const char* fn, const csr_args& A, bool check_columns, stream_t stream) {
  csr_row_stats s;
  s.known = true;
  s.rows = A.rows;
  s.nnz = A.data.size();
  if (A.rows == 0) return s;
  const gpu::csr_check_result r =
      gpu::check_csr(A.indices.type, A.indptr.data, A.indices.data, A.rows, A.cols, A.data.size(),
                     check_columns, stream);
  if (r.defect != gpu::csr_defect::none) {
    const char* what = "";
    switch (r.defect) {
      case gpu::csr_defect::first_offset:
        what = "indptr[0] is not 0";
        break;
      case gpu::csr_defect::decreasing:
        what = "its row offsets decrease";
        break;
      case gpu::csr_defect::past_end:
        what = "its end offset is past the entries (nnz)";
        break;
      case gpu::csr_defect::last_offset:
        what = "the last row offset is not nnz";
        break;
      default:
        what = "a column index is outside [0, cols)";
        break;
    }
    value_error(std::string(fn) + ": A is not a valid CSR matrix: row " + std::to_string(r.row) +
                ": " + what);
  }
  s.max_row = r.max_row;
  s.empty_rows = r.empty_rows;
  return s;
}

template <class F>
void visit_csr(const csr_args& A, F&& f) {
  auto with_index = [&]<class T>(type_tag<T>) {
    if (A.indices.type == dtype::int32) {
      f(type_tag<T>{}, type_tag<std::int32_t>{});
    } else {
      f(type_tag<T>{}, type_tag<std::int64_t>{});
    }
  };
  if (A.data.type == dtype::float32) {
    with_index(type_tag<float>{});
  } else {
    with_index(type_tag<double>{});
  }
}

// A vector argument: 1-D, or n x 1 where `column_ok` (SciPy's solvers take
// b and x0 so and return a 1-D x).
void check_vector(const char* fn, const array& v, const char* name, const csr_args& A,
                  std::size_t n, const char* against, bool column_ok) {
  if (v.ndim != 1 && !(column_ok && v.ndim == 2 && v.shape[1] == 1)) {
    value_error(std::string(fn) + ": " + name +
                (column_ok ? " must be 1-D (or n x 1)" : " must be 1-D"));
  }
  if (v.type != A.data.type) {
    type_error(std::string(fn) + ": " + name + " is " + dtype_name(v.type) + " but A is " +
               dtype_name(A.data.type) + "; gpuprim computes in one dtype (convert with astype)");
  }
  if (v.size() != n) {
    value_error(std::string(fn) + ": " + name + " has " + std::to_string(v.size()) +
                " elements; A has " + std::to_string(n) + " " + against);
  }
}

nb::object spmv_call(nb::handle data, nb::handle indices, nb::handle indptr, std::int64_t rows,
                     std::int64_t cols, nb::handle x_obj, nb::handle stream) {
  const char* fn = "spmv";
  csr_args A = import_csr(fn, data, indices, indptr, rows, cols);
  array x = import_array(x_obj, "spmv: x");
  check_vector(fn, x, "x", A, A.cols, "columns", false);
  const context ctx = make_context(fn, {&A.data, &A.indices, &A.indptr, &x}, stream);
  array y = empty_array(ctx, {static_cast<std::int64_t>(A.rows)}, A.data.type);
  if (A.rows == 0) return y.obj;
  if (ctx.on_device) {
    device_guard guard(ctx);
    csr_row_stats stats;
    {
      nb::gil_scoped_release release;
      stats = check_device(fn, A, false, ctx.stream);
    }
    visit_csr(A, [&]<class T, class I>(type_tag<T>, type_tag<I>) {
      const auto v = A.device_view<T, I>(stats);
      nb::gil_scoped_release release;
      spmv(cuda.on(ctx.stream), T(1), v, device_span<const T>(x.ptr<const T>(), A.cols), T(0),
           device_span<T>(y.ptr<T>(), A.rows));
    });
    return y.obj;
  }
  visit_csr(A, [&]<class T, class I>(type_tag<T>, type_tag<I>) {
    nb::gil_scoped_release release;
    check_host<I>(fn, A);
    const auto v = A.host_view<T, I>();
    spmv(host, T(1), v, std::span<const T>(x.ptr<const T>(), A.cols), T(0),
         std::span<T>(y.ptr<T>(), A.rows));
  });
  return y.obj;
}

// SciPy's solvers run until they converge, break down or reach maxiter;
// the library's stagnation stop is switched off to match (its divergence
// stop, a non-finite residual or one 1e8 times the initial, has no switch:
// see scipy_info).
template <class Options>
void no_stagnation_stop(Options& o) {
  if constexpr (requires { o.stagnation_window; }) o.stagnation_window = 0;
}

solve_method method_of(const std::string& name) {
  if (name == "cg") return solve_method::cg;
  if (name == "bicgstab") return solve_method::bicgstab;
  if (name == "jacobi") return solve_method::jacobi;
  if (name == "richardson") return solve_method::richardson;
  value_error("unknown solver " + name);
}

// SciPy's `info` for how the solve stopped: 0 converged; a breakdown (a
// division by zero in CG or BiCGStab) -10, SciPy's BiCGStab's value (its
// negative values are breakdowns and illegal input; illegal input raises
// here); otherwise the iterations run, positive as SciPy's "not converged":
// maxiter when the limit came first, fewer when the residual diverged (SciPy
// iterates on to maxiter there and returns maxiter; x is then the last
// finite iterate instead of NaN) or stagnated (never, with the stagnation
// stop off).
constexpr std::int64_t breakdown_info = -10;

std::int64_t scipy_info(const solve_result& r) {
  switch (r.status) {
    case solve_status::converged:
      return 0;
    case solve_status::breakdown:
      return breakdown_info;
    case solve_status::max_iterations:
    case solve_status::diverged:
    case solve_status::stagnated:
      break;
  }
  return static_cast<std::int64_t>(r.iterations);
}

// Solves A x = b; returns (x, info, status, iterations, residual, message)
// with info as SciPy's (scipy_info) and status the library's solve_status
// by name. The stop is SciPy's ||b - A x|| <= max(rtol ||b||, atol) (the
// library's tolerance and atol).
nb::tuple solve_call(const std::string& method_name, nb::handle data, nb::handle indices,
                     nb::handle indptr, std::int64_t rows, std::int64_t cols, nb::handle b_obj,
                     nb::handle x0_obj, double rtol, double atol, std::int64_t maxiter,
                     bool jacobi_preconditioner, double omega, nb::handle stream) {
  const solve_method method = method_of(method_name);
  const char* fn = name_of(method);
  const std::string f(fn);
  csr_args A = import_csr(fn, data, indices, indptr, rows, cols);
  if (A.rows != A.cols) {
    value_error(f + ": A is " + std::to_string(A.rows) + " x " + std::to_string(A.cols) +
                "; it must be square");
  }
  array b = import_array(b_obj, f + ": b");
  check_vector(fn, b, "b", A, A.rows, "rows", true);
  std::optional<array> x0;
  if (!x0_obj.is_none()) {
    x0.emplace(import_array(x0_obj, f + ": x0"));
    check_vector(fn, *x0, "x0", A, A.rows, "rows", true);
  }
  if (!(rtol >= 0) || !(atol >= 0)) {
    value_error(f + ": rtol and atol must be >= 0 (got " + std::to_string(rtol) + ", " +
                std::to_string(atol) + ")");
  }
  if (maxiter < 1) value_error(f + ": maxiter must be >= 1 (got " + std::to_string(maxiter) + ")");
  const context ctx = x0 ? make_context(fn, {&A.data, &A.indices, &A.indptr, &b, &*x0}, stream)
                         : make_context(fn, {&A.data, &A.indices, &A.indptr, &b}, stream);
  array x = empty_array(ctx, {static_cast<std::int64_t>(A.rows)}, A.data.type);

  solve_options opts;
  opts.tolerance = rtol;
  opts.atol = atol;
  opts.max_iterations = static_cast<std::size_t>(maxiter);
  opts.use_initial_guess = x0.has_value();
  opts.precond = jacobi_preconditioner ? preconditioner::jacobi : preconditioner::none;
  opts.omega = omega;
  no_stagnation_stop(opts);
  solve_result res;
  const std::size_t n = A.rows;
  if (ctx.on_device) {
    device_guard guard(ctx);
    visit_csr(A, [&]<class T, class I>(type_tag<T>, type_tag<I>) {
      nb::gil_scoped_release release;
      const csr_row_stats stats = check_device(fn, A, true, ctx.stream);
      if (x0 && n) detail::copy_device_to_device(x.data, x0->data, n * sizeof(T), ctx.stream);
      const auto v = A.device_view<T, I>(stats);
      res = solve(cuda.on(ctx.stream), method, v, device_span<const T>(b.ptr<const T>(), n),
                  device_span<T>(x.ptr<T>(), n), opts);
    });
  } else {
    visit_csr(A, [&]<class T, class I>(type_tag<T>, type_tag<I>) {
      nb::gil_scoped_release release;
      check_host<I>(fn, A);
      if (x0 && n) std::memcpy(x.data, x0->data, n * sizeof(T));
      const auto v = A.host_view<T, I>();
      res = solve(host, method, v, std::span<const T>(b.ptr<const T>(), n),
                  std::span<T>(x.ptr<T>(), n), opts);
    });
  }
  return nb::make_tuple(x.obj, scipy_info(res), std::string(name_of(res.status)), res.iterations,
                        res.residual, res.message);
}

}  // namespace

void bind_sparse(nb::module_& m) {
  m.def("_spmv", &spmv_call, nb::arg("data"), nb::arg("indices"), nb::arg("indptr"),
        nb::arg("rows"), nb::arg("cols"), nb::arg("x"), nb::arg("stream") = nb::none(),
        "y = A x for a CSR matrix given as its arrays (use gpuprim.sparse.spmv).");
  m.def("_solve", &solve_call, nb::arg("method"), nb::arg("data"), nb::arg("indices"),
        nb::arg("indptr"), nb::arg("rows"), nb::arg("cols"), nb::arg("b"), nb::arg("x0").none(),
        nb::arg("rtol"), nb::arg("atol"), nb::arg("maxiter"), nb::arg("jacobi"), nb::arg("omega"),
        nb::arg("stream") = nb::none(),
        "Solves A x = b (use gpuprim.sparse.linalg); returns (x, info, status, iterations, "
        "residual, message), info as SciPy's.");
}

}  // namespace gpuprim::python
