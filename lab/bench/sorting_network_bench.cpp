// Benchmark rows of the sorting networks and the sort ladder.
//  - Batched small sorts: gpuprim::sort_batched (bitonic networks: registers
//    for 32 keys, shared memory for 1024) against
//    cub::DeviceSegmentedSort::SortKeys on the same arrays (GPU), and
//    against a one-thread loop of std::sort (host). A sort must read and
//    write every key, so GB/s counts n x sizeof(T) read + n x sizeof(T)
//    written, like the copy roofline.
//  - The sort ladder (bitonic in global memory -> bitonic with shared-memory
//    tiles -> one-bit split by scan -> gp::sort) on 2^20 and 2^24 u32 keys.
// gpuprim sorts in place: after the first (warm-up) call each copy is
// sorted. The networks do the same compare-exchanges on any input (only the
// global steps skip writes when no swap is needed), and the check runs on a
// fresh copy of the random input.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "anchors.hpp"
#include "gpuprim/sort.hpp"
#include "inputs.hpp"
#include "lab/ladder/ladder.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261123;

row make_header(const char* algorithm, const char* backend, const char* type, std::size_t n,
                std::size_t element_bytes) {
  return make_row(algorithm, "", backend, type, n,
                  2.0 * static_cast<double>(n) * static_cast<double>(element_bytes));
}

std::string array_variant(std::size_t count, std::size_t array_size) {
  char text[96];
  std::snprintf(text, sizeof text, "bitonic, 2^%d arrays of %zu",
                static_cast<int>(std::countr_zero(count)), array_size);
  return text;
}

// Each array of `got` must be the same array of `expected` (both sorted by
// sort_less, so equal keys are equal bits except NaN, absent from inputs).
template <class T>
std::string compare_sorted(std::span<const T> got, std::span<const T> expected,
                           const char* reference) {
  if (got.size() != expected.size()) return "size mismatch";
  std::size_t wrong = 0, first = got.size();
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!(got[i] == expected[i])) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong == 0) return "ok";
  char text[160];
  std::snprintf(text, sizeof text, "%zu keys differ from %s, first at %zu", wrong, reference,
                first);
  return text;
}

struct batched_case {
  int log2_count;
  std::size_t array_size;
  bool in_quick_runs;
};

constexpr batched_case batched_cases[] = {
    {20, 32, true},
    {14, 1024, true},
    {17, 1024, false},
};

// ---- host -------------------------------------------------------------------

std::vector<row> measure_host_batched(row r, std::size_t array_size) {
  const host_array<float> values = random_host_array<float>(r.n, input_seed);
  std::vector<float> keys(values.span().begin(), values.span().end());
  r.measured = time_host([&](int) { sort_batched(host, keys, array_size); });
  std::vector<float> loop(values.span().begin(), values.span().end());
  r.vendor = "std::sort per array (1 thread)";
  r.vendor_measured = time_host([&](int) {
    for (std::size_t b = 0; b < r.n; b += array_size)
      std::sort(loop.begin() + b, loop.begin() + b + array_size, sort_less{});
  });
  std::vector<float> fresh(values.span().begin(), values.span().end());
  sort_batched(host, fresh, array_size);
  r.check = compare_sorted<float>(fresh, loop, "std::sort");
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "batched small sorts (host)", roofline::host_copy,
      {
          "gpuprim::sort_batched(gp::host, keys, array_size): std::sort per array, arrays spread "
          "over all OpenMP threads; the vendor column is the same loop on one thread.",
          "GB/s counts n x 4 bytes read + n x 4 bytes written.",
      }));
  for (const batched_case& c : kept_cases(ctx, batched_cases)) {
    const std::size_t count = std::size_t{1} << c.log2_count;
    row header = make_header("sort_batched", "host", "float", count * c.array_size, sizeof(float));
    header.variant = std::string("std::sort per array, 2^") + std::to_string(c.log2_count) +
                     " arrays of " + std::to_string(c.array_size);
    p.cases.push_back({index, header,
                       [header, size = c.array_size] { return measure_host_batched(header, size); },
                       c.log2_count == 20 && c.array_size == 32});
  }
}

// ---- CUDA -------------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

std::vector<row> measure_cuda_batched(const context& ctx, row r, std::size_t array_size) {
  const stream_t stream = ctx.stream;
  const host_array<float> values = random_host_array<float>(r.n, input_seed);
  // gpuprim sorts in place, each call on one of the rotated input copies
  // (sorted again on later rounds: the network does the same work on any
  // input); CUB reads one copy and writes another.
  rotated_buffers<float> keys(values.span(), ctx.l2_cache_bytes, false);

  const std::size_t count = r.n / array_size;
  std::vector<int> offsets(count + 1);
  for (std::size_t a = 0; a <= count; ++a)
    offsets[a] = static_cast<int>(a * array_size);
  const device_vector<int> d_offsets = to_device(offsets);
  rotated_buffers<float> cub_buffers(values.span(), ctx.l2_cache_bytes);
  const cub_segmented_sort<float> cub(r.n, count, stream);
  r.vendor = cub_segmented_sort<float>::name();
  time_device_pair(
      r, stream,
      [&](int run) {
        sort_batched(cuda.on(stream), keys.inputs[run % keys.inputs.size()], array_size);
      },
      [&](int run) {
        cub.enqueue(cub_buffers.input(run).data(), cub_buffers.output(run).data(),
                    d_offsets.data());
      });

  device_vector<float> fresh = to_device(values.span());
  sort_batched(cuda.on(stream), fresh, array_size);
  cub.enqueue(cub_buffers.input(0).data(), cub_buffers.output(0).data(), d_offsets.data());
  synchronize(stream);
  r.check = compare_sorted<float>(to_host(fresh), cub_buffers.first_output(stream), "CUB");
  return {r};
}

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "batched small sorts (cuda)", roofline::device_copy,
      {
          "gpuprim::sort_batched(gp::cuda.on(stream), keys, array_size), in place: arrays of 32 "
          "keys sort in registers (4 lanes x 8 keys per array), arrays of 1024 in shared memory; "
          "against cub::DeviceSegmentedSort::SortKeys (out of place, int offsets, temporary "
          "storage allocated once).",
          "CUDA events; GB/s counts n x 4 bytes read + n x 4 bytes written (CUB also reads the "
          "offsets); % of the device-to-device copy bandwidth of this run.",
          l2_note(ctx.l2_cache_bytes, true),
          "check: gpuprim's result on a fresh copy of the input against CUB's.",
      }));
  for (const batched_case& c : kept_cases(ctx, batched_cases)) {
    const std::size_t count = std::size_t{1} << c.log2_count;
    row header = make_header("sort_batched", "cuda", "float", count * c.array_size, sizeof(float));
    header.variant = array_variant(count, c.array_size);
    p.cases.push_back(
        {index, header,
         [ctx, header, size = c.array_size] { return measure_cuda_batched(ctx, header, size); },
         c.log2_count == 20 && c.array_size == 32});
  }
}

// The ladder's rungs share one input set per size; the reference is
// std::sort of the input.
struct ladder_inputs {
  std::vector<std::uint32_t> input;
  std::vector<std::uint32_t> sorted;
  std::vector<device_vector<std::uint32_t>> copies;

  void prepare(const context& ctx, std::size_t n) {
    if (!copies.empty()) return;
    input.resize(n);
    for (std::size_t i = 0; i < n; ++i)  // random over the full 32-bit range
      input[i] = static_cast<std::uint32_t>(mix_bits(input_seed ^ mix_bits(i)));
    sorted = input;
    std::sort(sorted.begin(), sorted.end());
    copies = device_copies<std::uint32_t>(
        input, copies_to_defeat_l2(n * sizeof(std::uint32_t), ctx.l2_cache_bytes));
  }
};

using sort_enqueuer = std::function<void(device_span<std::uint32_t> keys)>;

row measure_ladder_row(const context& ctx, ladder_inputs& inputs, row r,
                       const sort_enqueuer& enqueue) {
  inputs.prepare(ctx, r.n);
  r.measured = time_device(
      ctx.stream, [&](int run) { enqueue(inputs.copies[run % inputs.copies.size()].span()); });
  device_vector<std::uint32_t> fresh = to_device(inputs.input);
  enqueue(fresh.span());
  synchronize(ctx.stream);
  r.check = compare_sorted<std::uint32_t>(to_host(fresh), inputs.sorted, "std::sort");
  return r;
}

void plan_ladder(const context& ctx, plan& p, int log2_n) {
  table t = ladder_table(ctx, "sort ladder: 2^" + std::to_string(log2_n) + " uint32 keys (cuda)");
  t.notes = {
      "The last row is gpuprim::bitonic_sort (registers + shared tiles + global steps), for "
      "reference.",
      "CUDA events around each in-place sort; GB/s counts n x 4 bytes read + n x 4 bytes written "
      "(keys/s = n / time). check: a fresh copy of the input against std::sort.",
  };
  const auto inputs = std::make_shared<ladder_inputs>();
  const stream_t stream = ctx.stream;
  auto rows = make_ladder_rows<sort_enqueuer>(
      p, p.add_table(std::move(t)),
      make_header("sort", "cuda", "uint32", std::size_t{1} << log2_n, sizeof(std::uint32_t)),
      [ctx, inputs](const row& r, const sort_enqueuer& enqueue) {
        return measure_ladder_row(ctx, *inputs, r, enqueue);
      });
  rows.add_rungs(ladder::sort_rungs<std::uint32_t>(), [stream](auto run) -> sort_enqueuer {
    return [run, stream](device_span<std::uint32_t> keys) { run(keys, stream); };
  });
  rows.add("gpuprim", "gpuprim::bitonic_sort",
           "(reference) the production network: registers and shared tiles",
           [stream](device_span<std::uint32_t> keys) { bitonic_sort(cuda.on(stream), keys); });
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

// The sort ladder at 2^20 and 2^24 keys.
planners sorting_network_planners() {
  return GPUPRIM_BENCH_PLANNERS(plan_cuda_rows, plan_host_rows, [](const context& ctx, plan& p) {
    plan_ladder(ctx, p, 20);
    plan_ladder(ctx, p, 24);
  });
}

}  // namespace gpuprim::bench
