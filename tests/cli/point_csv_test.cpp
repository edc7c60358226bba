// The CSV point reader of `gpuprim closest-pair` (apps/gpuprim/point_csv.hpp).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/gpuprim/commands.hpp"
#include "apps/gpuprim/point_csv.hpp"

namespace cli = gpuprim::cli;

namespace {

std::string error_of(const std::string& text) {
  try {
    cli::parse_point_csv(text, "p.csv");
  } catch (const cli::usage_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(point_csv, reads_points_with_an_optional_header_and_blank_lines) {
  const cli::point_csv two = cli::parse_point_csv("x,y\n0,0\n\n 1.5 , -2e1\r\n", "p.csv");
  EXPECT_EQ(two.rows, 2u);
  EXPECT_EQ(two.dim, 2);
  EXPECT_EQ(two.values, (std::vector<double>{0, 0, 1.5, -20}));
  const cli::point_csv three = cli::parse_point_csv("1,2,3\n4,5,6", "p.csv");
  EXPECT_EQ(three.rows, 2u);
  EXPECT_EQ(three.dim, 3);
  const cli::point_csv none = cli::parse_point_csv("", "p.csv");
  EXPECT_EQ(none.rows, 0u);
  EXPECT_EQ(none.dim, 2);
}

TEST(point_csv, bad_lines_name_the_file_and_line) {
  EXPECT_EQ(error_of("x,y\n1,2\n3,4e\n"),
            "p.csv: line 3: not 2 or 3 comma-separated numbers: '3,4e'");
  EXPECT_EQ(error_of("1,2\nx,y\n"), "p.csv: line 2: not 2 or 3 comma-separated numbers: 'x,y'");
  EXPECT_EQ(error_of("1\n"), "p.csv: line 1: 1 columns; points need 2 or 3");
  EXPECT_EQ(error_of("1,2,3,4,5,6\n"), "p.csv: line 1: more than 3 columns; points need 2 or 3");
  EXPECT_EQ(error_of("1,2\n1,2,3\n"), "p.csv: line 2: 3 columns, the lines before have 2");
  EXPECT_EQ(error_of("1,2\n1,\n"), "p.csv: line 2: not 2 or 3 comma-separated numbers: '1,'");
  // A NUL inside a field is not part of a number; control bytes show as '?'.
  EXPECT_EQ(error_of(std::string("1,2\n3,4\0"
                                 "5\n",
                                 10)),
            "p.csv: line 2: not 2 or 3 comma-separated numbers: '3,4?5'");
}
