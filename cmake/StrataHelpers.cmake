# Helpers shared by every part of Strata's build (and by vendor projects that
# consume Strata through add_subdirectory or find_package).

include_guard(GLOBAL)

# Compile options for Strata's own code: warnings are errors; LLVM/MLIR
# headers are system headers so their warnings are not ours.
function(strata_set_compile_options target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra
      -Wno-unused-parameter)
    if(STRATA_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
  if(NOT LLVM_ENABLE_RTTI)
    target_compile_options(${target} PRIVATE -fno-rtti)
  endif()
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${STRATA_SOURCE_DIR}/core/include>
    $<BUILD_INTERFACE:${STRATA_BINARY_DIR}/core/include>
    $<BUILD_INTERFACE:${STRATA_SOURCE_DIR}/dialects/strata/include>
    $<BUILD_INTERFACE:${STRATA_BINARY_DIR}/dialects/strata/include>
    $<INSTALL_INTERFACE:include>)
  target_include_directories(${target} SYSTEM PUBLIC
    ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
  separate_arguments(_defs UNIX_COMMAND "${LLVM_DEFINITIONS}")
  target_compile_options(${target} PUBLIC ${_defs})
endfunction()

# strata_add_library(name SOURCES... [LINK libs...] [DEPENDS targets...])
# A library of Strata's own code. Shared, so that tools and loadable target
# plugins share one registry, one dialect registration and one set of passes.
function(strata_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK;DEPENDS" ${ARGN})
  add_library(${name} SHARED ${ARG_SOURCES})
  set_target_properties(${name} PROPERTIES
    LIBRARY_OUTPUT_DIRECTORY ${STRATA_BINARY_DIR}/lib)
  add_library(Strata::${name} ALIAS ${name})
  strata_set_compile_options(${name})
  target_link_libraries(${name} PUBLIC ${ARG_LINK})
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
  set_property(GLOBAL APPEND PROPERTY STRATA_EXPORTED_LIBS ${name})
endfunction()

# strata_add_tool(name SOURCES... [LINK libs...]): a strata-* executable in
# the build's bin/ folder, installed with Strata.
function(strata_add_tool name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LINK" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  strata_set_compile_options(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LINK})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${STRATA_TOOLS_DIR})
  install(TARGETS ${name} RUNTIME DESTINATION bin)
endfunction()
