# `gpuprim histogram` against numpy.histogram's own output, on both backends:
# every case of tests/data/histogram/cases.txt (written by NumPy with
# make_numpy_cases.py) must print exactly NAME.cli.txt, or, where NumPy
# raised ValueError, exit 2 with one line saying why.
set(numpy_cases ${PROJECT_SOURCE_DIR}/tests/data/histogram)
file(STRINGS ${numpy_cases}/cases.txt numpy_case_lines REGEX "^[^#]")
foreach(line IN LISTS numpy_case_lines)
  string(REPLACE " " ";" fields "${line}")
  list(GET fields 0 name)
  list(GET fields 1 bins)
  list(GET fields 2 range)
  set(args histogram ${numpy_cases}/${name}.in.npy --bins ${bins})
  if(NOT range STREQUAL "none")
    string(REPLACE "," ";" bounds "${range}")
    list(APPEND args --range ${bounds})
  endif()
  list(LENGTH fields count)
  foreach(backend host cuda)
    if(backend STREQUAL "cuda")
      set(device DEVICE required)
    else()
      set(device)
    endif()
    if(count GREATER 3)
      gpuprim_cli_test(${backend}_histogram_numpy_${name} EXIT 2 ${device}
        STDERR_CONTAINS "gpuprim histogram: gpuprim::"
        ARGS ${args} --backend ${backend})
    else()
      file(READ ${numpy_cases}/${name}.cli.txt expected)
      string(REGEX REPLACE "\n$" "" expected "${expected}")
      gpuprim_cli_test(${backend}_histogram_numpy_${name} EXIT 0 ${device} STDOUT "${expected}"
        ARGS ${args} --backend ${backend})
    endif()
  endforeach()
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${numpy_cases}/cases.txt)

# What NumPy says about these, in words.
gpuprim_cli_test(histogram_numpy_autodetected_nan EXIT 2
  STDERR_CONTAINS "autodetected range of [nan, nan] is not finite"
  ARGS histogram ${numpy_cases}/f32_nan_default.in.npy --backend host)
gpuprim_cli_test(histogram_numpy_too_many_bins EXIT 2
  STDERR_CONTAINS "too many bins for the data range"
  ARGS histogram ${numpy_cases}/f16_too_many_bins.in.npy --bins 5000 --range 0 1 --backend host)
gpuprim_cli_test(histogram_reversed_range EXIT 2
  STDERR_CONTAINS "range [3, 1]: max must be larger than min"
  ARGS histogram ${arrays}/float32.npy --bins 4 --range 3 1 --backend host)
gpuprim_cli_test(histogram_bins_default_to_ten EXIT 0
  STDOUT_CONTAINS "9 8.1 9 1\nleft out: 0"
  ARGS histogram ${numpy_cases}/i32_ten_default.in.npy --backend host)
gpuprim_cli_test(histogram_help_says_numpy EXIT 0 STDOUT_CONTAINS "numpy.histogram"
  ARGS histogram --help)
