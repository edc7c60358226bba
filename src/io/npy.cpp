// .npy reader and writer. The format (numpy.lib.format):
//   "\x93NUMPY", major, minor, header length (uint16 LE for 1.0, uint32 LE
//   for 2.0 and 3.0), the header: a Python dict literal with the keys
//   'descr', 'fortran_order' and 'shape', padded with spaces and a final
//   '\n', then the raw elements.
#include "gpuprim/io/npy.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "gpuprim/io/memory_limit.hpp"
#include "gpuprim/transpose.hpp"

namespace gpuprim::io {
namespace {

constexpr std::string_view magic = "\x93NUMPY";
constexpr std::size_t prefix_bytes = 8;  // magic + major + minor
constexpr std::size_t array_align = 64;
// numpy leaves room in the header for the first axis to grow to this many
// digits, so a file can be appended to in place.
constexpr std::size_t growth_axis_max_digits = 21;

struct dtype_entry {
  dtype type;
  char kind;  // numpy's kind letter: b, u, i, f
  std::size_t size;
  std::string_view name;
  std::string_view descr;
};

constexpr std::array<dtype_entry, 12> dtype_table = {{
    {dtype::bool8, 'b', 1, "bool", "|b1"},
    {dtype::uint8, 'u', 1, "uint8", "|u1"},
    {dtype::int8, 'i', 1, "int8", "|i1"},
    {dtype::uint16, 'u', 2, "uint16", "<u2"},
    {dtype::int16, 'i', 2, "int16", "<i2"},
    {dtype::uint32, 'u', 4, "uint32", "<u4"},
    {dtype::int32, 'i', 4, "int32", "<i4"},
    {dtype::uint64, 'u', 8, "uint64", "<u8"},
    {dtype::int64, 'i', 8, "int64", "<i8"},
    {dtype::float32, 'f', 4, "float32", "<f4"},
    {dtype::float64, 'f', 8, "float64", "<f8"},
    {dtype::float16, 'f', 2, "float16", "<f2"},
}};

const dtype_entry& entry_of(dtype type) {
  return dtype_table[static_cast<std::size_t>(type)];
}

std::string describe(const std::filesystem::path& path) {
  return path.string();
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what) {
  throw format_error(describe(path) + ": " + what);
}

// Header text for messages: one line, not too long.
std::string quoted_excerpt(std::string_view text) {
  std::string out;
  for (char c : text.substr(0, 120)) {
    if (c == '\n') {
      out += "\\n";
    } else if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) {
      out += '?';
    } else {
      out += c;
    }
  }
  if (text.size() > 120) out += "...";
  return "\"" + out + "\"";
}

std::string shape_repr(std::span<const std::uint64_t> shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ',';
  return out + ")";
}

// Product of the shape times the element size, or nullopt on overflow.
std::optional<std::uint64_t> data_bytes(std::span<const std::uint64_t> shape,
                                        std::size_t element_size) {
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  std::uint64_t total = element_size;
  for (std::uint64_t extent : shape) {
    if (total > std::numeric_limits<std::uint64_t>::max() / extent) return std::nullopt;
    total *= extent;
  }
  return total;
}

// ---- header dict parser -------------------------------------------------
// A Python literal of the form numpy writes, parsed strictly: keys and
// 'descr' are quoted strings, 'fortran_order' is True or False, 'shape' is a
// tuple of non-negative integers ("(3,)", not "(3)", like Python).

struct header_fields {
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<std::uint64_t>> shape;
};

class header_parser {
 public:
  header_parser(std::string_view text, const std::filesystem::path& path)
      : text_(text), path_(path) {}

  header_fields parse() {
    header_fields fields;
    skip_space();
    expect('{', "the header to start with '{'");
    skip_space();
    while (!at('}')) {
      const std::string key = parse_string("a quoted key");
      skip_space();
      expect(':', "':' after key '" + key + "'");
      skip_space();
      if (key == "descr") {
        if (fields.descr) error("key 'descr' appears twice");
        if (at('[')) error("structured dtypes (a list as 'descr') are not supported");
        fields.descr = parse_string("a quoted dtype string as 'descr'");
      } else if (key == "fortran_order") {
        if (fields.fortran_order) error("key 'fortran_order' appears twice");
        fields.fortran_order = parse_bool();
      } else if (key == "shape") {
        if (fields.shape) error("key 'shape' appears twice");
        fields.shape = parse_shape();
      } else {
        error("unexpected key '" + key + "'");
      }
      skip_space();
      if (at(',')) {
        ++pos_;
        skip_space();
      } else if (!at('}')) {
        error("expected ',' or '}'");
      }
    }
    ++pos_;  // '}'
    skip_space();
    if (pos_ != text_.size()) error("unexpected text after the closing '}'");
    if (!fields.descr) error("key 'descr' is missing");
    if (!fields.fortran_order) error("key 'fortran_order' is missing");
    if (!fields.shape) error("key 'shape' is missing");
    return fields;
  }

 private:
  [[noreturn]] void error(const std::string& what) const {
    fail(path_, "malformed .npy header: " + what + " at offset " + std::to_string(pos_) + " of " +
                    quoted_excerpt(text_));
  }

  bool at(char c) const { return pos_ < text_.size() && text_[pos_] == c; }

  void expect(char c, const std::string& what) {
    if (!at(c)) error("expected " + what);
    ++pos_;
  }

  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  std::string parse_string(const std::string& what) {
    if (!at('\'') && !at('"')) error("expected " + what);
    const char quote = text_[pos_++];
    const std::size_t begin = pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      if (text_[pos_] == '\\') error("escape sequences in strings are not supported");
      if (text_[pos_] == '\n') break;
      ++pos_;
    }
    if (!at(quote)) error("unterminated string");
    std::string value(text_.substr(begin, pos_ - begin));
    ++pos_;
    return value;
  }

  bool parse_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    const std::size_t end = pos_ + word.size();
    if (end < text_.size() &&
        (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_'))
      return false;
    pos_ = end;
    return true;
  }

  bool parse_bool() {
    if (parse_word("True")) return true;
    if (parse_word("False")) return false;
    error("expected True or False as 'fortran_order'");
  }

  std::uint64_t parse_extent() {
    if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      error(at('-') ? "negative dimension in 'shape'" : "expected an integer in 'shape'");
    }
    std::uint64_t value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      const std::uint64_t digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
        error("dimension too large in 'shape'");
      value = value * 10 + digit;
      ++pos_;
    }
    // Python 2 long suffix, found in old version 1.0 files.
    if (at('L') || at('l')) ++pos_;
    return value;
  }

  std::vector<std::uint64_t> parse_shape() {
    expect('(', "a tuple as 'shape'");
    std::vector<std::uint64_t> shape;
    skip_space();
    bool trailing_comma = false;
    while (!at(')')) {
      shape.push_back(parse_extent());
      skip_space();
      trailing_comma = at(',');
      if (trailing_comma) {
        ++pos_;
        skip_space();
      } else if (!at(')')) {
        error("expected ',' or ')' in 'shape'");
      }
    }
    if (shape.size() == 1 && !trailing_comma) error("'shape' (n) is not a tuple; write (n,)");
    ++pos_;  // ')'
    return shape;
  }

  std::string_view text_;
  const std::filesystem::path& path_;
  std::size_t pos_ = 0;
};

// The reason a descr is not one of dtype_table's, for the error message.
std::string why_unsupported(char order, char kind, std::size_t size) {
  for (const dtype_entry& entry : dtype_table) {
    if (entry.kind == kind && entry.size == size) {
      return "the byte order must be '<' or '>'";
    }
  }
  switch (kind) {
    case 'c':
      return "complex numbers are not supported";
    case 'f':
      return "only float16 ('<f2'), float32 ('<f4') and float64 ('<f8') are supported";
    case 'i':
    case 'u':
      return "integers must be 1, 2, 4 or 8 bytes";
    case 'b':
      return "bool must be one byte ('|b1')";
    default:
      return "only bool, integer and float arrays are supported";
  }
}

struct parsed_descr {
  dtype type;
  bool big_endian;  // '>' on a type wider than one byte: swapped on load
};

// descr is <byte order><kind><size>: "<f4", ">i8", "|u1". For one-byte types
// the byte order does not matter; for wider ones it must be '<' or '>' ('=',
// native, is not written by numpy and would make the file's meaning depend
// on the writer).
parsed_descr parse_descr(const std::string& descr, const std::filesystem::path& path) {
  const bool well_formed = descr.size() >= 3 && descr.size() <= 4 &&
                           std::string_view("<>|=").find(descr[0]) != std::string_view::npos &&
                           std::all_of(descr.begin() + 2, descr.end(), [](char c) {
                             return std::isdigit(static_cast<unsigned char>(c));
                           });
  if (!well_formed) {
    fail(path,
         "unsupported dtype '" + descr + "': only bool, integer and float arrays are supported");
  }
  const char order = descr[0];
  const char kind = descr[1];
  const std::size_t size = std::stoul(descr.substr(2));
  for (const dtype_entry& entry : dtype_table) {
    if (entry.kind == kind && entry.size == size && (size == 1 || order == '<' || order == '>')) {
      return {entry.type, size > 1 && order == '>'};
    }
  }
  fail(path, "unsupported dtype '" + descr + "': " + why_unsupported(order, kind, size));
}

std::string errno_text() {
  return std::strerror(errno);
}

std::uint32_t little_endian_u32(const unsigned char* p, std::size_t bytes) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < bytes; ++i)
    value |= static_cast<std::uint32_t>(p[i]) << (8 * i);
  return value;
}

}  // namespace

std::size_t dtype_size(dtype type) noexcept {
  return entry_of(type).size;
}
std::string_view dtype_name(dtype type) noexcept {
  return entry_of(type).name;
}
std::string_view dtype_descr(dtype type) noexcept {
  return entry_of(type).descr;
}

std::uint64_t npy_array::size() const noexcept {
  std::uint64_t n = 1;
  for (std::uint64_t extent : shape)
    n *= extent;
  return n;
}

void npy_array::check_type(dtype wanted) const {
  if (wanted != type) {
    throw std::invalid_argument("npy_array holds " + std::string(dtype_name(type)) +
                                " elements, not " + std::string(dtype_name(wanted)));
  }
}

std::string npy_header(dtype type, std::span<const std::uint64_t> shape) {
  std::string dict = "{'descr': '" + std::string(dtype_descr(type)) +
                     "', 'fortran_order': False, 'shape': " + shape_repr(shape) + ", }";
  if (!shape.empty()) {
    const std::size_t digits = std::to_string(shape[0]).size();
    dict.append(growth_axis_max_digits > digits ? growth_axis_max_digits - digits : 0, ' ');
  }
  const std::size_t text_bytes = dict.size() + 1;  // + '\n'
  for (std::size_t length_bytes : {2, 4}) {
    const std::size_t before = prefix_bytes + length_bytes + text_bytes;
    // Like numpy: a header that is already aligned still gets 64 spaces.
    const std::size_t padding = array_align - before % array_align;
    const std::size_t header_length = text_bytes + padding;
    if (length_bytes == 2 && header_length > 0xffff) continue;  // needs version 2.0
    std::string out(magic);
    out += static_cast<char>(length_bytes == 2 ? 1 : 2);
    out += '\0';
    for (std::size_t i = 0; i < length_bytes; ++i)
      out += static_cast<char>((header_length >> (8 * i)) & 0xff);
    out += dict;
    out.append(padding, ' ');
    out += '\n';
    return out;
  }
  throw std::invalid_argument("npy_header: header of " + std::to_string(text_bytes) +
                              " bytes is too long");
}

// Reverses the byte order of every element (big-endian files).
void swap_bytes(std::vector<std::byte>& bytes, std::size_t element_size) {
  for (std::size_t i = 0; i + element_size <= bytes.size(); i += element_size)
    std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(i),
                 bytes.begin() + static_cast<std::ptrdiff_t>(i + element_size));
}

// Column-major data of shape (d0, d1, ..., dk-1) is the row-major array of
// the reversed shape (dk-1, ..., d0). Reversing its axes gives the C order
// that numpy.load's array has: move the last axis (d0) to the front with
// one transpose, then reverse the axes behind it, batch by batch, until
// they are in order. k - 1 passes over the data, each the dense family's
// cache-blocked host transpose of raw elements.
std::vector<std::byte> fortran_to_c_order(std::vector<std::byte> data,
                                          const std::vector<std::uint64_t>& shape,
                                          std::size_t element_size) {
  // An empty array (some axis 0) has nothing to move, and the product of
  // its other axes need not fit in memory.
  if (data.empty()) return data;
  std::vector<std::uint64_t> current(shape.rbegin(), shape.rend());  // row-major shape of data
  std::vector<std::byte> scratch(data.size());
  std::size_t batch = 1;
  for (std::size_t done = 0; done + 1 < shape.size(); ++done) {
    // Axes [0, done) are in place; move the last axis to position `done`.
    std::size_t inner = 1;
    for (std::size_t a = done; a + 1 < current.size(); ++a)
      inner *= current[a];
    const std::size_t last = current.back();
    transpose_bytes_batched(gpuprim::host, element_size, data.data(), scratch.data(), batch, inner,
                            last);
    std::swap(data, scratch);
    current.insert(current.begin() + static_cast<std::ptrdiff_t>(done), last);
    current.pop_back();
    batch *= current[done];
  }
  return data;
}

double half_to_double(std::uint16_t bits) noexcept {
  return static_cast<float>(half::from_bits(bits));  // half -> float -> double: exact
}

namespace {

template <class T, class S>
void convert_elements(const npy_array& array, std::vector<T>& out) {
  const std::byte* p = array.bytes.data();
  for (std::size_t k = 0; k < out.size(); ++k) {
    S v;
    std::memcpy(&v, p + k * sizeof(S), sizeof(S));
    if constexpr (std::is_same_v<S, half>) {
      out[k] = static_cast<T>(static_cast<float>(v));  // exact
    } else {
      out[k] = static_cast<T>(v);
    }
  }
}

}  // namespace

template <class T>
std::vector<T> values_as(const npy_array& array) {
  std::vector<T> out(array.bytes.size() / dtype_size(array.type));
  visit_dtype(array.type, [&]<class S>(std::type_identity<S>) {
    // numpy's bool as the byte it is stored in.
    convert_elements<T, std::conditional_t<std::is_same_v<S, bool>, std::uint8_t, S>>(array, out);
  });
  return out;
}

template std::vector<float> values_as<float>(const npy_array&);
template std::vector<double> values_as<double>(const npy_array&);

template <class T>
npy_values<T> read_npy_as(const std::filesystem::path& path) {
  npy_array array = read_npy(path);
  npy_values<T> out;
  out.stored = array.type;
  out.values = values_as<T>(array);
  out.shape = std::move(array.shape);
  return out;
}

template npy_values<float> read_npy_as<float>(const std::filesystem::path&);
template npy_values<double> read_npy_as<double>(const std::filesystem::path&);

namespace {

// Reads up to `count` bytes from `in` into `out` (appended), in pieces, so
// a count that a corrupt header made up allocates no more than the stream
// holds. Returns the bytes read.
template <class Buffer>
std::uint64_t read_pieces(std::istream& in, std::uint64_t count, Buffer& out) {
  constexpr std::uint64_t piece = std::uint64_t{64} << 20;
  std::uint64_t done = 0;
  while (done < count) {
    const std::size_t have = out.size();
    const auto want = static_cast<std::size_t>(std::min(piece, count - done));
    out.resize(have + want);
    in.read(reinterpret_cast<char*>(out.data() + have), static_cast<std::streamsize>(want));
    const auto got = static_cast<std::size_t>(in.gcount());
    done += got;
    if (got != want) {
      out.resize(have + got);
      break;
    }
  }
  return done;
}

// The prefix and header of a .npy stream; `in` is left at the data.
// `file_size` (when known) bounds the header before it is read.
npy_info read_header(std::istream& in, const std::filesystem::path& path,
                     std::optional<std::uint64_t> file_size) {
  unsigned char prefix[prefix_bytes + 4];
  in.read(reinterpret_cast<char*>(prefix), prefix_bytes);
  if (in.gcount() == 0) fail(path, "empty file, not a .npy file");
  if (static_cast<std::size_t>(in.gcount()) < magic.size() ||
      std::memcmp(prefix, magic.data(), magic.size()) != 0) {
    fail(path, "not a .npy file (bad magic: the file must start with \"\\x93NUMPY\")");
  }
  if (static_cast<std::size_t>(in.gcount()) < prefix_bytes) fail(path, "truncated .npy prefix");
  const int major = prefix[6];
  const int minor = prefix[7];
  if (!(major >= 1 && major <= 3 && minor == 0)) {
    fail(path, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(minor) + " (1.0, 2.0 and 3.0 are supported)");
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  in.read(reinterpret_cast<char*>(prefix + prefix_bytes), length_bytes);
  if (static_cast<std::size_t>(in.gcount()) < length_bytes) fail(path, "truncated .npy prefix");
  const std::uint32_t header_length = little_endian_u32(prefix + prefix_bytes, length_bytes);
  const std::uint64_t header_start = prefix_bytes + length_bytes;
  const auto truncated = [&](std::uint64_t have) {
    fail(path, "truncated header: the prefix says " + std::to_string(header_length) +
                   " bytes, the file has " + std::to_string(have) + " after the prefix");
  };
  if (file_size && *file_size - std::min(*file_size, header_start) < header_length) {
    truncated(*file_size - std::min(*file_size, header_start));
  }
  std::string header;
  const std::uint64_t got = read_pieces(in, header_length, header);
  if (got < header_length) truncated(got);
  if (header.empty() || header.back() != '\n') {
    fail(path, "malformed .npy header: it does not end with '\\n': " + quoted_excerpt(header));
  }

  header_fields fields = header_parser(header, path).parse();
  npy_info info;
  const parsed_descr descr = parse_descr(*fields.descr, path);
  info.type = descr.type;
  info.big_endian = descr.big_endian;
  info.shape = std::move(*fields.shape);
  // Column-major and row-major data are the same when at most one axis is
  // longer than 1.
  const auto long_axes = std::count_if(info.shape.begin(), info.shape.end(),
                                       [](std::uint64_t extent) { return extent > 1; });
  info.reorder = *fields.fortran_order && long_axes > 1;
  const std::optional<std::uint64_t> expected = data_bytes(info.shape, dtype_size(info.type));
  if (!expected || *expected > std::numeric_limits<std::size_t>::max()) {
    fail(path, "shape " + shape_repr(info.shape) + " of " + std::string(dtype_name(info.type)) +
                   " is too large");
  }
  info.data_offset = prefix_bytes + length_bytes + header_length;
  return info;
}

}  // namespace

std::uint64_t npy_info::size() const noexcept {
  std::uint64_t n = 1;
  for (std::uint64_t extent : shape)
    n *= extent;
  return n;
}

namespace {

// A read-only stream over bytes in memory.
class memory_buffer : public std::streambuf {
 public:
  explicit memory_buffer(std::span<const std::byte> bytes) {
    char* begin = const_cast<char*>(reinterpret_cast<const char*>(bytes.data()));
    setg(begin, begin, begin + bytes.size());
  }
};

// A whole .npy stream; `file_size` is its length when known (a regular
// file, bytes in memory), nullopt for a pipe.
npy_array read_npy_stream(std::istream& in, const std::filesystem::path& path,
                          std::optional<std::uint64_t> file_size) {
  const npy_info info = read_header(in, path, file_size);
  npy_array array;
  array.type = info.type;
  array.shape = info.shape;
  const std::size_t element_size = dtype_size(array.type);
  const std::string what =
      "shape " + shape_repr(array.shape) + " of " + std::string(dtype_name(array.type));
  const std::uint64_t expected = *data_bytes(array.shape, element_size);  // read_header checked

  const auto too_short = [&](std::uint64_t have) {
    fail(path, "data is truncated: " + what + " needs " + std::to_string(expected) +
                   " bytes, the file has " + std::to_string(have));
  };
  const auto too_long = [&](std::uint64_t have) {
    fail(path,
         "the file has " + std::to_string(have - expected) + " bytes after the data of " + what);
  };
  if (file_size) {
    // The size first, so a corrupt shape cannot ask for a huge buffer.
    const std::uint64_t available =
        *file_size >= info.data_offset ? *file_size - info.data_offset : 0;
    if (available < expected) too_short(available);
    if (available > expected) too_long(available);
    resize_checked(array.bytes, expected, path, "the data of " + what);
    in.read(reinterpret_cast<char*>(array.bytes.data()),
            static_cast<std::streamsize>(array.bytes.size()));
    if (static_cast<std::uint64_t>(in.gcount()) != expected) too_short(in.gcount());
  } else {
    // A pipe: read in pieces up to the expected size, then look for more.
    const std::uint64_t got = read_pieces(in, expected, array.bytes);
    if (got < expected) too_short(got);
    if (in.peek() != std::char_traits<char>::eof()) {
      std::uint64_t extra = 0;
      while (in.get(), !in.eof())
        ++extra;
      too_long(expected + extra);
    }
  }
  if (in.bad()) fail(path, "read error: " + errno_text());
  if (info.big_endian) swap_bytes(array.bytes, element_size);
  if (info.reorder) {
    array.bytes = fortran_to_c_order(std::move(array.bytes), array.shape, element_size);
  }

  if (array.type == dtype::bool8) {
    const auto bad = std::find_if(array.bytes.begin(), array.bytes.end(),
                                  [](std::byte b) { return std::to_integer<unsigned>(b) > 1; });
    if (bad != array.bytes.end()) {
      fail(path, "bool element " + std::to_string(bad - array.bytes.begin()) + " is " +
                     std::to_string(std::to_integer<unsigned>(*bad)) + ", not 0 or 1");
    }
  }
  return array;
}

// The length of a regular file, nullopt for a pipe or other stream.
std::optional<std::uint64_t> regular_file_size(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(std::filesystem::status(path, error))) return std::nullopt;
  const std::uint64_t size = std::filesystem::file_size(path, error);
  if (error) return std::nullopt;
  return size;
}

// A whole .npy file opened for reading; a directory or a file that cannot
// be opened is a format_error.
std::ifstream open_npy(const std::filesystem::path& path) {
  std::error_code status_error;
  if (std::filesystem::is_directory(std::filesystem::status(path, status_error))) {
    fail(path, "is a directory, not a .npy file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open for reading: " + errno_text());
  return in;
}

}  // namespace

npy_array read_npy(const std::filesystem::path& path) {
  std::ifstream in = open_npy(path);
  return read_npy_stream(in, path, regular_file_size(path));
}

npy_array read_npy_bytes(std::span<const std::byte> file, const std::filesystem::path& name) {
  memory_buffer buffer(file);
  std::istream in(&buffer);
  return read_npy_stream(in, name, file.size());
}

void write_npy(const std::filesystem::path& path, dtype type, std::span<const std::byte> bytes,
               std::span<const std::uint64_t> shape) {
  const std::optional<std::uint64_t> expected = data_bytes(shape, dtype_size(type));
  if (!expected || *expected != bytes.size()) {
    throw std::invalid_argument("write_npy: " + describe(path) + ": shape " + shape_repr(shape) +
                                " of " + std::string(dtype_name(type)) + " does not match " +
                                std::to_string(bytes.size()) + " bytes of data");
  }
  const std::string header = npy_header(type, shape);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot open for writing: " + errno_text());
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) fail(path, "write error: " + errno_text());
}

void write_npy(const std::filesystem::path& path, const npy_array& array) {
  write_npy(path, array.type, array.bytes, array.shape);
}

npy_info read_npy_info(const std::filesystem::path& path) {
  std::ifstream in = open_npy(path);
  const std::optional<std::uint64_t> file_size = regular_file_size(path);
  npy_info info = read_header(in, path, file_size);
  const std::uint64_t expected = *data_bytes(info.shape, dtype_size(info.type));
  if (file_size && *file_size - std::min(*file_size, info.data_offset) != expected) {
    fail(path, "the data is " +
                   std::to_string(*file_size - std::min(*file_size, info.data_offset)) +
                   " bytes; shape " + shape_repr(info.shape) + " of " +
                   std::string(dtype_name(info.type)) + " needs " + std::to_string(expected));
  }
  return info;
}

std::vector<std::byte> read_npy_slice(const std::filesystem::path& path, const npy_info& info,
                                      std::uint64_t begin, std::uint64_t count) {
  if (info.reorder) {
    fail(path,
         "is in Fortran order with more than one axis longer than 1: a slice of the "
         "flattened array is not contiguous in the file (save it in C order)");
  }
  if (begin > info.size() || count > info.size() - begin) {
    throw std::invalid_argument("read_npy_slice: " + describe(path) + ": elements [" +
                                std::to_string(begin) + ", " + std::to_string(begin + count) +
                                ") of " + std::to_string(info.size()));
  }
  const std::size_t element_size = dtype_size(info.type);
  std::vector<std::byte> bytes;
  resize_checked(bytes, count * element_size, path,
                 "a slice of " + std::to_string(count) + " elements");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open for reading: " + errno_text());
  in.seekg(static_cast<std::streamoff>(info.data_offset + begin * element_size));
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (static_cast<std::uint64_t>(in.gcount()) != bytes.size()) fail(path, "data is truncated");
  if (info.big_endian) swap_bytes(bytes, element_size);
  if (info.type == dtype::bool8) {
    for (std::byte b : bytes) {
      if (std::to_integer<unsigned>(b) > 1) fail(path, "a bool element is not 0 or 1");
    }
  }
  return bytes;
}

void create_npy(const std::filesystem::path& path, dtype type,
                std::span<const std::uint64_t> shape) {
  const std::optional<std::uint64_t> bytes = data_bytes(shape, dtype_size(type));
  if (!bytes) throw std::invalid_argument("create_npy: " + describe(path) + ": too large");
  const std::string header = npy_header(type, shape);
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) fail(path, "cannot open for writing: " + errno_text());
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    if (!out) fail(path, "write error: " + errno_text());
  }
  std::error_code error;
  std::filesystem::resize_file(path, header.size() + *bytes, error);
  if (error) fail(path, "cannot size the file: " + error.message());
}

void write_npy_slice(const std::filesystem::path& path, dtype type,
                     std::span<const std::uint64_t> shape, std::uint64_t begin,
                     std::span<const std::byte> bytes) {
  const std::uint64_t at = npy_header(type, shape).size() + begin * dtype_size(type);
  std::fstream out(path, std::ios::binary | std::ios::in | std::ios::out);
  if (!out) fail(path, "cannot open for writing: " + errno_text());
  out.seekp(static_cast<std::streamoff>(at));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) fail(path, "write error: " + errno_text());
}

}  // namespace gpuprim::io
