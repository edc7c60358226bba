// Many threads calling at once (issue 47, point 5). Each of 8 threads runs
// reduce, inclusive scan, sort, histogram, spmv, top-k, copy_if and
// segmented reduce over and over on data of its own (on the GPU on a stream
// of its own), alternating a small and a large input so that the library's
// per-thread workspaces grow while the other threads launch, and must get
// every time the answers one thread got for the same data before the
// threads started: bit for bit, floats included (the library's results are
// run-to-run deterministic). The GPU's own cases (threads sharing a stream)
// are in tests/cuda/threads_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "gpuprim/reduce.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"
#include "gpuprim/select.hpp"
#include "gpuprim/sort.hpp"
#include "gpuprim/sparse.hpp"
#include "gpuprim/topk.hpp"
#include "support/side_test.hpp"
#include "support/sparse_reference.hpp"
#include "support/test_data.hpp"

#if GPUPRIM_TEST_ON_CUDA
#include <cuda_runtime_api.h>

#include <stdexcept>
#endif

namespace {

constexpr int thread_count = 8;
constexpr std::size_t top = 100;

// Rounds of the eight calls per thread: GPUPRIM_THREADS_TEST_ROUNDS (fewer
// under a sanitizer), else 40 (320 calls a thread).
int rounds() {
  const char* s = std::getenv("GPUPRIM_THREADS_TEST_ROUNDS");
  return s && *s ? std::max(1, std::atoi(s)) : 40;
}

// Where a thread's calls run: on the GPU a non-blocking stream of its own
// (no implicit order with any other thread's work), on the host the
// backend itself (each call its own OpenMP team).
#if GPUPRIM_TEST_ON_CUDA
class lane {
 public:
  lane() {
    if (cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking) != cudaSuccess) {
      throw std::runtime_error("cudaStreamCreateWithFlags failed");
    }
  }
  ~lane() { cudaStreamDestroy(stream_); }
  lane(const lane&) = delete;
  lane& operator=(const lane&) = delete;
  auto backend() const { return gp::cuda.on(stream_); }
  void wait() const { gp::synchronize(stream_); }

 private:
  cudaStream_t stream_ = nullptr;
};
using side_csr = gp::device_csr_matrix<float, std::int32_t>;
#else
struct lane {
  static auto backend() { return gp::host; }
  static void wait() {}
};
using side_csr = gp::csr_matrix<float, std::int32_t>;
#endif

template <class T>
using side_vector = decltype(side::put(std::vector<T>{}));

struct input {
  std::vector<float> values;
  std::vector<std::uint32_t> keys;
  std::vector<std::int32_t> ints;
  std::vector<std::int64_t> offsets;  // 4 segments of values
  gp::csr_matrix<float, std::int32_t> matrix;
  std::vector<float> x;
};

input make_input(std::size_t n, std::size_t salt) {
  auto rng = make_rng(salt);
  input in;
  in.values = random_vector<float>(n, rng);
  in.keys = random_vector<std::uint32_t>(n, rng);
  in.ints = random_vector<std::int32_t>(n, rng);
  in.offsets = {0, std::int64_t(n / 5), std::int64_t(n / 2), std::int64_t(n / 2 + 1),
                std::int64_t(n)};
  const std::size_t rows = n / 8 + 1;
  in.matrix = random_csr<float, std::int32_t>(rows, rows, 6, rng, 97, rows / 2);
  in.x = random_vector<float>(rows, rng);
  return in;
}

struct answers {
  float sum = 0;
  std::vector<float> scan;
  std::vector<std::uint32_t> sorted;
  std::vector<std::uint64_t> counts;
  std::uint64_t left_out = 0;
  std::vector<float> y;
  std::vector<float> top_values;
  std::vector<std::int64_t> top_indices;
  std::vector<std::int32_t> picked;
  std::vector<float> segment_sums;
};

// The first field in which two answers differ ("" when none does).
std::string difference(const answers& a, const answers& b) {
  if (a.sum != b.sum) return "reduce";
  if (a.scan != b.scan) return "inclusive_scan";
  if (a.sorted != b.sorted) return "sort";
  if (a.counts != b.counts || a.left_out != b.left_out) return "histogram_even";
  if (a.y != b.y) return "spmv";
  if (a.top_values != b.top_values || a.top_indices != b.top_indices) return "topk";
  if (a.picked != b.picked) return "copy_if";
  if (a.segment_sums != b.segment_sums) return "segmented_reduce";
  return "";
}

// One input's arrays on this side, the outputs made once and reused by
// every round (as a program calling in a loop would).
struct side_arrays {
  explicit side_arrays(const input& in)
      : values(side::put(in.values)),
        keys(side::put(in.keys)),
        ints(side::put(in.ints)),
        offsets(side::put(in.offsets)),
        matrix(in.matrix),
        x(side::put(in.x)),
        scan(side::put(std::vector<float>(in.values.size()))),
        sorted(side::put(std::vector<std::uint32_t>(in.keys.size()))),
        counts(side::put(std::vector<std::uint64_t>(257))),
        y(side::put(std::vector<float>(in.x.size()))),
        top_values(side::put(std::vector<float>(top))),
        top_indices(side::put(std::vector<std::int64_t>(top))),
        picked(side::put(std::vector<std::int32_t>(in.ints.size()))),
        segment_sums(side::put(std::vector<float>(in.offsets.size() - 1))) {}

  side_vector<float> values;
  side_vector<std::uint32_t> keys;
  side_vector<std::int32_t> ints;
  side_vector<std::int64_t> offsets;
  side_csr matrix;
  side_vector<float> x;
  side_vector<float> scan;
  side_vector<std::uint32_t> sorted;
  side_vector<std::uint64_t> counts;
  side_vector<float> y;
  side_vector<float> top_values;
  side_vector<std::int64_t> top_indices;
  side_vector<std::int32_t> picked;
  side_vector<float> segment_sums;
};

answers run(const lane& l, side_arrays& d) {
  const auto b = l.backend();
  answers a;
  a.sum = gp::reduce(b, d.values, 0.0f);
  gp::inclusive_scan(b, d.values, d.scan);
  gp::sort(b, d.keys, d.sorted);
  a.left_out = gp::histogram_even(b, d.values, d.counts, -0.75f, 0.75f);
  gp::spmv(b, 1.0f, d.matrix, d.x, 0.0f, d.y);
  gp::topk(b, d.values, top, d.top_values, d.top_indices, gp::largest);
  const std::size_t picked = gp::copy_if(b, d.ints, d.picked, gp::greater_than(std::int32_t{0}));
  gp::segmented_reduce(b, d.values, d.offsets, side::span(d.segment_sums), 0.0f);
  l.wait();
  a.scan = side::get(d.scan);
  a.sorted = side::get(d.sorted);
  a.counts = side::get(d.counts);
  a.y = side::get(d.y);
  a.top_values = side::get(d.top_values);
  a.top_indices = side::get(d.top_indices);
  a.picked = side::get(d.picked);
  a.picked.resize(picked);
  a.segment_sums = side::get(d.segment_sums);
  return a;
}

}  // namespace

SIDE_TEST(threads, each_thread_gets_the_answers_of_one_thread) {
  // Sizes differ per thread: on the GPU the large ones span many tiles
  // (look-back scans, several sort passes, segmented reduce in parts).
  const std::size_t large = on_cuda ? 1'500'000 : 40'000;
  std::vector<input> small_inputs, large_inputs;
  for (int t = 0; t < thread_count; ++t) {
    small_inputs.push_back(make_input(3000 + 101 * std::size_t(t), 2 * std::size_t(t)));
    large_inputs.push_back(make_input(large + 997 * std::size_t(t), 2 * std::size_t(t) + 1));
  }
  // One thread first.
  std::vector<answers> small_want, large_want;
  {
    const lane l;
    for (int t = 0; t < thread_count; ++t) {
      side_arrays s(small_inputs[t]), g(large_inputs[t]);
      small_want.push_back(run(l, s));
      large_want.push_back(run(l, g));
      ASSERT_EQ(difference(run(l, s), small_want[t]), "") << "one thread, twice";
    }
  }
  ASSERT_GT(large_want[0].picked.size(), 0u);
  ASSERT_GT(large_want[0].left_out, 0u);

  const int n_rounds = rounds();
  std::vector<std::string> wrong(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      try {
        const lane l;
        side_arrays s(small_inputs[t]), g(large_inputs[t]);
        for (int r = 0; r < n_rounds && wrong[t].empty(); ++r) {
          const bool big = (r + t) % 2 == 1;
          const std::string d =
              difference(run(l, big ? g : s), big ? large_want[t] : small_want[t]);
          if (!d.empty()) {
            wrong[t] =
                d + " differs in round " + std::to_string(r) + (big ? " (large)" : " (small)");
          }
        }
      } catch (const std::exception& e) {
        wrong[t] = std::string("threw: ") + e.what();
      }
    });
  }
  for (auto& th : threads)
    th.join();
  for (int t = 0; t < thread_count; ++t)
    EXPECT_EQ(wrong[t], "") << "thread " << t;
}
