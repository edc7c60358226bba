// The radix sort: the cases of the GPU alone, from plain C++ (every key type
// is precompiled). The cases of both backends are in
// tests/sides/sort_test.cpp. Skips without a device.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/cuda_fixture.hpp"
#include "support/sort_cases.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

#if GPUPRIM_HAS_CUDA
#include <cuda_runtime.h>
#endif

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

template <class T>
void expect_poisoned(const gp::device_vector<T>& d, const std::string& what) {
  const std::vector<T> host = gp::to_host(d);
  for (std::size_t i = 0; i < host.size(); ++i)
    ASSERT_TRUE(same_bytes(host[i], poison<T>())) << what << ": element " << i << " was written";
}

// A non-blocking stream (it does not wait for the legacy default stream).
class test_stream {
 public:
  test_stream() {
#if GPUPRIM_HAS_CUDA
    cudaStream_t s = nullptr;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) {
      throw std::runtime_error("cudaStreamCreateWithFlags failed");
    }
    stream_ = s;
#endif
  }
  ~test_stream() {
#if GPUPRIM_HAS_CUDA
    if (stream_) cudaStreamDestroy(stream_);
#endif
  }
  test_stream(const test_stream&) = delete;
  test_stream& operator=(const test_stream&) = delete;
  gp::stream_t get() const {
    return stream_;
  }

 private:
  gp::stream_t stream_ = nullptr;
};

}  // namespace

class cuda_radix_sort_api : public cuda_test {};

TEST_F(cuda_radix_sort_api, order_of_the_special_float_values) {
  check_order_of_the_special_floats<cuda_side>();
}

// ---- streams ----------------------------------------------------------------------

// Sorts of different sizes, types and directions enqueued back to back on
// one stream (each reuses the stream's look-back status words with a new
// epoch) and on a second stream in between, read back only at the end.
TEST_F(cuda_radix_sort_api, back_to_back_on_non_default_streams) {
  auto rng = make_rng(207);
  test_stream s1, s2;
  for (gp::stream_t stream : {s1.get(), gp::stream_t{nullptr}}) {
    const auto on = gp::cuda.on(stream);
    const auto other = gp::cuda.on(s2.get());
    const std::string where = stream ? "non-default stream" : "default stream";

    const auto big = random_bits_keys<std::uint32_t>((std::size_t{3} << 20) + 5, rng);
    const auto small = pattern_keys<float>(key_pattern::few_distinct, 4097, rng);
    const auto tiny = random_bits_keys<std::int16_t>(33, rng);
    const auto mid = pattern_keys<std::uint64_t>(key_pattern::few_distinct, 300007, rng);
    const auto mid_values = positions(mid.size());
    const auto side = random_bits_keys<double>((1u << 20) + 7, rng);

    gp::device_vector<std::uint32_t> d_big = gp::to_device(big);
    gp::device_vector<std::uint32_t> d_big_out = poisoned_on<cuda_side, std::uint32_t>(big.size());
    gp::device_vector<float> d_small = gp::to_device(small);
    gp::device_vector<std::int16_t> d_tiny = gp::to_device(tiny);
    const gp::device_vector<std::uint64_t> d_mid = gp::to_device(mid);
    const gp::device_vector<std::uint32_t> d_mid_values = gp::to_device(mid_values);
    gp::device_vector<std::uint64_t> d_mid_out = poisoned_on<cuda_side, std::uint64_t>(mid.size());
    gp::device_vector<std::uint32_t> d_mid_values_out =
        poisoned_on<cuda_side, std::uint32_t>(mid.size());
    gp::device_vector<double> d_side = gp::to_device(side);
    gp::synchronize();  // the poison fills, before streams that do not wait for them

    gp::sort(on, d_big, d_big_out);                       // many tiles
    gp::sort(on, d_tiny, gp::sort_order::descending);     // one tile
    gp::sort(other, d_side, gp::sort_order::descending);  // meanwhile, elsewhere
    gp::sort_by_key(on, d_mid, d_mid_values, d_mid_out, d_mid_values_out,
                    gp::sort_order::descending);
    gp::sort(on, d_small);
    gp::sort(on, d_big_out, gp::sort_order::descending);  // the first sort's output
    gp::sort(on, d_big, gp::sort_order::ascending, gp::key_bits{8, 24});
    for (int i = 0; i < 6; ++i)  // one array, many passes
      gp::sort(on, d_small, i % 2 ? gp::sort_order::ascending : gp::sort_order::descending);
    gp::synchronize(stream);
    gp::synchronize(s2.get());

    const auto u32 = std::span<const std::uint32_t>(big);
    expect_same_bytes(gp::to_host(d_big_out), reference_sort(u32, true), where + ": big, twice");
    expect_same_bytes(gp::to_host(d_big), reference_sort(u32, false, 8, 24),
                      where + ": big, key_bits{8, 24}");
    expect_same_bytes(gp::to_host(d_tiny),
                      reference_sort(std::span<const std::int16_t>(tiny), true), where + ": tiny");
    expect_same_bytes(gp::to_host(d_side), reference_sort(std::span<const double>(side), true),
                      where + ": the other stream");
    const auto perm = reference_sort_permutation(std::span<const std::uint64_t>(mid), true);
    expect_same_bytes(gp::to_host(d_mid_out), gather(std::span<const std::uint64_t>(mid), perm),
                      where + ": pairs, keys");
    EXPECT_EQ(gp::to_host(d_mid_values_out), perm) << where << ": pairs, values";
    expect_same_bytes(gp::to_host(d_small), reference_sort(std::span<const float>(small), false),
                      where + ": sorted seven times");
  }
}

// ---- constant digits ---------------------------------------------------------------

namespace {

// n keys whose 8-bit digits (of the raw bits) in `constant_digits` (bit p:
// digit p) are the same in every key, the others random.
template <class K>
std::vector<K> keys_with_constant_digits(std::size_t n, unsigned constant_digits,
                                         std::mt19937_64& rng) {
  using B = key_bits_t<K>;
  B mask = 0;
  for (int p = 0; p < int(sizeof(K)); ++p)
    if ((constant_digits >> p) & 1u) mask = B(mask | (B(0xff) << (8 * p)));
  const B fixed = static_cast<B>(rng());
  std::vector<K> keys(n);
  for (auto& k : keys)
    k = std::bit_cast<K>(static_cast<B>((static_cast<B>(rng()) & B(~mask)) | (fixed & mask)));
  return keys;
}

// Keys and pairs, in place and out of place, both orders, against the
// stable reference: the passes whose digit is constant are skipped, and a
// skipped pass must leave the keys where the next pass (or the caller)
// looks for them.
template <class K>
void expect_every_sort_of(const std::vector<K>& x, gp::key_bits bits, const std::string& name) {
  const std::size_t n = x.size();
  const std::vector<std::uint32_t> pos = positions(n);
  const int end = bits.end < 0 ? int(8 * sizeof(K)) : bits.end;
  for (bool descending : {false, true}) {
    const auto order = descending ? gp::sort_order::descending : gp::sort_order::ascending;
    const std::string what = name + ", key_bits{" + std::to_string(bits.begin) + ", " +
                             std::to_string(end) + "}" + (descending ? ", descending" : "");
    const auto perm =
        reference_sort_permutation(std::span<const K>(x), descending, bits.begin, end);
    const auto want = gather(std::span<const K>(x), perm);

    const gp::device_vector<K> in = gp::to_device(x);
    gp::device_vector<K> out = poisoned_on<cuda_side, K>(n);
    gp::sort(gp::cuda, in, out, order, bits);
    expect_same_bytes(gp::to_host(out), want, what + ", out of place");
    expect_same_bytes(gp::to_host(in), x, what + ", the input");

    gp::device_vector<K> k = gp::to_device(x);
    gp::sort(gp::cuda, k, order, bits);
    expect_same_bytes(gp::to_host(k), want, what + ", in place");

    const gp::device_vector<std::uint32_t> v = gp::to_device(pos);
    gp::device_vector<K> ko = poisoned_on<cuda_side, K>(n);
    gp::device_vector<std::uint32_t> vo = poisoned_on<cuda_side, std::uint32_t>(n);
    gp::sort_by_key(gp::cuda, in, v, ko, vo, order, bits);
    expect_same_bytes(gp::to_host(ko), want, what + ", pairs out of place, keys");
    ASSERT_EQ(gp::to_host(vo), perm) << what << ", pairs out of place, values";

    gp::device_vector<K> kp = gp::to_device(x);
    gp::device_vector<std::uint64_t> vp =
        gp::to_device(std::vector<std::uint64_t>(pos.begin(), pos.end()));
    gp::sort_by_key(gp::cuda, kp, vp, order, bits);
    expect_same_bytes(gp::to_host(kp), want, what + ", pairs in place, keys");
    const std::vector<std::uint64_t> vp_host = gp::to_host(vp);
    ASSERT_EQ(std::vector<std::uint32_t>(vp_host.begin(), vp_host.end()), perm)
        << what << ", pairs in place, 8-byte values";
  }
}

template <class K>
void expect_constant_digit_sorts(std::size_t n, unsigned constant_digits, gp::key_bits bits,
                                 std::mt19937_64& rng) {
  expect_every_sort_of(keys_with_constant_digits<K>(n, constant_digits, rng), bits,
                       std::to_string(n) + " keys of " + std::to_string(8 * sizeof(K)) +
                           " bits, constant digits " + std::to_string(constant_digits));
}

// n keys drawn from `key(rng, i)`.
template <class K, class F>
std::vector<K> keys_from(std::size_t n, std::mt19937_64& rng, F key) {
  std::vector<K> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = key(rng, i);
  return x;
}

}  // namespace

// Every set of constant digits of 32-bit keys (all bits and a 3-pass bit
// range, so that an in-place sort has an odd number of passes), in the
// one-block sort and over tiles of 8 keys a thread (up to 2^17 keys) and
// of the default shape (above).
TEST_F(cuda_radix_sort_api, constant_digits_of_uint32_keys_at_every_position) {
  auto rng = make_rng(210);
  for (std::size_t n : test_sizes({3000, 100003, 400009})) {
    for (unsigned digits = 0; digits < 16; ++digits) {
      expect_constant_digit_sorts<std::uint32_t>(n, digits, {}, rng);
      expect_constant_digit_sorts<std::uint32_t>(n, digits, {0, 24}, rng);
      expect_constant_digit_sorts<std::uint32_t>(n, digits, {5, 29}, rng);
      if (HasFatalFailure()) return;
    }
  }
  for (std::size_t n : test_sizes({(std::size_t{1} << 21) + 5})) {
    for (unsigned digits : {0x0u, 0x1u, 0x6u, 0x8u, 0xeu, 0xfu}) {
      expect_constant_digit_sorts<std::uint32_t>(n, digits, {}, rng);
      expect_constant_digit_sorts<std::uint32_t>(n, digits, {0, 24}, rng);
      if (HasFatalFailure()) return;
    }
  }
}

// Either side of each cut-over of the GPU sort's shapes: the one-block
// sort's 4, 16 and 32 keys a thread (1024, 4096, 8192 keys), the passes'
// tiles of 8 keys a thread (up to 2^17 keys) and of 32 beyond; random
// keys, sorted ones and ones of few distinct values, keys and pairs.
TEST_F(cuda_radix_sort_api, sizes_around_the_cut_overs) {
  auto rng = make_rng(213);
  for (std::size_t n : test_sizes({1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 8193,
                                   std::size_t{1} << 17, (std::size_t{1} << 17) + 1})) {
    for (key_pattern pattern :
         {key_pattern::random_bits, key_pattern::sorted, key_pattern::few_distinct}) {
      const std::vector<std::uint32_t> x = pattern_keys<std::uint32_t>(pattern, n, rng);
      const auto perm = reference_sort_permutation(std::span<const std::uint32_t>(x), false);
      const std::string what = describe(n, pattern_name(pattern), false);
      const auto out = sort_pairs_out_of_place<cuda_side>(x, positions(n));
      expect_same_bytes(out.keys_out, gather(std::span<const std::uint32_t>(x), perm), what);
      ASSERT_EQ(out.values_out, perm) << what;
    }
  }
}

TEST_F(cuda_radix_sort_api, constant_digits_of_64_bit_and_float_keys) {
  auto rng = make_rng(211);
  // Single constant digits, all but one, the low half, the high half,
  // alternating, all and none.
  std::vector<unsigned> sets = {0x00, 0xff, 0x0f, 0xf0, 0x55, 0xaa, 0xfe, 0x7f};
  for (int p = 0; p < 8; ++p)
    sets.push_back(1u << p);
  for (std::size_t n : test_sizes({2500, 70001})) {
    for (unsigned digits : sets) {
      expect_constant_digit_sorts<std::uint64_t>(n, digits, {}, rng);
      expect_constant_digit_sorts<std::int64_t>(n, digits, {8, 56}, rng);
      expect_constant_digit_sorts<double>(n, digits, {}, rng);
      if (HasFatalFailure()) return;
    }
    for (unsigned digits = 0; digits < 16; ++digits)
      expect_constant_digit_sorts<float>(n, digits, {}, rng);
  }
}

// Keys below 2^16 and 2^20 of many tiles, and all keys equal, one sort
// after another on one stream (each sort's routes are its own).
TEST_F(cuda_radix_sort_api, narrow_keys_back_to_back) {
  auto rng = make_rng(212);
  // Many tiles (fewer under the sanitizers' size cap).
  const std::size_t n = std::min<std::size_t>((std::size_t{3} << 20) + 3,
                                              std::max<std::size_t>(test_size_cap(), 100003));
  std::vector<std::uint32_t> small(n), mid(n), equal(n, 0x12345678u);
  for (std::size_t i = 0; i < n; ++i) {
    small[i] = static_cast<std::uint32_t>(rng() & 0xffff);
    mid[i] = static_cast<std::uint32_t>(rng() & 0xfffff);
  }
  gp::device_vector<std::uint32_t> d_small = gp::to_device(small), d_mid = gp::to_device(mid),
                                   d_equal = gp::to_device(equal);
  gp::device_vector<std::uint32_t> o_small(n), o_mid(n), o_equal(n);
  gp::sort(gp::cuda, d_small, o_small);
  gp::sort(gp::cuda, d_mid, o_mid, gp::sort_order::descending);
  gp::sort(gp::cuda, d_equal, o_equal);
  gp::sort(gp::cuda, d_mid);
  gp::sort(gp::cuda, d_equal, gp::sort_order::descending);
  gp::synchronize();
  const auto s = std::span<const std::uint32_t>(small), m = std::span<const std::uint32_t>(mid);
  expect_same_bytes(gp::to_host(o_small), reference_sort(s, false), "keys below 2^16");
  expect_same_bytes(gp::to_host(o_mid), reference_sort(m, true), "keys below 2^20, descending");
  expect_same_bytes(gp::to_host(d_mid), reference_sort(m, false), "keys below 2^20, in place");
  EXPECT_EQ(gp::to_host(o_equal), equal);
  EXPECT_EQ(gp::to_host(d_equal), equal);
}

// The distributions that skip passes (and uniform keys, which skip none),
// as the sort bench and lab/probes/probe_radix_designs.cu time them: in the
// one-block sort, over tiles of 8 keys a thread and over the default
// tiles; keys and pairs, in and out of place, both orders, against the
// stable reference.
TEST_F(cuda_radix_sort_api, distributions_whose_constant_digits_are_skipped) {
  auto rng = make_rng(214);
  using u32 = std::uint32_t;
  using u64 = std::uint64_t;
  for (std::size_t n : test_sizes({3000, 100003, (std::size_t{1} << 21) + 5})) {
    const std::string size = std::to_string(n) + " ";
    const u32 fixed = static_cast<u32>(rng());
    const u32 step = static_cast<u32>((u64{1} << 32) / n);
    std::vector<u32> values16(16);
    for (u32& v : values16)
      v = static_cast<u32>(rng());
    expect_every_sort_of(keys_from<u32>(n, rng, [](auto& r, std::size_t) { return u32(r()); }), {},
                         size + "uniform uint32");
    expect_every_sort_of(
        keys_from<u32>(n, rng, [](auto& r, std::size_t) { return u32(r() & 0xffff); }), {},
        size + "uint32 below 2^16");
    expect_every_sort_of(
        keys_from<u32>(n, rng, [](auto& r, std::size_t) { return u32(r() & 0xfffff); }), {},
        size + "uint32 below 2^20");
    expect_every_sort_of(std::vector<u32>(n, fixed), {}, size + "uint32, all equal");
    expect_every_sort_of(
        keys_from<u32>(n, rng, [&](auto&, std::size_t i) { return u32(i) * step; }), {},
        size + "sorted uint32");
    expect_every_sort_of(
        keys_from<u32>(n, rng, [&](auto& r, std::size_t) { return values16[r() % 16]; }), {},
        size + "16 distinct uint32");
    expect_every_sort_of(
        keys_from<u32>(
            n, rng, [&](auto& r, std::size_t) { return (fixed & 0x00ffffffu) | u32(r() << 24); }),
        {}, size + "uint32, only the top digit varies");
    expect_every_sort_of(
        keys_from<float>(n, rng,
                         [](auto& r, std::size_t) {
                           // [100, 100.5): the top 16 bits are the same.
                           return std::bit_cast<float>(0x42c80000u + u32(r() & 0xffff));
                         }),
        {}, size + "float in [100, 100.5)");
    expect_every_sort_of(
        keys_from<u64>(n, rng, [](auto& r, std::size_t) { return u64(r() & 0xffffffffu); }), {},
        size + "uint64 below 2^32");
    expect_every_sort_of(keys_from<u64>(n, rng,
                                        [&](auto& r, std::size_t) {
                                          return (u64{fixed} * 0x9e3779b97f4a7c15u >> 8) |
                                                 (u64(r()) << 56);
                                        }),
                         {}, size + "uint64, only the top digit varies");
    expect_every_sort_of(std::vector<u64>(n, u64{fixed} << 20), {}, size + "uint64, all equal");
    if (HasFatalFailure()) return;
  }
}

#if GPUPRIM_HAS_CUDA
// A sort captured once in a CUDA graph (the capture fails if the sort
// waits for the device or reads device data on the host), then replayed
// on key sets put into the captured buffers after the capture, one after
// another: which passes are skipped is decided by each replay on the
// device, from its own keys.
TEST_F(cuda_radix_sort_api, captured_in_a_graph_each_replay_skips_what_its_keys_allow) {
  auto rng = make_rng(215);
  const std::size_t n = std::min<std::size_t>((std::size_t{1} << 21) + 5,
                                              std::max<std::size_t>(test_size_cap(), 100003));
  test_stream s;
  const auto on = gp::cuda.on(s.get());
  const auto stream = static_cast<cudaStream_t>(s.get());
  const std::vector<std::uint32_t> zeros(n);
  gp::device_vector<std::uint32_t> keys = gp::to_device(zeros), in_place = gp::to_device(zeros);
  gp::device_vector<std::uint32_t> keys_out(n);
  const gp::device_vector<std::uint32_t> values = gp::to_device(positions(n));
  gp::device_vector<std::uint32_t> values_out(n);
  gp::synchronize();  // the copies, before a stream that does not wait for them
  // Before the capture: the kernels load, the scratch pool's settings.
  gp::sort_by_key(on, keys, values, keys_out, values_out);
  gp::sort(on, in_place, gp::sort_order::descending);
  gp::synchronize(s.get());

  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), cudaSuccess);
  gp::sort_by_key(on, keys, values, keys_out, values_out);
  gp::sort(on, in_place, gp::sort_order::descending);
  ASSERT_EQ(cudaStreamEndCapture(stream, &graph), cudaSuccess);
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);

  const std::vector<std::pair<const char*, std::uint32_t>> sets = {
      {"uniform", 0xffffffffu},
      {"below 2^16", 0xffffu},
      {"all equal", 0u},
      {"only the top digit varies", 0xff000000u},
      {"below 2^16 again", 0xffffu},
      {"uniform again", 0xffffffffu}};
  for (const auto& [name, varying] : sets) {
    std::vector<std::uint32_t> x(n);
    const std::uint32_t fixed = static_cast<std::uint32_t>(rng());
    for (auto& k : x)
      k = (static_cast<std::uint32_t>(rng()) & varying) | (fixed & ~varying);
    // The keys arrive after the capture, on the graph's stream.
    ASSERT_EQ(cudaMemcpyAsync(keys.data(), x.data(), n * 4, cudaMemcpyHostToDevice, stream),
              cudaSuccess);
    ASSERT_EQ(cudaMemcpyAsync(in_place.data(), x.data(), n * 4, cudaMemcpyHostToDevice, stream),
              cudaSuccess);
    ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess) << name;
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess) << name;
    const auto keys_span = std::span<const std::uint32_t>(x);
    const auto perm = reference_sort_permutation(keys_span, false);
    expect_same_bytes(gp::to_host(keys_out), gather(keys_span, perm),
                      std::string(name) + ": pairs, keys");
    ASSERT_EQ(gp::to_host(values_out), perm) << name << ": pairs, values";
    expect_same_bytes(gp::to_host(in_place), reference_sort(keys_span, true),
                      std::string(name) + ": in place, descending");
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}
#endif

// ---- stable_ names, limits and errors -------------------------------------------------

TEST_F(cuda_radix_sort_api, stable_names_are_the_same_sorts) {
  auto rng = make_rng(208);
  const auto x = pattern_keys<std::int32_t>(key_pattern::few_distinct, 10007, rng);
  const auto pos = positions(x.size());
  const auto keys = std::span<const std::int32_t>(x);
  const gp::device_vector<std::int32_t> d_x = gp::to_device(x);
  const gp::device_vector<std::uint32_t> d_pos = gp::to_device(pos);

  gp::device_vector<std::int32_t> d_k = gp::to_device(x);
  gp::stable_sort(gp::cuda, d_k);
  expect_same_bytes(gp::to_host(d_k), reference_sort(keys, false), "stable_sort");
  gp::stable_sort(gp::cuda, d_k, gp::sort_order::descending);
  expect_same_bytes(gp::to_host(d_k), reference_sort(keys, true), "stable_sort descending");

  gp::device_vector<std::int32_t> d_out(x.size());
  gp::stable_sort(gp::cuda, d_x, d_out, gp::sort_order::ascending, gp::key_bits{0, 8});
  expect_same_bytes(gp::to_host(d_out), reference_sort(keys, false, 0, 8),
                    "stable_sort out of place, key_bits{0, 8}");

  d_k = gp::to_device(x);
  gp::device_vector<std::uint32_t> d_v = gp::to_device(pos);
  gp::stable_sort_by_key(gp::cuda, d_k, d_v);
  EXPECT_EQ(gp::to_host(d_v), reference_sort_permutation(keys, false));

  gp::device_vector<std::uint32_t> d_v_out(x.size());
  gp::stable_sort_by_key(gp::cuda, d_x, d_pos, d_out, d_v_out, gp::sort_order::descending,
                         gp::key_bits{4, 12});
  EXPECT_EQ(gp::to_host(d_v_out), reference_sort_permutation(keys, true, 4, 12));
}

TEST_F(cuda_radix_sort_api, empty_input_and_same_memory_out_of_place) {
  gp::device_vector<double> none, none_out;
  gp::device_vector<std::uint64_t> no_values;
  gp::sort(gp::cuda, none);
  gp::sort(gp::cuda, none, none_out, gp::sort_order::descending);
  gp::sort_by_key(gp::cuda, none, no_values);
  gp::sort_by_key(gp::cuda, none, no_values, none_out, no_values);
  gp::synchronize();

  auto rng = make_rng(209);
  const auto x = random_bits_keys<std::uint16_t>(5000, rng);
  gp::device_vector<std::uint16_t> d = gp::to_device(x);
  gp::sort(gp::cuda, gp::device_span<const std::uint16_t>(d.span()), d.span());
  expect_same_bytes(gp::to_host(d), reference_sort(std::span<const std::uint16_t>(x), false),
                    "same memory");
}

TEST_F(cuda_radix_sort_api, bad_sizes_throw_and_leave_outputs_untouched) {
  const std::vector<std::int32_t> keys(100, 5);
  const gp::device_vector<std::int32_t> d_keys = gp::to_device(keys);
  {
    gp::device_vector<std::int32_t> k = poisoned_on<cuda_side, std::int32_t>(100);
    gp::device_vector<std::uint32_t> v = poisoned_on<cuda_side, std::uint32_t>(99);
    EXPECT_THROW(gp::sort_by_key(gp::cuda, k, v), std::invalid_argument);
    expect_poisoned(k, "in-place keys");
    expect_poisoned(v, "in-place values");
  }
  for (std::size_t size : {99u, 101u, 0u}) {
    gp::device_vector<std::int32_t> out = poisoned_on<cuda_side, std::int32_t>(size);
    EXPECT_THROW(gp::sort(gp::cuda, d_keys, out), std::invalid_argument) << size;
    expect_poisoned(out, "key output of " + std::to_string(size));
  }
  const gp::device_vector<std::uint64_t> d_values =
      gp::to_device(std::vector<std::uint64_t>(100, 7));
  const gp::device_vector<std::uint64_t> d_short_values =
      gp::to_device(std::vector<std::uint64_t>(99, 7));
  struct sizes {
    std::size_t keys_out, values_out;
    bool short_input;
  };
  for (const sizes& s : {sizes{100, 99, false}, sizes{101, 100, false}, sizes{100, 100, true}}) {
    gp::device_vector<std::int32_t> ko = poisoned_on<cuda_side, std::int32_t>(s.keys_out);
    gp::device_vector<std::uint64_t> vo = poisoned_on<cuda_side, std::uint64_t>(s.values_out);
    EXPECT_THROW(
        gp::sort_by_key(gp::cuda, d_keys, s.short_input ? d_short_values : d_values, ko, vo),
        std::invalid_argument);
    expect_poisoned(ko, "key output");
    expect_poisoned(vo, "value output");
  }
}

TEST_F(cuda_radix_sort_api, bad_bit_ranges_throw_and_leave_outputs_untouched) {
  const gp::device_vector<std::uint32_t> d_x = gp::to_device(std::vector<std::uint32_t>(1000, 3));
  for (const auto& [begin, end] : std::vector<std::pair<int, int>>{
           {-1, 8}, {0, 33}, {9, 8}, {33, -1}, {40, 40}, {32, 31}, {-8, -1}}) {
    const std::string what = "key_bits{" + std::to_string(begin) + ", " + std::to_string(end) + "}";
    gp::device_vector<std::uint32_t> k = poisoned_on<cuda_side, std::uint32_t>(1000);
    EXPECT_THROW(gp::sort(gp::cuda, k, gp::sort_order::ascending, gp::key_bits{begin, end}),
                 std::invalid_argument)
        << what;
    expect_poisoned(k, what + " in place");
    gp::device_vector<std::uint32_t> out = poisoned_on<cuda_side, std::uint32_t>(1000);
    EXPECT_THROW(gp::sort(gp::cuda, d_x, out, gp::sort_order::descending, gp::key_bits{begin, end}),
                 std::invalid_argument)
        << what;
    expect_poisoned(out, what + " out of place");
  }
  gp::device_vector<std::uint8_t> k8 = poisoned_on<cuda_side, std::uint8_t>(100);
  gp::device_vector<std::uint32_t> v8 = poisoned_on<cuda_side, std::uint32_t>(100);
  EXPECT_THROW(gp::sort_by_key(gp::cuda, k8, v8, gp::sort_order::ascending, gp::key_bits{0, 9}),
               std::invalid_argument);
  expect_poisoned(k8, "8-bit keys");
  expect_poisoned(v8, "values of 8-bit keys");
  gp::device_vector<double> kd = poisoned_on<cuda_side, double>(100);
  EXPECT_THROW(gp::sort(gp::cuda, kd, gp::sort_order::ascending, gp::key_bits{0, 65}),
               std::invalid_argument);
  expect_poisoned(kd, "double keys");
}

TEST_F(cuda_radix_sort_api, overlapping_ranges_throw_and_leave_memory_untouched) {
  gp::device_vector<std::int32_t> y = poisoned_on<cuda_side, std::int32_t>(200);
  EXPECT_THROW(gp::sort(gp::cuda, gp::device_span<const std::int32_t>(y.span().subspan(0, 100)),
                        y.span().subspan(1, 100)),
               std::invalid_argument);
  EXPECT_THROW(gp::sort(gp::cuda, gp::device_span<const std::int32_t>(y.span().subspan(50, 100)),
                        y.span().subspan(0, 100)),
               std::invalid_argument);
  expect_poisoned(y, "partially overlapping keys");

  gp::device_vector<std::uint32_t> buffer = poisoned_on<cuda_side, std::uint32_t>(300);
  const gp::device_vector<std::int32_t> keys = gp::to_device(std::vector<std::int32_t>(100, 4));
  gp::device_vector<std::int32_t> keys_out = poisoned_on<cuda_side, std::int32_t>(100);
  const auto all = buffer.span();
  EXPECT_THROW(
      gp::sort_by_key(gp::cuda, keys, gp::device_span<const std::uint32_t>(all.subspan(0, 100)),
                      keys_out, all.subspan(10, 100)),
      std::invalid_argument);
  EXPECT_THROW(gp::sort_by_key(gp::cuda, all.subspan(0, 100), all.subspan(50, 100)),
               std::invalid_argument);
  const gp::device_vector<std::uint32_t> ukeys = gp::to_device(std::vector<std::uint32_t>(100, 9));
  EXPECT_THROW(
      gp::sort_by_key(gp::cuda, ukeys, gp::device_span<const std::uint32_t>(all.subspan(0, 100)),
                      all.subspan(150, 100), all.subspan(100, 100)),
      std::invalid_argument);
  expect_poisoned(buffer, "overlapping values");
  expect_poisoned(keys_out, "key output");
}

TEST_F(cuda_radix_sort_api, two_to_the_32_keys_are_refused_before_touching_memory) {
  // The size is checked before the memory is read: a small allocation named
  // with a huge size never gets dereferenced.
  gp::device_vector<std::uint8_t> d = poisoned_on<cuda_side, std::uint8_t>(16);
  const gp::device_span<std::uint8_t> huge(d.data(), std::size_t{1} << 32);
  EXPECT_THROW(gp::sort(gp::cuda, huge), std::invalid_argument);
  expect_poisoned(d, "refused sort");
}
