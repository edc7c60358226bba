// The check every ladder's table passes without a device: the expected
// number of rungs, each with a name, a line on what it fixes and a kernel,
// names unique, oldest rung first and newest last.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <type_traits>

namespace gpuprim::test {

template <class Rungs>
void expect_complete_ladder(const Rungs& rungs, std::size_t size, const std::string& first,
                            const std::string& last) {
  ASSERT_EQ(rungs.size(), size);
  std::set<std::string> names;
  for (const auto& rung : rungs) {
    ASSERT_NE(rung.name, nullptr);
    ASSERT_NE(rung.fixes, nullptr);
    EXPECT_FALSE(std::string(rung.name).empty());
    EXPECT_FALSE(std::string(rung.fixes).empty()) << rung.name;
    EXPECT_NE(rung.run, nullptr) << rung.name;
    EXPECT_TRUE(names.insert(rung.name).second) << "duplicate rung name " << rung.name;
  }
  EXPECT_EQ(rungs.front().name, first);
  EXPECT_EQ(rungs.back().name, last);
}

// The table check of a ladder made for each element type: rungs_of(
// std::type_identity<T>{}) complete for float, double, int32 and int64
// when built with CUDA; without CUDA the ladder is empty and the test
// skips.
template <class RungsOf>
void expect_complete_typed_ladder(RungsOf rungs_of, std::size_t size, const std::string& first,
                                  const std::string& last) {
#if GPUPRIM_HAS_CUDA
  expect_complete_ladder(rungs_of(std::type_identity<float>{}), size, first, last);
  expect_complete_ladder(rungs_of(std::type_identity<double>{}), size, first, last);
  expect_complete_ladder(rungs_of(std::type_identity<std::int32_t>{}), size, first, last);
  expect_complete_ladder(rungs_of(std::type_identity<std::int64_t>{}), size, first, last);
#else
  EXPECT_TRUE(rungs_of(std::type_identity<float>{}).empty());
  GTEST_SKIP() << "built without CUDA: the ladder is empty";
#endif
}

}  // namespace gpuprim::test
