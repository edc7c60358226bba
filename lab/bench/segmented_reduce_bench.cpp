// The segmented family's rows: gpuprim::segmented_reduce against
// cub::DeviceSegmentedReduce::Sum on the GPU, and on the host for context.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "anchors.hpp"
#include "gpuprim/segmented.hpp"
#include "inputs.hpp"
#include "plan.hpp"

namespace gpuprim::bench {
namespace {

constexpr std::uint64_t input_seed = 20261124;

// A segment shape: every segment `length` long, or (length == 0) lengths
// hashed from the segment index: one in eight empty, the rest 1 to 2047.
struct shape {
  const char* name;
  std::uint64_t length;
};

std::vector<std::uint64_t> make_offsets(std::size_t n, std::uint64_t length) {
  std::vector<std::uint64_t> offsets = {0};
  for (std::uint64_t s = 0; offsets.back() < n; ++s) {
    std::uint64_t next = length;
    if (length == 0) {
      const std::uint64_t bits = mix_bits(input_seed ^ s);
      next = bits % 8 == 0 ? 0 : 1 + (bits >> 3) % 2047;
    }
    offsets.push_back(std::min<std::uint64_t>(n, offsets.back() + next));
  }
  return offsets;
}

// Values, offsets and outputs read or written once each.
double segmented_bytes(std::size_t n, std::size_t segments) {
  return static_cast<double>(n * sizeof(float) + (segments + 1) * sizeof(std::uint64_t) +
                             segments * sizeof(float));
}

row make_header(const char* backend, const shape& sh, std::size_t n, std::size_t segments) {
  return make_row("segmented_reduce", std::string("sum, ") + sh.name, backend, "float", n,
                  segmented_bytes(n, segments));
}

std::string compare_sums(const std::vector<float>& got, const std::vector<float>& expected,
                         const char* reference) {
  double worst = 0;
  for (std::size_t s = 0; s < got.size(); ++s) {
    const double scale = std::max(1.0, std::abs(double(expected[s])));
    const double error = std::abs(double(got[s]) - double(expected[s])) / scale;
    if (!(error <= worst)) worst = error;  // (a NaN sticks)
  }
  if (worst <= 1e-3) return "ok";
  char text[96];
  std::snprintf(text, sizeof text, "rel. error %.1e vs %s", worst, reference);
  return text;
}

constexpr shape shapes[] = {{"segments of 8", 8}, {"segments of 1024", 1024}, {"mixed 0-2047", 0}};

// ---- host ---------------------------------------------------------------

std::vector<row> measure_host(row r, std::uint64_t length) {
  const host_array<float> values = random_host_array<float>(r.n, input_seed);
  const std::vector<std::uint64_t> offsets = make_offsets(r.n, length);
  std::vector<float> out(offsets.size() - 1), sequential(out.size());
  r.measured = time_host([&](int) { segmented_reduce(host, values.span(), offsets, out, 0.0f); });
  r.vendor = "sequential loop (1 thread)";
  r.vendor_measured = time_host([&](int) {
    for (std::size_t s = 0; s < sequential.size(); ++s) {
      float acc = 0.0f;
      for (std::uint64_t i = offsets[s]; i < offsets[s + 1]; ++i)
        acc += values.data[i];
      sequential[s] = acc;
    }
  });
  r.check = compare_sums(out, sequential, "sequential loop");
  return {r};
}

void plan_host_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(
      api_table(ctx, "segmented_reduce (host)", roofline::host_read,
                {
                    "gpuprim::segmented_reduce(gp::host, ...) on all OpenMP threads against a "
                    "one-thread loop.",
                    "GB/s counts values and 64-bit offsets read and float outputs written.",
                }));
  const std::size_t n = host_size(ctx, 26, 24);
  for (const shape& sh : shapes) {
    const std::size_t segments = make_offsets(n, sh.length).size() - 1;
    const row header = make_header("host", sh, n, segments);
    p.cases.push_back({index, header,
                       [header, length = sh.length] { return measure_host(header, length); },
                       sh.length == 1024});
  }
}

// ---- CUDA ---------------------------------------------------------------

#if GPUPRIM_HAS_CUDA

std::vector<row> measure_cuda(const context& ctx, row r, std::uint64_t length) {
  const stream_t stream = ctx.stream;
  const host_array<float> values = random_host_array<float>(r.n, input_seed);
  const std::vector<std::uint64_t> offsets = make_offsets(r.n, length);
  const std::size_t segments = offsets.size() - 1;
  const std::vector<device_vector<float>> copies =
      device_copies(values.span(), copies_to_defeat_l2(r.n * sizeof(float), ctx.l2_cache_bytes));
  const device_vector<std::uint64_t> d_offsets = to_device(offsets);
  device_vector<float> ours(segments), theirs(segments);
  const auto input = [&](int run) { return copies[run % copies.size()].span(); };

  const cub_segmented_sum<float> cub(segments, stream);
  r.vendor = cub_segmented_sum<float>::name();
  time_device_pair(
      r, stream,
      [&](int run) { segmented_reduce(cuda.on(stream), input(run), d_offsets, ours, 0.0f); },
      [&](int run) { cub.enqueue(input(run).data(), d_offsets.data(), theirs.data()); });

  segmented_reduce(cuda.on(stream), input(0), d_offsets, ours, 0.0f);
  cub.enqueue(input(0).data(), d_offsets.data(), theirs.data());
  synchronize(stream);
  r.check = compare_sums(to_host(ours), to_host(theirs), "CUB");
  return {r};
}

void plan_cuda_rows(const context& ctx, plan& p) {
  const std::size_t index = p.add_table(api_table(
      ctx, "segmented_reduce (cuda)", roofline::device_copy,
      {
          "gpuprim::segmented_reduce(gp::cuda.on(stream), ...) against "
          "cub::DeviceSegmentedReduce::Sum (temporary storage allocated once, outside the timed "
          "loop); both read the same 64-bit offsets and write float sums to the device.",
          device_events_note("values and offsets read and outputs written"),
          "Values under 3 x L2 are rotated among copies that together exceed it; the offsets are "
          "one array (for segments of 8 they are a quarter of the bytes).",
          "mixed: lengths hashed from the segment index, one in eight empty, the rest 1 to 2047.",
          faster_note("check compares the two results."),
      }));
  for (int log2_n : {24, 28}) {
    if (ctx.quick && log2_n > 24) continue;
    const std::size_t n = std::size_t{1} << log2_n;
    for (const shape& sh : shapes) {
      if (log2_n > 24 && sh.length == 0) continue;
      const std::size_t segments = make_offsets(n, sh.length).size() - 1;
      const row header = make_header("cuda", sh, n, segments);
      p.cases.push_back(
          {index, header,
           [ctx, header, length = sh.length] { return measure_cuda(ctx, header, length); },
           sh.length == 1024 && headline_size(log2_n)});
    }
  }
}

#endif  // GPUPRIM_HAS_CUDA

}  // namespace

planners segmented_reduce_planners() {
  return {.cuda = GPUPRIM_BENCH_CUDA(plan_cuda_rows), .host = plan_host_rows};
}

}  // namespace gpuprim::bench
