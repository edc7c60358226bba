// The radix sort's rows: gpuprim::sort / sort_by_key (out of place, so the
// input stays unsorted from run to run) against cub::DeviceRadixSort on the
// GPU, and against std::sort on the CPU. A sort must read and write every
// key (and value) at least once, so GB/s counts n x (key + value bytes)
// read + the same written, like the copy roofline; a radix sort moves them
// once per 8-bit pass, so it cannot reach that roofline: the ratio to CUB
// is the figure that matters, and Gkeys/s = n / time.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "anchors.hpp"
#include "gpuprim/sort.hpp"
#include "inputs.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261123;

// Keys with every bit random (floats: uniform in (-1000, 1000), both signs).
template <class K>
K random_key(std::size_t i) {
  const std::uint64_t bits = mix_bits(input_seed ^ mix_bits(i));
  if constexpr (std::is_same_v<K, float>) {
    return static_cast<float>((static_cast<double>(bits >> 11) * 0x1.0p-53 * 2.0 - 1.0) * 1000.0);
  } else {
    return static_cast<K>(bits);
  }
}

template <class K>
host_array<K> random_keys(std::size_t n) {
  host_array<K> a{std::unique_ptr<K[]>(new K[n]), n};
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i)
    a.data[i] = random_key<K>(i);
  return a;
}

// Bitwise comparison (a stable sort's output is unique).
template <class T>
std::string compare_bits(const std::vector<T>& got, const std::vector<T>& expected,
                         const char* what) {
  if (got.size() != expected.size()) return std::string(what) + ": size mismatch";
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::memcmp(&got[i], &expected[i], sizeof(T)) != 0) {
      return std::string(what) + " differ from CUB's at " + std::to_string(i);
    }
  }
  return "ok";
}

row make_header(const char* backend, const char* variant, const char* type, std::size_t n,
                std::size_t element_bytes) {
  return make_row("sort", variant, backend, type, n,
                  2.0 * static_cast<double>(n) * static_cast<double>(element_bytes));
}

// ---- cuda ---------------------------------------------------------------
#if GPUPRIM_HAS_CUDA

template <class K, class V>
std::vector<row> measure_cuda_sort(const context& ctx, row r) {
  constexpr bool pairs = !std::is_void_v<V>;
  const stream_t stream = ctx.stream;
  const host_array<K> keys = random_keys<K>(r.n);
  rotated_buffers<K> k(keys.span(), ctx.l2_cache_bytes);
  using W = std::conditional_t<pairs, V, std::uint32_t>;
  std::unique_ptr<rotated_buffers<W>> v;
  if constexpr (pairs) {
    std::vector<W> positions(r.n);
    for (std::size_t i = 0; i < r.n; ++i)
      positions[i] = static_cast<W>(i);
    v = std::make_unique<rotated_buffers<W>>(positions, ctx.l2_cache_bytes);
  }
  const auto enqueue = [&](int run) {
    if constexpr (pairs) {
      sort_by_key(cuda.on(stream), k.input(run), v->input(run), k.output(run), v->output(run));
    } else {
      sort(cuda.on(stream), k.input(run), k.output(run));
    }
  };
  const cub_radix_sort<K, V> cub(r.n, stream);
  const auto enqueue_cub = [&](int run) {
    if constexpr (pairs) {
      cub.enqueue(k.input(run).data(), k.output(run).data(), v->input(run).data(),
                  v->output(run).data());
    } else {
      cub.enqueue(k.input(run).data(), k.output(run).data());
    }
  };
  r.vendor = cub_radix_sort<K, V>::name();
  time_device_pair(r, stream, enqueue, enqueue_cub);

  enqueue_cub(0);
  synchronize(stream);
  const std::vector<K> cub_keys = to_host(k.outputs[0]);
  std::vector<W> cub_values;
  if constexpr (pairs) cub_values = to_host(v->outputs[0]);
  enqueue(0);
  synchronize(stream);
  r.check = compare_bits(to_host(k.outputs[0]), cub_keys, "keys");
  if constexpr (pairs) {
    if (r.check == "ok") r.check = compare_bits(to_host(v->outputs[0]), cub_values, "values");
  }
  return {r};
}

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "sort (cuda)", roofline::device_copy,
      {
          "gpuprim::sort / sort_by_key(gp::cuda.on(stream), in, out) (out of place) against "
          "cub::DeviceRadixSort::SortKeys / SortPairs (out of place, all bits, temporary storage "
          "allocated once, outside the timed loop).",
          "Keys: every bit random (float: uniform in (-1000, 1000)); pair values: uint32 "
          "positions. GB/s counts each key and value read once and written once (the fewest bytes "
          "any sort moves; an LSD radix sort moves them once per 8-bit pass); Gkeys/s = n / time.",
          l2_note(ctx.l2_cache_bytes, true),
          "check: gpuprim's keys (and values) equal CUB's bit for bit (both sorts are stable).",
      }));
  const int sizes[] = {20, 24, 28};
  for (int log2_n : sizes) {
    if (ctx.quick && log2_n > 24) continue;
    const std::size_t n = std::size_t{1} << log2_n;
    const auto add = [&]<class K, class V>(const char* variant) {
      std::size_t bytes = sizeof(K);
      if constexpr (!std::is_void_v<V>) bytes += sizeof(V);
      row header = make_header("cuda", variant, type_name<K>(), n, bytes);
      p.cases.push_back(
          {index, header, [&ctx, header] { return measure_cuda_sort<K, V>(ctx, header); },
           std::is_same_v<K, std::uint32_t> && std::is_void_v<V> && headline_size(log2_n)});
    };
    add.template operator()<std::uint32_t, void>("keys");
    add.template operator()<std::uint64_t, void>("keys");
    add.template operator()<float, void>("keys");
    add.template operator()<std::uint32_t, std::uint32_t>("pairs (uint32 values)");
  }
}

#endif

// ---- host ---------------------------------------------------------------

std::vector<row> measure_host_sort(row r) {
  const host_array<std::uint32_t> keys = random_keys<std::uint32_t>(r.n);
  const std::span<const std::uint32_t> in = keys.span();
  std::vector<std::uint32_t> out(r.n);
  r.measured = time_host([&](int) { sort(host, in, out); });
  std::vector<std::uint32_t> expected(r.n);
  r.vendor = "std::sort (1 thread, after a copy)";
  r.vendor_measured = time_host([&](int) {
    std::copy(in.begin(), in.end(), expected.begin());
    std::sort(expected.begin(), expected.end());
  });
  r.check = out == expected ? "ok" : "differs from std::sort";
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "sort (host)", roofline::host_read,
      {
          "gpuprim::sort(gp::host, in, out) on all OpenMP threads against std::sort on one thread "
          "(the copy it needs first is timed with it: under 1% of its time), steady_clock.",
          "uint32 keys, every bit random. vendor / gpuprim above 1 means gpuprim is faster.",
      }));
  row header = make_header("host", "keys", "uint32", host_size(ctx, 27, 22), 4);
  p.cases.push_back({index, header, [header] { return measure_host_sort(header); }, true});
}

}  // namespace

planners sort_planners() {
  return {.cuda = GPUPRIM_BENCH_CUDA(plan_cuda_rows), .host = plan_host_rows};
}

}  // namespace gpuprim::bench
