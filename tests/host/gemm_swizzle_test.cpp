// The XOR swizzle of the pipelined tensor-core gemm rung
// (lab/ladder/gemm_swizzle.hpp), checked on the CPU the way the GPU
// uses it: a tile's chunks land on distinct places, and each phase of
// ldmatrix (8 lanes, one 16-byte row each) and of the cp.async stores (8
// neighbouring threads) touches 8 distinct groups of 4 banks, i.e. no bank
// conflicts. The lane -> address rules mirror lab/ladder/gemm_mma.cuh.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "lab/ladder/gemm_swizzle.hpp"

namespace {

using gpuprim::ladder::swizzled_chunk;

// A 16-byte chunk's group of banks: 32 banks of 4 bytes = 8 chunks per line.
int bank_group(int chunk_index) {
  return chunk_index % 8;
}

// Every phase of 8 lanes sees 8 distinct bank groups; `address(lane)`
// returns a chunk index.
template <class Address>
::testing::AssertionResult conflict_free(Address address) {
  for (int phase = 0; phase < 4; ++phase) {
    std::set<int> groups;
    for (int lane = phase * 8; lane < phase * 8 + 8; ++lane)
      groups.insert(bank_group(address(lane)));
    if (groups.size() != 8) {
      return ::testing::AssertionFailure()
             << "phase " << phase << " uses " << groups.size() << " bank groups";
    }
  }
  return ::testing::AssertionSuccess();
}

template <int W>
void check_bijection(int rows) {
  std::vector<int> seen(rows * W, 0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < W; ++c) {
      const int at = swizzled_chunk<W>(r, c);
      ASSERT_GE(at, 0);
      ASSERT_LT(at, rows * W);
      ++seen[at];
      // A chunk stays in its own row's 128-byte line(s).
      if constexpr (W % 8 == 0) {
        ASSERT_EQ(at / W, r);
      } else {
        ASSERT_EQ(at / 8, r / 2);
      }
    }
  for (int s : seen)
    ASSERT_EQ(s, 1);
}

// A tile of BM x BK (W = BK / 8 chunks a row), read by ldmatrix.x4 as
// 16 x 16 fragments: lane l reads row l % 16 of the fragment, chunk l / 16.
template <int W>
void check_a_reads(int rows) {
  for (int row0 = 0; row0 < rows; row0 += 16)
    for (int kk = 0; kk < W / 2; ++kk) {
      const auto address = [&](int lane) {
        return swizzled_chunk<W>(row0 + lane % 16, kk * 2 + lane / 16);
      };
      ASSERT_TRUE(conflict_free(address)) << "A rows " << row0 << ", k step " << kk;
    }
}

// B's tile BK x BN (W = BN / 8), read by ldmatrix.x4.trans: lane l reads k
// row kk * 16 + l % 16, chunk col_chunk + l / 16.
template <int W>
void check_b_reads(int k_rows) {
  for (int kk = 0; kk < k_rows / 16; ++kk)
    for (int col_chunk = 0; col_chunk < W; col_chunk += 2) {
      const auto address = [&](int lane) {
        return swizzled_chunk<W>(kk * 16 + lane % 16, col_chunk + lane / 16);
      };
      ASSERT_TRUE(conflict_free(address)) << "B k step " << kk << ", chunk " << col_chunk;
    }
}

// cp.async: thread v of the block fills chunk v % W of row v / W.
template <int W>
void check_stores(int rows) {
  for (int first = 0; first < rows * W; first += 32) {
    const auto address = [&](int lane) {
      const int v = first + lane;
      return swizzled_chunk<W>(v / W, v % W);
    };
    ASSERT_TRUE(conflict_free(address)) << "stores from chunk " << first;
  }
}

}  // namespace

TEST(gemm_swizzle, every_chunk_has_its_own_place) {
  check_bijection<4>(128);
  check_bijection<8>(128);
  check_bijection<16>(64);
  check_bijection<32>(64);
}

TEST(gemm_swizzle, ldmatrix_reads_of_a_are_conflict_free) {
  check_a_reads<4>(128);  // BK = 32
  check_a_reads<8>(128);  // BK = 64
}

TEST(gemm_swizzle, ldmatrix_trans_reads_of_b_are_conflict_free) {
  check_b_reads<16>(32);  // BN = 128
  check_b_reads<32>(32);  // BN = 256
  check_b_reads<32>(64);
}

TEST(gemm_swizzle, cp_async_stores_are_conflict_free) {
  check_stores<4>(128);
  check_stores<8>(128);
  check_stores<32>(32);
}

TEST(gemm_swizzle, unswizzled_layout_would_conflict) {
  // The check can fail: plain row-major 64-byte rows put rows r and r + 2 on
  // the same banks.
  const auto plain = [](int lane) { return (lane % 16) * 4 + lane / 16; };
  EXPECT_FALSE(conflict_free(plain));
}
