// Threads that share a stream (issue 47, point 5): the legacy default
// stream, every framework's default, and cudaStreamPerThread, one handle
// naming a different stream on each thread. Their kernels interleave on
// the stream (or run at once on the per-thread streams), so a call must not
// share its workspace with another thread's call: segmented reduce keeps
// its parts in the workspace from one kernel to the next, the scans' and
// the single-pass reduction's look-back and tickets live there. Every
// answer must be the one a lone thread got. The threads that each own a
// stream are in tests/sides/threads_test.cpp.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "gpuprim/reduce.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"
#include "support/cuda_fixture.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

struct sums {
  double total = 0;
  std::vector<double> prefix;
  std::vector<double> segments;
  bool operator==(const sums&) const = default;
};

// One thread's data on the device and its calls on `stream`.
class job {
 public:
  job(std::size_t n, std::size_t salt) {
    auto rng = make_rng(salt);
    const auto x = random_vector<double>(n, rng);
    values_ = gp::to_device(x);
    // Two long segments and an empty one: segmented reduce in parts.
    offsets_ = gp::to_device(
        std::vector<std::int64_t>{0, std::int64_t(n / 3), std::int64_t(n / 3), std::int64_t(n)});
    prefix_ = gp::device_vector<double>(n);
    segments_ = gp::device_vector<double>(3);
  }

  sums run(gp::stream_t stream) {
    const auto b = gp::cuda.on(stream);
    sums s;
    s.total = gp::reduce(b, values_, 0.0);
    gp::inclusive_scan(b, values_, prefix_);
    gp::segmented_reduce(b, values_, offsets_, segments_.span(), 0.0);
    gp::synchronize(stream);
    s.prefix = gp::to_host(prefix_);
    s.segments = gp::to_host(segments_);
    return s;
  }

 private:
  gp::device_vector<double> values_;
  gp::device_vector<std::int64_t> offsets_;
  gp::device_vector<double> prefix_;
  gp::device_vector<double> segments_;
};

// 8 threads x `rounds` calls of their job on `stream`, sizes alternating
// so that workspaces grow meanwhile; returns what went wrong ("" if nothing).
std::string hammer(gp::stream_t stream, int rounds) {
  constexpr int thread_count = 8;
  std::vector<job> small, large;
  std::vector<sums> small_want, large_want;
  for (int t = 0; t < thread_count; ++t) {
    small.emplace_back(5000 + 131 * std::size_t(t), 3 * std::size_t(t));
    large.emplace_back(900'000 + 7919 * std::size_t(t), 3 * std::size_t(t) + 1);
    small_want.push_back(small.back().run(stream));
    large_want.push_back(large.back().run(stream));
  }
  std::vector<std::string> wrong(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      try {
        for (int r = 0; r < rounds && wrong[t].empty(); ++r) {
          const bool big = (r + t) % 2 == 1;
          const sums got = (big ? large : small)[t].run(stream);
          if (!(got == (big ? large_want : small_want)[t])) {
            wrong[t] = "thread " + std::to_string(t) + " round " + std::to_string(r) +
                       (big ? " (large)" : " (small)") + " differs; ";
          }
        }
      } catch (const std::exception& e) {
        wrong[t] = "thread " + std::to_string(t) + " threw " + e.what() + "; ";
      }
    });
  }
  for (auto& th : threads)
    th.join();
  std::string all;
  for (const auto& w : wrong)
    all += w;
  return all;
}

}  // namespace

TEST_F(cuda_test, threads_sharing_the_legacy_default_stream) {
  EXPECT_EQ(hammer(nullptr, 60), "");
}

TEST_F(cuda_test, threads_on_the_per_thread_default_stream) {
  EXPECT_EQ(hammer(cudaStreamPerThread, 60), "");
}

TEST_F(cuda_test, short_lived_threads_leave_no_broken_workspace) {
  // Each thread makes workspaces on a stream and ends (freeing them) while
  // the next one starts on the same stream.
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  job j(300'000, 99);
  const sums want = j.run(stream);
  for (int i = 0; i < 40; ++i) {
    sums got;
    std::thread([&] { got = j.run(stream); }).join();
    ASSERT_EQ(got, want) << "thread " << i;
  }
  EXPECT_EQ(j.run(stream), want);
  cudaStreamDestroy(stream);
}
