// Points from a CSV file, for `gpuprim closest-pair`: 2 or 3 comma-separated
// numbers per line (any form strtod reads), one point per line, blank lines
// skipped. A UTF-8 byte order mark is dropped; the first line that is not
// blank is a header, and skipped, when none of its fields is a number. A
// first line with some numbers and some text is an error, like any other
// line that is not all numbers (it is a point with a typo: skipping it would
// renumber the points after it).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuprim::cli {

struct point_csv {
  std::vector<double> values;  // rows * dim coordinates, point by point
  std::size_t rows = 0;
  int dim = 2;  // 2 or 3 (2 when there are no points)
};

// Reads a CSV file of points; throws cli::usage_error naming the file and
// the line when a line is not 2 or 3 numbers or has another column count
// than the lines before it.
point_csv read_point_csv(const std::string& file);

// The same from a whole file's text in memory; `name` names it in errors.
point_csv parse_point_csv(std::string_view text, const std::string& name);

}  // namespace gpuprim::cli
