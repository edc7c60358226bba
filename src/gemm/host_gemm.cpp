// The CPU backend of gp::gemm: OpenBLAS through CBLAS when the library was
// built with it (GPUPRIM_HAS_CBLAS), else a blocked OpenMP loop.
//
// OpenBLAS's OpenMP build takes its thread count from omp_get_max_threads()
// at each call, so gp::host.threads(n) sets the calling thread's count for
// the call and puts it back after.
//
// Row-major CBLAS takes our views as they are (no transposes of our own).
// bfloat16 and half inputs are widened to float (exactly) and multiplied
// with sgemm: OpenBLAS's sbgemm only pays on CPUs with AVX-512 BF16, and
// there is no half gemm in CBLAS. Special cases handled here, the same on
// both backends: m or n = 0 does nothing; k = 0 or alpha = 0 gives C = beta C
// without reading A or B; beta = 0 never reads C (BLAS's rule too).
#include <omp.h>

#include <algorithm>
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/detail/gemm/gemm.hpp"
#include "gpuprim/host/gemm.hpp"

#if GPUPRIM_HAS_CBLAS
#include <cblas.h>
#endif

namespace gpuprim::detail {
namespace {

int thread_count(host_backend backend) {
  return backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
}

// C = beta C over one m x n matrix, without reading C when beta = 0.
template <class T>
void scale(host_backend backend, T* c, std::size_t m, std::size_t n, std::size_t ldc, T beta) {
#pragma omp parallel for schedule(static) num_threads(thread_count(backend)) if (m * n > 65536)
  for (std::size_t i = 0; i < m; ++i) {
    T* row = c + i * ldc;
    if (beta == T{0}) {
      std::fill(row, row + n, T{0});
    } else if (beta != T{1}) {
      for (std::size_t j = 0; j < n; ++j)
        row[j] *= beta;
    }
  }
}

template <class T>
T element(const T* x, std::size_t ld, bool transposed, std::size_t r, std::size_t c) {
  return transposed ? x[c * ld + r] : x[r * ld + c];
}

// The loop without BLAS: each thread owns rows of C; for a block of k the
// row of C is updated from rows of op(B) (unit stride when B is not
// transposed).
template <class T>
void loop_gemm(host_backend backend, const gemm_problem& p, const T* a, const T* b, T* c) {
  const bool ta = p.op_a == matrix_op::transpose;
  const bool tb = p.op_b == matrix_op::transpose;
  const T alpha = static_cast<T>(p.alpha);
  const T beta = static_cast<T>(p.beta);
#pragma omp parallel num_threads(thread_count(backend))
  {
    std::vector<T> acc(p.n);
#pragma omp for schedule(static)
    for (std::size_t i = 0; i < p.m; ++i) {
      std::fill(acc.begin(), acc.end(), T{0});
      for (std::size_t kk = 0; kk < p.k; ++kk) {
        const T aik = element(a, p.lda, ta, i, kk);
        if (tb) {
          for (std::size_t j = 0; j < p.n; ++j)
            acc[j] += aik * b[j * p.ldb + kk];
        } else {
          const T* brow = b + kk * p.ldb;
          for (std::size_t j = 0; j < p.n; ++j)
            acc[j] += aik * brow[j];
        }
      }
      T* row = c + i * p.ldc;
      for (std::size_t j = 0; j < p.n; ++j)
        row[j] = beta == T{0} ? alpha * acc[j] : alpha * acc[j] + beta * row[j];
    }
  }
}

#if GPUPRIM_HAS_CBLAS
int blas_int(std::size_t x) {
  return checked_blas_int(x, "the host BLAS's");
}

CBLAS_TRANSPOSE blas_op(matrix_op op) {
  return op == matrix_op::transpose ? CblasTrans : CblasNoTrans;
}

// The calling thread's OpenMP thread count, set for one BLAS call.
class blas_threads {
 public:
  explicit blas_threads(host_backend backend) : saved_(omp_get_max_threads()) {
    if (backend.thread_count > 0 && backend.thread_count != saved_)
      omp_set_num_threads(backend.thread_count);
  }
  ~blas_threads() {
    if (omp_get_max_threads() != saved_) omp_set_num_threads(saved_);
  }
  blas_threads(const blas_threads&) = delete;
  blas_threads& operator=(const blas_threads&) = delete;

 private:
  int saved_;
};

void blas_gemm(const gemm_problem& p, const float* a, const float* b, float* c) {
  cblas_sgemm(CblasRowMajor, blas_op(p.op_a), blas_op(p.op_b), blas_int(p.m), blas_int(p.n),
              blas_int(p.k), static_cast<float>(p.alpha), a, blas_int(p.lda), b, blas_int(p.ldb),
              static_cast<float>(p.beta), c, blas_int(p.ldc));
}
void blas_gemm(const gemm_problem& p, const double* a, const double* b, double* c) {
  cblas_dgemm(CblasRowMajor, blas_op(p.op_a), blas_op(p.op_b), blas_int(p.m), blas_int(p.n),
              blas_int(p.k), p.alpha, a, blas_int(p.lda), b, blas_int(p.ldb), p.beta, c,
              blas_int(p.ldc));
}
#endif

template <class T>
void gemm_one(host_backend backend, const gemm_problem& p, const T* a, const T* b, T* c) {
  if (p.k == 0 || p.alpha == 0.0) {
    scale(backend, c, p.m, p.n, p.ldc, static_cast<T>(p.beta));
    return;
  }
#if GPUPRIM_HAS_CBLAS
  const blas_threads threads(backend);
  blas_gemm(p, a, b, c);
#else
  loop_gemm(backend, p, a, b, c);
#endif
}

// A rows x cols 16-bit matrix widened to a packed float one.
template <class In>
void widen(host_backend backend, const In* x, std::size_t rows, std::size_t cols, std::size_t ld,
           std::vector<float>& out) {
  out.resize(rows * cols);
#pragma omp parallel for schedule(static) \
    num_threads(thread_count(backend)) if (rows * cols > 65536)
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      out[r * cols + c] = static_cast<float>(x[r * ld + c]);
}

template <class In, class Out>
void run(host_backend backend, const gemm_problem& p) {
  if (p.m == 0 || p.n == 0) return;
  const auto* a = static_cast<const In*>(p.a);
  const auto* b = static_cast<const In*>(p.b);
  auto* c = static_cast<Out*>(p.c);
  if constexpr (std::is_same_v<In, Out>) {
    for (std::size_t i = 0; i < p.batch; ++i)
      gemm_one(backend, p, a + i * p.stride_a, b + i * p.stride_b, c + i * p.stride_c);
  } else {
    // Stored shapes of A and B (before op).
    const bool ta = p.op_a == matrix_op::transpose;
    const bool tb = p.op_b == matrix_op::transpose;
    const std::size_t a_rows = ta ? p.k : p.m, a_cols = ta ? p.m : p.k;
    const std::size_t b_rows = tb ? p.n : p.k, b_cols = tb ? p.k : p.n;
    std::vector<float> wide_a, wide_b;
    gemm_problem q = p;
    q.lda = std::max<std::size_t>(a_cols, 1);
    q.ldb = std::max<std::size_t>(b_cols, 1);
    for (std::size_t i = 0; i < p.batch; ++i) {
      if (p.k != 0 && p.alpha != 0.0) {
        widen(backend, a + i * p.stride_a, a_rows, a_cols, p.lda, wide_a);
        widen(backend, b + i * p.stride_b, b_rows, b_cols, p.ldb, wide_b);
      }
      gemm_one<float>(backend, q, wide_a.data(), wide_b.data(), c + i * p.stride_c);
    }
  }
}

}  // namespace

void host_gemm(host_backend backend, gemm_kind kind, const gemm_problem& problem) {
  switch (kind) {
    case gemm_kind::f32:
      return run<float, float>(backend, problem);
    case gemm_kind::f64:
      return run<double, double>(backend, problem);
    case gemm_kind::bf16:
      return run<bfloat16, float>(backend, problem);
    case gemm_kind::f16:
      return run<half, float>(backend, problem);
  }
}

const char* host_blas_name() noexcept {
#if GPUPRIM_HAS_CBLAS
  // "OpenBLAS 0.3.21 (OpenMP, Haswell kernels)": the version built against,
  // the threading of the library loaded and the kernels it chose for this CPU.
  static const std::string name = [] {
    std::string version = OPENBLAS_VERSION;  // " OpenBLAS 0.3.21 "
    version.erase(0, version.find_first_not_of(' '));
    version.erase(version.find_last_not_of(' ') + 1);
    const int parallel = openblas_get_parallel();
    const char* threading = parallel == 2 ? "OpenMP" : parallel == 1 ? "pthreads" : "serial";
    return version + " (" + threading + ", " + openblas_get_corename() + " kernels)";
  }();
  return name.c_str();
#else
  return "";
#endif
}

}  // namespace gpuprim::detail
