# Runs one `gpuprim` command line that must succeed and write OUTPUT, then
# checks OUTPUT against EXPECTED (a .npy NumPy / SciPy wrote) with
# compare_npy: the same dtype and shape, values within ATOL + RTOL * |expected|
# (a PNG OUTPUT: its gray pixels exactly EXPECTED's uint8 values).
#
#   cmake -DCOMPARE=<compare_npy> -DOUTPUT=<file> -DEXPECTED=<file> [-DRTOL=<r>]
#         [-DATOL=<a>] [-DDEVICE=required|absent] -P run_cli_close.cmake -- <gpuprim> <args...>
include(${CMAKE_CURRENT_LIST_DIR}/cli_script_steps.cmake)
gpuprim_command_after_separator(command)
list(GET command 0 gpuprim)

gpuprim_device_skip_reason(skip "${gpuprim}" "${DEVICE}")
if(skip)
  message("SKIP: ${skip}")
  return()
endif()
if(NOT DEFINED RTOL)
  set(RTOL 0)
endif()
if(NOT DEFINED ATOL)
  set(ATOL 0)
endif()

file(REMOVE "${OUTPUT}")
execute_process(COMMAND ${command} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE code)
string(REPLACE ";" " " shown "${command}")
set(report "command: ${shown}\nexit: ${code}\nstdout:\n${out}\nstderr:\n${err}")
if(NOT code STREQUAL "0")
  message(FATAL_ERROR "expected exit code 0\n${report}")
endif()
execute_process(COMMAND "${COMPARE}" "${OUTPUT}" "${EXPECTED}" ${RTOL} ${ATOL}
  ERROR_VARIABLE compare_err RESULT_VARIABLE compare_code)
if(NOT compare_code STREQUAL "0")
  message(FATAL_ERROR "${compare_err}${report}")
endif()
message("${report}")
