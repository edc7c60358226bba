// NumPy .npy arrays: read (format 1.0, 2.0, 3.0) and write (1.0, or 2.0 when
// the header needs it), byte for byte as numpy.save writes them.
//
//   gp::io::npy_array a = gp::io::read_npy("x.npy");
//   if (a.type == gp::io::dtype::float32) use(a.values<float>());
//   gp::io::write_npy<float>("y.npy", values, {rows, cols});
//
// Supported: bool, integers of 1, 2, 4 and 8 bytes, float16, float32 and
// float64, little- or big-endian ('<', '>', or '|' for one-byte types), in C or
// Fortran order, of any shape (0-d and empty included). The reader returns
// what numpy.load returns: big-endian values are byte-swapped and
// column-major (fortran_order True) data is reordered on load, so `bytes`
// is always native-endian C order, as np.ravel(a) lists the elements.
// Files are always written little-endian in C order. Anything else
// (complex, structured, strings, short data) is a
// format_error naming the file and the problem; nothing is silently
// truncated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/detail/type_list.hpp"

namespace gpuprim::io {

// A file is unreadable, malformed or of a kind this reader does not support.
// The message starts with the file's path.
class format_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class dtype {
  bool8,  // numpy bool: one byte, 0 or 1
  uint8,
  int8,
  uint16,
  int16,
  uint32,
  int32,
  uint64,
  int64,
  float32,
  float64,
  float16,  // IEEE binary16 ('<f2'), as gp::half (core/low_precision.hpp)
};

// Bytes per element.
std::size_t dtype_size(dtype type) noexcept;
// numpy's name: "bool", "uint8", ..., "float64".
std::string_view dtype_name(dtype type) noexcept;
// The descr numpy writes: "|b1", "|u1", "|i1", "<u2", ..., "<f8".
std::string_view dtype_descr(dtype type) noexcept;

// The element type of each dtype, in the order of the enum: bool, the
// fixed-width integers, float, double, and gp::half for float16.
using dtype_types =
    detail::type_list<bool, std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t,
                      std::int32_t, std::uint64_t, std::int64_t, float, double, half>;

// The dtype of T (a compile error for types without a .npy dtype).
template <class T>
struct dtype_of_t
    : std::integral_constant<dtype, static_cast<dtype>(detail::index_of<dtype_types, T>)> {};

template <class T>
inline constexpr dtype dtype_of = dtype_of_t<std::remove_cv_t<T>>::value;

// NumPy's type of a sum of integers of type T (numpy.sum, numpy.cumsum):
// int64 for bool and the signed integers, uint64 for the unsigned ones.
template <class T>
using numpy_integer_sum_t = std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                               std::uint64_t, std::int64_t>;

// Calls f(std::type_identity<T>{}) with the element type T of `type` (see
// dtype_types). Every call of f must return the same type; a caller
// refuses the dtypes it does not take inside f (with if constexpr on T).
template <class F>
decltype(auto) visit_dtype(dtype type, F&& f) {
  return detail::visit_nth(dtype_types{}, static_cast<std::size_t>(type), std::forward<F>(f),
                           "visit_dtype: not a dtype");
}

// An array as stored in a .npy file: element type, shape (empty for a 0-d
// array, which holds one element) and the elements' bytes in C order.
struct npy_array {
  dtype type = dtype::float64;
  std::vector<std::uint64_t> shape;
  std::vector<std::byte> bytes;

  // Number of elements: the product of the shape (1 for 0-d).
  std::uint64_t size() const noexcept;

  // The elements as T; throws std::invalid_argument when T is not the
  // array's type (no conversion happens).
  template <class T>
  std::span<const T> values() const {
    check_type(dtype_of<T>);
    return {reinterpret_cast<const T*>(bytes.data()), bytes.size() / sizeof(T)};
  }
  template <class T>
  std::span<T> values() {
    check_type(dtype_of<T>);
    return {reinterpret_cast<T*>(bytes.data()), bytes.size() / sizeof(T)};
  }

 private:
  void check_type(dtype wanted) const;
};

// IEEE binary16 bits as a double (gp::half's conversion): exact, the
// subnormals, +-0, +-inf and NaN included.
double half_to_double(std::uint16_t bits) noexcept;

// The elements of an array of any dtype converted to T (float or double), in
// C order: bool as 0/1, integers and float16 as the nearest T (exact in
// double for float16, float32 and integers up to 2^53), float64 to float
// rounded to nearest. What a program wants when it takes "any real array".
template <class T>
std::vector<T> values_as(const npy_array& array);
extern template std::vector<float> values_as<float>(const npy_array&);
extern template std::vector<double> values_as<double>(const npy_array&);

// An array's shape and its elements converted to T (read_npy + values_as).
template <class T>
struct npy_values {
  dtype stored = dtype::float64;  // the file's dtype, before the conversion
  std::vector<std::uint64_t> shape;
  std::vector<T> values;
};
template <class T>
npy_values<T> read_npy_as(const std::filesystem::path& path);
extern template npy_values<float> read_npy_as<float>(const std::filesystem::path&);
extern template npy_values<double> read_npy_as<double>(const std::filesystem::path&);

// Reads a whole .npy file. Throws format_error (file missing or unreadable,
// bad magic, unsupported version, malformed or truncated header, unsupported
// dtype, data shorter or longer than the shape says, a bool byte other than
// 0 or 1). Every size the header declares is checked against the file's
// length before anything is allocated.
npy_array read_npy(const std::filesystem::path& path);

// The same from a whole file's bytes in memory; `name` names it in errors.
npy_array read_npy_bytes(std::span<const std::byte> file, const std::filesystem::path& name);

// Writes `bytes` (elements of `type` in C order) with the given shape; an
// empty shape writes a 0-d array. Throws std::invalid_argument when the byte
// count does not match the shape, format_error when the file cannot be written.
void write_npy(const std::filesystem::path& path, dtype type, std::span<const std::byte> bytes,
               std::span<const std::uint64_t> shape);

void write_npy(const std::filesystem::path& path, const npy_array& array);

// Writes `values` with the given shape (default: 1-D of values.size()).
template <class T>
void write_npy(const std::filesystem::path& path, std::span<const T> values,
               std::span<const std::uint64_t> shape) {
  write_npy(path, dtype_of<T>, std::as_bytes(values), shape);
}
template <class T>
void write_npy(const std::filesystem::path& path, std::span<const T> values,
               std::initializer_list<std::uint64_t> shape) {
  write_npy(path, values, std::span<const std::uint64_t>(shape.begin(), shape.size()));
}
template <class T>
void write_npy(const std::filesystem::path& path, std::span<const T> values) {
  const std::uint64_t length = values.size();
  write_npy(path, values, std::span<const std::uint64_t>(&length, 1));
}
template <class T>
void write_npy(const std::filesystem::path& path, const std::vector<T>& values) {
  write_npy(path, std::span<const T>(values));
}

// Reading and writing slices, for processes that each hold part of one
// array (gpuprim ... --distributed): the header alone, elements
// [begin, begin + count) of the flattened array, and a file written in
// pieces (create_npy writes the header and sizes the file, then each
// write_npy_slice fills its elements).
struct npy_info {
  dtype type = dtype::float64;
  std::vector<std::uint64_t> shape;
  std::uint64_t data_offset = 0;  // bytes before the data
  bool big_endian = false;
  bool reorder = false;  // Fortran order with two or more axes longer than 1

  std::uint64_t size() const noexcept;
};

// The header; format_error as read_npy, also when the file's size does
// not match the shape.
npy_info read_npy_info(const std::filesystem::path& path);
// Elements [begin, begin + count) in native byte order. Fortran-ordered
// arrays with more than one long axis are a format_error (their flattened
// elements are not contiguous in the file).
std::vector<std::byte> read_npy_slice(const std::filesystem::path& path, const npy_info& info,
                                      std::uint64_t begin, std::uint64_t count);
// The header numpy.save writes for this type and shape, and room for the data.
void create_npy(const std::filesystem::path& path, dtype type,
                std::span<const std::uint64_t> shape);
// Elements from `begin` of a file made by create_npy with this type and shape.
void write_npy_slice(const std::filesystem::path& path, dtype type,
                     std::span<const std::uint64_t> shape, std::uint64_t begin,
                     std::span<const std::byte> bytes);

// The bytes before the data in a file numpy.save would write for this type
// and shape: magic, version, header length, the header dict (with numpy's
// spare room for the first axis to grow), spaces and '\n' up to a multiple
// of 64 bytes.
std::string npy_header(dtype type, std::span<const std::uint64_t> shape);

}  // namespace gpuprim::io
