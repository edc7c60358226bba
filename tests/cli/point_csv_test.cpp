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

TEST(point_csv, a_utf8_byte_order_mark_is_not_part_of_the_first_field) {
  // Excel's "CSV UTF-8": the mark before a point keeps the point.
  const cli::point_csv points = cli::parse_point_csv(
      "\xEF\xBB\xBF"
      "0,0\n3,4\n",
      "p.csv");
  EXPECT_EQ(points.rows, 2u);
  EXPECT_EQ(points.values, (std::vector<double>{0, 0, 3, 4}));
  // ... and before a header, the header is still skipped.
  const cli::point_csv headed = cli::parse_point_csv("\xEF\xBB\xBFx,y\n1,2\n", "p.csv");
  EXPECT_EQ(headed.rows, 1u);
  EXPECT_EQ(headed.values, (std::vector<double>{1, 2}));
  // A mark anywhere else is text.
  EXPECT_EQ(error_of("1,2\n\xEF\xBB\xBF"
                     "3,4\n"),
            "p.csv: line 2: not 2 or 3 comma-separated numbers: '\xEF\xBB\xBF"
            "3,4'");
}

TEST(point_csv, a_first_line_with_a_number_in_it_is_a_point_not_a_header) {
  // A typo in point 0 is an error naming its line; skipping it as a header
  // would shift every index closest-pair prints.
  EXPECT_EQ(error_of("0,0a\n1,1\n2,2\n"),
            "p.csv: line 1: not 2 or 3 comma-separated numbers: '0,0a' (a header line holds no "
            "numbers)");
  EXPECT_EQ(error_of("x,1\n1,1\n"),
            "p.csv: line 1: not 2 or 3 comma-separated numbers: 'x,1' (a header line holds no "
            "numbers)");
  // The header is the first line that is not blank, whatever its number.
  const cli::point_csv after_blank = cli::parse_point_csv("\n \r\nx,y,z\n1,2,3\n", "p.csv");
  EXPECT_EQ(after_blank.rows, 1u);
  EXPECT_EQ(after_blank.dim, 3);
  // Only one header: a second line of names is an error.
  EXPECT_EQ(error_of("x,y\nx,y\n1,2\n"),
            "p.csv: line 2: not 2 or 3 comma-separated numbers: 'x,y'");
  // Every field of a long header is looked at, not the first four alone.
  EXPECT_EQ(error_of("a,b,c,d,5\n1,2\n"),
            "p.csv: line 1: not 2 or 3 comma-separated numbers: 'a,b,c,d,5' (a header line "
            "holds no numbers)");
  EXPECT_EQ(cli::parse_point_csv("a,b,c,d,e\n1,2\n", "p.csv").rows, 1u);
}
