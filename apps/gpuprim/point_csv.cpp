// The CSV point reader of `gpuprim closest-pair` (point_csv.hpp).
#include "point_csv.hpp"

#include <cstdlib>

#include "commands.hpp"
#include "input_file.hpp"

namespace gpuprim::cli {
namespace {

bool is_blank_char(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// One CSV field as a number; false when it is not one.
bool parse_number(std::string_view field, double& value) {
  while (!field.empty() && is_blank_char(field.front()))
    field.remove_prefix(1);
  while (!field.empty() && is_blank_char(field.back()))
    field.remove_suffix(1);
  if (field.empty()) return false;
  const std::string text(field);  // strtod needs the terminating '\0'
  char* end = nullptr;
  value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// The line as text for a message: its first 80 bytes, control bytes as '?'.
std::string excerpt(std::string_view line) {
  std::string out(line.substr(0, 80));
  for (char& c : out) {
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  }
  return out;
}

}  // namespace

point_csv parse_point_csv(std::string_view text, const std::string& name) {
  // A UTF-8 byte order mark (Excel writes one) is not part of the first field.
  constexpr std::string_view utf8_bom = "\xEF\xBB\xBF";
  if (text.starts_with(utf8_bom)) text.remove_prefix(utf8_bom.size());
  point_csv table;
  table.dim = 0;
  bool first_line = true;  // the first line that is not blank
  std::size_t line_number = 0;
  std::vector<double> row;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t newline = text.find('\n', pos);
    const std::size_t stop = newline == std::string_view::npos ? text.size() : newline;
    const std::string_view line = text.substr(pos, stop - pos);
    pos = stop + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;  // blank line
    const bool header_allowed = first_line;
    first_line = false;
    row.clear();
    bool all_numbers = true;
    bool any_number = false;
    for (std::size_t start = 0;;) {
      const std::size_t comma = line.find(',', start);
      double value = 0;
      const bool number = parse_number(line.substr(start, comma - start), value);
      all_numbers = all_numbers && number;
      any_number = any_number || number;
      if (row.size() <= 3) row.push_back(value);  // a fourth says "more than 3"
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
    if (!all_numbers) {
      // A header names the columns: not one of its fields is a number. A
      // first line with some numbers is a point with a typo, not a header,
      // and skipping it would renumber every point after it.
      if (header_allowed && !any_number) continue;
      throw usage_error(name + ": line " + std::to_string(line_number) +
                        ": not 2 or 3 comma-separated numbers: '" + excerpt(line) + "'" +
                        (header_allowed ? " (a header line holds no numbers)" : ""));
    }
    if (row.size() != 2 && row.size() != 3) {
      throw usage_error(name + ": line " + std::to_string(line_number) + ": " +
                        (row.size() > 3 ? std::string("more than 3") : std::to_string(row.size())) +
                        " columns; points need 2 or 3");
    }
    if (table.rows == 0) {
      table.dim = static_cast<int>(row.size());
    } else if (static_cast<int>(row.size()) != table.dim) {
      throw usage_error(name + ": line " + std::to_string(line_number) + ": " +
                        std::to_string(row.size()) + " columns, the lines before have " +
                        std::to_string(table.dim));
    }
    table.values.insert(table.values.end(), row.begin(), row.end());
    ++table.rows;
  }
  if (table.rows == 0) table.dim = 2;
  return table;
}

point_csv read_point_csv(const std::string& file) {
  return parse_point_csv(read_file<std::string>(file), file);
}

}  // namespace gpuprim::cli
