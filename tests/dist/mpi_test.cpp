// gp::mpi against the one-process result, run under mpirun -np 1..4
// (tests/dist/CMakeLists.txt). Every rank builds the whole input from the
// same seed, keeps its slice (even, uneven, some ranks empty, all on one
// rank), runs the distributed algorithm and checks its part of the answer
// against gp::<algorithm>(gp::host, whole input) computed on its own. The
// same bodies run on host ranks and on GPU ranks (gp::mpi{comm, gp::cuda},
// skipped without a device: the ranks then share the GPU).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/dist/histogram.hpp"
#include "gpuprim/dist/mpi_gpu.hpp"
#include "gpuprim/dist/reduce.hpp"
#include "gpuprim/dist/scan.hpp"
#include "gpuprim/dist/sort.hpp"
#include "support/cuda_fixture.hpp"
#if GPUPRIM_HAS_CUDA
#include <cuda_runtime_api.h>
#endif
#include "support/named.hpp"
#include "support/sides.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;

namespace {

int rank() {
  return gp::mpi_rank(MPI_COMM_WORLD);
}
int ranks() {
  return gp::mpi_size(MPI_COMM_WORLD);
}

enum class split { even, uneven, first_empty, all_on_last };
const split all_splits[] = {split::even, split::uneven, split::first_empty, split::all_on_last};

const char* name(split s) {
  // In the order of the enum.
  constexpr const char* names[] = {"even", "uneven", "first rank empty", "all on the last rank"};
  return gpuprim::test::name_in(names, s);
}

// This rank's [begin, end) of n under a split.
std::pair<std::size_t, std::size_t> slice_of(std::size_t n, split s) {
  const int p = ranks(), r = rank();
  switch (s) {
    case split::even: {
      const auto [b, e] = gp::even_slice(n, r, p);
      return {b, e};
    }
    case split::uneven: {  // rank r gets a share r + 1 (and the rounding)
      const std::size_t weights = static_cast<std::size_t>(p) * (p + 1) / 2;
      auto edge = [&](int k) { return n * (static_cast<std::size_t>(k) * (k + 1) / 2) / weights; };
      return {edge(r), edge(r + 1)};
    }
    case split::first_empty: {
      if (p == 1) return {0, n};
      if (r == 0) return {0, 0};
      const auto [b, e] = gp::even_slice(n, r - 1, p - 1);
      return {b, e};
    }
    case split::all_on_last:
      return r == p - 1 ? std::pair<std::size_t, std::size_t>{0, n}
                        : std::pair<std::size_t, std::size_t>{n, n};
  }
  return {0, n};
}

const std::size_t sizes[] = {0, 1, 2, 3, 5, 33, 1000, 100003};

// The same n values on every rank: floats in [-1, 1), integers over their
// whole range.
template <class T>
std::vector<T> random_values(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  if constexpr (std::is_floating_point_v<T>) {
    return gp::test::draw_vector<T>(n, rng, std::uniform_real_distribution<double>(-1, 1));
  } else {
    return gp::test::draw_vector<T>(n, rng, [](std::mt19937_64& r) { return r(); });
  }
}

template <class T>
std::vector<T> part(const std::vector<T>& all, std::pair<std::size_t, std::size_t> s) {
  return std::vector<T>(all.begin() + s.first, all.begin() + s.second);
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Whether every rank holds the same bits.
template <class T>
bool same_on_every_rank(const T& value) {
  const std::vector<T> all = gp::detail::allgather(MPI_COMM_WORLD, value);
  for (const T& v : all)
    if (!same_bits(v, all[0])) return false;
  return true;
}

template <class Side>
class mpi_test : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (std::is_same_v<Side, gp::test::cuda_side>) {
      GPUPRIM_REQUIRE_CUDA();
    }
  }
  static auto backend() { return gp::mpi{MPI_COMM_WORLD, Side::backend()}; }
};

using sides = ::testing::Types<gp::test::host_side, gp::test::cuda_side>;
class side_names {
 public:
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, gp::test::host_side> ? "host_ranks" : "cuda_ranks";
  }
};
TYPED_TEST_SUITE(mpi_test, sides, side_names);

TYPED_TEST(mpi_test, ReduceMatchesOneProcess) {
  using Side = TypeParam;
  for (std::size_t n : sizes) {
    for (split s : all_splits) {
      SCOPED_TRACE(std::to_string(n) + " elements, " + name(s) + ", " + std::to_string(ranks()) +
                   " ranks");
      const auto ints = random_values<std::int64_t>(n, 7 + n);
      const auto mine = Side::put(part(ints, slice_of(n, s)));
      const std::int64_t sum = gp::reduce(this->backend(), mine, std::int64_t{5});
      EXPECT_EQ(sum, gp::reduce(gp::host, ints, std::int64_t{5}));
      const std::int64_t top = gp::reduce(this->backend(), mine,
                                          std::numeric_limits<std::int64_t>::min(), gp::maximum{});
      EXPECT_EQ(
          top, gp::reduce(gp::host, ints, std::numeric_limits<std::int64_t>::min(), gp::maximum{}));

      const auto floats = random_values<double>(n, 11 + n);
      const auto fmine = Side::put(part(floats, slice_of(n, s)));
      const double fsum = gp::reduce(this->backend(), fmine, 0.0);
      EXPECT_NEAR(fsum, gp::reduce(gp::host, floats, 0.0), 1e-12 * (n + 1));
      EXPECT_TRUE(same_on_every_rank(fsum));
      const double squares =
          gp::transform_reduce(this->backend(), fmine, 0.0, gp::plus{}, gp::square{});
      EXPECT_NEAR(squares, gp::transform_reduce(gp::host, floats, 0.0, gp::plus{}, gp::square{}),
                  1e-12 * (n + 1));
      // Run to run: the same bits again.
      EXPECT_TRUE(same_bits(fsum, gp::reduce(this->backend(), fmine, 0.0)));
    }
  }
}

TYPED_TEST(mpi_test, MinMaxElementGiveGlobalIndex) {
  using Side = TypeParam;
  for (std::size_t n : sizes) {
    for (split s : all_splits) {
      SCOPED_TRACE(std::to_string(n) + " elements, " + name(s));
      // Few distinct values: ties, whose first occurrence must win.
      auto values = random_values<std::int32_t>(n, 3 + n);
      for (auto& v : values)
        v = v % 5;
      const auto mine = Side::put(part(values, slice_of(n, s)));
      const auto lo = gp::min_element(this->backend(), mine);
      const auto hi = gp::max_element(this->backend(), mine);
      const auto want_lo = gp::min_element(gp::host, values);
      const auto want_hi = gp::max_element(gp::host, values);
      EXPECT_EQ(lo.value, want_lo.value);
      EXPECT_EQ(lo.index, want_lo.index);
      EXPECT_EQ(hi.value, want_hi.value);
      EXPECT_EQ(hi.index, want_hi.index);

      // NaNs: propagate (the first NaN) and skip.
      auto floats = random_values<float>(n, 5 + n);
      if (n > 3) floats[n / 2] = floats[n - 1] = std::numeric_limits<float>::quiet_NaN();
      const auto fmine = Side::put(part(floats, slice_of(n, s)));
      for (gp::nan_rule rule : {gp::nan_rule::propagate, gp::nan_rule::skip}) {
        const auto got = gp::min_element(this->backend(), fmine, rule);
        const auto want = gp::min_element(gp::host, floats, rule);
        EXPECT_EQ(got.index, want.index);
        EXPECT_TRUE(same_bits(got.value, want.value));
        const auto got_hi = gp::max_element(this->backend(), fmine, rule);
        const auto want_hi2 = gp::max_element(gp::host, floats, rule);
        EXPECT_EQ(got_hi.index, want_hi2.index);
      }
    }
  }
}

TYPED_TEST(mpi_test, ScansMatchOneProcess) {
  using Side = TypeParam;
  for (std::size_t n : sizes) {
    for (split s : all_splits) {
      SCOPED_TRACE(std::to_string(n) + " elements, " + name(s));
      const auto slice = slice_of(n, s);
      const auto ints = random_values<std::int64_t>(n, 17 + n);
      std::vector<std::int64_t> incl(n), excl(n), incl_max(n);
      gp::inclusive_scan(gp::host, ints, incl);
      gp::exclusive_scan(gp::host, ints, excl, std::int64_t{3});
      gp::inclusive_scan(gp::host, ints, incl_max, gp::maximum{});
      const auto mine = Side::put(part(ints, slice));
      auto out = Side::put(std::vector<std::int64_t>(mine.size()));
      gp::inclusive_scan(this->backend(), mine, out);
      EXPECT_EQ(Side::get(out), part(incl, slice));
      gp::exclusive_scan(this->backend(), mine, out, std::int64_t{3});
      EXPECT_EQ(Side::get(out), part(excl, slice));
      gp::inclusive_scan(this->backend(), mine, out, gp::maximum{});
      EXPECT_EQ(Side::get(out), part(incl_max, slice));

      const auto floats = random_values<float>(n, 19 + n);
      std::vector<float> fincl(n);
      gp::inclusive_scan(gp::host, floats, fincl);
      const auto fmine = Side::put(part(floats, slice));
      auto fout = Side::put(std::vector<float>(fmine.size()));
      gp::inclusive_scan(this->backend(), fmine, fout);
      const auto got = Side::get(fout);
      const auto want = part(fincl, slice);
      // Float sums grouped differently: within n * epsilon of the sum of |x|.
      std::vector<double> magnitude(n + 1, 0.0);
      for (std::size_t i = 0; i < n; ++i)
        magnitude[i + 1] = magnitude[i] + std::abs(floats[i]);
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        const double bound =
            2.0 * n * std::numeric_limits<float>::epsilon() * (magnitude[slice.first + i + 1] + 1);
        wrong += !(std::abs(double(got[i]) - want[i]) <= bound);
      }
      EXPECT_EQ(wrong, 0u);
    }
  }
}

TYPED_TEST(mpi_test, HistogramMatchesOneProcess) {
  using Side = TypeParam;
  for (std::size_t n : sizes) {
    for (split s : all_splits) {
      SCOPED_TRACE(std::to_string(n) + " elements, " + name(s));
      const auto floats = random_values<float>(n, 23 + n);
      std::vector<std::uint32_t> want(100);
      const auto want_left = gp::histogram_even(gp::host, floats, want, -0.5f, 0.75f);
      const auto mine = Side::put(part(floats, slice_of(n, s)));
      auto counts = Side::put(std::vector<std::uint32_t>(100));
      const auto left = gp::histogram_even(this->backend(), mine, counts, -0.5f, 0.75f);
      EXPECT_EQ(left, want_left);
      EXPECT_EQ(Side::get(counts), want);

      std::vector<std::uint64_t> want_range(3);
      const std::vector<float> edges{-1.0f, -0.25f, 0.0f, 0.5f};
      gp::histogram_range(gp::host, floats, want_range, edges);
      auto counts_range = Side::put(std::vector<std::uint64_t>(3));
      gp::histogram_range(this->backend(), mine, counts_range, edges);
      EXPECT_EQ(Side::get(counts_range), want_range);
    }
  }
}

// Key patterns for the sort: uniform, skewed (most keys one value), all
// equal, already sorted, reversed.
enum class keys_like { uniform, skewed, all_equal, sorted, reversed };

template <class K>
std::vector<K> sort_keys(std::size_t n, keys_like like, std::uint64_t seed) {
  auto k = random_values<K>(n, seed);
  std::mt19937_64 rng(seed + 1);
  switch (like) {
    case keys_like::uniform:
      break;
    case keys_like::skewed:
      for (auto& x : k)
        if (rng() % 10 != 0) x = K{1};
      break;
    case keys_like::all_equal:
      for (auto& x : k)
        x = K{7};
      break;
    case keys_like::sorted:
      std::sort(k.begin(), k.end());
      break;
    case keys_like::reversed:
      std::sort(k.rbegin(), k.rend());
      break;
  }
  return k;
}

template <class Side, class Backend, class K>
void check_sort(Backend backend, const std::vector<K>& keys, split s, gp::sort_order order,
                gp::key_bits bits) {
  const std::size_t n = keys.size();
  std::vector<K> want(n);
  gp::sort(gp::host, keys, want, order, bits);
  const auto mine = Side::put(part(keys, slice_of(n, s)));
  auto out = Side::put(std::vector<K>{});
  const gp::sort_report r = gp::sort(backend, mine, out, order, bits);
  const auto got = Side::get(out);
  // (EXPECT, not ASSERT: a rank leaving early would leave the others
  // waiting in a collective.)
  EXPECT_EQ(got.size(), r.count);
  EXPECT_EQ(r.total, n);
  if (got.size() == r.count && r.offset + r.count <= n) {
    EXPECT_EQ(std::memcmp(got.data(), want.data() + r.offset, got.size() * sizeof(K)), 0);
  } else {
    ADD_FAILURE() << "slice [" << r.offset << ", +" << r.count << ") of " << n;
  }
  // The slices tile the output: the next rank starts where this one ends.
  const auto ends = gp::detail::allgather(MPI_COMM_WORLD, r.offset + r.count);
  if (rank() + 1 < ranks()) {
    const auto offsets = gp::detail::allgather(MPI_COMM_WORLD, r.offset);
    EXPECT_EQ(offsets[rank() + 1], ends[rank()]);
  } else {
    gp::detail::allgather(MPI_COMM_WORLD, r.offset);
    EXPECT_EQ(ends[rank()], n);
  }
  // Balance: within 10 % of n / ranks once each rank has a few hundred.
  if (n >= 1000u * ranks()) EXPECT_LE(r.imbalance, 0.10) << "largest share " << r.largest;
}

TYPED_TEST(mpi_test, SortMatchesOneProcess) {
  using Side = TypeParam;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{37},
                        std::size_t{5000}, std::size_t{200003}}) {
    for (keys_like like : {keys_like::uniform, keys_like::skewed, keys_like::all_equal,
                           keys_like::sorted, keys_like::reversed}) {
      for (split s : all_splits) {
        SCOPED_TRACE(std::to_string(n) + " keys, pattern " + std::to_string(int(like)) + ", " +
                     name(s));
        const auto keys = sort_keys<std::uint32_t>(n, like, 29 + n);
        check_sort<Side>(this->backend(), keys, s, gp::sort_order::ascending, {});
        check_sort<Side>(this->backend(), keys, s, gp::sort_order::descending, {});
        check_sort<Side>(this->backend(), keys, s, gp::sort_order::ascending, gp::key_bits{4, 12});
      }
    }
  }
}

TYPED_TEST(mpi_test, SortFloatsWithNaNAndSignedZeros) {
  using Side = TypeParam;
  for (std::size_t n : {std::size_t{2}, std::size_t{1000}, std::size_t{65537}}) {
    auto keys = random_values<float>(n, 31 + n);
    for (std::size_t i = 0; i < n; i += 7)
      keys[i] =
          (i % 3 == 0) ? std::numeric_limits<float>::quiet_NaN() : (i % 3 == 1 ? -0.0f : 0.0f);
    for (split s : all_splits) {
      SCOPED_TRACE(std::to_string(n) + " keys, " + name(s));
      check_sort<Side>(this->backend(), keys, s, gp::sort_order::ascending, {});
      check_sort<Side>(this->backend(), keys, s, gp::sort_order::descending, {});
    }
  }
}

TYPED_TEST(mpi_test, SortByKeyIsStable) {
  using Side = TypeParam;
  for (std::size_t n : {std::size_t{0}, std::size_t{2}, std::size_t{999}, std::size_t{100001}}) {
    for (keys_like like : {keys_like::uniform, keys_like::skewed, keys_like::all_equal}) {
      for (split s : all_splits) {
        SCOPED_TRACE(std::to_string(n) + " keys, pattern " + std::to_string(int(like)) + ", " +
                     name(s));
        auto keys = sort_keys<std::int64_t>(n, like, 37 + n);
        for (auto& k : keys)
          k %= 1000;  // many equal keys: the values show stability
        std::vector<std::uint32_t> values(n);
        for (std::size_t i = 0; i < n; ++i)
          values[i] = static_cast<std::uint32_t>(i);
        std::vector<std::int64_t> want_keys(n);
        std::vector<std::uint32_t> want_values(n);
        gp::sort_by_key(gp::host, keys, values, want_keys, want_values);
        const auto slice = slice_of(n, s);
        const auto mk = Side::put(part(keys, slice));
        const auto mv = Side::put(part(values, slice));
        auto ok = Side::put(std::vector<std::int64_t>{});
        auto ov = Side::put(std::vector<std::uint32_t>{});
        const gp::sort_report r = gp::sort_by_key(this->backend(), mk, mv, ok, ov);
        EXPECT_EQ(Side::get(ok), part(want_keys, {r.offset, r.offset + r.count}));
        EXPECT_EQ(Side::get(ov), part(want_values, {r.offset, r.offset + r.count}));
      }
    }
  }
}

// Every path of the GPU ranks (NCCL over MPI where every rank has a device
// of its own, CUDA-aware MPI where MPI says so, pinned staging always)
// gives the one-process sort and histogram; each on a communicator of its
// own, since the path is chosen once per communicator.
TEST(mpi_gpu_paths, EveryPathMatchesOneProcess) {
  GPUPRIM_REQUIRE_CUDA();
  for (const char* asked : {"staged", "cuda-aware", "nccl"}) {
    SCOPED_TRACE(asked);
    setenv("GPUPRIM_MPI_GPU_PATH", asked, 1);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    const gp::mpi_gpu_path path = gp::gpu_path_of(comm);
    unsetenv("GPUPRIM_MPI_GPU_PATH");
    if (rank() == 0) std::printf("asked %s: the path is %s\n", asked, gp::path_name(path));
    if (std::string(asked) == "staged") EXPECT_EQ(path, gp::mpi_gpu_path::staged);
    if (std::string(asked) == "nccl") {
      EXPECT_EQ(path == gp::mpi_gpu_path::nccl, gp::detail::nccl_usable(comm));
    }
    const std::size_t n = 100003;
    auto keys = sort_keys<std::uint32_t>(n, keys_like::skewed, 3);
    std::vector<std::uint32_t> values(n);
    std::iota(values.begin(), values.end(), 0u);
    std::vector<std::uint32_t> want_keys(n), want_values(n);
    gp::sort_by_key(gp::host, keys, values, want_keys, want_values);
    const auto [begin, end] = gp::even_slice(n, rank(), ranks());
    const auto mk =
        gp::to_device(std::vector<std::uint32_t>(keys.begin() + begin, keys.begin() + end));
    const auto mv =
        gp::to_device(std::vector<std::uint32_t>(values.begin() + begin, values.begin() + end));
    gp::device_vector<std::uint32_t> ok, ov;
    const gp::sort_report r = gp::sort_by_key(gp::mpi{comm, gp::cuda}, mk, mv, ok, ov);
    EXPECT_EQ(gp::to_host(ok), part(want_keys, {r.offset, r.offset + r.count}));
    EXPECT_EQ(gp::to_host(ov), part(want_values, {r.offset, r.offset + r.count}));

    std::vector<float> samples(n);
    std::mt19937_64 rng(9);
    for (auto& x : samples)
      x = std::uniform_real_distribution<float>(-0.2f, 1.2f)(rng);
    std::vector<std::uint64_t> want(64);
    const std::uint64_t want_left = gp::histogram_even(gp::host, samples, want, 0.0f, 1.0f);
    const auto ms =
        gp::to_device(std::vector<float>(samples.begin() + begin, samples.begin() + end));
    gp::device_vector<std::uint64_t> counts(64);
    EXPECT_EQ(gp::histogram_even(gp::mpi{comm, gp::cuda}, ms, counts, 0.0f, 1.0f), want_left);
    EXPECT_EQ(gp::to_host(counts), want);
    MPI_Comm_free(&comm);
  }
}

}  // namespace

// Every rank runs every test; the exit status is the worst of all ranks, so
// mpirun (and CTest) see a failure on any rank. Rank 0 prints every test,
// the others only their failures.
int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
#if GPUPRIM_HAS_CUDA
  // GPU ranks on device (rank on the node) % devices, as the CLI's: one
  // device per rank where there are enough (then NCCL can run).
  if (const int devices = gp::cuda_device_count(); devices > 0) {
    cudaSetDevice(gp::mpi_node_rank(MPI_COMM_WORLD) % devices);
  }
#endif
  ::testing::InitGoogleTest(&argc, argv);
  if (rank() != 0) GTEST_FLAG_SET(brief, true);  // the other ranks print failures only
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0;
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (any && rank() == 0) std::fprintf(stderr, "gpuprim dist tests: a rank failed\n");
  MPI_Finalize();
  return any;
}
