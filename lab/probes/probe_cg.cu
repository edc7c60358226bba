// Probe of one CG iteration on the 2-D Poisson matrix 4096^2 (float
// values, int32 indices), as the bench's "cg iteration" row: production's
// three kernels (device_solve.cuh: matvec_reduce with a thread per row,
// the strategy of rows of at most 5 entries, and the staged rows of
// longer rows; vector_reduce and vector_update in 16-byte slices) against
// variants, each timed on the same vectors and checked against
// production's output from the same state:
//  - vector passes with U float4 of each vector loaded by a thread before
//    it uses any (production: U = 1), on a grid of the SMs x resident
//    blocks;
//  - the matvec with R rows a thread (production: R = 1), the rows'
//    entries (5 each, then a loop) loaded together before the gathers of
//    x; and with a block per tile of rows whose entries are staged in
//    shared memory by 16-byte loads;
//  - the update (x and p) fused into the next iteration's matvec, p' into
//    a second buffer: two kernels and 9 vector passes an iteration.
// The products are rounded and summed in row order as the staged-rows
// kernel does, so q is equal bit for bit; the dot products are summed in
// another order, so they are compared to a relative 1e-12. Also the whole
// iteration (production's cg_iteration, and gp::solve_cg through the
// public API with tolerance 0 as the bench times it) and the variants'
// iteration. GB/s counts the bench's traffic (A once plus 10 vector
// passes; per kernel, its own vectors), against a device-to-device copy
// measured here. Per kernel: queued launches (batches of 10, median of 20,
// after 3 warm-ups), the state restored before each. Built and run by
// scripts/device-check.sh --probe-cg (tune-cg.txt).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "cg_variants.cuh"
#include "gpuprim/cuda/device/device_solve.cuh"
#include "gpuprim/solve.hpp"
#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "probe_timing.cuh"

using namespace cg_probe;  // the kernels, gp, gc and the types T, I, csr_op, solver

namespace {

// ---- the state of an iteration and its checks ---------------------------------------

struct vectors {
  gp::device_vector<T> x, r, p, q;
  explicit vectors(std::size_t n) : x(n), r(n), p(n), q(n) {}
};

// A copy of the vectors and the scalars at one point of an iteration.
struct snapshot {
  std::vector<T> x, r, p, q;
  gc::solver_scalars s{};
};

snapshot take(const vectors& v, const gc::solver_scalars* scalars) {
  CHECK_CUDA(cudaDeviceSynchronize());
  snapshot s{gp::to_host(v.x), gp::to_host(v.r), gp::to_host(v.p), gp::to_host(v.q), {}};
  CHECK_CUDA(cudaMemcpy(&s.s, scalars, sizeof s.s, cudaMemcpyDeviceToHost));
  return s;
}

void restore(const snapshot& s, vectors& v, gc::solver_scalars* scalars) {
  const std::size_t bytes = s.x.size() * sizeof(T);
  CHECK_CUDA(cudaMemcpy(v.x.data(), s.x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(v.r.data(), s.r.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(v.p.data(), s.p.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(v.q.data(), s.q.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(scalars, &s.s, sizeof s.s, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaDeviceSynchronize());
}

double relative(double a, double b) {
  return a == b ? 0.0 : std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

// Elements that differ, bit for bit, and the largest difference relative
// to the largest magnitude of the wanted vector.
struct difference {
  std::size_t count = 0;
  double largest = 0;
};
difference compare(const std::vector<T>& got, const std::vector<T>& want) {
  difference d;
  double scale = 0;
  for (T w : want)
    scale = std::max(scale, double(std::abs(w)));
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      ++d.count;
      d.largest = std::max(d.largest, std::abs(double(got[i]) - double(want[i])) / scale);
    }
  }
  return d;
}

// A check's line: every vector equal bit for bit and the scalars within
// 1e-12 ("same as production"), else what differs.
std::string verdict(const snapshot& got, const snapshot& want, bool vectors_exact = true) {
  std::string out;
  const char* names[] = {"x", "r", "p", "q"};
  const std::vector<T>* g[] = {&got.x, &got.r, &got.p, &got.q};
  const std::vector<T>* w[] = {&want.x, &want.r, &want.p, &want.q};
  char text[160];
  for (int k = 0; k < 4; ++k) {
    const difference d = compare(*g[k], *w[k]);
    if (d.count == 0) continue;
    if (!vectors_exact && d.largest <= 1e-5) continue;
    std::snprintf(text, sizeof text, " %s: %zu differ (largest %.3g)", names[k], d.count,
                  d.largest);
    out += text;
  }
  const double scalar_diff =
      std::max({relative(got.s.alpha, want.s.alpha), relative(got.s.beta, want.s.beta),
                relative(got.s.rr, want.s.rr), relative(got.s.rz, want.s.rz)});
  if (scalar_diff > (vectors_exact ? 1e-12 : 1e-5)) {
    std::snprintf(text, sizeof text, " scalars differ by %.3g", scalar_diff);
    out += text;
  }
  if (got.s.halt != want.s.halt || got.s.run_update != want.s.run_update ||
      got.s.iterations != want.s.iterations)
    out += " halt, run_update or iterations differ";
  if (out.empty()) return vectors_exact ? "same as production" : "within 1e-5 of production";
  return "DIFFERS FROM PRODUCTION:" + out;
}

// beta = 0.5 in the device's scalars.
void tame(gc::solver_scalars* scalars) {
  const double half = 0.5;
  CHECK_CUDA(cudaMemcpy(&scalars->beta, &half, sizeof half, cudaMemcpyHostToDevice));
}

// What to add to a timing's line when the kernels had halted by its end
// (a breakdown or a stopping rule: the later launches did no work).
std::string halted_note(const gc::solver_scalars* scalars) {
  int halt = 0;
  CHECK_CUDA(cudaMemcpy(&halt, &scalars->halt, sizeof halt, cudaMemcpyDeviceToHost));
  return halt ? "; HALTED while timed: the time is not valid" : "";
}

// Resident blocks of `kernel` per SM times the SMs.
template <class Kernel>
unsigned resident_grid(Kernel kernel) {
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return static_cast<unsigned>(std::max(per_sm, 1) * gc::current_multiprocessor_count());
}

int run(int argc, char** argv) {
  const std::size_t side = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4096;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const gp::csr_matrix<T, I> host_A = gp::poisson2d<T, I>(side);
  const gp::device_csr_matrix<T, I> dA(host_A);
  const auto view = dA.view();
  const std::size_t n = host_A.rows(), nnz = host_A.nnz();
  std::printf("probe_cg: %s, %d SMs; Poisson 2-D %zu^2 (%zu rows, %zu entries), float, int32\n",
              prop.name, prop.multiProcessorCount, side, n, nnz);
  const csr_op A{n, view.row_offsets.data(), view.col_indices.data(), view.values.data()};
  if (nnz == 0 || reinterpret_cast<std::uintptr_t>(A.values) % 16 != 0 ||
      reinterpret_cast<std::uintptr_t>(A.cols) % 16 != 0) {
    std::printf("the matrix is empty or its arrays are not 16-byte aligned\n");
    return 1;
  }

  // Copy bandwidth: a device-to-device copy of 2^26 floats.
  const std::size_t copy_n = std::size_t{1} << 26;
  gp::device_vector<T> copy_from(copy_n), copy_to(copy_n);
  const float copy_ms = median_queued_ms([&] {
    CHECK_CUDA(cudaMemcpyAsync(copy_to.data(), copy_from.data(), copy_n * sizeof(T),
                               cudaMemcpyDeviceToDevice, nullptr));
  });
  const double copy_gbs = 2.0 * copy_n * sizeof(T) / (copy_ms * 1e6);
  std::printf("  copy of 2^26 floats: %.3f ms, %.0f GB/s read + write\n", copy_ms, copy_gbs);

  const double word = sizeof(T);
  const double a_bytes = nnz * (sizeof(T) + sizeof(I)) + (n + 1) * sizeof(I);
  const double iteration_bytes = a_bytes + 10.0 * n * word;
  std::printf(
      "  traffic: A %.1f MB, an iteration %.1f MB; its roofline at the copy's rate %.1f us\n",
      a_bytes / 1e6, iteration_bytes / 1e6, iteration_bytes / (copy_gbs * 1e3));
  auto report = [&](const char* what, double bytes, float ms, const std::string& check) {
    const double gbs = bytes / (ms * 1e6);
    std::printf("  %-46s %8.1f us %6.0f GB/s %5.1f %% of copy  %s\n", what, ms * 1e3, gbs,
                100.0 * gbs / copy_gbs, check.c_str());
  };

  // b random in [0.5, 1.5), as the bench's; tolerance 0 and no stagnation
  // rule, so nothing halts while the probe runs.
  std::vector<T> host_b(n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<T> dist(0.5f, 1.5f);
  for (T& v : host_b)
    v = dist(rng);
  const gp::device_vector<T> b = gp::to_device(host_b);
  gp::solve_options opts;
  opts.tolerance = 0;
  opts.stagnation_window = 0;
  opts.check_every = 32;

  // The whole iteration through the public API, as the bench times it.
  {
    gp::device_vector<T> x(n);
    auto solve = [&](int k) {
      gp::solve_options o = opts;
      o.max_iterations = static_cast<std::size_t>(k);
      o.check_every = k;
      std::vector<double> us;
      for (int run = 0; run < 6; ++run) {
        CHECK_CUDA(cudaDeviceSynchronize());
        const auto t0 = std::chrono::steady_clock::now();
        (void)gp::solve_cg(gp::cuda, dA, b, x, o);
        CHECK_CUDA(cudaDeviceSynchronize());
        us.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                .count());
      }
      std::sort(us.begin() + 1, us.end());  // the first is a warm-up
      return us[3];
    };
    const double per = (solve(60) - solve(10)) / 50.0;
    report("gp::solve_cg, (K=60 - K=10) / 50", iteration_bytes, static_cast<float>(per * 1e-3),
           "(public API)");
  }

  // Production's solver state after a restart and 3 iterations, so x, r, p
  // and the scalars are those of a running CG.
  vectors v(n);
  // Production's choice for this matrix (a thread per row), the staged
  // rows (production's for longer rows) and the variants' scalars.
  solver ds(A, gc::thread_row_group, b.data(), v.x.data(), opts, 1000000, nullptr);
  solver staged(A, gc::staged_group, b.data(), v.x.data(), opts, 1000000, nullptr);
  solver vs(A, gc::thread_row_group, b.data(), v.x.data(), opts, 1000000, nullptr);
  CHECK_CUDA(cudaMemset(v.x.data(), 0, n * sizeof(T)));
  gc::start(ds, b.data(), v.x.data(), v.r.data(), opts);
  gc::cg_restart(ds, v.r.data(), v.p.data(), static_cast<const T*>(nullptr));
  gc::record_start(ds);
  for (int k = 0; k < 3; ++k)
    gc::cg_iteration(ds, v.x.data(), v.r.data(), v.p.data(), v.q.data(),
                     static_cast<const T*>(nullptr));
  const snapshot s0 = take(v, ds.scalars());
  if (s0.s.halt) {
    std::printf("production's CG halted during the set-up\n");
    return 1;
  }
  std::printf("  state: after %llu iterations, ||r|| / ||b|| = %.3g, alpha %.4g, beta %.4g\n",
              s0.s.iterations, std::sqrt(s0.s.rr / s0.s.b2), s0.s.alpha, s0.s.beta);
  const std::size_t head = head_of(v.x.data(), n);
  if (head_of(v.r.data(), n) != head || head_of(v.p.data(), n) != head ||
      head_of(v.q.data(), n) != head) {
    std::printf("the vectors do not share their alignment\n");
    return 1;
  }
  T *x = v.x.data(), *r = v.r.data(), *p = v.p.data(), *q = v.q.data();
  double* history = vs.history();
  const int ring = vs.check_every();

  // Production's three kernels, with cg_iteration's bodies (no
  // preconditioner), one launch each.
  auto prod_matvec = [&] {
    ds.template matvec<1>(p, matvec_body{p, q}, alpha_finish{}, gc::guard_halt_clear);
  };
  auto staged_matvec = [&] {
    staged.template matvec<1>(p, matvec_body{p, q}, alpha_finish{}, gc::guard_halt_clear);
  };
  auto prod_reduce = [&] {
    ds.template reduce<2>({r, q}, reduce_body{r, q}, beta_finish{ds.history(), ds.check_every()},
                          gc::guard_halt);
  };
  auto prod_update = [&] { ds.update({x, p, r}, update_body{x, p, r}, gc::guard_update); };
  // Production's states after each kernel from s0: s1 (matvec), s2
  // (reduce), s3 (update).
  restore(s0, v, ds.scalars());
  prod_matvec();
  const snapshot s1 = take(v, ds.scalars());
  prod_reduce();
  const snapshot s2 = take(v, ds.scalars());
  prod_update();
  const snapshot s3 = take(v, ds.scalars());
  prod_matvec();
  const snapshot s4 = take(v, ds.scalars());
  prod_reduce();
  const snapshot s5 = take(v, ds.scalars());
  // And production's cg_iteration from s0 must give s3.
  restore(s0, v, ds.scalars());
  gc::cg_iteration(ds, x, r, p, q, static_cast<const T*>(nullptr));
  const std::string whole_check = verdict(take(v, ds.scalars()), s3);

  // Times `launch` (queued) from state `from` in the scalars `scalars`, then
  // checks one launch from `from` against `want` (bit for bit, or within
  // 1e-5 where `exact` is false). `tamed`: beta is 0.5 for the timing, so
  // that p = r + beta p repeated some 200 times stays finite.
  auto measure = [&](const std::string& what, double bytes, const snapshot& from,
                     const snapshot& want, gc::solver_scalars* scalars,
                     const std::function<void()>& launch, bool exact = true, bool tamed = false) {
    restore(from, v, scalars);
    if (tamed) tame(scalars);
    const float ms = median_queued_ms(launch);
    const std::string timed = halted_note(scalars);
    restore(from, v, scalars);
    launch();
    CHECK_CUDA(cudaGetLastError());
    report(what.c_str(), bytes, ms, verdict(take(v, scalars), want, exact) + timed);
  };
  const double matvec_bytes = a_bytes + 2.0 * n * word, reduce_bytes = 3.0 * n * word,
               update_bytes = 5.0 * n * word;
  const gc::reduction_slots slots = vs.slots();
  gc::solver_scalars* var_scalars = vs.scalars();
  const beta_finish var_fin{history, ring};
  const unsigned sms = static_cast<unsigned>(gc::current_multiprocessor_count());

  // A variant: its name (with the blocks per SM it runs) and its launch.
  struct variant {
    std::string name;
    std::function<void()> launch;
  };
  // Blocks of `kernel`: `per_sm` per SM, or as many as are resident; and a
  // variant's name with the blocks per SM it runs.
  auto grid_of = [&](auto kernel, unsigned per_sm) {
    return std::min(resident_grid(kernel), per_sm * sms);
  };
  auto name_of = [&](const std::string& what, unsigned grid) {
    return what + ", " + std::to_string(grid / sms) + " blocks/SM";
  };
  // A variant that launches `kernel` with `args`.
  auto variant_of = [&](auto kernel, unsigned per_sm, const std::string& what, auto... args) {
    const unsigned grid = grid_of(kernel, per_sm);
    return variant{name_of(what, grid), [=] { kernel<<<grid, threads>>>(args...); }};
  };
  auto thread_rows = [&](auto rows_per_thread, unsigned per_sm) {
    constexpr int R = decltype(rows_per_thread)::value;
    return variant_of(matvec_thread_rows<R>, per_sm,
                      "matvec, thread per row x " + std::to_string(R), A, p, q, slots,
                      gc::guard_halt_clear);
  };
  auto block_staged = [&](auto rows_per_thread) {
    constexpr int R = decltype(rows_per_thread)::value;
    return variant_of(matvec_block_staged<R>, 32,
                      "matvec, tile of 256 x " + std::to_string(R) + " rows staged", A, p, q, slots,
                      gc::guard_halt_clear);
  };
  auto reduce_variant = [&](auto unroll, unsigned per_sm) {
    constexpr int U = decltype(unroll)::value;
    return variant_of(reduce_quads<U>, per_sm, "reduce, float4 x " + std::to_string(U), n, head, r,
                      q, slots, var_fin, gc::guard_halt);
  };
  auto update_variant = [&](auto unroll, unsigned per_sm) {
    constexpr int U = decltype(unroll)::value;
    return variant_of(update_quads<U>, per_sm, "update, float4 x " + std::to_string(U), n, head, x,
                      p, r, var_scalars, gc::guard_update);
  };
  using one = std::integral_constant<int, 1>;
  using two = std::integral_constant<int, 2>;
  using four = std::integral_constant<int, 4>;

  std::printf("\n  one kernel from the same state, checked against production's\n");
  measure("production matvec_reduce (thread per row)", matvec_bytes, s0, s1, ds.scalars(),
          prod_matvec);
  measure("production matvec_reduce (staged rows)", matvec_bytes, s0, s1, staged.scalars(),
          staged_matvec);
  for (const variant& m : {thread_rows(two{}, 8), thread_rows(two{}, 4), thread_rows(four{}, 8),
                           block_staged(one{}), block_staged(two{})})
    measure(m.name, matvec_bytes, s0, s1, var_scalars, m.launch);
  measure("production vector_reduce (float4)", reduce_bytes, s1, s2, ds.scalars(), prod_reduce);
  for (const variant& m :
       {reduce_variant(two{}, 8), reduce_variant(four{}, 8), reduce_variant(four{}, 4)})
    measure(m.name, reduce_bytes, s1, s2, var_scalars, m.launch);
  measure("production vector_update (float4)", update_bytes, s2, s3, ds.scalars(), prod_update,
          true, true);
  for (const variant& m :
       {update_variant(two{}, 8), update_variant(four{}, 8), update_variant(four{}, 4)})
    measure(m.name, update_bytes, s2, s3, var_scalars, m.launch, true, true);

  // The update fused into the next matvec, from s2 against s4 (production's
  // update, then its matvec); p' in p2, so a run of launches alternates
  // p and p2 (flip).
  gp::device_vector<T> p2(n);
  T* pp2 = p2.data();
  int flip = 0;
  auto fused_variant = [&](auto rows_per_thread, unsigned per_sm) {
    constexpr int R = decltype(rows_per_thread)::value;
    auto kernel = update_matvec_thread_rows<R>;
    const unsigned grid = grid_of(kernel, per_sm);
    int* f = &flip;
    return variant{name_of("update fused into matvec, thread per row x " + std::to_string(R), grid),
                   [=] {
                     const bool odd = (*f)++ % 2 != 0;
                     kernel<<<grid, threads>>>(A, x, odd ? pp2 : p, r, odd ? p : pp2, q, slots,
                                               gc::guard_halt_clear);
                   }};
  };
  // As measure, for the fused launches: one launch from `from` with flip 0
  // (p' in p2) checked against `want`.
  auto measure_fused = [&](const variant& m, double bytes, const snapshot& from,
                           const snapshot& want, bool exact, bool tamed) {
    restore(from, v, var_scalars);
    if (tamed) tame(var_scalars);
    const float ms = median_queued_ms(m.launch);
    const std::string timed = halted_note(var_scalars);
    restore(from, v, var_scalars);
    flip = 0;
    m.launch();
    CHECK_CUDA(cudaGetLastError());
    snapshot got = take(v, var_scalars);
    got.p = gp::to_host(p2);
    report(m.name.c_str(), bytes, ms, verdict(got, want, exact) + timed);
  };
  const double fused_bytes = a_bytes + 6.0 * n * word;  // x r/w, p, r, p' and q
  for (const variant& m : {fused_variant(one{}, 8), fused_variant(two{}, 8)})
    measure_fused(m, fused_bytes, s2, s4, true, true);

  // Whole iterations, queued, from s0 (CG runs on: some 200 iterations a
  // measurement); one iteration checked against s3. The variants' scalars
  // differ from production's in the last bits (the dot products summed in
  // other orders), so their iteration is checked to 1e-5, not bit for bit.
  std::printf("\n  whole iterations from the same state\n");
  measure("production cg_iteration", iteration_bytes, s0, s3, ds.scalars(),
          [&] { gc::cg_iteration(ds, x, r, p, q, static_cast<const T*>(nullptr)); });
  std::printf("  %-46s %s\n", "(cg_iteration against its kernels one by one)", whole_check.c_str());
  auto iteration = [&](const variant& m, const variant& rd, const variant& up) {
    return variant{m.name + " + " + rd.name + " + " + up.name, [=] {
                     m.launch();
                     rd.launch();
                     up.launch();
                   }};
  };
  measure(
      "production cg_iteration on the staged rows", iteration_bytes, s0, s3, staged.scalars(),
      [&] { gc::cg_iteration(staged, x, r, p, q, static_cast<const T*>(nullptr)); }, false);
  for (const variant& it :
       {iteration(thread_rows(two{}, 8), reduce_variant(four{}, 8), update_variant(four{}, 8)),
        iteration(block_staged(two{}), reduce_variant(four{}, 8), update_variant(four{}, 8))})
    measure(it.name, iteration_bytes, s0, s3, var_scalars, it.launch, false);
  // The fused iteration (update and matvec, then reduce), from s2 against
  // s5 (production's update, matvec and reduce).
  for (const variant& m : {fused_variant(one{}, 8), fused_variant(two{}, 8)}) {
    const variant rd = reduce_variant(four{}, 8);
    measure_fused(variant{m.name + " + " + rd.name,
                          [=] {
                            m.launch();
                            rd.launch();
                          }},
                  iteration_bytes, s2, s5, false, false);
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run(argc, argv);
}
