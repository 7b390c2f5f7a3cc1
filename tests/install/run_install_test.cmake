# ctest "install": installs the build tree into a scratch prefix, configures and
# builds tests/install (an outside project using find_package(saga)) and the
# examples/ against it, and runs them. Arguments: BUILD_DIR, WORK, SRC, GENERATOR.
file(REMOVE_RECURSE "${WORK}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK}/prefix")
if(NOT EXISTS "${WORK}/prefix/include/saga/api/saga.hpp" OR NOT EXISTS "${WORK}/prefix/lib/cmake/saga/sagaConfig.cmake")
  message(FATAL_ERROR "the install lacks the headers or the CMake package")
endif()
# The package's dependencies come from where this build found them.
set(prefix_path "${WORK}/prefix")
if(DEFINED ENV{CMAKE_PREFIX_PATH})
  string(REPLACE ":" ";" env_path "$ENV{CMAKE_PREFIX_PATH}")
  list(APPEND prefix_path ${env_path})
endif()
string(REPLACE ";" "\\;" prefix_arg "${prefix_path}")
run(${CMAKE_COMMAND} -S "${SRC}" -B "${WORK}/build" -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_PREFIX_PATH=${prefix_arg}")
run(${CMAKE_COMMAND} --build "${WORK}/build")
run("${WORK}/build/consumer")
# The examples (examples/): C++, C and, when a Fortran compiler is found, Fortran.
run(${CMAKE_COMMAND} -S "${SRC}/../../examples" -B "${WORK}/examples" -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_PREFIX_PATH=${prefix_arg}")
run(${CMAKE_COMMAND} --build "${WORK}/examples")
foreach(example cg_loop c_poisson time_steps fortran_poisson)
  if(EXISTS "${WORK}/examples/${example}")
    run("${WORK}/examples/${example}")
  elseif(NOT example STREQUAL "fortran_poisson")
    message(FATAL_ERROR "example ${example} was not built")
  endif()
endforeach()
