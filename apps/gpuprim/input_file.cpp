#include "input_file.hpp"

#include <algorithm>
#include <cctype>

namespace gpuprim::cli {

bool has_extension(std::string_view name, std::string_view extension) {
  if (name.size() < extension.size()) return false;
  const std::string_view tail = name.substr(name.size() - extension.size());
  return std::equal(tail.begin(), tail.end(), extension.begin(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
}

input_data read_input(const std::string& file) {
  if (has_extension(file, ".png")) return read_png(file);
  return io::read_npy(file);
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t k = 0; k < shape.size(); ++k)
    text += (k ? ", " : "") + std::to_string(shape[k]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace gpuprim::cli
