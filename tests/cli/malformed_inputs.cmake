# Malformed input files (written by make_malformed_inputs) through every
# command that reads their format: each must exit 2 with one line naming
# the file and what is wrong, and leave no output file. The files are a few
# bytes that declare terabytes (Matrix Market sizes whose product wraps in
# 64 bits, 2^40 rows, a PNG of 65535 x 65535 pixels, a .npy header of
# 2^32 - 1 bytes, a PNG chunk of 2^31 bytes) or break a rule that SciPy or
# the PNG specification enforces. Included by tests/cli/CMakeLists.txt.
add_executable(make_malformed_inputs make_malformed_inputs.cpp)
find_package(ZLIB REQUIRED)
target_link_libraries(make_malformed_inputs PRIVATE gpuprim PNG::PNG ZLIB::ZLIB)

set(malformed ${CMAKE_CURRENT_BINARY_DIR}/malformed)
set(malformed_out ${CMAKE_CURRENT_BINARY_DIR}/malformed_out)
file(MAKE_DIRECTORY ${malformed_out})
add_test(NAME cli.make_malformed_inputs COMMAND make_malformed_inputs ${malformed})
set_tests_properties(cli.make_malformed_inputs PROPERTIES
  FIXTURES_SETUP gpuprim_cli_malformed LABELS cli)

# gpuprim_malformed_test(<name> STDERR_CONTAINS <text> [EXT <output extension>]
#                        [NO_OUTPUT_OPTION] ARGS <command and arguments...>):
# exit 2, one line on stderr containing the text, no output file. The
# command gets `-o <output>` unless NO_OUTPUT_OPTION (commands that print).
function(gpuprim_malformed_test name)
  cmake_parse_arguments(PARSE_ARGV 1 T "NO_OUTPUT_OPTION" "STDERR_CONTAINS;EXT" "ARGS")
  if(NOT DEFINED T_EXT)
    set(T_EXT .npy)
  endif()
  set(out ${malformed_out}/${name}${T_EXT})
  set(output_option -o ${out})
  if(T_NO_OUTPUT_OPTION)
    set(output_option)
  endif()
  add_test(NAME cli.malformed_${name}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${out} "-DSTDERR_CONTAINS=${T_STDERR_CONTAINS}"
            -P ${CMAKE_CURRENT_SOURCE_DIR}/run_cli_no_output.cmake
            -- $<TARGET_FILE:gpuprim-cli> ${T_ARGS} ${output_option} --backend host)
  set_tests_properties(cli.malformed_${name} PROPERTIES
    FIXTURES_REQUIRED gpuprim_cli_malformed LABELS cli)
endfunction()

# ---- Matrix Market: spmv and solve ------------------------------------------
set(mtx_cases
  "dense_2p32_squared|announces more than 2^64 entries"
  "dense_2p33_by_2p31|announces more than 2^64 entries"
  "dense_values_missing|announces 10000000000 entries, but the 4 bytes after it can hold at most 2"
  "rows_2p40|converting 1099511627776 rows to CSR needs 8192 GiB, more than this machine can give"
  "symmetric_2p62|needs more than 2^64 bytes, more than this machine can give"
  "entries_missing|announces 1000000000000 entries"
  "comment_between_entries|:4: a comment line among the entries"
  "lower_case_banner|:1: not a Matrix Market file"
  "plus_sign_value|:3: bad number '+1'")
foreach(entry IN LISTS mtx_cases)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 file)
  list(GET parts 1 message)
  gpuprim_malformed_test(spmv_${file} STDERR_CONTAINS "${file}.mtx"
    ARGS spmv ${malformed}/${file}.mtx ${malformed}/vector_4.npy)
  gpuprim_malformed_test(spmv_${file}_says_why STDERR_CONTAINS "${message}"
    ARGS spmv ${malformed}/${file}.mtx ${malformed}/vector_4.npy)
  gpuprim_malformed_test(solve_${file} STDERR_CONTAINS "${message}"
    ARGS solve ${malformed}/${file}.mtx ${malformed}/vector_4.npy)
endforeach()

# A plausible size that this machine cannot give (an address space of
# 1.5 GB here, as under `ulimit -v`): exit 2, "needs N GiB, more than this
# machine can give", with the size of the allocation that failed.
add_test(NAME cli.malformed_spmv_out_of_memory
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${malformed_out}/out_of_memory.npy
          "-DSTDERR_CONTAINS=gpuprim spmv: out of memory: the command needs"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/run_cli_no_output.cmake
          -- sh -c "ulimit -v 1500000 && exec \"\$0\" \"\$@\"" $<TARGET_FILE:gpuprim-cli>
          spmv ${malformed}/rows_2p27.mtx ${malformed}/vector_4.npy
          -o ${malformed_out}/out_of_memory.npy --backend host)
set_tests_properties(cli.malformed_spmv_out_of_memory PROPERTIES
  FIXTURES_REQUIRED gpuprim_cli_malformed LABELS cli ENVIRONMENT OMP_NUM_THREADS=2)

# ---- PNG: histogram and convolve ----------------------------------------------
set(png_cases
  "ihdr_65535_squared|IHDR declares a 65535 x 65535 image"
  "text_length_2p31|PNG chunk tEXt at byte"
  "palette_index_beyond_plte|pixel (0, 1) has palette index 5, but the palette (PLTE) has 2 colors"
  "critical_bad_crc|cannot read PNG image (IDAT: CRC error)"
  "truncated|truncated PNG image")
foreach(entry IN LISTS png_cases)
  string(REPLACE "|" ";" parts "${entry}")
  list(GET parts 0 file)
  list(GET parts 1 message)
  gpuprim_malformed_test(histogram_${file} STDERR_CONTAINS "${file}.png: ${message}"
    NO_OUTPUT_OPTION ARGS histogram ${malformed}/${file}.png --bins 4)
  gpuprim_malformed_test(convolve_${file} STDERR_CONTAINS "${file}.png: ${message}" EXT .png
    ARGS convolve ${malformed}/${file}.png --filter box:1)
endforeach()
# Kept as libpng keeps them (docs/design.md, "Readers"): an ancillary chunk
# with a bad CRC is ignored, bytes after IEND are not read; a palette image
# reads as its colors. Each convolved with the 1 x 1 identity gives back
# the image libpng writes for its pixels.
foreach(pair "ancillary_bad_crc|gray_2x1" "data_after_iend|gray_2x1" "palette_2x1|palette_2x1_as_rgb")
  string(REPLACE "|" ";" parts "${pair}")
  list(GET parts 0 file)
  list(GET parts 1 expected)
  gpuprim_cli_test(malformed_kept_${file} EXIT 0 OUTPUT ${malformed_out}/kept_${file}.png
    EXPECTED ${malformed}/${expected}.png
    ARGS convolve ${malformed}/${file}.png --filter ${malformed}/identity_filter.npy
         -o ${malformed_out}/kept_${file}.png --backend host)
  set_tests_properties(cli.malformed_kept_${file} PROPERTIES
    FIXTURES_REQUIRED "gpuprim_cli_malformed;gpuprim_cli_arrays")
endforeach()

# ---- .npy: a 12-byte file whose header length is 2^32 - 1 --------------------
set(npy_message "header_length_2p32.npy: truncated header: the prefix says 4294967295 bytes")
set(bad_npy ${malformed}/header_length_2p32.npy)
gpuprim_malformed_test(reduce_npy_header STDERR_CONTAINS "${npy_message}" NO_OUTPUT_OPTION
  ARGS reduce ${bad_npy})
gpuprim_malformed_test(histogram_npy_header STDERR_CONTAINS "${npy_message}" NO_OUTPUT_OPTION
  ARGS histogram ${bad_npy} --bins 4)
gpuprim_malformed_test(closest_pair_npy_header STDERR_CONTAINS "${npy_message}"
  NO_OUTPUT_OPTION ARGS closest-pair ${bad_npy})
gpuprim_malformed_test(transpose_npy_header STDERR_CONTAINS "${npy_message}"
  ARGS transpose ${bad_npy})
gpuprim_malformed_test(matmul_npy_header_a STDERR_CONTAINS "${npy_message}"
  ARGS matmul ${bad_npy} ${malformed}/identity_filter.npy)
gpuprim_malformed_test(matmul_npy_header_b STDERR_CONTAINS "${npy_message}"
  ARGS matmul ${malformed}/identity_filter.npy ${bad_npy})
gpuprim_malformed_test(scan_npy_header STDERR_CONTAINS "${npy_message}" ARGS scan ${bad_npy})
gpuprim_malformed_test(sort_npy_header STDERR_CONTAINS "${npy_message}" ARGS sort ${bad_npy})
gpuprim_malformed_test(convolve_npy_header STDERR_CONTAINS "${npy_message}"
  ARGS convolve ${bad_npy} --filter box:1)
gpuprim_malformed_test(convolve_npy_header_filter STDERR_CONTAINS "${npy_message}"
  ARGS convolve ${malformed}/identity_filter.npy --filter ${bad_npy})
gpuprim_malformed_test(spmv_npy_header STDERR_CONTAINS "${npy_message}"
  ARGS spmv ${malformed}/identity_2x2.mtx ${bad_npy})
gpuprim_malformed_test(solve_npy_header STDERR_CONTAINS "${npy_message}"
  ARGS solve ${malformed}/identity_2x2.mtx ${bad_npy})

# ---- CSV points ----------------------------------------------------------------
gpuprim_malformed_test(closest_pair_csv_bad_number
  STDERR_CONTAINS "points_bad_number.csv: line 3: not 2 or 3 comma-separated numbers"
  NO_OUTPUT_OPTION ARGS closest-pair ${malformed}/points_bad_number.csv)

# ---- unit tests of the command line's own readers (PNG, CSV points) ----------
add_executable(gpuprim_cli_reader_tests png_reader_test.cpp point_csv_test.cpp)
target_include_directories(gpuprim_cli_reader_tests PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(gpuprim_cli_reader_tests PRIVATE gpuprim_cli_readers ZLIB::ZLIB
  GTest::gtest_main)
gtest_discover_tests(gpuprim_cli_reader_tests DISCOVERY_MODE PRE_TEST PROPERTIES LABELS host)
