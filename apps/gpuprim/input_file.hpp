// The data files of the command line, read in one place: a .npy array, or,
// for a name ending in .png, a PNG image's channels (8 or 16 bits). Each
// read is a progress stage (progress.hpp): a long one reports on stderr.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpuprim/io/npy.hpp"
#include "png_image.hpp"

namespace gpuprim::cli {

// The bytes of a whole file, in a std::string or a std::vector of bytes;
// throws usage_error naming the file when it cannot be read, io::format_error
// when it is larger than this machine can hold (io::resize_checked).
template <class Bytes>
Bytes read_file(const std::string& file);

// Whether `name` ends in `extension` (".png"), in any case.
bool has_extension(std::string_view name, std::string_view extension);

// A .png file as its pixels, any other file as a .npy array; throws
// usage_error or io::format_error naming the file when it cannot be read.
using input_data = std::variant<io::npy_array, png_pixels>;
input_data read_input(const std::string& file);

// A .npy file (io::read_npy), as a progress stage "reading FILE".
io::npy_array read_array(const std::string& file);

// A shape as NumPy prints it: "(3,)", "(2, 3)".
std::string shape_text(const std::vector<std::uint64_t>& shape);

}  // namespace gpuprim::cli
