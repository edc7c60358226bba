// The tuner's table under many threads (issue 47, point 5): lookups by
// every launch path at once while another thread stores new winners and
// makes the table be read again, and the per-thread state (a config forced
// by the tuner, the last use) staying on its own thread.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/choice.hpp"

namespace {

namespace fs = std::filesystem;
using namespace gpuprim::tuning;

const device_key test_gpu{"NVIDIA H200", 9, 0, 132};

cache_entry reduce_entry(int log2_size, int blocks) {
  return {algorithm::reduce, element_type::f32, log2_size, config{blocks}, 10.0, 12.0};
}

class TuneThreads : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpuprim_tune_threads_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = dir_ / "tune.json";
    // Set before any thread starts (getenv beside setenv is a race).
    ::setenv("GPUPRIM_TUNE_CACHE", path_.c_str(), 1);
    detail::set_device_for_testing(test_gpu);
    detail::reset_loaded_caches();
  }
  void TearDown() override {
    detail::set_device_for_testing(std::nullopt);
    detail::reset_loaded_caches();
    ::unsetenv("GPUPRIM_TUNE_CACHE");
    fs::remove_all(dir_);
  }
  fs::path dir_, path_;
};

TEST_F(TuneThreads, LookupsSeeTheOldTableOrTheNewNeverATornOne) {
  // Two winners per bucket, both valid: a lookup while the file is
  // rewritten and the table reloaded must find one of them.
  store_cache(path_, test_gpu, {reduce_entry(20, 2), reduce_entry(26, 4)});
  constexpr int readers = 8, lookups = 4000, stores = 40;
  std::atomic<bool> writing{true};
  std::atomic<int> wrong{0}, seen_new{0};
  std::thread writer([&] {
    for (int i = 0; i < stores; ++i) {
      const bool second = i % 2 == 0;
      store_cache(path_, test_gpu,
                  {reduce_entry(20, second ? 6 : 2), reduce_entry(26, second ? 8 : 4)});
      detail::reset_loaded_caches();
    }
    writing = false;
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < readers; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < lookups || writing; ++i) {
        const bool small = (i + t) % 2 == 0;
        const config* c =
            lookup(algorithm::reduce, element_type::f32, std::uint64_t{1} << (small ? 20 : 26));
        const int want_old = small ? 2 : 4, want_new = small ? 6 : 8;
        if (!c || ((*c)[0] != want_old && (*c)[0] != want_new)) ++wrong;
        if (c && (*c)[0] == want_new) ++seen_new;
        // Nothing tuned for this type: the default, every time.
        if (lookup(algorithm::reduce, element_type::f64, 1000) != nullptr) ++wrong;
      }
    });
  }
  writer.join();
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GT(seen_new.load(), 0) << "no reader saw a reloaded table";
}

TEST_F(TuneThreads, ForcedConfigsAndLastUseStayOnTheirThread) {
  store_cache(path_, test_gpu, {reduce_entry(20, 2)});
  constexpr int threads_n = 8, calls = 2000;
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < threads_n; ++t) {
    threads.emplace_back([&, t] {
      const config mine{10 + t};
      for (int i = 0; i < calls; ++i) {
        const bool forced = (i + t) % 3 == 0;
        detail::force(algorithm::reduce, forced ? &mine : nullptr);
        const used_config u = choose(algorithm::reduce, element_type::f32, 1u << 20);
        const config want = forced ? mine : config{2};
        const choice_source source = forced ? choice_source::forced : choice_source::cache;
        if (u.choice != want || u.source != source) ++wrong;
        const auto last = last_use(algorithm::reduce);
        if (!last || last->choice != want || last->source != source) ++wrong;
      }
      detail::force(algorithm::reduce, nullptr);
    });
  }
  for (auto& th : threads)
    th.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
