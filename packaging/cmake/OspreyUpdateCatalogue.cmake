# Runs lupdate over the GUI's sources into a copy of the catalogue in the build tree and replaces the
# catalogue only when the copy differs, so that a build with no string changed leaves it (and lrelease,
# rcc and the GUI's link after it) alone. Run with cmake -P from app/CMakeLists.txt:
#   -DLUPDATE=<lupdate> -DGENERATE=<Qt's GenerateLUpdateProject.cmake> -DPROJECT_IN=<osprey_project.cmake>
#   -DPROJECT_JSON=<osprey_project.json> -DCATALOGUE=<translations/osprey_zh_CN.ts> -DWORK_DIR=<dir>
#   -DOPTIONS=<lupdate's options, ;-separated>
cmake_minimum_required(VERSION 3.21)

# Qt's script turns the project description its qt_add_lupdate wrote into the JSON lupdate reads (the
# same file tst_translations reads).
set(IN_FILE "${PROJECT_IN}")
set(OUT_FILE "${PROJECT_JSON}")
include("${GENERATE}")

get_filename_component(_name "${CATALOGUE}" NAME)
set(_copy "${WORK_DIR}/${_name}")
file(COPY_FILE "${CATALOGUE}" "${_copy}")
file(READ "${PROJECT_JSON}" _json)
string(JSON _json SET "${_json}" translations "[\"${_copy}\"]")
file(WRITE "${WORK_DIR}/osprey_project_copy.json" "${_json}")

execute_process(COMMAND "${LUPDATE}" -project "${WORK_DIR}/osprey_project_copy.json" -silent ${OPTIONS}
                RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _result EQUAL 0)
    message(FATAL_ERROR "lupdate failed (${_result}):\n${_out}")
endif()
file(COPY_FILE "${_copy}" "${CATALOGUE}" ONLY_IF_DIFFERENT)
