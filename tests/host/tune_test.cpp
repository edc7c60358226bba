// The autotuner's host-testable core: configs and spaces, the searchers
// with fake timings, the winner rule, and the per-device cache (round trip,
// every kind of bad file, concurrent writers, the lazy table the launch
// paths read).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gpuprim/core/error.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/tune/cache.hpp"
#include "gpuprim/tune/search.hpp"
#include "gpuprim/tune/tuner.hpp"

namespace {

namespace fs = std::filesystem;
using namespace gpuprim::tuning;

// A space of two parameters with a single best point, for the searchers.
space grid_space() {
  space s;
  s.id = algorithm::reduce;
  s.name = "test";
  s.parameters = {"a", "b"};
  s.candidates = product({{1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 3, 4, 5, 6, 7, 8}});
  s.default_config = {4, 4};
  return s;
}

// A bowl with its minimum at (6, 2): local refinement walks down to it.
measurement bowl(const config& c) {
  const double da = c[0] - 6, db = c[1] - 2;
  return {100.0 + 5.0 * (da * da + db * db), 0.1, true};
}

TEST(TuneConfig, SizeBucketIsFloorLog2) {
  EXPECT_EQ(size_bucket(0), 0);
  EXPECT_EQ(size_bucket(1), 0);
  EXPECT_EQ(size_bucket(2), 1);
  EXPECT_EQ(size_bucket((1u << 20) - 1), 19);
  EXPECT_EQ(size_bucket(1u << 20), 20);
  EXPECT_EQ(size_bucket(std::uint64_t(1) << 40), 40);
}

TEST(TuneConfig, ProductAndNeighbours) {
  const space s = grid_space();
  ASSERT_EQ(s.candidates.size(), 64u);
  EXPECT_EQ(s.candidates[0], (config{1, 1}));
  EXPECT_EQ(s.candidates[9], (config{2, 2}));
  EXPECT_EQ(s.index_of(config{4, 4}), 27);
  EXPECT_EQ(s.index_of(config{9, 4}), -1);
  const std::vector<config> n = s.neighbours(config{1, 4});
  EXPECT_EQ(n, (std::vector<config>{{2, 4}, {1, 3}, {1, 5}}));
  EXPECT_EQ(s.describe(config{3, 7}), "a=3 b=7");
}

TEST(TuneConfig, EveryDeclaredSpaceHoldsItsDefault) {
  for (const space& s : spaces()) {
    SCOPED_TRACE(s.name);
    EXPECT_EQ(&space_of(s.id), &s);
    EXPECT_EQ(find_space(s.name), &s);
    EXPECT_GE(s.index_of(s.default_config), 0);
    EXPECT_LE(s.candidates.size(), 16u) << "compiled candidates must stay few";
    for (const config& c : s.candidates)
      EXPECT_EQ(c.count, static_cast<int>(s.parameters.size()));
  }
  EXPECT_EQ(find_space("no such algorithm"), nullptr);
}

// Issue 23, item 1: every device algorithm has a space, in `algorithm`
// order, that `gpuprim tune FAMILY` can select and the tuner can measure.
TEST(TuneConfig, EveryDeviceAlgorithmHasASpace) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"reduce", "reduce"},
      {"histogram", "histogram"},
      {"segmented_reduce", "segmented"},
      {"scan", "scan"},
      {"segmented_scan", "segmented"},
      {"radix_sort", "sort"},
      {"sorting_network", "sorting-network"},
      {"transpose", "transpose"},
      {"convolve", "convolve"},
      {"spmv", "spmv"},
      {"closest_pair", "closest-pair"}};
  ASSERT_EQ(spaces().size(), expected.size());
  ASSERT_EQ(static_cast<std::size_t>(algorithm::count), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const space& s = spaces()[i];
    SCOPED_TRACE(s.name);
    EXPECT_EQ(s.name, expected[i].first);
    EXPECT_EQ(s.family, expected[i].second);
    EXPECT_EQ(static_cast<std::size_t>(s.id), i);
    EXPECT_FALSE(s.parameters.empty());
    EXPECT_GE(s.candidates.size(), 2u) << "a space with one candidate tunes nothing";
    EXPECT_FALSE(s.types.empty());
    EXPECT_FALSE(s.log2_sizes.empty());
    for (element_type t : s.types)
      EXPECT_NE(t, element_type::other);
    // No candidate twice.
    for (std::size_t a = 0; a < s.candidates.size(); ++a) {
      for (std::size_t b = a + 1; b < s.candidates.size(); ++b)
        EXPECT_FALSE(s.candidates[a] == s.candidates[b]) << s.describe(s.candidates[a]);
    }
    // The default's neighbours: candidates that differ from it in exactly
    // one parameter; every parameter with more than one value has some.
    const std::vector<config> near = s.neighbours(s.default_config);
    EXPECT_FALSE(near.empty());
    for (const config& k : near) {
      EXPECT_GE(s.index_of(k), 0) << s.describe(k);
      int differing = 0;
      for (int d = 0; d < k.count; ++d)
        differing += k[d] != s.default_config[d];
      EXPECT_EQ(differing, 1) << s.describe(k);
    }
    for (int d = 0; d < static_cast<int>(s.parameters.size()); ++d) {
      bool varies = false;
      for (const config& c : s.candidates)
        varies = varies || c[d] != s.default_config[d];
      EXPECT_TRUE(varies) << s.parameters[static_cast<std::size_t>(d)] << " takes one value";
      bool has_neighbour = false;
      for (const config& k : near)
        has_neighbour = has_neighbour || k[d] != s.default_config[d];
      EXPECT_TRUE(has_neighbour) << s.parameters[static_cast<std::size_t>(d)];
    }
  }
}

// The spaces' defaults are the launch paths' hand-picked values (the
// kernels' own constants), so an untuned call runs as before.
TEST(TuneConfig, DefaultsAreTheLaunchPathsConstants) {
  EXPECT_EQ(find_space("scan")->describe(find_space("scan")->default_config), "prefetch_tiles=64");
  EXPECT_EQ(find_space("radix_sort")->describe(find_space("radix_sort")->default_config),
            "prefetch_tiles=64 histogram_blocks_per_sm=8");
  EXPECT_EQ(find_space("sorting_network")->describe(find_space("sorting_network")->default_config),
            "tile_kib=32 step_blocks_per_sm=32");
  EXPECT_EQ(find_space("transpose")->describe(find_space("transpose")->default_config),
            "tile_rows=64 tile_cols=64 blocks_per_sm=0");
  EXPECT_EQ(find_space("convolve")->describe(find_space("convolve")->default_config),
            "unrolled_rows=1 capacity_step=0");
  EXPECT_EQ(find_space("spmv")->describe(find_space("spmv")->default_config), "blocks_per_sm=0");
  EXPECT_EQ(find_space("closest_pair")->describe(find_space("closest_pair")->default_config),
            "cell_percent=100");
}

// The occupancy row of a call that launches several kernels: the largest
// (registers x threads), unless the launch path marks the kernel its
// parameter shapes (primary): then the largest primary one.
TEST(TuneReport, TheLargestKernelOrTheLargestPrimaryOneIsShown) {
  auto report = [](int registers, int threads) {
    kernel_report r;
    r.registers = registers;
    r.threads = threads;
    return r;
  };
  detail::want_kernel_report();
  EXPECT_TRUE(detail::kernel_report_wanted());
  detail::report_kernel(report(32, 256));
  detail::report_kernel(report(128, 256));  // a radix sort pass the call runs
  detail::report_kernel(report(40, 128));
  EXPECT_EQ(detail::take_kernel_report().registers, 128);
  EXPECT_FALSE(detail::kernel_report_wanted());

  detail::want_kernel_report();
  detail::report_kernel(report(128, 256));
  detail::report_kernel(report(40, 256), /*primary=*/true);  // the tuned kernel
  detail::report_kernel(report(168, 256));                   // larger, not primary: ignored
  EXPECT_EQ(detail::take_kernel_report().registers, 40);

  detail::want_kernel_report();
  detail::report_kernel(report(40, 256), true);
  detail::report_kernel(report(64, 256), true);
  detail::report_kernel(report(48, 256), true);
  EXPECT_EQ(detail::take_kernel_report().registers, 64);

  // A new request forgets the last call's primary kernel.
  detail::want_kernel_report();
  detail::report_kernel(report(32, 256));
  EXPECT_EQ(detail::take_kernel_report().registers, 32);
}

TEST(TuneSearch, ExhaustiveMeasuresEveryCandidateOnceDefaultFirst) {
  const space s = grid_space();
  std::map<int, int> calls;
  const search_result r = search_exhaustive(s, [&](const config& c) {
    ++calls[s.index_of(c)];
    return bowl(c);
  });
  EXPECT_TRUE(r.exhaustive);
  EXPECT_EQ(r.trials.size(), 64u);
  EXPECT_EQ(r.trials[0].candidate, s.default_config);
  for (const auto& [index, count] : calls)
    EXPECT_EQ(count, 1) << index;
  EXPECT_EQ(r.best().candidate, (config{6, 2}));
  EXPECT_NEAR(r.gain(), 140.0 / 100.0, 1e-12);  // (4, 4) is 8 from the bottom
}

TEST(TuneSearch, TiesWithinTheNoiseGoToTheDefault) {
  std::vector<trial> trials = {{{4}, {100.0, 2.0, true}}, {{2}, {98.5, 1.0, true}}};
  EXPECT_EQ(pick_winner(trials, 0.01), 0u);  // 1.5 us faster, noise 2 us
  trials[1].time.median_us = 97.5;
  EXPECT_EQ(pick_winner(trials, 0.01), 1u);  // 2.5 us faster
  trials[0].time.spread_us = 0.0;
  trials[1].time = {99.5, 0.0, true};
  EXPECT_EQ(pick_winner(trials, 0.01), 0u);  // within the 1% floor
}

TEST(TuneSearch, FailedCandidatesNeverWin) {
  std::vector<trial> trials = {{{4}, {100.0, 0.0, true}}, {{2}, {1.0, 0.0, false}}};
  EXPECT_EQ(pick_winner(trials, 0.01), 0u);
  trials[0].time.ok = false;
  trials.push_back({{3}, {120.0, 0.0, true}});
  EXPECT_EQ(pick_winner(trials, 0.01), 2u);  // the default failed: the fastest that ran
}

TEST(TuneSearch, BudgetedIsReproducibleFromItsSeedAndKeepsItsBudget) {
  const space s = grid_space();
  search_options options;
  options.max_trials = 20;
  options.random_samples = 6;
  options.seed = 42;
  auto run = [&](std::uint64_t seed) {
    options.seed = seed;
    std::vector<config> order;
    const search_result r = search_budgeted(
        s,
        [&](const config& c) {
          order.push_back(c);
          return bowl(c);
        },
        options);
    EXPECT_LE(r.trials.size(), options.max_trials);
    EXPECT_FALSE(r.exhaustive);
    EXPECT_EQ(order.size(), r.trials.size()) << "a candidate was measured twice";
    return order;
  };
  const std::vector<config> first = run(42);
  EXPECT_EQ(run(42), first);
  EXPECT_EQ(first[0], s.default_config);
  std::vector<config> other;
  for (std::uint64_t seed = 1; seed < 5 && (other.empty() || other == first); ++seed)
    other = run(seed);
  EXPECT_NE(other, first) << "the seed does not change the random samples";
}

TEST(TuneSearch, BudgetedRefinementFindsTheBottomOfABowl) {
  const space s = grid_space();
  search_options options;
  options.max_trials = 40;
  options.random_samples = 4;
  for (std::uint64_t seed = 0; seed < 10; ++seed) {
    options.seed = seed;
    const search_result r = search_budgeted(s, bowl, options);
    EXPECT_EQ(r.best().candidate, (config{6, 2})) << "seed " << seed;
  }
}

TEST(TuneSearch, SearchIsExhaustiveForSmallSpaces) {
  const space s = grid_space();
  search_options options;
  options.max_trials = 64;
  EXPECT_TRUE(search(s, bowl, options).exhaustive);
  options.max_trials = 63;
  EXPECT_FALSE(search(s, bowl, options).exhaustive);
}

TEST(TuneSearch, ATimeBudgetStopsTheSearchAfterTheDefault) {
  const space s = grid_space();
  search_options options;
  options.max_trials = 64;
  int left = 5;
  options.out_of_time = [&] { return left-- <= 0; };
  const search_result r = search(s, bowl, options);
  EXPECT_EQ(r.trials.size(), 6u);  // the default, then 5 before the budget ran out
  EXPECT_FALSE(r.exhaustive);
  left = 0;
  EXPECT_EQ(search_budgeted(s, bowl, options).trials.size(), 1u);  // the default is always measured
}

// ---- the cache ---------------------------------------------------------------

class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~scoped_env() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

const device_key h100{"NVIDIA H100 80GB HBM3", 9, 0, 132};

class TuneCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("gpuprim_tune_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = dir_ / "tune.json";
    detail::set_device_for_testing(h100);
    detail::reset_loaded_caches();
  }
  void TearDown() override {
    detail::set_device_for_testing(std::nullopt);
    detail::reset_loaded_caches();
    fs::remove_all(dir_);
  }
  void write(const std::string& text) { std::ofstream(path_, std::ios::binary) << text; }
  std::string problem_of(const std::string& text) {
    write(text);
    std::string problem;
    EXPECT_FALSE(read_cache(path_, h100, &problem).has_value()) << text;
    EXPECT_FALSE(problem.empty());
    return problem;
  }
  static cache_entry entry(int log2_size, int blocks, element_type t = element_type::f32) {
    return {algorithm::reduce, t, log2_size, config{blocks}, 10.0, 12.0};
  }

  fs::path dir_;
  fs::path path_;
};

TEST_F(TuneCache, RoundTripAndMerge) {
  store_cache(path_, h100, {entry(20, 2), entry(24, 8)});
  store_cache(path_, h100, {entry(24, 6), entry(28, 3, element_type::f64)});
  std::string problem;
  const auto c = read_cache(path_, h100, &problem);
  ASSERT_TRUE(c) << problem;
  EXPECT_EQ(c->device, h100);
  ASSERT_EQ(c->entries.size(), 3u);
  EXPECT_EQ(c->entries[0].choice, config{2});
  EXPECT_EQ(c->entries[1].choice, config{6});  // replaced by the later run
  EXPECT_EQ(c->entries[1].log2_size, 24);
  EXPECT_EQ(c->entries[2].type, element_type::f64);
  EXPECT_DOUBLE_EQ(c->entries[2].default_time_us, 12.0);
  // No temporary or partial files are left beside it.
  for (const auto& f : fs::directory_iterator(dir_)) {
    const std::string name = f.path().filename().string();
    EXPECT_TRUE(name == "tune.json" || name == "tune.json.lock") << name;
  }
}

TEST_F(TuneCache, PathFollowsTheEnvironment) {
  {
    const scoped_env off("GPUPRIM_TUNE_CACHE", "off");
    EXPECT_FALSE(cache_path(h100).has_value());
  }
  {
    const scoped_env file("GPUPRIM_TUNE_CACHE", "/some/where.json");
    EXPECT_EQ(cache_path(h100), fs::path("/some/where.json"));
  }
  const scoped_env unset("GPUPRIM_TUNE_CACHE", nullptr);
  {
    const scoped_env xdg("XDG_CACHE_HOME", "/xdg");
    EXPECT_EQ(cache_path(h100),
              fs::path("/xdg/gpuprim/tune-NVIDIA_H100_80GB_HBM3-sm90-132sm.json"));
  }
  const scoped_env no_xdg("XDG_CACHE_HOME", nullptr);
  const scoped_env home("HOME", "/home/me");
  EXPECT_EQ(cache_path(h100),
            fs::path("/home/me/.cache/gpuprim/tune-NVIDIA_H100_80GB_HBM3-sm90-132sm.json"));
}

TEST_F(TuneCache, EveryKindOfBadFileIsRefusedWithAReason) {
  std::string problem;
  EXPECT_FALSE(read_cache(dir_ / "missing.json", h100, &problem));
  EXPECT_NE(problem.find("cannot be read"), std::string::npos);

  store_cache(path_, h100, {entry(20, 2)});
  std::string good;
  {
    std::ifstream in(path_);
    good.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return text.replace(at, from.size(), to);
  };
  // Whole files, then edits of the good one: each with a part of the reason.
  const std::string half = good.substr(0, good.size() / 2);
  const std::pair<std::string, const char*> files[] = {
      {"", "not a valid cache"},
      {half, "not a valid cache"},
      {"\x89PNG\r\n\x1a\n garbage", "not a valid cache"},
      {"[1, 2, 3]", "not a JSON object"},
      {"{}", "version"},
  };
  for (const auto& [text, reason] : files) {
    EXPECT_NE(problem_of(text).find(reason), std::string::npos) << text;
  }
  const std::tuple<const char*, const char*, const char*> edits[] = {
      {"\"gpuprim_tune_cache\": 1", "\"gpuprim_tune_cache\": 99", "version 99"},
      {"\"multiprocessors\": 132", "\"multiprocessors\": 114", "another device"},
      {"\"compute_capability\": \"9.0\"", "\"compute_capability\": \"8.0\"", "another device"},
      {"\"algorithm\": \"reduce\"", "\"algorithm\": \"fft\"", "unknown algorithm"},
      {"\"type\": \"float32\"", "\"type\": \"complex64\"", "unknown type"},
      {"\"blocks_per_sm\": 2", "\"blocks_per_sm\": 5", "not one of its candidates"},
      {"\"blocks_per_sm\": 2", "\"threads\": 2", "not a valid cache"},
      {"\"blocks_per_sm\": 2", "\"blocks_per_sm\": \"two\"", "not a valid cache"},
      {"\"log2_size\": 20", "\"log2_size\": 99", "log2_size"},
  };
  for (const auto& [from, to, reason] : edits) {
    EXPECT_NE(problem_of(replaced(from, to)).find(reason), std::string::npos)
        << from << " -> " << to;
  }
  // A directory where the file should be.
  fs::remove(path_);
  fs::create_directories(path_);
  EXPECT_FALSE(read_cache(path_, h100, &problem));
}

TEST_F(TuneCache, ALaterCallReadsTheChoiceBack) {
  const scoped_env file("GPUPRIM_TUNE_CACHE", path_.c_str());
  store_cache(path_, h100, {entry(20, 2), entry(28, 8), entry(24, 1, element_type::f64)});
  const config* c = lookup(algorithm::reduce, element_type::f32, std::uint64_t(1) << 20);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(*c, config{2});
  // The nearest tuned bucket (the smaller one on a tie).
  EXPECT_EQ(*lookup(algorithm::reduce, element_type::f32, 1000), config{2});
  EXPECT_EQ(*lookup(algorithm::reduce, element_type::f32, std::uint64_t(1) << 24), config{2});
  EXPECT_EQ(*lookup(algorithm::reduce, element_type::f32, std::uint64_t(1) << 25), config{8});
  EXPECT_EQ(*lookup(algorithm::reduce, element_type::f32, std::uint64_t(1) << 33), config{8});
  EXPECT_EQ(*lookup(algorithm::reduce, element_type::f64, 5), config{1});
  EXPECT_EQ(lookup(algorithm::reduce, element_type::i32, 5), nullptr);  // not tuned: default

  used_config used = choose(algorithm::reduce, element_type::f32, std::uint64_t(1) << 28);
  EXPECT_EQ(used.choice, config{8});
  EXPECT_EQ(used.source, choice_source::cache);
  ASSERT_TRUE(last_use(algorithm::reduce));
  EXPECT_EQ(last_use(algorithm::reduce)->choice, config{8});

  used = choose(algorithm::reduce, element_type::u8, 10);
  EXPECT_EQ(used.choice, space_of(algorithm::reduce).default_config);
  EXPECT_EQ(used.source, choice_source::default_config);

  // The tuner's forced config beats the cache, on this thread only.
  const config forced{3};
  detail::force(algorithm::reduce, &forced);
  EXPECT_EQ(choose(algorithm::reduce, element_type::f32, 1u << 20).source, choice_source::forced);
  std::thread([] {
    EXPECT_EQ(choose(algorithm::reduce, element_type::f32, 1u << 20).source, choice_source::cache);
  }).join();
  detail::force(algorithm::reduce, nullptr);
  EXPECT_EQ(choose(algorithm::reduce, element_type::f32, 1u << 20).choice, config{2});

  // Read once: a new file is not seen until the process (here: a reset) starts again.
  store_cache(path_, h100, {entry(20, 6)});
  EXPECT_EQ(*lookup(algorithm::reduce, element_type::f32, 1u << 20), config{2});
  detail::reset_loaded_caches();
  EXPECT_EQ(*lookup(algorithm::reduce, element_type::f32, 1u << 20), config{6});
}

TEST_F(TuneCache, ABadFileWarnsOnceAndGivesTheDefaults) {
  const scoped_env file("GPUPRIM_TUNE_CACHE", path_.c_str());
  write("{\"gpuprim_tune_cache\": 1, \"device\": ");
  ::testing::internal::CaptureStderr();
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t) {
    callers.emplace_back([] {
      for (int i = 0; i < 100; ++i) {
        EXPECT_EQ(choose(algorithm::reduce, element_type::f32, 1u << 20).source,
                  choice_source::default_config);
      }
    });
  }
  for (auto& t : callers)
    t.join();
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("warning: tuning cache"), std::string::npos) << err;
  EXPECT_EQ(err.find("warning", err.find("warning") + 1), std::string::npos)
      << "more than one warning:\n"
      << err;
}

TEST_F(TuneCache, AForeignDeviceFileIsIgnored) {
  const scoped_env file("GPUPRIM_TUNE_CACHE", path_.c_str());
  store_cache(path_, device_key{"NVIDIA A100-SXM4-80GB", 8, 0, 108}, {entry(20, 2)});
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(lookup(algorithm::reduce, element_type::f32, 1u << 20), nullptr);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("another device"), std::string::npos) << err;
}

TEST_F(TuneCache, MissingOrOffIsQuietlyTheDefaults) {
  ::testing::internal::CaptureStderr();
  {
    const scoped_env file("GPUPRIM_TUNE_CACHE", (dir_ / "never_written.json").c_str());
    EXPECT_EQ(lookup(algorithm::reduce, element_type::f32, 1u << 20), nullptr);
  }
  detail::reset_loaded_caches();
  store_cache(path_, h100, {entry(20, 2)});
  {
    const scoped_env off("GPUPRIM_TUNE_CACHE", "off");
    EXPECT_EQ(lookup(algorithm::reduce, element_type::f32, 1u << 20), nullptr);
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
}

TEST_F(TuneCache, ConcurrentWritersNeverLeaveATornFileNorLoseEntries) {
  // Processes and threads store at once while this process keeps reading:
  // every read parses, and every writer's entries survive (the lock).
  constexpr int processes = 4, per_writer = 12;
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      int failed = 0;
      for (int i = 0; i < per_writer; ++i) {
        try {
          // Each process owns one type, each store one bucket.
          store_cache(path_, h100, {entry(i, 1 + i % 4, static_cast<element_type>(p))});
        } catch (...) {
          failed = 1;
        }
      }
      std::_Exit(failed);
    }
    children.push_back(pid);
  }
  std::thread writer([&] {
    for (int i = 0; i < per_writer; ++i)
      store_cache(path_, h100, {entry(i, 8, element_type::f64)});
  });
  int reads = 0;
  bool all_done = false;
  while (!all_done) {
    all_done = true;
    for (pid_t pid : children) {
      if (::waitpid(pid, nullptr, WNOHANG) == 0) all_done = false;
    }
    if (fs::exists(path_)) {
      std::string problem;
      EXPECT_TRUE(read_cache(path_, h100, &problem)) << problem;
      ++reads;
    }
  }
  writer.join();
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);  // already reaped above: returns -1, fine
  }
  std::string problem;
  const auto c = read_cache(path_, h100, &problem);
  ASSERT_TRUE(c) << problem;
  EXPECT_EQ(c->entries.size(), std::size_t((processes + 1) * per_writer));
  EXPECT_GT(reads, 0);
}

TEST(TuneCpuOnly, NothingToTuneWithoutADevice) {
  if (gpuprim::cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present";
  EXPECT_FALSE(tuning_available());
  EXPECT_THROW(gpuprim::tune("reduce", "float32", 1u << 20), gpuprim::cuda_error);
}

}  // namespace
