// The selection family's rows: each gpuprim selection against its CUB
// counterpart on the GPU (DeviceSelect::Flagged / If / Unique,
// DevicePartition::If, DeviceRunLengthEncode::Encode,
// DeviceReduce::ReduceByKey), the host backend against the standard
// library's one-thread algorithms, and the compaction ladder. GB/s counts
// the bytes each must move: every input element read, every output element
// written (k of them for a compaction, all n for a partition).
//
// Inputs: the bench's floats in [0.5, 1.5), selected when above 1 (half of
// them); flags of one byte, half set; int32 keys in runs of 1 to 7 (mean 4)
// with float values.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "anchors_select.hpp"
#include "gpuprim/select.hpp"
#include "inputs.hpp"
#include "lab/ladder/select_ladder.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261201;
constexpr float threshold = 1.0f;

enum class op {
  copy_flagged,
  copy_if,
  partition_reversed,
  partition_stable,
  unique,
  run_length,
  reduce_by_key
};

struct select_case {
  op what;
  const char* name;
  cub_select_kind vendor;
  bool keys;  // reads the int32 keys (else the floats)
};

constexpr select_case cases[] = {
    {op::copy_flagged, "copy_flagged, half", cub_select_kind::flagged, false},
    {op::copy_if, "copy_if, half", cub_select_kind::if_above_one, false},
    {op::partition_reversed, "partition, rest reversed", cub_select_kind::partition, false},
    {op::partition_stable, "partition, stable", cub_select_kind::partition, false},
    {op::unique, "unique, runs of 4", cub_select_kind::unique, true},
    {op::run_length, "run_length_encode, runs of 4", cub_select_kind::run_length, true},
    {op::reduce_by_key, "reduce_by_key, runs of 4", cub_select_kind::reduce_by_key, true},
};

struct inputs {
  std::vector<float> x, values;
  std::vector<std::uint8_t> flags;
  std::vector<std::int32_t> keys;
};

inputs make_inputs(std::size_t n) {
  inputs in;
  in.x.resize(n);
  in.values.resize(n);
  in.flags.resize(n);
  in.keys.resize(n);
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i) {
    in.x[i] = random_value<float>(input_seed, i);
    in.values[i] = random_value<float>(input_seed + 1, i);
    in.flags[i] = static_cast<std::uint8_t>(mix_bits(input_seed ^ i) & 1);
  }
  std::int32_t key = 0;
  for (std::size_t i = 0, run = 0; i < n; ++run) {
    const std::size_t length = 1 + mix_bits(input_seed + run) % 7;
    for (std::size_t r = 0; r < length && i < n; ++r)
      in.keys[i++] = key;
    ++key;
  }
  return in;
}

// Elements read and written (k: the count of the selection).
double bytes_moved(op what, std::size_t n, std::size_t k) {
  const double nd = static_cast<double>(n), kd = static_cast<double>(k);
  switch (what) {
    case op::copy_flagged:
      return nd * 5 + kd * 4;
    case op::copy_if:
      return nd * 4 + kd * 4;
    case op::partition_reversed:
    case op::partition_stable:
      return nd * 8;
    case op::unique:
      return nd * 4 + kd * 4;
    case op::run_length:
      return nd * 4 + kd * 8;
    case op::reduce_by_key:
      return nd * 8 + kd * 8;
  }
  return 0;
}

std::string same_or(bool same, const char* what) {
  return same ? std::string("ok") : std::string("differs from ") + what;
}

// Float sums grouped differently: within 1e-5 relative.
bool close(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(std::abs(a[i] - b[i]) <= 1e-5f * std::abs(b[i]))) return false;
  return true;
}

// ---- host ---------------------------------------------------------------

std::vector<row> measure_host(row r, const select_case& c) {
  const inputs in = make_inputs(r.n);
  const auto above = greater_than(threshold);
  std::vector<float> out(r.n), reference(r.n);
  std::vector<std::int32_t> keys_out(r.n), keys_reference(r.n);
  std::vector<std::int64_t> counts(r.n), counts_reference(r.n);
  std::size_t k = 0, k_reference = 0;
  bool same = false;
  r.vendor = "std:: (1 thread)";
  switch (c.what) {
    case op::copy_if:
    case op::copy_flagged: {
      const auto ours = [&] {
        k = c.what == op::copy_if ? copy_if(host, in.x, out, above)
                                  : copy_flagged(host, in.x, in.flags, out);
      };
      const auto theirs = [&] {
        if (c.what == op::copy_if) {
          k_reference =
              std::copy_if(in.x.begin(), in.x.end(), reference.begin(), above) - reference.begin();
        } else {
          k_reference = 0;
          for (std::size_t i = 0; i < r.n; ++i)
            if (in.flags[i]) reference[k_reference++] = in.x[i];
        }
      };
      r.measured = time_host([&](int) { ours(); });
      r.vendor_measured = time_host([&](int) { theirs(); });
      same = k == k_reference && std::equal(out.begin(), out.begin() + k, reference.begin());
      break;
    }
    case op::partition_reversed:
    case op::partition_stable: {
      const partition_layout layout = c.what == op::partition_stable
                                          ? partition_layout::stable
                                          : partition_layout::rest_reversed;
      r.measured = time_host([&](int) { k = partition(host, in.x, out, above, layout); });
      r.vendor = "std::partition_copy (1 thread)";
      r.vendor_measured = time_host([&](int) {
        const auto ends = std::partition_copy(in.x.begin(), in.x.end(), reference.begin(),
                                              reference.rbegin(), above);
        k_reference = ends.first - reference.begin();
        if (layout == partition_layout::stable)
          std::reverse(reference.begin() + k_reference, reference.end());
      });
      same = k == k_reference && out == reference;
      break;
    }
    case op::unique:
      r.measured = time_host([&](int) { k = unique(host, in.keys, keys_out); });
      r.vendor = "std::unique_copy (1 thread)";
      r.vendor_measured = time_host([&](int) {
        k_reference = std::unique_copy(in.keys.begin(), in.keys.end(), keys_reference.begin()) -
                      keys_reference.begin();
      });
      same = k == k_reference &&
             std::equal(keys_out.begin(), keys_out.begin() + k, keys_reference.begin());
      break;
    case op::run_length:
    case op::reduce_by_key: {
      const bool sums = c.what == op::reduce_by_key;
      r.measured = time_host([&](int) {
        k = sums ? reduce_by_key(host, in.keys, in.values, keys_out, out)
                 : run_length_encode(host, in.keys, keys_out, counts);
      });
      r.vendor = "a loop (1 thread)";
      r.vendor_measured = time_host([&](int) {
        k_reference = 0;
        for (std::size_t i = 0; i < r.n; ++i) {
          if (i == 0 || in.keys[i] != in.keys[i - 1]) {
            keys_reference[k_reference] = in.keys[i];
            reference[k_reference] = 0;
            counts_reference[k_reference++] = 0;
          }
          reference[k_reference - 1] += in.values[i];
          ++counts_reference[k_reference - 1];
        }
      });
      same = k == k_reference &&
             std::equal(keys_out.begin(), keys_out.begin() + k, keys_reference.begin()) &&
             (sums ? close(std::vector<float>(out.begin(), out.begin() + k),
                           std::vector<float>(reference.begin(), reference.begin() + k))
                   : std::equal(counts.begin(), counts.begin() + k, counts_reference.begin()));
      break;
    }
  }
  r.bytes = bytes_moved(c.what, r.n, k);
  r.check = same_or(same, "the std:: result");
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "select (host)", roofline::host_copy,
      {"gpuprim's selections on all OpenMP threads against the standard library's one-thread "
       "algorithms (copy_if, partition_copy, unique_copy) or a loop.",
       "GB/s counts every input element read and every output element written."}));
  const std::size_t n = host_size(ctx, 26, 24);
  for (const select_case& c : cases) {
    const row header = make_row("select", c.name, "host", c.keys ? "int32" : "float", n);
    p.cases.push_back(
        {index, header, [header, c] { return measure_host(header, c); }, c.what == op::copy_if});
  }
}

// ---- CUDA ---------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

std::vector<row> measure_cuda(const context& ctx, row r, const select_case& c) {
  const stream_t stream = ctx.stream;
  const std::size_t n = r.n;
  const inputs in = make_inputs(n);
  const device_vector<float> x = to_device(in.x), values = to_device(in.values);
  const device_vector<std::uint8_t> flags = to_device(in.flags);
  const device_vector<std::int32_t> keys = to_device(in.keys);
  device_vector<float> out(n), vendor_out(n), sums(n), vendor_sums(n);
  device_vector<std::int32_t> keys_out(n), vendor_keys(n), lengths(n), vendor_lengths(n);
  device_vector<std::uint64_t> count(2);
  device_vector<int> vendor_count(1);
  const auto b = cuda.on(stream);
  const auto above = greater_than(threshold);
  const auto ours = [&](int) {
    switch (c.what) {
      case op::copy_flagged:
        copy_flagged(b, x, flags, out, count.span());
        break;
      case op::copy_if:
        copy_if(b, x, out, above, count.span());
        break;
      case op::partition_reversed:
        partition(b, x, out, above, partition_layout::rest_reversed, count.span());
        break;
      case op::partition_stable:
        partition(b, x, out, above, partition_layout::stable, count.span());
        break;
      case op::unique:
        unique(b, keys, keys_out, count.span());
        break;
      case op::run_length:
        run_length_encode(b, keys, keys_out, lengths, count.span());
        break;
      case op::reduce_by_key:
        reduce_by_key(b, keys, values, keys_out, sums, count.span());
        break;
    }
  };
  const cub_select vendor(c.vendor, n, stream);
  r.vendor = cub_select::name(c.vendor);
  const auto theirs = [&](int) {
    const void* input = c.keys ? static_cast<const void*>(keys.data()) : x.data();
    const void* aux = c.what == op::copy_flagged    ? static_cast<const void*>(flags.data())
                      : c.what == op::reduce_by_key ? values.data()
                                                    : nullptr;
    void* first = c.keys ? static_cast<void*>(vendor_keys.data()) : vendor_out.data();
    void* second = c.what == op::run_length      ? static_cast<void*>(vendor_lengths.data())
                   : c.what == op::reduce_by_key ? vendor_sums.data()
                                                 : nullptr;
    vendor.enqueue(input, aux, first, second, vendor_count.data());
  };
  time_device_pair(r, stream, ours, theirs);
  ours(0);
  theirs(0);
  synchronize(stream);
  const std::size_t k = to_host(count)[0];
  const std::size_t k_vendor = static_cast<std::size_t>(to_host(vendor_count)[0]);
  const auto first_k = [](auto v, std::size_t k) {
    v.resize(k);
    return v;
  };
  bool same = k == k_vendor;
  if (same) {
    switch (c.what) {
      case op::copy_flagged:
      case op::copy_if:
        same = first_k(to_host(out), k) == first_k(to_host(vendor_out), k);
        break;
      case op::partition_reversed:
        same = to_host(out) == to_host(vendor_out);
        break;
      case op::partition_stable: {
        // CUB reverses the rest: the same elements, the rest in the other order.
        auto got = to_host(out), want = to_host(vendor_out);
        std::reverse(want.begin() + k, want.end());
        same = got == want;
        break;
      }
      case op::unique:
        same = first_k(to_host(keys_out), k) == first_k(to_host(vendor_keys), k);
        break;
      case op::run_length:
        same = first_k(to_host(keys_out), k) == first_k(to_host(vendor_keys), k) &&
               first_k(to_host(lengths), k) == first_k(to_host(vendor_lengths), k);
        break;
      case op::reduce_by_key:
        same = first_k(to_host(keys_out), k) == first_k(to_host(vendor_keys), k) &&
               close(first_k(to_host(sums), k), first_k(to_host(vendor_sums), k));
        break;
    }
  }
  r.bytes = bytes_moved(c.what, n, k);
  r.check = same_or(same, "CUB's result");
  return {r};
}

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "select (cuda)", roofline::device_copy,
      {"gpuprim's asynchronous forms (the count left on the GPU, as CUB leaves it) against CUB "
       "with 32-bit item counts (temporary storage allocated once, outside the timed loop).",
       device_events_note("every input element read and every output element written"),
       "partition, stable: gpuprim counts first (one more read) to keep the rest in input "
       "order, against CUB's one pass that reverses it.",
       faster_note("check compares the two results (the stable partition's rest reversed).")}));
  for (int log2_n : {24, 28}) {
    if (ctx.quick && log2_n > 24) continue;
    const std::size_t n = std::size_t{1} << log2_n;
    for (const select_case& c : cases) {
      const row header = make_row("select", c.name, "cuda", c.keys ? "int32" : "float", n);
      p.cases.push_back({index, header, [ctx, header, c] { return measure_cuda(ctx, header, c); },
                         c.what == op::copy_if && headline_size(log2_n)});
    }
  }
}

// The compaction ladder: each rung copies the floats above 1 (half).
void plan_ladder(const context& ctx, plan& p) {
  const std::size_t n = std::size_t{1} << (ctx.quick ? 24 : 28);
  table t = ladder_table(
      ctx, "select ladder: copy_if, half of 2^" + std::to_string(ctx.quick ? 24 : 28) + " floats");
  t.notes = {device_events_note("n floats read and the k selected written"),
             "Each rung waits for its count (it comes back to the host); the atomic counter's "
             "output order changes from run to run (checked as a set)."};
  const row header = make_row("select", "", "cuda", "float", n);
  using enqueue = std::function<std::size_t(device_span<const float>, device_span<float>)>;
  struct shared_inputs {
    device_vector<float> x;
    std::vector<float> want;
  };
  const auto data = std::make_shared<std::unique_ptr<shared_inputs>>();
  const auto measure = [ctx, data, n](row r, const enqueue& run) {
    if (!*data) {
      auto made = std::make_unique<shared_inputs>();
      const inputs in = make_inputs(n);
      made->x = to_device(in.x);
      std::copy_if(in.x.begin(), in.x.end(), std::back_inserter(made->want),
                   [](float v) { return v > threshold; });
      *data = std::move(made);
    }
    device_vector<float> out(n);
    std::size_t k = 0;
    r.measured = time_device(ctx.stream, [&](int) { k = run((*data)->x, out); });
    std::vector<float> got = to_host(out);
    got.resize(k);
    std::vector<float> want = (*data)->want;
    if (r.variant == "select_atomic_counter") {
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
    }
    r.bytes = static_cast<double>(n) * 4 + static_cast<double>(k) * 4;
    r.check = same_or(got == want, "std::copy_if");
    return r;
  };
  auto rows = make_ladder_rows<enqueue>(p, p.add_table(std::move(t)), header, measure);
  rows.add_rungs(ladder::select_rungs(), [stream = ctx.stream](auto run) -> enqueue {
    return [run, stream](device_span<const float> in, device_span<float> out) {
      return run(in, out, threshold, stream);
    };
  });
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners select_planners() {
  return {.cuda = GPUPRIM_BENCH_CUDA(plan_cuda_rows),
          .host = plan_host_rows,
          .ladder = GPUPRIM_BENCH_CUDA(plan_ladder)};
}

}  // namespace gpuprim::bench
