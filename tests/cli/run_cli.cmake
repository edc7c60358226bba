# Runs one `gpuprim` command line and checks what it did; every CLI test
# (tests/cli/cases.txt, tests/dist) runs through this script.
#
#   cmake [-D<CHECK>=<value>...] -P run_cli.cmake -- <gpuprim> <arguments...>
#
# Checks (all optional):
#   EXIT        the exit code (default 0; "any": not checked). A failing
#               command must print exactly one line on stderr.
#   STDOUT      stdout, exactly (a trailing newline ignored)
#   STDOUT_HAS  text stdout contains;  STDERR_HAS  text stderr contains
#   STDOUT_MATCHES  a regular expression stdout matches (CMake's syntax)
#   OUTPUT      a file the command writes (removed first), with
#   EXPECTED    ... exactly the bytes of this file, or
#   NEAR        ... the values of this .npy within ATOL + RTOL * |expected|
#               (compare_npy, given as COMPARE; a PNG OUTPUT: its gray
#               pixels exactly NEAR's uint8 values)
#   ABSENT      a file that must not exist afterwards (removed first); with
#               no command, only that is checked
#   DEVICE      "required" (a CUDA device) or "absent" (a machine without
#               one); elsewhere the script prints "SKIP: <why>", which the
#               tests take as their SKIP_REGULAR_EXPRESSION
#   ULIMIT_D    run the command under `ulimit -d <KiB>`: at most that much
#               writable private memory (heap, anonymous maps, stacks), as on
#               a machine with that much memory; code mapped from shared
#               libraries does not count, so the CPU-only and CUDA-enabled
#               builds get the same room (`ulimit -v` would count the ~1 GiB
#               of cuBLAS, cuSPARSE and NCCL the CUDA build maps at start)
# Distributed round trip, when NP is given: the command once without
# --distributed (one process), then under MPIEXEC (with MPIFLAGS) on NP
# ranks with --distributed, both with --backend BACKEND (host unless given).
# The exit codes (EXIT), stdout and the files of OUTPUTS must agree (files
# byte for byte, or with TOLERANCE, floats within it by COMPARE); STDERR_HAS
# is checked on the ranks' stderr, which must be one line. Output paths in
# the arguments end in @SUFFIX@: .np<NP>.one and .np<NP>.dist for the two
# runs (the rank count in the name: a test's NP variants run side by side).

# The command after "--" on the `cmake ... -P <script> -- <command>` line.
set(command)
set(after_separator FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE ${last})
  if(after_separator)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(after_separator TRUE)
  endif()
endforeach()

# Fails unless `err` (a failed command's stderr) is exactly one line, not
# counting the progress lines a command past a second prints ("gpuprim
# spmv: reading m.mtx, 2.0 s"; apps/gpuprim/progress.hpp), which a loaded
# machine can make appear.
function(expect_one_stderr_line err report)
  string(REGEX REPLACE "gpuprim [a-z-]+: [^\n]*, [0-9]+\\.[0-9] s\n" "" err "${err}")
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(NOT lines EQUAL 1 OR NOT err MATCHES "\n$")
    message(FATAL_ERROR "expected exactly one line on stderr\n${report}")
  endif()
endfunction()

# Fails unless `text` contains `part`.
function(expect_contains text part what report)
  string(FIND "${text}" "${part}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected ${what} to contain \"${part}\"\n${report}")
  endif()
endfunction()

# DEVICE: `<gpuprim> info --no-measure` counts the CUDA devices.
if(DEVICE)
  list(GET command 0 gpuprim)
  execute_process(COMMAND "${gpuprim}" info --no-measure
    OUTPUT_VARIABLE info RESULT_VARIABLE info_exit)
  if(NOT info_exit EQUAL 0 OR NOT info MATCHES "CUDA devices: ([0-9]+)")
    message(FATAL_ERROR "`gpuprim info --no-measure` failed (${info_exit}):\n${info}")
  endif()
  set(devices ${CMAKE_MATCH_1})
  if(DEVICE STREQUAL "required" AND devices EQUAL 0)
    message("SKIP: needs a CUDA device")
    return()
  elseif(DEVICE STREQUAL "absent" AND devices GREATER 0)
    message("SKIP: needs a machine without a CUDA device")
    return()
  endif()
endif()
if(NOT DEFINED EXIT)
  set(EXIT 0)
endif()

# ---- distributed round trip --------------------------------------------------
if(DEFINED NP)
  if(NOT DEFINED BACKEND)
    set(BACKEND host)
  endif()
  set(one_suffix ".np${NP}.one")
  set(dist_suffix ".np${NP}.dist")
  string(REPLACE "@SUFFIX@" "${one_suffix}" one "${command}")
  string(REPLACE "@SUFFIX@" "${dist_suffix}" dist "${command}")
  foreach(o ${OUTPUTS})
    file(REMOVE "${o}${one_suffix}" "${o}${dist_suffix}")
  endforeach()
  execute_process(COMMAND ${one} --backend ${BACKEND} RESULT_VARIABLE one_exit
    OUTPUT_VARIABLE one_out ERROR_VARIABLE one_err)
  execute_process(COMMAND ${MPIEXEC} ${MPIFLAGS} -np ${NP} ${dist} --backend ${BACKEND} --distributed
    RESULT_VARIABLE dist_exit OUTPUT_VARIABLE dist_out ERROR_VARIABLE dist_err)
  if(NOT one_exit EQUAL EXIT)
    message(FATAL_ERROR "one process: exit ${one_exit}, want ${EXIT}\n${one_err}")
  endif()
  if(NOT dist_exit EQUAL EXIT)
    message(FATAL_ERROR "${NP} ranks: exit ${dist_exit}, want ${EXIT}\n${dist_out}\n${dist_err}")
  endif()
  if(NOT one_out STREQUAL dist_out)
    message(FATAL_ERROR "stdout differs:\none process:\n${one_out}\n${NP} ranks:\n${dist_out}")
  endif()
  if(DEFINED STDERR_HAS)
    expect_contains("${dist_err}" "${STDERR_HAS}" "the ${NP} ranks' stderr" "${dist_err}")
    # One line from rank 0 only (mpirun's own report of the exit code aside).
    string(REGEX MATCHALL "(^|\n)gpuprim [^\n]*" lines "${dist_err}")
    list(LENGTH lines count)
    if(NOT count EQUAL 1)
      message(FATAL_ERROR "${NP} ranks: want one line on stderr, got:\n${dist_err}")
    endif()
  endif()
  foreach(o ${OUTPUTS})
    if(DEFINED TOLERANCE)
      execute_process(COMMAND ${COMPARE} compare "${o}${one_suffix}" "${o}${dist_suffix}" ${TOLERANCE}
        RESULT_VARIABLE same ERROR_VARIABLE why)
      if(NOT same EQUAL 0)
        message(FATAL_ERROR "${o}: ${NP} ranks differ from one process beyond ${TOLERANCE}: ${why}")
      endif()
    else()
      file(SHA256 "${o}${one_suffix}" a)
      file(SHA256 "${o}${dist_suffix}" b)
      if(NOT a STREQUAL b)
        message(FATAL_ERROR "${o}: the ${NP}-rank file differs from the one-process file")
      endif()
    endif()
  endforeach()
  return()
endif()

# ---- one command ----------------------------------------------------------------
if(NOT command)
  if(EXISTS "${ABSENT}")
    message(FATAL_ERROR "${ABSENT} exists, but the command that should have written it failed")
  endif()
  return()
endif()
foreach(file IN ITEMS "${OUTPUT}" "${ABSENT}")
  if(file)
    file(REMOVE "${file}")
  endif()
endforeach()
set(run ${command})
if(DEFINED ULIMIT_D)
  set(run sh -c "ulimit -d ${ULIMIT_D} && exec \"\$0\" \"\$@\"" ${command})
endif()
execute_process(COMMAND ${run} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE exit_code)
string(REPLACE ";" " " shown "${command}")
set(report "command: ${shown}\nexit: ${exit_code}\nstdout:\n${out}\nstderr:\n${err}")

if(NOT EXIT STREQUAL "any" AND NOT exit_code STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit code ${EXIT}\n${report}")
endif()
if(DEFINED STDOUT)
  string(REGEX REPLACE "\n$" "" trimmed "${out}")
  if(NOT trimmed STREQUAL STDOUT)
    message(FATAL_ERROR "expected stdout \"${STDOUT}\"\n${report}")
  endif()
endif()
if(DEFINED STDOUT_HAS)
  expect_contains("${out}" "${STDOUT_HAS}" stdout "${report}")
endif()
if(DEFINED STDERR_HAS)
  expect_contains("${err}" "${STDERR_HAS}" stderr "${report}")
endif()
if(DEFINED STDOUT_MATCHES AND NOT out MATCHES "${STDOUT_MATCHES}")
  message(FATAL_ERROR "expected stdout to match \"${STDOUT_MATCHES}\"\n${report}")
endif()
if(DEFINED OUTPUT)
  if(NOT EXISTS "${OUTPUT}")
    message(FATAL_ERROR "expected the command to write ${OUTPUT}\n${report}")
  endif()
  if(DEFINED NEAR)
    if(NOT DEFINED RTOL)
      set(RTOL 0)
    endif()
    if(NOT DEFINED ATOL)
      set(ATOL 0)
    endif()
    execute_process(COMMAND "${COMPARE}" "${OUTPUT}" "${NEAR}" ${RTOL} ${ATOL}
      ERROR_VARIABLE compare_err RESULT_VARIABLE compare_code)
    if(NOT compare_code STREQUAL "0")
      message(FATAL_ERROR "${compare_err}${report}")
    endif()
  else()
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUTPUT}" "${EXPECTED}"
      RESULT_VARIABLE differ)
    if(NOT differ EQUAL 0)
      message(FATAL_ERROR "${OUTPUT} differs from ${EXPECTED}\n${report}")
    endif()
  endif()
endif()
if(NOT EXIT STREQUAL "any" AND NOT exit_code EQUAL 0)
  expect_one_stderr_line("${err}" "${report}")
endif()
if(DEFINED ABSENT AND EXISTS "${ABSENT}")
  message(FATAL_ERROR "the failed command left ${ABSENT} behind\n${report}")
endif()
message("${report}")
