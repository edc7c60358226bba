// The order family's rows (GPU), 2^28 float32 unless said (2^24 with
// --quick):
//  - merge_sort of a 16-byte record {float score; int32 id; int64 pad} by
//    score against cub::DeviceMergeSort::SortKeys with the same comparator;
//    both sort in place, so both calls copy the unsorted records in first
//    (the copy is in both times); checked on the device (sorted, gpuprim's
//    stable, the ids a permutation).
//  - merge of two sorted runs of n / 2 floats, against the copy roofline;
//    checked equal to the stable merge sort of the runs back to back.
//  - topk, k in {16, 1024, 65536}; checked equal to the top-k ladder's full
//    sort rung. No vendor row: CUDA 13.0's CUB has no DeviceTopK (torch.topk
//    is in the Python bench, python/bench).
//  - topk_rows of n / 4096 rows of 4096, k = 64; checked against a stable
//    sort on the host (every 16th row).
//  - searchsorted (lower_bound) of n / 16 queries into n sorted keys;
//    checked against std::lower_bound (4096 queries).
// The ladder (--ladder): the top-k rungs at k = 1024 (lab/ladder/topk_ladder.hpp).
// Every reference made on the bench's stream is waited for before it is
// copied back: to_host copies on the legacy default stream, which does not
// wait for the bench's non-blocking stream.
// Inputs: the bench's floats in [0.5, 1.5) (inputs.hpp).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "anchors_order.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/merge.hpp"
#include "gpuprim/search.hpp"
#include "gpuprim/topk.hpp"
#include "inputs.hpp"
#include "lab/ladder/topk_ladder.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

#if GPUPRIM_HAS_CUDA

constexpr std::uint64_t input_seed = 20261207;

std::vector<float> bench_floats(std::size_t n, std::uint64_t seed) {
  std::vector<float> x(n);
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i)
    x[i] = random_value<float>(seed, i);
  return x;
}

std::string same_or(bool same, const char* what) {
  return same ? std::string("ok") : std::string("differs from ") + what;
}

std::vector<row> measure_merge_sort(const context& ctx, row r) {
  const std::size_t n = r.n;
  device_vector<order_record> in(n), ours(n), theirs(n);
  fill_order_records(in.data(), n, ctx.stream);
  const cub_merge_sort_records vendor(n, ctx.stream);
  r.vendor = cub_merge_sort_records::name();
  const std::size_t bytes = n * sizeof(order_record);
  time_device_pair(
      r, ctx.stream,
      [&](int) {
        detail::copy_device_to_device(ours.data(), in.data(), bytes, ctx.stream);
        gpuprim_sort_order_records(ours.data(), n, ctx.stream);
      },
      [&](int) {
        detail::copy_device_to_device(theirs.data(), in.data(), bytes, ctx.stream);
        vendor.enqueue(theirs.data());
      });
  const std::string mine = check_order_records(ours.data(), n, true, ctx.stream);
  const std::string cub = check_order_records(theirs.data(), n, false, ctx.stream);
  r.check = mine == "ok" ? (cub == "ok" ? "ok" : "ok; CUB's: " + cub) : mine;
  return {r};
}

std::vector<row> measure_merge(const context& ctx, row r) {
  const std::size_t n = r.n, half = n / 2;
  const auto b = cuda.on(ctx.stream);
  device_vector<float> runs = to_device(bench_floats(n, input_seed));
  merge_sort(b, runs.span().subspan(0, half));
  merge_sort(b, runs.span().subspan(half, n - half));
  device_vector<float> out(n);
  const auto a = device_span<const float>(runs.data(), half);
  const auto c = device_span<const float>(runs.data() + half, n - half);
  r.measured = time_device(ctx.stream, [&](int) { merge(b, a, c, out); });
  device_vector<float> want(n);
  detail::copy_device_to_device(want.data(), runs.data(), n * sizeof(float), ctx.stream);
  merge_sort(b, want);
  synchronize(ctx.stream);
  r.check = same_or(to_host(out) == to_host(want), "the merge sort of the runs");
  return {r};
}

std::vector<row> measure_topk(const context& ctx, row r, std::size_t k) {
  const std::size_t n = r.n;
  const auto b = cuda.on(ctx.stream);
  const device_vector<float> x = to_device(bench_floats(n, input_seed + 1));
  device_vector<float> v(k), want_v(k);
  device_vector<std::int64_t> ix(k), want_ix(k);
  r.measured = time_device(ctx.stream, [&](int) { topk(b, x, k, v, ix); });
  ladder::topk_rungs()[0].run(x, k, want_v, want_ix, ctx.stream);
  synchronize(ctx.stream);
  r.check = same_or(to_host(ix) == to_host(want_ix) && to_host(v) == to_host(want_v),
                    "the full sort's top k");
  return {r};
}

std::vector<row> measure_topk_rows(const context& ctx, row r) {
  constexpr std::size_t cols = 4096, k = 64;
  const std::size_t rows = r.n / cols;
  const auto b = cuda.on(ctx.stream);
  const std::vector<float> hx = bench_floats(rows * cols, input_seed + 2);
  const device_vector<float> x = to_device(hx);
  device_vector<float> v(rows * k);
  device_vector<std::int64_t> ix(rows * k);
  r.measured = time_device(ctx.stream, [&](int) {
    topk_rows(b, device_matrix_view<const float>(x.data(), rows, cols), k,
              device_matrix_view<float>(v.data(), rows, k),
              device_matrix_view<std::int64_t>(ix.data(), rows, k));
  });
  const auto got = to_host(ix);
  bool same = true;
#pragma omp parallel for reduction(&& : same)
  for (std::size_t q = 0; q < rows; q += 16) {
    std::vector<std::int64_t> idx(cols);
    std::iota(idx.begin(), idx.end(), std::int64_t{0});
    const float* row_data = hx.data() + q * cols;
    std::stable_sort(idx.begin(), idx.end(),
                     [&](std::int64_t i, std::int64_t j) { return row_data[i] > row_data[j]; });
    same = same && std::equal(idx.begin(), idx.begin() + k, got.begin() + q * k);
  }
  r.check = same_or(same, "a stable sort of the rows");
  return {r};
}

std::vector<row> measure_searchsorted(const context& ctx, row r, std::size_t keys) {
  const std::size_t m = r.n;
  const auto b = cuda.on(ctx.stream);
  device_vector<float> sorted = to_device(bench_floats(keys, input_seed + 3));
  merge_sort(b, sorted);
  const std::vector<float> hq = bench_floats(m, input_seed + 4);
  const device_vector<float> q = to_device(hq);
  device_vector<std::int64_t> out(m);
  r.measured = time_device(ctx.stream, [&](int) { lower_bound(b, sorted, q, out); });
  const auto hs = to_host(sorted);
  const auto got = to_host(out);
  bool same = true;
  for (std::size_t j = 0; j < std::min<std::size_t>(m, 4096); ++j)
    same = same && got[j] == std::lower_bound(hs.begin(), hs.end(), hq[j]) - hs.begin();
  r.check = same_or(same, "std::lower_bound");
  return {r};
}

void plan_cuda_rows(const context& ctx, plan& p) {
  const int log2_n = ctx.quick ? 24 : 28;
  const std::size_t n = std::size_t{1} << log2_n;
  const std::size_t index = p.add_table(api_table(
      ctx, "order (cuda)", roofline::device_copy,
      {"merge_sort: a 16-byte record {float score; int32 id; int64 pad} by score; both "
       "calls copy the unsorted records in first (in the time); CUB's SortKeys is not stable.",
       "topk: no vendor row (CUDA 13.0's CUB has no DeviceTopK; torch.topk is in the Python "
       "bench); checked against the top-k ladder's full sort.",
       device_events_note("merge_sort and merge: every element read and written; topk and "
                          "topk_rows: the input read; searchsorted: the queries read and the "
                          "indices written"),
       faster_note("check compares each result with its reference.")}));
  {
    const row header = make_row("merge_sort", "record by score", "cuda", "record16", n,
                                2.0 * n * sizeof(order_record));
    p.cases.push_back(
        {index, header, [ctx, header] { return measure_merge_sort(ctx, header); }, true});
  }
  {
    const row header = make_row("merge", "two runs of n/2", "cuda", "float", n, 8.0 * n);
    p.cases.push_back({index, header, [ctx, header] { return measure_merge(ctx, header); }});
  }
  for (const std::size_t k : {std::size_t{16}, std::size_t{1024}, std::size_t{65536}}) {
    const row header = make_row("topk", "k=" + std::to_string(k), "cuda", "float", n, 4.0 * n);
    p.cases.push_back(
        {index, header, [ctx, header, k] { return measure_topk(ctx, header, k); }, k == 1024});
  }
  {
    const std::size_t cells = n >> 2;  // 2^14 rows of 4096 at 2^28
    const row header = make_row("topk_rows", std::to_string(cells / 4096) + " x 4096, k=64", "cuda",
                                "float", cells, 4.0 * cells);
    p.cases.push_back({index, header, [ctx, header] { return measure_topk_rows(ctx, header); }});
  }
  {
    const std::size_t m = n >> 4;
    row header = make_row("searchsorted", "lower_bound into 2^" + std::to_string(log2_n), "cuda",
                          "float", m, 12.0 * m);
    p.cases.push_back(
        {index, header, [ctx, header, n] { return measure_searchsorted(ctx, header, n); }});
  }
}

// The top-k ladder at k = 1024: each rung checked against the radix select.
void plan_ladder(const context& ctx, plan& p) {
  const int log2_n = ctx.quick ? 24 : 28;
  const std::size_t n = std::size_t{1} << log2_n, k = 1024;
  table t =
      ladder_table(ctx, "topk ladder: k = 1024 largest of 2^" + std::to_string(log2_n) + " floats");
  t.notes = {device_events_note("the n floats read once"),
             "Every rung's values and indices are checked against the library's radix select."};
  const row header = make_row("topk", "", "cuda", "float", n, 4.0 * n);
  using enqueue =
      std::function<void(device_span<const float>, device_span<float>, device_span<std::int64_t>)>;
  struct shared_inputs {
    device_vector<float> x;
    std::vector<float> want_v;
    std::vector<std::int64_t> want_ix;
  };
  const auto data = std::make_shared<std::unique_ptr<shared_inputs>>();
  const auto measure = [ctx, data, n, k](row r, const enqueue& run) {
    if (!*data) {
      auto made = std::make_unique<shared_inputs>();
      made->x = to_device(bench_floats(n, input_seed + 5));
      device_vector<float> v(k);
      device_vector<std::int64_t> ix(k);
      topk(cuda.on(ctx.stream), made->x, k, v, ix);
      synchronize(ctx.stream);
      made->want_v = to_host(v);
      made->want_ix = to_host(ix);
      *data = std::move(made);
    }
    device_vector<float> v(k);
    device_vector<std::int64_t> ix(k);
    r.measured = time_device(ctx.stream, [&](int) { run((*data)->x, v, ix); });
    r.check = same_or(to_host(ix) == (*data)->want_ix && to_host(v) == (*data)->want_v, "gp::topk");
    return r;
  };
  auto rows = make_ladder_rows<enqueue>(p, p.add_table(std::move(t)), header, measure);
  rows.add_rungs(ladder::topk_rungs(), [stream = ctx.stream, k](auto run) -> enqueue {
    return [run, stream, k](device_span<const float> in, device_span<float> v,
                            device_span<std::int64_t> ix) { run(in, k, v, ix, stream); };
  });
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners order_planners() {
  return GPUPRIM_BENCH_PLANNERS(plan_cuda_rows, nullptr, plan_ladder);
}

}  // namespace gpuprim::bench
