// The check every ladder's table passes without a device: the expected
// number of rungs, each with a name, a line on what it fixes and a kernel,
// names unique, oldest rung first and newest last.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <set>
#include <string>

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

}  // namespace gpuprim::test
