# CLI tests of the commands' NumPy / SciPy words: each answer is compared
# with what SciPy or NumPy computes for the same input (the files in
# tests/data/scipy, written by its make_expected.py), on the host backend and
# on the GPU (the cuda_ twin of each test skips without a device).
add_executable(compare_npy compare_npy.cpp)
target_link_libraries(compare_npy PRIVATE gpuprim PNG::PNG)

set(scipy_data ${PROJECT_SOURCE_DIR}/tests/data/scipy)
set(words_out ${CMAKE_CURRENT_BINARY_DIR}/words)
file(MAKE_DIRECTORY ${words_out})

# gpuprim_numpy_test(<name> EXPECTED <file> [RTOL <r>] [ATOL <a>] [EXT <.npy|.png>]
#                    ARGS <command and arguments, before -o and --backend>):
# cli.<name> on the host and cli.cuda_<name> on the GPU.
function(gpuprim_numpy_test name)
  cmake_parse_arguments(PARSE_ARGV 1 T "" "EXPECTED;RTOL;ATOL;EXT" "ARGS")
  if(NOT DEFINED T_EXT)
    set(T_EXT .npy)
  endif()
  foreach(backend host cuda)
    set(test ${name})
    set(device)
    if(backend STREQUAL "cuda")
      set(test cuda_${name})
      set(device -DDEVICE=required)
    endif()
    set(out ${words_out}/${test}${T_EXT})
    set(tolerances)
    if(DEFINED T_RTOL)
      list(APPEND tolerances -DRTOL=${T_RTOL})
    endif()
    if(DEFINED T_ATOL)
      list(APPEND tolerances -DATOL=${T_ATOL})
    endif()
    add_test(NAME cli.${test}
      COMMAND ${CMAKE_COMMAND} -DCOMPARE=$<TARGET_FILE:compare_npy> -DOUTPUT=${out}
              -DEXPECTED=${T_EXPECTED} ${tolerances} ${device}
              -P ${CMAKE_CURRENT_SOURCE_DIR}/run_cli_close.cmake
              -- $<TARGET_FILE:gpuprim-cli> ${T_ARGS} -o ${out} --backend ${backend})
    set_tests_properties(cli.${test} PROPERTIES LABELS cli SKIP_REGULAR_EXPRESSION "SKIP: ")
  endforeach()
endfunction()

# ---- convolve: scipy.ndimage's filters by name, and its border modes -----------
set(e ${scipy_data}/expected)
foreach(mode constant nearest reflect mirror wrap)
  gpuprim_numpy_test(words_sobel_x_${mode} EXPECTED ${e}/sobel_x_${mode}.npy
    ARGS convolve ${scipy_data}/image_f32.npy --filter sobel-x --border ${mode})
  gpuprim_numpy_test(words_laplace_${mode} EXPECTED ${e}/laplace_${mode}.npy RTOL 1e-12 ATOL 1e-12
    ARGS convolve ${scipy_data}/image_f64.npy --filter laplacian --border ${mode})
endforeach()
foreach(mode constant nearest reflect mirror wrap)
  # 13 taps on a 3 x 4 image: the border repeats over several periods.
  gpuprim_numpy_test(words_tiny_gaussian_${mode} EXPECTED ${e}/tiny_gaussian_1.5_${mode}.npy
    RTOL 1e-12 ATOL 1e-12
    ARGS convolve ${scipy_data}/tiny_f64.npy --filter gaussian:1.5 --border ${mode})
endforeach()
# --correlate changes only weights from a file: a named filter is SciPy's function.
gpuprim_numpy_test(words_sobel_x_correlate EXPECTED ${e}/sobel_x_reflect.npy
  ARGS convolve ${scipy_data}/image_f32.npy --filter sobel-x --correlate)
gpuprim_numpy_test(words_sobel_y EXPECTED ${e}/sobel_y_reflect.npy
  ARGS convolve ${scipy_data}/image_f32.npy --filter sobel-y)
gpuprim_numpy_test(words_sobel_y_correlate EXPECTED ${e}/sobel_y_reflect.npy
  ARGS convolve ${scipy_data}/image_f32.npy --filter sobel-y --correlate)
# zero and replicate: the older names of constant and nearest.
gpuprim_numpy_test(words_sobel_x_zero_alias EXPECTED ${e}/sobel_x_constant.npy
  ARGS convolve ${scipy_data}/image_f32.npy --filter sobel-x --border zero)
gpuprim_numpy_test(words_sobel_x_replicate_alias EXPECTED ${e}/sobel_x_nearest.npy
  ARGS convolve ${scipy_data}/image_f32.npy --filter sobel-x --border replicate)
gpuprim_numpy_test(words_uniform_nearest EXPECTED ${e}/uniform_3_nearest.npy
  RTOL 1e-12 ATOL 1e-12
  ARGS convolve ${scipy_data}/image_f64.npy --filter box:1 --border nearest)
gpuprim_numpy_test(words_gaussian_mirror EXPECTED ${e}/gaussian_1_mirror.npy RTOL 1e-12 ATOL 1e-12
  ARGS convolve ${scipy_data}/image_f64.npy --filter gaussian:1 --border mirror)
gpuprim_numpy_test(words_gaussian_radius_constant EXPECTED ${e}/gaussian_1.5_r2_constant.npy
  RTOL 1e-5 ATOL 1e-5
  ARGS convolve ${scipy_data}/image_f32.npy --filter gaussian:1.5:2 --border constant)
gpuprim_numpy_test(words_gaussian_radius_constant_correlate
  EXPECTED ${e}/gaussian_1.5_r2_constant.npy RTOL 1e-5 ATOL 1e-5
  ARGS convolve ${scipy_data}/image_f32.npy --filter gaussian:1.5:2 --border constant --correlate)
# Weights from a file: convolved (flipped) by default, correlated with --correlate.
gpuprim_numpy_test(words_weights_convolve EXPECTED ${e}/weights_convolve_reflect.npy
  RTOL 1e-12 ATOL 1e-12
  ARGS convolve ${scipy_data}/image_f64.npy --filter ${scipy_data}/weights_3x2.npy)
gpuprim_numpy_test(words_weights_correlate EXPECTED ${e}/weights_correlate_wrap.npy
  RTOL 1e-12 ATOL 1e-12
  ARGS convolve ${scipy_data}/image_f64.npy --filter ${scipy_data}/weights_3x2.npy --correlate
       --border wrap)
# A PNG holds |v| (convertScaleAbs): a dark-to-bright step shows its edge.
gpuprim_numpy_test(words_step_png_sobel_x EXPECTED ${e}/step_sobel_x.npy EXT .png
  ARGS convolve ${scipy_data}/step.png --filter sobel-x)
gpuprim_numpy_test(words_step_png_sobel_y EXPECTED ${e}/step_sobel_y.npy EXT .png
  ARGS convolve ${scipy_data}/step.png --filter sobel-y)
gpuprim_numpy_test(words_step_png_laplacian EXPECTED ${e}/step_laplace.npy EXT .png
  ARGS convolve ${scipy_data}/step.png --filter laplacian)
gpuprim_cli_test(words_convolve_help_border EXIT 0
  STDOUT_CONTAINS "--border MODE               scipy.ndimage's mode: constant (cval 0), nearest"
  ARGS convolve --help)
gpuprim_cli_test(words_convolve_unknown_border EXIT 2
  STDERR_CONTAINS "clamp not in {constant,nearest,reflect,mirror,wrap,zero,replicate}"
  ARGS convolve ${scipy_data}/image_f32.npy -o ${words_out}/unused.npy --filter sobel-x
       --border clamp)

# ---- scan: NaN as numpy.minimum / maximum (.accumulate) and fmin / fmax ---------
foreach(op min max nanmin nanmax)
  foreach(input nan_f64 leading_nan_f32)
    gpuprim_numpy_test(words_scan_${op}_${input} EXPECTED ${e}/scan_${op}_${input}.npy
      ARGS scan ${scipy_data}/scan_${input}.npy --op ${op})
    gpuprim_numpy_test(words_scan_exclusive_${op}_${input}
      EXPECTED ${e}/scan_exclusive_${op}_${input}.npy
      ARGS scan ${scipy_data}/scan_${input}.npy --op ${op} --exclusive)
  endforeach()
endforeach()
# Segmented min / max scans run on the host only (the cuda_ twins are refused).
foreach(op min max nanmin nanmax)
  set(out ${words_out}/words_scan_segmented_${op}.npy)
  add_test(NAME cli.words_scan_segmented_${op}
    COMMAND ${CMAKE_COMMAND} -DCOMPARE=$<TARGET_FILE:compare_npy> -DOUTPUT=${out}
            -DEXPECTED=${e}/scan_segmented_${op}_leading_nan_f32.npy
            -P ${CMAKE_CURRENT_SOURCE_DIR}/run_cli_close.cmake
            -- $<TARGET_FILE:gpuprim-cli> scan ${scipy_data}/scan_leading_nan_f32.npy --op ${op}
               --segments ${scipy_data}/scan_heads.npy -o ${out} --backend host)
  set_tests_properties(cli.words_scan_segmented_${op} PROPERTIES LABELS cli)
endforeach()

# ---- reduce of float16: NumPy's answers (expected/reduce_float16.txt) ------------
file(STRINGS ${e}/reduce_float16.txt float16_cases)
foreach(line ${float16_cases})
  string(REPLACE " " ";" fields "${line}")
  list(POP_FRONT fields stem op)
  string(REPLACE ";" " " answer "${fields}")
  gpuprim_cli_test(words_reduce_${stem}_${op} EXIT 0 STDOUT "${answer}"
    ARGS reduce ${scipy_data}/${stem}.npy --op ${op} --backend host)
  gpuprim_cli_test(cuda_words_reduce_${stem}_${op} EXIT 0 DEVICE required STDOUT "${answer}"
    ARGS reduce ${scipy_data}/${stem}.npy --op ${op} --backend cuda)
endforeach()
gpuprim_cli_test(words_scan_float16_names_dtype EXIT 2 STDERR_CONTAINS "dtype float16 is not supported"
  ARGS scan ${scipy_data}/f16.npy -o ${words_out}/unused.npy --backend host)

# ---- one name per family; errors name the subcommand --------------------------------
# (The family is checked first: an unknown one would say so instead.)
gpuprim_cli_test(words_bench_closest_pair_alias EXIT 2
  STDERR_CONTAINS "gpuprim bench: --ladder: the ladder's kernels run on the GPU"
  ARGS bench closest_pair --ladder --backend host)
gpuprim_cli_test(words_bench_closest_pair EXIT 2
  STDERR_CONTAINS "gpuprim bench: --ladder: the ladder's kernels run on the GPU"
  ARGS bench closest-pair --ladder --backend host)
gpuprim_cli_test(words_bench_segmented_reduce_alias EXIT 0
  STDOUT_CONTAINS "| gpuprim | sum, segments of 8 | float | 2^24 |"
  ARGS bench segmented_reduce --backend host --quick --only "segments of 8 float 2\\^24 host")
gpuprim_cli_test(words_bench_unknown_family EXIT 2
  STDERR_CONTAINS "gpuprim bench: unknown family 'frob' (known: reduce, scan, segmented,"
  ARGS bench frob)
gpuprim_cli_test(words_bench_help_canonical_names EXIT 0 STDOUT_CONTAINS "spmv, solve, closest-pair, all"
  ARGS bench --help)
gpuprim_cli_test(words_tune_segmented_reduce_alias EXIT 0 DEVICE absent STDOUT_CONTAINS "nothing to tune"
  ARGS tune segmented_reduce closest_pair sorting_network)
gpuprim_cli_test(words_tune_hyphenated EXIT 0 DEVICE absent STDOUT_CONTAINS "nothing to tune"
  ARGS tune segmented closest-pair sorting-network)
gpuprim_cli_test(words_tune_unknown_family EXIT 2 STDERR_CONTAINS "gpuprim tune: unknown family 'gemmm'"
  ARGS tune gemmm)
gpuprim_cli_test(words_parse_error_names_subcommand EXIT 2
  STDERR_CONTAINS "gpuprim scan: --op: median not in"
  ARGS scan ${scipy_data}/scan_nan_f64.npy -o ${words_out}/unused.npy --op median)
gpuprim_cli_test(words_parse_error_missing_option_names_subcommand EXIT 2
  STDERR_CONTAINS "gpuprim convolve: --filter is required"
  ARGS convolve ${scipy_data}/image_f32.npy -o ${words_out}/unused.npy)

# ---- help says what the commands do ------------------------------------------------
foreach(command scan sort transpose matmul convolve spmv)
  gpuprim_cli_test(words_${command}_help_output_required EXIT 0 STDOUT_CONTAINS "REQUIRED"
    ARGS ${command} --help)
endforeach()
# CLI11's artifacts are gone: flags without {false}, --range without "x 2",
# bench's family without "=all".
gpuprim_cli_test(words_info_help_no_measure EXIT 0 STDOUT_CONTAINS "--no-measure" ARGS info --help)
set_tests_properties(cli.words_info_help_no_measure PROPERTIES FAIL_REGULAR_EXPRESSION "\\{false\\}")
gpuprim_cli_test(words_histogram_help_range EXIT 0 STDOUT_CONTAINS "--range LO HI" ARGS histogram --help)
set_tests_properties(cli.words_histogram_help_range PROPERTIES FAIL_REGULAR_EXPRESSION "LO HI x 2")
gpuprim_cli_test(words_bench_help_family EXIT 0 STDOUT_CONTAINS "FAMILY" ARGS bench --help)
set_tests_properties(cli.words_bench_help_family PROPERTIES FAIL_REGULAR_EXPRESSION "=all")
foreach(command scan sort)
  gpuprim_cli_test(words_${command}_help_byte_order EXIT 0 STDOUT_CONTAINS "either byte order"
    ARGS ${command} --help)
  set_tests_properties(cli.words_${command}_help_byte_order PROPERTIES
    FAIL_REGULAR_EXPRESSION "little-endian")
endforeach()
# --precision tf32 needs the GPU: the host refuses it (exit 2, no output).
add_test(NAME cli.words_matmul_tf32_host_refused
  COMMAND ${CMAKE_COMMAND} -DOUTPUT=${words_out}/tf32.npy
          "-DSTDERR_CONTAINS=gpuprim matmul: --precision tf32 needs the GPU's tensor cores"
          -P ${CMAKE_CURRENT_SOURCE_DIR}/run_cli_no_output.cmake
          -- $<TARGET_FILE:gpuprim-cli> matmul ${scipy_data}/mat_a.npy ${scipy_data}/mat_b.npy
             -o ${words_out}/tf32.npy --precision tf32 --backend host)
set_tests_properties(cli.words_matmul_tf32_host_refused PROPERTIES LABELS cli)
