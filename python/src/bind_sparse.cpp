// gpuprim.sparse.spmv and gpuprim.sparse.linalg's solvers on a CSR matrix
// given as its three arrays (data, indices, indptr), its shape and the row
// statistics of its structure check; python/gpuprim/sparse reads them from
// SciPy / cupyx matrices, checks the structure once per matrix
// (_csr_check: the library's gp::check_csr on either backend, cached on
// the matrix object) and turns the solver's result into SciPy's (x, info).
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "bind.hpp"
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

// gp::check_csr on the arrays' backend: the row statistics, or ValueError
// "fn: A is not a valid CSR matrix: <what the library found>".
csr_row_stats check_call(const std::string& fn, nb::handle data, nb::handle indices,
                         nb::handle indptr, std::int64_t rows, std::int64_t cols,
                         nb::handle stream) {
  csr_args A = import_csr(fn.c_str(), data, indices, indptr, rows, cols);
  const context ctx = make_context(fn.c_str(), {&A.data, &A.indices, &A.indptr}, stream);
  refuse_capture(ctx, fn,
                 "it checks the matrix's structure and reads the result on the host (one wait, "
                 "once per matrix: call it once outside the capture, then capture the products)");
  csr_row_stats stats;
  try {
    visit_csr(A, [&]<class T, class I>(type_tag<T>, type_tag<I>) {
      if (ctx.on_device) {
        device_guard guard(ctx);
        const auto v = A.device_view<T, I>(csr_row_stats{});
        nb::gil_scoped_release release;
        stats = check_csr(cuda.on(ctx.stream), v);
      } else {
        const auto v = A.host_view<T, I>();
        nb::gil_scoped_release release;
        stats = check_csr(host, v);
      }
    });
  } catch (const std::invalid_argument& e) {
    std::string m = e.what();
    const std::string prefix = "gpuprim::check_csr: ";
    if (m.rfind(prefix, 0) == 0) m = m.substr(prefix.size());
    value_error(fn + ": A is not a valid CSR matrix: " + m);
  }
  return stats;
}

// The statistics a call was given must be those of this matrix's check.
void require_checked(const char* fn, const csr_args& A, const csr_row_stats& stats) {
  if (!stats.known || stats.rows != A.rows || stats.nnz != A.data.size()) {
    value_error(std::string(fn) + ": the matrix's structure check does not match it");
  }
}

// A vector argument: 1-D, or n x 1 where `column_ok` (SciPy's solvers take
// b and x0 so and return a 1-D x).
void check_vector(const char* fn, const array& v, const char* name, dtype a_type, std::size_t n,
                  const char* against, bool column_ok) {
  if (v.ndim != 1 && !(column_ok && v.ndim == 2 && v.shape[1] == 1)) {
    value_error(std::string(fn) + ": " + name +
                (column_ok ? " must be 1-D (or n x 1)" : " must be 1-D"));
  }
  if (v.type != a_type) {
    type_error(std::string(fn) + ": " + name + " is " + dtype_name(v.type) + " but A is " +
               dtype_name(a_type) + "; gpuprim computes in one dtype (convert with astype)");
  }
  if (v.size() != n) {
    value_error(std::string(fn) + ": " + name + " has " + std::to_string(v.size()) +
                " elements; A has " + std::to_string(n) + " " + against);
  }
}

nb::object spmv_call(nb::handle data, nb::handle indices, nb::handle indptr, std::int64_t rows,
                     std::int64_t cols, const csr_row_stats& stats, nb::handle x_obj,
                     nb::handle stream) {
  const char* fn = "spmv";
  csr_args A = import_csr(fn, data, indices, indptr, rows, cols);
  require_checked(fn, A, stats);
  array x = import_array(x_obj, "spmv: x");
  check_vector(fn, x, "x", A.data.type, A.cols, "columns", false);
  const context ctx = make_context(fn, {&A.data, &A.indices, &A.indptr, &x}, stream);
  array y = empty_array(ctx, {static_cast<std::int64_t>(A.rows)}, A.data.type);
  if (A.rows == 0) return y.obj;
  visit_csr(A, [&]<class T, class I>(type_tag<T>, type_tag<I>) {
    if (ctx.on_device) {
      device_guard guard(ctx);
      const auto v = A.device_view<T, I>(stats);
      nb::gil_scoped_release release;
      spmv(cuda.on(ctx.stream), T(1), v, device_span<const T>(x.ptr<const T>(), A.cols), T(0),
           device_span<T>(y.ptr<T>(), A.rows));
    } else {
      const auto v = A.host_view<T, I>();
      nb::gil_scoped_release release;
      spmv(host, T(1), v, std::span<const T>(x.ptr<const T>(), A.cols), T(0),
           std::span<T>(y.ptr<T>(), A.rows));
    }
  });
  return y.obj;
}

solve_method method_of(const std::string& name) {
  if (name == "cg") return solve_method::cg;
  if (name == "bicgstab") return solve_method::bicgstab;
  if (name == "jacobi") return solve_method::jacobi;
  if (name == "richardson") return solve_method::richardson;
  value_error("unknown solver " + name);
}

const char* cause_name(solve_breakdown c) {
  switch (c) {
    case solve_breakdown::curvature:
      return "curvature";
    case solve_breakdown::rho:
      return "rho";
    case solve_breakdown::omega:
      return "omega";
    case solve_breakdown::none:
      break;
  }
  return "none";
}

// The right-hand side and initial guess of a solve, checked against A's
// dtype and n, and the result array of their kind.
struct solve_vectors {
  array b;
  std::optional<array> x0;
  context ctx;
  array x;
};

// make_context over the matrix's arrays and the vectors (2 to 5 of them).
context context_of(const char* fn, const std::vector<const array*>& a, nb::handle stream) {
  switch (a.size()) {
    case 2:
      return make_context(fn, {a[0], a[1]}, stream);
    case 3:
      return make_context(fn, {a[0], a[1], a[2]}, stream);
    case 4:
      return make_context(fn, {a[0], a[1], a[2], a[3]}, stream);
    default:
      return make_context(fn, {a[0], a[1], a[2], a[3], a[4]}, stream);
  }
}

solve_vectors import_solve_vectors(const char* fn, std::initializer_list<const array*> matrix,
                                   dtype a_type, std::size_t n, nb::handle b_obj, nb::handle x0_obj,
                                   nb::handle stream) {
  const std::string f(fn);
  solve_vectors v{import_array(b_obj, f + ": b")};
  check_vector(fn, v.b, "b", a_type, n, "rows", true);
  if (!x0_obj.is_none()) {
    v.x0.emplace(import_array(x0_obj, f + ": x0"));
    check_vector(fn, *v.x0, "x0", a_type, n, "rows", true);
  }
  std::vector<const array*> all(matrix);
  all.push_back(&v.b);
  if (v.x0) all.push_back(&*v.x0);
  v.ctx = context_of(fn, all, stream);
  refuse_capture(v.ctx, fn,
                 "the solver reads its residual on the host to decide when to stop (it waits "
                 "for the GPU every few iterations)");
  v.x = empty_array(v.ctx, {static_cast<std::int64_t>(n)}, a_type);
  return v;
}

// SciPy's stopping rules: the library's tolerance and atol; no stagnation
// or growth stop (SciPy runs on to maxiter; a non-finite residual still
// stops).
solve_options scipy_options(const char* fn, double rtol, double atol, std::int64_t maxiter,
                            bool initial_guess, bool jacobi_preconditioner, double omega) {
  const std::string f(fn);
  if (!(rtol >= 0) || !(atol >= 0)) {
    value_error(f + ": rtol and atol must be >= 0 (got " + std::to_string(rtol) + ", " +
                std::to_string(atol) + ")");
  }
  if (maxiter < 0) value_error(f + ": maxiter must be >= 0 (got " + std::to_string(maxiter) + ")");
  solve_options opts;
  opts.tolerance = rtol;
  opts.atol = atol;
  opts.max_iterations = static_cast<std::size_t>(maxiter);
  opts.use_initial_guess = initial_guess;
  opts.precond = jacobi_preconditioner ? preconditioner::jacobi : preconditioner::none;
  opts.omega = omega;
  opts.stagnation_window = 0;
  opts.divergence_growth = 0;
  return opts;
}

// x = x0 (when given), then the library's solve on x's backend:
// run(backend, b, x) with spans of the vectors' memory.
template <class T, class Run>
solve_result run_solve(const solve_vectors& v, std::size_t n, Run run) {
  if (v.ctx.on_device) {
    device_guard guard(v.ctx);
    nb::gil_scoped_release release;
    if (v.x0 && n) detail::copy_device_to_device(v.x.data, v.x0->data, n * sizeof(T), v.ctx.stream);
    return run(cuda.on(v.ctx.stream), device_span<const T>(v.b.ptr<const T>(), n),
               device_span<T>(v.x.ptr<T>(), n));
  }
  nb::gil_scoped_release release;
  if (v.x0 && n) std::memcpy(v.x.data, v.x0->data, n * sizeof(T));
  return run(host, std::span<const T>(v.b.ptr<const T>(), n), std::span<T>(v.x.ptr<T>(), n));
}

nb::tuple solve_tuple(const array& x, const solve_result& res) {
  return nb::make_tuple(x.obj, std::string(name_of(res.status)), res.iterations, res.residual,
                        res.half_step, std::string(cause_name(res.breakdown_cause)), res.message);
}

// Solves A x = b for a checked CSR A with SciPy's stopping rules; returns
// (x, status, iterations, residual, half_step, breakdown cause, message):
// python/gpuprim/sparse/linalg.py turns them into SciPy's info.
nb::tuple solve_call(const std::string& method_name, nb::handle data, nb::handle indices,
                     nb::handle indptr, std::int64_t rows, std::int64_t cols,
                     const csr_row_stats& stats, nb::handle b_obj, nb::handle x0_obj, double rtol,
                     double atol, std::int64_t maxiter, bool jacobi_preconditioner, double omega,
                     nb::handle stream) {
  const solve_method method = method_of(method_name);
  const char* fn = name_of(method);
  csr_args A = import_csr(fn, data, indices, indptr, rows, cols);
  require_checked(fn, A, stats);
  if (A.rows != A.cols) {
    value_error(std::string(fn) + ": A is " + std::to_string(A.rows) + " x " +
                std::to_string(A.cols) + "; it must be square");
  }
  const std::size_t n = A.rows;
  const solve_vectors v = import_solve_vectors(fn, {&A.data, &A.indices, &A.indptr}, A.data.type, n,
                                               b_obj, x0_obj, stream);
  const solve_options opts =
      scipy_options(fn, rtol, atol, maxiter, v.x0.has_value(), jacobi_preconditioner, omega);
  solve_result res;
  visit_csr(A, [&]<class T, class I>(type_tag<T>, type_tag<I>) {
    res = run_solve<T>(v, n, [&](auto backend, auto b, auto x) {
      if constexpr (std::is_same_v<decltype(backend), host_backend>) {
        return solve(backend, method, A.host_view<T, I>(), b, x, opts);
      } else {
        return solve(backend, method, A.device_view<T, I>(stats), b, x, opts);
      }
    });
  });
  return solve_tuple(v.x, res);
}

// The same for a dense, C-contiguous n x n A (the library's dense solvers).
nb::tuple solve_dense_call(const std::string& method_name, nb::handle a_obj, nb::handle b_obj,
                           nb::handle x0_obj, double rtol, double atol, std::int64_t maxiter,
                           bool jacobi_preconditioner, double omega, nb::handle stream) {
  const solve_method method = method_of(method_name);
  const char* fn = name_of(method);
  const array a = import_array(a_obj, std::string(fn) + ": A");
  if (a.ndim != 2 || a.shape[0] != a.shape[1]) {
    value_error(std::string(fn) + ": a dense A must be a square 2-D array");
  }
  if (a.type != dtype::float32 && a.type != dtype::float64) {
    unsupported_dtype(fn, a, "the matrix is float32 or float64");
  }
  const auto n = static_cast<std::size_t>(a.shape[0]);
  const solve_vectors v = import_solve_vectors(fn, {&a}, a.type, n, b_obj, x0_obj, stream);
  const solve_options opts =
      scipy_options(fn, rtol, atol, maxiter, v.x0.has_value(), jacobi_preconditioner, omega);
  solve_result res;
  auto with = [&]<class T>(type_tag<T>) {
    res = run_solve<T>(v, n, [&](auto backend, auto b, auto x) {
      if constexpr (std::is_same_v<decltype(backend), host_backend>) {
        return solve(backend, method, matrix_view<const T>(a.ptr<const T>(), n, n), b, x, opts);
      } else {
        return solve(backend, method, device_matrix_view<const T>(a.ptr<const T>(), n, n), b, x,
                     opts);
      }
    });
  };
  if (a.type == dtype::float32) {
    with(type_tag<float>{});
  } else {
    with(type_tag<double>{});
  }
  return solve_tuple(v.x, res);
}

}  // namespace

void bind_sparse(nb::module_& m) {
  nb::class_<csr_row_stats>(m, "_CsrStats",
                            "The row statistics of a checked CSR matrix (gpuprim.sparse).")
      .def_ro("rows", &csr_row_stats::rows)
      .def_ro("nnz", &csr_row_stats::nnz)
      .def_ro("max_row", &csr_row_stats::max_row)
      .def_ro("empty_rows", &csr_row_stats::empty_rows);
  m.def("_csr_check", &check_call, nb::arg("fn"), nb::arg("data"), nb::arg("indices"),
        nb::arg("indptr"), nb::arg("rows"), nb::arg("cols"), nb::arg("stream") = nb::none(),
        "Checks a CSR matrix's structure on its arrays' backend (use gpuprim.sparse); returns "
        "its row statistics.");
  m.def("_spmv", &spmv_call, nb::arg("data"), nb::arg("indices"), nb::arg("indptr"),
        nb::arg("rows"), nb::arg("cols"), nb::arg("stats"), nb::arg("x"),
        nb::arg("stream") = nb::none(),
        "y = A x for a checked CSR matrix given as its arrays (use gpuprim.sparse.spmv).");
  m.def("_solve", &solve_call, nb::arg("method"), nb::arg("data"), nb::arg("indices"),
        nb::arg("indptr"), nb::arg("rows"), nb::arg("cols"), nb::arg("stats"), nb::arg("b"),
        nb::arg("x0").none(), nb::arg("rtol"), nb::arg("atol"), nb::arg("maxiter"),
        nb::arg("jacobi"), nb::arg("omega"), nb::arg("stream") = nb::none(),
        "Solves A x = b (use gpuprim.sparse.linalg); returns (x, status, iterations, "
        "residual, half_step, breakdown cause, message).");
  m.def("_solve_dense", &solve_dense_call, nb::arg("method"), nb::arg("a"), nb::arg("b"),
        nb::arg("x0").none(), nb::arg("rtol"), nb::arg("atol"), nb::arg("maxiter"),
        nb::arg("jacobi"), nb::arg("omega"), nb::arg("stream") = nb::none(),
        "Solves A x = b for a dense C-contiguous A (use gpuprim.sparse.linalg); returns as "
        "_solve.");
}

}  // namespace gpuprim::python
