// GPU segmented scans with non-commutative operators (instantiated here from
// gpuprim/cuda/segmented.cuh): on 16-byte values (the scan over (value,
// head) pairs) and on 4-byte ones (the segmented kernel).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/segmented.cuh"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/segmented_scan_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, segmented_scan_non_commutative_operator_keeps_order) {
  auto rng = make_rng(81);
  for (std::size_t n : {std::size_t{1}, std::size_t{1025}, std::size_t{700001}}) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    const auto lengths = random_lengths(n, 3000, rng);
    const auto flags = flags_from_lengths(lengths, n);
    const auto dx = gp::to_device(x);
    gp::device_vector<mat2> out(n);
    out.fill_bytes(0xA5);
    gp::inclusive_segmented_scan(gp::cuda, dx, gp::to_device(flags), out, mat2_product{});
    const auto got = gp::to_host(out);
    mat2 acc = mat2_identity();
    for (std::size_t i = 0; i < n; ++i) {
      acc = (i == 0 || flags[i]) ? x[i] : mat2_product{}(acc, x[i]);
      ASSERT_EQ(got[i], acc) << "n=" << n << " i=" << i;
    }
    gp::exclusive_segmented_scan(gp::cuda, dx, gp::to_device(offsets_from_lengths(lengths)), out,
                                 mat2_identity(), mat2_product{});
    const auto got_ex = gp::to_host(out);
    for (std::size_t i = 0; i < n; ++i) {
      acc = (i == 0 || flags[i]) ? mat2_identity() : mat2_product{}(acc, x[i - 1]);
      ASSERT_EQ(got_ex[i], acc) << "exclusive n=" << n << " i=" << i;
    }
  }
}

namespace {

// 2 x 2 matrices of bytes multiplied modulo 256: associative, not
// commutative, 4 bytes with 1-byte alignment.
struct byte_mat2 {
  std::uint8_t a, b, c, d;
  bool operator==(const byte_mat2&) const = default;
};

struct byte_mat2_product {
  GPUPRIM_HD byte_mat2 operator()(const byte_mat2& x, const byte_mat2& y) const {
    const auto mod = [](int v) { return static_cast<std::uint8_t>(v & 0xff); };
    return {mod(x.a * y.a + x.b * y.c), mod(x.a * y.b + x.b * y.d), mod(x.c * y.a + x.d * y.c),
            mod(x.c * y.b + x.d * y.d)};
  }
};

}  // namespace

// Segments of random lengths and of exactly one 4-byte tile (6144: heads at
// tile starts) and longer (tiles without heads look back), inclusive and
// exclusive, against a loop (every product exact).
TEST_F(cuda_test, segmented_scan_non_commutative_4_byte_operator_keeps_order) {
  static_assert(sizeof(byte_mat2) == 4);
  auto rng = make_rng(82);
  const byte_mat2 identity{1, 0, 0, 1};
  for (std::size_t n : {std::size_t{1}, std::size_t{6145}, std::size_t{300007}}) {
    std::vector<byte_mat2> x(n);
    for (auto& m : x) {
      const auto r = rng();
      m = {static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(r >> 8),
           static_cast<std::uint8_t>(r >> 16), static_cast<std::uint8_t>(r >> 24)};
    }
    const auto dx = gp::to_device(x);
    for (std::size_t max_len : {std::size_t{3000}, std::size_t{0}, std::size_t{20000}}) {
      std::vector<std::size_t> lengths;
      if (max_len == 0) {
        for (std::size_t left = n; left > 0; left -= std::min<std::size_t>(left, 6144))
          lengths.push_back(std::min<std::size_t>(left, 6144));
      } else {
        lengths = random_lengths(n, max_len, rng);
      }
      const auto flags = flags_from_lengths(lengths, n);
      const std::string what = "n=" + std::to_string(n) + " max_len=" + std::to_string(max_len);
      gp::device_vector<byte_mat2> out(n);
      gp::inclusive_segmented_scan(gp::cuda, dx, gp::to_device(flags), out, byte_mat2_product{});
      const auto got = gp::to_host(out);
      byte_mat2 acc = identity;
      for (std::size_t i = 0; i < n; ++i) {
        acc = (i == 0 || flags[i]) ? x[i] : byte_mat2_product{}(acc, x[i]);
        ASSERT_EQ(got[i], acc) << what << " i=" << i;
      }
      gp::exclusive_segmented_scan(gp::cuda, dx, gp::to_device(flags), out, identity,
                                   byte_mat2_product{});
      const auto got_ex = gp::to_host(out);
      for (std::size_t i = 0; i < n; ++i) {
        acc = (i == 0 || flags[i]) ? identity : byte_mat2_product{}(acc, x[i - 1]);
        ASSERT_EQ(got_ex[i], acc) << what << " exclusive i=" << i;
      }
    }
  }
}
