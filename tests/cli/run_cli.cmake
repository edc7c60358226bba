# Runs one `gpuprim` command line and checks its exit code and output.
#
#   cmake -DEXIT=<code> [-DSTDOUT=<exact stdout, trailing newline ignored>]
#         [-DSTDOUT_CONTAINS=<text>] [-DSTDERR_CONTAINS=<text>]
#         [-DDEVICE=required|absent] [-DOUTPUT=<file> -DEXPECTED=<file>]
#         -P run_cli.cmake -- <gpuprim> <arguments...>
#
# OUTPUT: a file the command writes; it is removed first, and afterwards
# must have exactly the bytes of EXPECTED.
# DEVICE: run only when a CUDA device is present (required) or absent;
# otherwise print "SKIP: ..." (the test's SKIP_REGULAR_EXPRESSION).
# A failing command (non-zero exit) must print exactly one line on stderr.

include(${CMAKE_CURRENT_LIST_DIR}/cli_script_steps.cmake)
gpuprim_command_after_separator(command)
list(GET command 0 gpuprim)

gpuprim_device_skip_reason(skip "${gpuprim}" "${DEVICE}")
if(skip)
  message("SKIP: ${skip}")
  return()
endif()

if(DEFINED OUTPUT)
  file(REMOVE "${OUTPUT}")
endif()

execute_process(COMMAND ${command}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE exit_code)
string(REPLACE ";" " " shown "${command}")
set(report "command: ${shown}\nexit: ${exit_code}\nstdout:\n${out}\nstderr:\n${err}")

if(NOT exit_code STREQUAL "${EXIT}")
  message(FATAL_ERROR "expected exit code ${EXIT}\n${report}")
endif()
if(DEFINED STDOUT)
  string(REGEX REPLACE "\n$" "" trimmed "${out}")
  if(NOT trimmed STREQUAL STDOUT)
    message(FATAL_ERROR "expected stdout \"${STDOUT}\"\n${report}")
  endif()
endif()
if(DEFINED STDOUT_CONTAINS)
  string(FIND "${out}" "${STDOUT_CONTAINS}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected stdout to contain \"${STDOUT_CONTAINS}\"\n${report}")
  endif()
endif()
if(DEFINED STDERR_CONTAINS)
  string(FIND "${err}" "${STDERR_CONTAINS}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected stderr to contain \"${STDERR_CONTAINS}\"\n${report}")
  endif()
endif()
if(DEFINED OUTPUT)
  if(NOT EXISTS "${OUTPUT}")
    message(FATAL_ERROR "expected the command to write ${OUTPUT}\n${report}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${OUTPUT}" "${EXPECTED}"
    RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "${OUTPUT} differs from ${EXPECTED}\n${report}")
  endif()
endif()
if(NOT exit_code EQUAL 0)
  gpuprim_expect_one_stderr_line("${err}" "${report}")
endif()
message("${report}")
