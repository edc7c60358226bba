#include "input_file.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "commands.hpp"
#include "gpuprim/io/memory_limit.hpp"
#include "progress.hpp"

namespace gpuprim::cli {

template <class Bytes>
Bytes read_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw usage_error(file + ": cannot open (" + std::strerror(errno) + ")");
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  in.seekg(0);
  if (size < 0 || !in) throw usage_error(file + ": cannot read");
  Bytes bytes;
  io::resize_checked(bytes, static_cast<std::uint64_t>(size), file, "reading the file");
  // In pieces of 64 MiB, each a read of its own, so that a large file
  // reports how far it is.
  progress_stage stage("reading " + file);
  constexpr std::streamoff piece = std::streamoff{64} << 20;
  for (std::streamoff done = 0; done < size;) {
    const std::streamoff want = std::min(piece, size - done);
    in.read(reinterpret_cast<char*>(bytes.data()) + done, want);
    if (in.gcount() != want) throw usage_error(file + ": cannot read");
    done += want;
    stage.fraction(static_cast<double>(done) / static_cast<double>(size));
  }
  return bytes;
}

template std::string read_file(const std::string&);
template std::vector<std::uint8_t> read_file(const std::string&);

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
  return read_array(file);
}

io::npy_array read_array(const std::string& file) {
  const progress_stage stage("reading " + file);
  return io::read_npy(file);
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string text = "(";
  for (std::size_t k = 0; k < shape.size(); ++k)
    text += (k ? ", " : "") + std::to_string(shape[k]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace gpuprim::cli
