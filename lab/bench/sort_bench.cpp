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
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "anchors.hpp"
#include "gpuprim/sort.hpp"
#include "inputs.hpp"
#include "key_distributions.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261123;

// Keys with every bit random (floats: uniform in (-1000, 1000), both signs).
template <class K>
K random_key(std::size_t i) {
  const std::uint64_t bits = mix_bits(input_seed ^ mix_bits(i));
  if constexpr (std::is_same_v<K, float>) {
    return uniform_float(bits);
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

// How a row's output is checked: against CUB's bit for bit (both sorts
// are stable), or, where CUB orders keys otherwise (NaNs, -0.0), against
// gpuprim's host radix sort bit for bit and for order by gp::sort_less.
enum class check_against { cub, host_sort };

template <class K, class V>
std::vector<row> measure_cuda_sort(const context& ctx, row r, const host_array<K>& keys,
                                   int cub_end_bit = -1, check_against check = check_against::cub) {
  constexpr bool pairs = !std::is_void_v<V>;
  const stream_t stream = ctx.stream;
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
  const cub_radix_sort<K, V> cub(r.n, stream, 0, cub_end_bit);
  const auto enqueue_cub = [&](int run) {
    if constexpr (pairs) {
      cub.enqueue(k.input(run).data(), k.output(run).data(), v->input(run).data(),
                  v->output(run).data());
    } else {
      cub.enqueue(k.input(run).data(), k.output(run).data());
    }
  };
  r.vendor = cub_radix_sort<K, V>::name();
  if (cub_end_bit >= 0) r.vendor += std::string(", end_bit ") + std::to_string(cub_end_bit);
  time_device_pair(r, stream, enqueue, enqueue_cub);

  if (check == check_against::host_sort) {
    enqueue(0);
    const std::vector<K> got = k.first_output(stream);
    std::vector<K> expected(r.n);
    sort(host, keys.span(), std::span<K>(expected));
    r.check = compare_bits(got, expected, "keys");
    if (r.check == "ok" &&
        !std::is_sorted(got.begin(), got.end(), [](K a, K b) { return sort_less{}(a, b); })) {
      r.check = "keys out of order";
    }
    return {r};
  }
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

void plan_cuda_distribution_rows(const context& ctx, plan& p);

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
  // 2^10 and 2^16: the one-block sort and a sort of a few tiles, where the
  // launches are most of the time (keys only, uint32 and float).
  const int sizes[] = {10, 16, 20, 24, 28};
  for (int log2_n : sizes) {
    if (ctx.quick && log2_n > 24) continue;
    const bool small = log2_n < 20;
    const std::size_t n = std::size_t{1} << log2_n;
    const auto add = [&]<class K, class V>(const char* variant) {
      std::size_t bytes = sizeof(K);
      if constexpr (!std::is_void_v<V>) bytes += sizeof(V);
      row header = make_header("cuda", variant, type_name<K>(), n, bytes);
      p.cases.push_back(
          {index, header,
           [&ctx, header] {
             return measure_cuda_sort<K, V>(ctx, header, random_keys<K>(header.n));
           },
           std::is_same_v<K, std::uint32_t> && std::is_void_v<V> && headline_size(log2_n)});
    };
    add.template operator()<std::uint32_t, void>("keys");
    if (!small) add.template operator()<std::uint64_t, void>("keys");
    add.template operator()<float, void>("keys");
    if (!small) add.template operator()<std::uint32_t, std::uint32_t>("pairs (uint32 values)");
  }
  plan_cuda_distribution_rows(ctx, p);
}

// ---- cuda, key distributions ---------------------------------------------

// A row's key type: uint32 or float (the pattern's bits), or uint64 (the
// 32-bit pattern widened: keys below 2^32).
enum class row_key { uint32, float32, uint64 };

struct distribution_row {
  const char* name;
  key_distribution d;
  row_key type = row_key::uint32;
  int cub_end_bit = -1;  // CUB given these bits (-1: all)
  check_against check = check_against::cub;
};

template <class K>
host_array<K> distribution_keys(key_distribution d, std::size_t n) {
  host_array<K> a{std::unique_ptr<K[]>(new K[n]), n};
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t bits = distribution_bits(d, i, n, input_seed);
    if constexpr (sizeof(K) == 8) {
      a.data[i] = K{bits};
    } else {
      a.data[i] = std::bit_cast<K>(bits);
    }
  }
  return a;
}

template <class K>
std::vector<row> measure_distribution(const context& ctx, const row& header,
                                      const distribution_row& d) {
  return measure_cuda_sort<K, void>(ctx, header, distribution_keys<K>(d.d, header.n), d.cub_end_bit,
                                    d.check);
}

void plan_cuda_distribution_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "sort distributions (cuda)", roofline::device_copy,
      {
          "gpuprim::sort(gp::cuda.on(stream), in, out) (out of place, all bits: gpuprim finds "
          "the digits that are the same in every key itself) against "
          "cub::DeviceRadixSort::SortKeys (all bits unless the vendor column names end_bit), "
          "keys of each distribution; uint32 unless the type says float or uint64.",
          "Distributions: uniform (every bit random), sorted and reversed (distinct), all equal, "
          "16 distinct values, integers below 2^16 and below 2^20, Zipf-like (s = 1 over 2^24 "
          "ranks, hashed), low entropy (the AND of three uniform words), one top byte (0x5A) for "
          "all keys, uint64 below 2^32 (uniform 32-bit values), special floats (1/8 NaN of both "
          "signs and many payloads, 1/8 +-inf, 1/8 +-0.0, the rest uniform in (-1000, 1000)), "
          "denormals (half denormal, both signs), floats in [100, 100.5) (the top 16 bits the "
          "same in every key).",
          l2_note(ctx.l2_cache_bytes, true),
          "check: keys equal CUB's bit for bit; special floats (CUB orders NaNs and -0.0 "
          "otherwise): equal to gpuprim's host radix sort bit for bit and in gp::sort_less order.",
      }));
  const distribution_row rows[] = {
      {"uniform", key_distribution::uniform},
      {"sorted", key_distribution::sorted},
      {"reversed", key_distribution::reversed},
      {"all equal", key_distribution::all_equal},
      {"16 distinct values", key_distribution::sixteen_values},
      {"below 2^16", key_distribution::below_2_16},
      {"below 2^16, CUB given 16 bits", key_distribution::below_2_16, row_key::uint32, 16},
      {"below 2^20", key_distribution::below_2_20},
      {"Zipf", key_distribution::zipf},
      {"low entropy", key_distribution::low_entropy},
      {"one top byte", key_distribution::one_top_byte},
      {"below 2^32", key_distribution::uniform, row_key::uint64},
      {"NaN, inf, -0.0", key_distribution::special_floats, row_key::float32, -1,
       check_against::host_sort},
      {"denormals", key_distribution::denormals, row_key::float32},
      {"in [100, 100.5)", key_distribution::narrow_floats, row_key::float32},
  };
  const std::size_t n = std::size_t{1} << (ctx.quick ? 24 : 28);
  for (const distribution_row& d : rows) {
    const bool wide = d.type == row_key::uint64;
    row header = make_header("cuda", (std::string("keys, ") + d.name).c_str(),
                             d.type == row_key::float32 ? "float"
                             : wide                     ? "uint64"
                                                        : "uint32",
                             n, wide ? 8 : 4);
    p.cases.push_back({index, header, [&ctx, header, d] {
                         switch (d.type) {
                           case row_key::float32:
                             return measure_distribution<float>(ctx, header, d);
                           case row_key::uint64:
                             return measure_distribution<std::uint64_t>(ctx, header, d);
                           default:
                             return measure_distribution<std::uint32_t>(ctx, header, d);
                         }
                       }});
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
