# Builds the .deb with CPack into a scratch folder, unpacks it (dpkg-deb -x, no root needed) and runs what
# it installed: osprey-cli --version and demo, and osprey offscreen for a few seconds, with no help from
# the build tree (no RPATH into it, no LD_LIBRARY_PATH). lintian, when installed, must report no error.
# cmake -DBUILD=<build dir> -DSCRATCH=<folder> -DVERSION=x.y.z -P check_deb.cmake
function(run)
    cmake_parse_arguments(ARG "" "RESULT;OUTPUT" "COMMAND" ${ARGN})
    execute_process(COMMAND ${ARG_COMMAND} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err
                    TIMEOUT 600)
    if(ARG_RESULT)
        set(${ARG_RESULT} "${rc}" PARENT_SCOPE)
    elseif(NOT rc EQUAL 0)
        string(REPLACE ";" " " shown "${ARG_COMMAND}")
        message(FATAL_ERROR "${shown} failed (${rc}):\n${out}\n${err}")
    endif()
    if(ARG_OUTPUT)
        set(${ARG_OUTPUT} "${out}${err}" PARENT_SCOPE)
    endif()
endfunction()

file(REMOVE_RECURSE ${SCRATCH})
file(MAKE_DIRECTORY ${SCRATCH})
run(COMMAND ${CMAKE_CPACK_COMMAND} --config ${BUILD}/CPackConfig.cmake -B ${SCRATCH}/out)
set(deb ${SCRATCH}/out/osprey_${VERSION}_amd64.deb)
if(NOT EXISTS ${deb})
    message(FATAL_ERROR "CPack did not write ${deb}")
endif()

run(COMMAND dpkg-deb --field ${deb} Depends OUTPUT depends)
foreach(package fonts-noto-cjk libopenblas0-pthread libqt6svg6 libqt6widgets6 libtorch1.13)
    if(NOT depends MATCHES "(^|, )${package}( |,|$)")
        message(FATAL_ERROR "${deb}: Depends lacks ${package}: ${depends}")
    endif()
endforeach()

set(root ${SCRATCH}/root)
run(COMMAND dpkg-deb -x ${deb} ${root})
foreach(path bin/osprey bin/osprey-cli share/applications/osprey.desktop share/mime/packages/osprey.xml
             share/metainfo/io.github.osprey.Osprey.metainfo.xml share/icons/hicolor/scalable/apps/osprey.svg
             share/icons/hicolor/16x16/apps/osprey.png share/icons/hicolor/512x512/apps/osprey.png
             share/osprey/translations/osprey_zh_CN.qm share/man/man1/osprey-cli.1.gz
             share/man/man1/osprey.1.gz share/doc/osprey/copyright share/doc/osprey/changelog.gz)
    if(NOT EXISTS ${root}/usr/${path})
        message(FATAL_ERROR "${deb} does not install /usr/${path}")
    endif()
endforeach()

# The programs find their libraries in the system paths only.
foreach(program osprey osprey-cli)
    run(COMMAND readelf -d ${root}/usr/bin/${program} OUTPUT dynamic)
    if(dynamic MATCHES "R(UN)?PATH")
        message(FATAL_ERROR "/usr/bin/${program} carries an RPATH:\n${dynamic}")
    endif()
endforeach()

set(cli ${root}/usr/bin/osprey-cli)
run(COMMAND ${cli} --version OUTPUT version)
if(NOT version MATCHES "osprey-cli ${VERSION}")
    message(FATAL_ERROR "installed osprey-cli --version printed: ${version}")
endif()
run(COMMAND ${cli} demo path=${SCRATCH}/demo images=12 imgsz=96 OUTPUT demo)
if(NOT EXISTS ${SCRATCH}/demo/project.osprey)
    message(FATAL_ERROR "installed osprey-cli demo wrote no project:\n${demo}")
endif()
run(COMMAND ${cli} stats project=${SCRATCH}/demo json=true OUTPUT stats)
if(NOT stats MATCHES "\"images\"")
    message(FATAL_ERROR "installed osprey-cli stats printed:\n${stats}")
endif()

# The GUI in Chinese, offscreen, opening the project through its database file as a file manager
# would: still running after 3 s means it started, loaded its plugins and opened the project.
run(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8
            XDG_CONFIG_HOME=${SCRATCH}/config timeout 3 ${root}/usr/bin/osprey ${SCRATCH}/demo/project.osprey
    RESULT gui OUTPUT gui_output)
if(NOT gui EQUAL 124)
    message(FATAL_ERROR "installed osprey exited with ${gui} within 3 s (124 = still running):\n${gui_output}")
endif()
run(COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen LANG=zh_CN.UTF-8 LC_ALL=zh_CN.UTF-8
            XDG_CONFIG_HOME=${SCRATCH}/config ${root}/usr/bin/osprey --help OUTPUT help)
if(NOT help MATCHES "标注图像并训练目标检测器")
    message(FATAL_ERROR "installed osprey --help in zh_CN is not in Chinese:\n${help}")
endif()

find_program(LINTIAN lintian)
if(LINTIAN)
    run(COMMAND ${LINTIAN} --fail-on error ${deb} RESULT lint OUTPUT lint_output)
    if(NOT lint EQUAL 0)
        message(FATAL_ERROR "lintian reports errors on ${deb}:\n${lint_output}")
    endif()
    message(STATUS "lintian: no errors\n${lint_output}")
else()
    message(STATUS "lintian is not installed: skipped")
endif()
message(STATUS "${deb}: installs and runs")
