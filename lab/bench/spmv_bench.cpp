// The sparse family's rows (DESIGN.md sections 6 and 7):
//  - spmv: gpuprim::spmv (the kernel chosen per matrix) against
//    cusparseSpMV on the 2-D Poisson matrix 4096^2 and an R-MAT matrix of
//    2^22 rows with about 16 entries per row, float values, int32 indices;
//    the host SpMV on Poisson 4096^2 against the host's read bandwidth;
//    with --ladder, every kernel (row per thread, 2..32 lanes per row,
//    merge path) on both matrices.
//  - solve: one CG iteration on Poisson 4096^2 (float) against CG composed
//    of cusparseSpMV and cuBLAS dot / axpy / scal calls.
// GB/s of SpMV counts the minimum traffic: values and column indices once,
// the row offsets once, x once, y written once. A CG iteration's minimum is
// A once plus 10 vector passes (q = A p reads p, writes q; r -= alpha q
// reads r, q, writes r; x += alpha p, p = r + beta p reads x, p, r and
// writes x, p): the three dependent phases any CG iteration has.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "enum_name.hpp"
#include "gpuprim/solve.hpp"
#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "inputs.hpp"
#include "plan.hpp"

#if GPUPRIM_HAS_CUDA
#include "anchors_sparse.hpp"
#endif

namespace gpuprim::bench {
namespace {

using matrix = csr_matrix<float, std::int32_t>;

constexpr std::uint64_t input_seed = 20261124;

double spmv_bytes(const matrix& A) {
  return static_cast<double>(A.nnz()) * (sizeof(float) + sizeof(std::int32_t)) +
         static_cast<double>(A.rows() + 1) * sizeof(std::int32_t) +
         static_cast<double>(A.cols()) * sizeof(float) +
         static_cast<double>(A.rows()) * sizeof(float);
}

// The two matrices of the targets, made once per run (R-MAT takes seconds).
struct matrices {
  bool quick = false;
  std::shared_ptr<matrix> poisson, rmat;

  const matrix& get_poisson() {
    if (!poisson)
      poisson = std::make_shared<matrix>(poisson2d<float, std::int32_t>(quick ? 1024 : 4096));
    return *poisson;
  }
  const matrix& get_rmat() {
    if (!rmat)
      rmat = std::make_shared<matrix>(gpuprim::rmat<float, std::int32_t>(quick ? 18 : 22, 16, 7));
    return *rmat;
  }
  const matrix& get(bool power_law) { return power_law ? get_rmat() : get_poisson(); }
};

std::vector<float> random_floats(std::size_t n, std::uint64_t salt) {
  std::vector<float> v(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i)
    v[i] = random_value<float>(input_seed ^ salt, static_cast<std::size_t>(i));
  return v;
}

std::string matrix_name(bool power_law, bool quick) {
  return power_law ? std::string("R-MAT 2^") + (quick ? "18" : "22") + " x16"
                   : std::string("Poisson 2-D ") + (quick ? "1024^2" : "4096^2");
}

// A row of the sparse tables: float values, int32 indices.
row sparse_row(const char* algorithm, std::string variant, const char* backend) {
  return make_row(algorithm, std::move(variant), backend, "float/int32", 0);
}

row spmv_header(const char* backend, const std::string& variant, const matrix& A) {
  row r = sparse_row("spmv", variant, backend);
  r.n = A.nnz();
  r.bytes = spmv_bytes(A);
  return r;
}

// max |a - b| / max |b| over the two vectors.
std::string compare(const std::vector<float>& got, const std::vector<float>& expected,
                    const char* reference, double tolerance) {
  if (got.size() != expected.size()) return "size mismatch";
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i])) return "NaN at " + std::to_string(i);
    err = std::max(err, std::abs(double(got[i]) - double(expected[i])));
    scale = std::max(scale, std::abs(double(expected[i])));
  }
  if (err <= tolerance * std::max(scale, 1e-30)) return "ok";
  char text[160];
  std::snprintf(text, sizeof text, "differs from %s by %.3g (relative to max %.3g)", reference, err,
                scale);
  return text;
}

// ---- host ------------------------------------------------------------------

void plan_host_spmv(const context& ctx, plan& p, const std::shared_ptr<matrices>& mats) {
  table t = api_table(ctx, "spmv (host)", roofline::host_read);
  t.count = "nnz";
  t.notes = {
      "gpuprim::spmv(gp::host, 1, A, x, 0, y): OpenMP threads over row ranges of equal rows + "
      "nonzeros; steady_clock. The vendor column is the same product on one thread.",
      "GB/s counts the minimum traffic (values, column indices, offsets, x once, y written); the "
      "roofline is the host's read bandwidth measured in this run.",
  };
  const std::size_t index = p.add_table(std::move(t));
  for (const bool power_law : {false, true}) {
    row header = sparse_row("spmv", matrix_name(power_law, ctx.quick), "host");
    p.cases.push_back({index, header, [mats, header, power_law] {
                         const matrix& A = mats->get(power_law);
                         row r = spmv_header("host", header.variant, A);
                         const std::vector<float> x = random_floats(A.cols(), 1);
                         std::vector<float> y(A.rows()), y1(A.rows());
                         r.measured = time_host([&](int) { spmv(host, 1.0f, A, x, 0.0f, y); });
                         r.vendor = "gpuprim::spmv, 1 thread";
                         r.vendor_measured =
                             time_host([&](int) { spmv(host.threads(1), 1.0f, A, x, 0.0f, y1); });
                         r.check = compare(y, y1, "one thread", 0);
                         return std::vector<row>{r};
                       }});
    p.cases.back().headline = !power_law;  // Poisson 4096^2 in the headline run
  }
}

void plan_host_solve(const context& ctx, plan& p) {
  table t = api_table(ctx, "solve (host): CG iterations", roofline::host_read);
  t.count = "rows";
  t.notes = {
      "gpuprim::solve_cg(gp::host, ...) on Poisson 2-D 1024^2, float: the time of 30 iterations "
      "minus the time of 10, per iteration; GB/s counts A once plus 10 vector "
      "passes per iteration."};
  const std::size_t index = p.add_table(std::move(t));
  row header = sparse_row("cg iteration", "Poisson 2-D 1024^2", "host");
  p.cases.push_back({index, header, [header] {
                       const matrix A = poisson2d<float, std::int32_t>(1024);
                       row r = header;
                       r.n = A.rows();
                       r.bytes = spmv_bytes(A) - 2.0 * A.rows() * sizeof(float) +
                                 10.0 * A.rows() * sizeof(float);
                       const std::vector<float> b = random_floats(A.rows(), 2);
                       std::vector<float> x(A.rows());
                       auto run = [&](std::size_t k) {
                         solve_options o;
                         o.tolerance = 0;
                         o.max_iterations = k;
                         return time_host([&](int) { solve_cg(host, A, b, x, o); });
                       };
                       const timing t10 = run(10), t30 = run(30);
                       r.measured = t30;
                       r.measured.median_us = (t30.median_us - t10.median_us) / 20;
                       r.measured.min_us = (t30.min_us - t10.min_us) / 20;
                       r.check = "ok";
                       return std::vector<row>{r};
                     }});
  p.cases.back().headline = true;
}

// ---- CUDA --------------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

struct device_case {
  device_csr_matrix<float, std::int32_t> A;
  device_vector<float> x, y, y_vendor;
  std::unique_ptr<cusparse_spmv> vendor;

  device_case(const matrix& host, stream_t stream)
      : A(host),
        x(to_device(random_floats(host.cols(), 1))),
        y(host.rows()),
        y_vendor(host.rows()),
        vendor(std::make_unique<cusparse_spmv>(host.rows(), host.cols(), host.nnz(),
                                               A.view().row_offsets.data(),
                                               A.view().col_indices.data(), A.view().values.data(),
                                               x.data(), y_vendor.data(), stream)) {
    // The column analysis, once (as a cuSPARSE user calls
    // cusparseSpMV_preprocess): the choice below may then take hot_columns.
    A.prepare_spmv();
  }

  void ours(spmv_choice choice, stream_t stream) {
    detail::cuda_spmv<float, std::int32_t>(1.0f, A.view(), x.data(), 0.0f, y.data(), choice,
                                           stream);
  }
  std::string check(spmv_choice choice, stream_t stream) {
    vendor->enqueue();
    y.fill_bytes(0xff);
    ours(choice, stream);
    synchronize(stream);
    return compare(to_host(y), to_host(y_vendor), "cuSPARSE", 1e-5);
  }
};

struct device_cases {
  std::shared_ptr<matrices> mats;
  std::unique_ptr<device_case> poisson, rmat;

  device_case& get(bool power_law, stream_t stream) {
    auto& slot = power_law ? rmat : poisson;
    if (!slot) {
      // One matrix on the device at a time.
      (power_law ? poisson : rmat).reset();
      slot = std::make_unique<device_case>(mats->get(power_law), stream);
    }
    return *slot;
  }
};

std::string choice_name(spmv_choice c) {
  if (c.kernel == spmv_kernel::automatic || c.kernel == spmv_kernel::subwarp)
    return c.lanes == 32 ? "warp per row" : std::to_string(c.lanes) + " lanes per row";
  return enum_name(c.kernel,
                   {"", "row per thread", "", "merge path", "staged rows", "hot columns"});
}

void plan_cuda_spmv(const context& ctx, plan& p, const std::shared_ptr<device_cases>& cases) {
  table t = api_table(ctx, "spmv (cuda)", roofline::device_copy);
  t.count = "nnz";
  t.notes = {
      "gpuprim::spmv(gp::cuda.on(stream), 1, A, x, 0, y) with the kernel chosen from the row "
      "statistics and the column analysis of A.prepare_spmv(), made once (named in the variant), "
      "against cusparseSpMV (CSR, ALG_DEFAULT; buffer allocated once), float values, int32 "
      "indices, isolated and queued calls interleaved.",
      "GB/s counts the minimum traffic: nnz x 8 bytes, (rows + 1) x 4 offsets, x read and y "
      "written once; both matrices are far larger than L2.",
      "check: every element of y against cuSPARSE's (relative to the largest, 1e-5).",
  };
  const std::size_t index = p.add_table(std::move(t));
  const stream_t stream = ctx.stream;
  for (const bool power_law : {false, true}) {
    row header = sparse_row("spmv", matrix_name(power_law, ctx.quick), "cuda");
    p.cases.push_back(
        {index, header, [cases, header, power_law, stream] {
           device_case& c = cases->get(power_law, stream);
           const matrix& A = cases->mats->get(power_law);
           const spmv_choice choice = choose_spmv_kernel(c.A.stats());
           row r = spmv_header("cuda", header.variant + ", " + choice_name(choice), A);
           r.vendor = cusparse_spmv::name();
           time_device_pair(
               r, stream, [&](int) { c.ours(choice, stream); }, [&](int) { c.vendor->enqueue(); });
           r.check = c.check(choice, stream);
           return std::vector<row>{r};
         }});
    p.cases.back().headline = true;
  }
}

void plan_cuda_solve(const context& ctx, plan& p, const std::shared_ptr<matrices>& mats) {
  table t = api_table(ctx, "solve (cuda): one CG iteration", roofline::device_copy);
  t.count = "rows";
  const int k1 = 10, k2 = ctx.quick ? 30 : 60;
  t.notes = {
      "gpuprim::solve_cg(gp::cuda.on(stream), A, b, x) with tolerance 0, max_iterations K and "
      "check_every K, against CG composed of cusparseSpMV, cublasSdot (host pointer mode), "
      "cublasSaxpy and cublasSscal (7 library calls and 2 host round trips per iteration); float, "
      "int32 indices, random b in [0.5, 1.5).",
      "Per iteration: (median time of K = " + std::to_string(k2) +
          " iterations - median of K = " + std::to_string(k1) + ") / " + std::to_string(k2 - k1) +
          ", wall clock around whole solves, so setup and the final residual cancel.",
      "GB/s counts the minimum traffic of one iteration: A once (values, indices, offsets) plus 10 "
      "vector passes; the vendor column counts its own 16 passes.",
      "check: the two residuals ||r|| after K iterations agree within 1%.",
  };
  const std::size_t index = p.add_table(std::move(t));
  row header = sparse_row("cg iteration", matrix_name(false, ctx.quick), "cuda");
  const stream_t stream = ctx.stream;
  p.cases.push_back(
      {index, header, [mats, header, stream, k1, k2] {
         const matrix& A = mats->get_poisson();
         row r = header;
         r.n = A.rows();
         const double a_bytes = spmv_bytes(A) - 2.0 * A.rows() * sizeof(float);
         r.bytes = a_bytes + 10.0 * A.rows() * sizeof(float);
         r.vendor_bytes = a_bytes + 16.0 * A.rows() * sizeof(float);
         const device_csr_matrix<float, std::int32_t> dA(A);
         const auto db = to_device(random_floats(A.rows(), 3));
         device_vector<float> dx(A.rows()), vx(A.rows());
         const cusparse_cublas_cg vendor(A.rows(), A.nnz(), dA.view().row_offsets.data(),
                                         dA.view().col_indices.data(), dA.view().values.data(),
                                         stream);
         double ours_residual = 0, vendor_rr = 0;
         auto ours = [&](int k) {
           solve_options o;
           o.tolerance = 0;
           o.max_iterations = static_cast<std::size_t>(k);
           o.check_every = k;
           return time_host(
               [&](int) { ours_residual = solve_cg(cuda.on(stream), dA, db, dx, o).residual; });
         };
         auto theirs = [&](int k) {
           return time_host([&](int) { vendor_rr = vendor.run(db.data(), vx.data(), k); });
         };
         const timing o1 = ours(k1), v1 = theirs(k1), o2 = ours(k2), v2 = theirs(k2);
         const double span = k2 - k1;
         r.measured = o2;
         r.measured.median_us = (o2.median_us - o1.median_us) / span;
         r.measured.min_us = (o2.min_us - o1.min_us) / span;
         r.measured.queued_us = 0;
         timing v = v2;
         v.median_us = (v2.median_us - v1.median_us) / span;
         v.min_us = (v2.min_us - v1.min_us) / span;
         v.queued_us = 0;
         r.vendor = cusparse_cublas_cg::name();
         r.vendor_measured = v;
         // ours_residual is ||b - Ax|| / ||b||; the vendor's is the recurrence's.
         const double b2 = [&] {
           const auto hb = to_host(db);
           double s = 0;
           for (float f : hb)
             s += double(f) * f;
           return s;
         }();
         const double theirs_rel = std::sqrt(vendor_rr / b2);
         const double rel = std::abs(ours_residual - theirs_rel) / theirs_rel;
         char text[160];
         std::snprintf(text, sizeof text, "%s (residual %.4g vs %.4g)",
                       rel < 0.01 ? "ok" : "residuals differ", ours_residual, theirs_rel);
         r.check = text;
         return std::vector<row>{r};
       }});
  p.cases.back().headline = true;
}

void plan_cuda_spmv_ladder(const context& ctx, plan& p,
                           const std::shared_ptr<device_cases>& cases) {
  const stream_t stream = ctx.stream;
  for (const bool power_law : {false, true}) {
    table t =
        ladder_table(ctx, "spmv ladder: " + matrix_name(power_law, ctx.quick) + ", float (cuda)");
    t.notes = {
        "Every kernel of gpuprim::spmv on the same matrix, oldest idea first: a thread per row "
        "(scalar CSR), a warp per row (vector CSR), sub-warps sized to the mean row length, the "
        "merge-path split; the merge path with the hottest columns' x in shared memory (the matrix "
        "analysed once by prepare_spmv); then the automatic choice and cusparseSpMV for "
        "reference. GB/s of the minimum traffic."};
    const std::size_t index = p.add_table(std::move(t));
    struct rung {
      const char* name;
      const char* fixes;
      std::optional<spmv_choice> choice;  // none: the automatic choice
    };
    const rung rungs[] = {
        {"row_per_thread", "one thread per row: a warp's loads of a row's entries are strided",
         spmv_choice{spmv_kernel::row_per_thread, 1}},
        {"warp_per_row", "32 lanes per row: coalesced loads, idle lanes on short rows",
         spmv_choice{spmv_kernel::subwarp, 32}},
        {"2_lanes_per_row", "sub-warp of 2 lanes", spmv_choice{spmv_kernel::subwarp, 2}},
        {"4_lanes_per_row", "sub-warp of 4 lanes", spmv_choice{spmv_kernel::subwarp, 4}},
        {"8_lanes_per_row", "sub-warp of 8 lanes", spmv_choice{spmv_kernel::subwarp, 8}},
        {"16_lanes_per_row", "sub-warp of 16 lanes", spmv_choice{spmv_kernel::subwarp, 16}},
        {"merge_path", "equal shares of rows + nonzeros per thread: long rows split",
         spmv_choice{spmv_kernel::merge_path, 0}},
        {"staged_rows",
         "a warp per 32 rows, their entries read as one run and staged: every lane busy",
         spmv_choice{spmv_kernel::staged_rows, 0}},
        {"hot_columns",
         "merge path over warp tiles, hot columns' x in shared memory: their gathers are no L2 "
         "sectors (the merge path where no column is hot)",
         spmv_choice{spmv_kernel::hot_columns, 0}},
        {"automatic", "(production) the kernel choose_spmv_kernel picks", std::nullopt},
    };
    for (const rung& g : rungs) {
      row header = sparse_row("spmv", g.name, "cuda");
      header.implementation = "gpuprim::spmv";
      header.fixes = g.fixes;
      p.cases.push_back(
          {index, header, [cases, header, g, power_law, stream] {
             device_case& c = cases->get(power_law, stream);
             const matrix& A = cases->mats->get(power_law);
             const spmv_choice choice = g.choice ? *g.choice : choose_spmv_kernel(c.A.stats());
             row r = spmv_header("cuda", header.variant, A);
             r.implementation = header.implementation;
             r.fixes = g.choice ? header.fixes : std::string(g.fixes) + ": " + choice_name(choice);
             r.measured = time_device(stream, [&](int) { c.ours(choice, stream); });
             r.check = c.check(choice, stream);
             return std::vector<row>{r};
           }});
    }
    row vendor = sparse_row("spmv", cusparse_spmv::name(), "cuda");
    vendor.implementation = "cusparse";
    vendor.fixes = "(reference) the vendor library";
    p.cases.push_back({index, vendor, [cases, vendor, power_law, stream] {
                         device_case& c = cases->get(power_law, stream);
                         row r = spmv_header("cuda", vendor.variant, cases->mats->get(power_law));
                         r.implementation = vendor.implementation;
                         r.fixes = vendor.fixes;
                         r.measured = time_device(stream, [&](int) { c.vendor->enqueue(); });
                         r.check = "ok";
                         return std::vector<row>{r};
                       }});
  }
}

#endif  // GPUPRIM_HAS_CUDA

std::shared_ptr<matrices> shared_matrices(const context& ctx) {
  static std::shared_ptr<matrices> mats;
  if (!mats || mats->quick != ctx.quick) {
    mats = std::make_shared<matrices>();
    mats->quick = ctx.quick;
  }
  return mats;
}

}  // namespace

// The matrices are made once for all the planners of a run (shared_matrices).
planners spmv_planners() {
  return {.cuda = GPUPRIM_BENCH_CUDA([](const context& ctx, plan& p) {
            auto cases = std::make_shared<device_cases>();
            cases->mats = shared_matrices(ctx);
            plan_cuda_spmv(ctx, p, cases);
          }),
          .host = [](const context& ctx, plan& p) { plan_host_spmv(ctx, p, shared_matrices(ctx)); },
          .ladder = GPUPRIM_BENCH_CUDA([](const context& ctx, plan& p) {
            auto cases = std::make_shared<device_cases>();
            cases->mats = shared_matrices(ctx);
            plan_cuda_spmv_ladder(ctx, p, cases);
          })};
}

planners solve_planners() {
  return {.cuda = GPUPRIM_BENCH_CUDA(
              [](const context& ctx, plan& p) { plan_cuda_solve(ctx, p, shared_matrices(ctx)); }),
          .host = plan_host_solve};
}

}  // namespace gpuprim::bench
