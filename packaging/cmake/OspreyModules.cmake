# Helpers that declare Osprey's library targets. Each core module is one static library whose link
# list states what it may use, so the build enforces the layer rule in DESIGN.md.

# Header privacy. A core module's public headers are its core/<name>/*.h except *_impl.h. They are
# linked (symlinks, nothing copied) into one public root, ${OSPREY_PUBLIC_INCLUDE_DIR}/<name>/x.h, and
# that root is all that ui/ and app/ see of core: including a core *_impl.h, or app/ from ui/, fails to
# compile (tests/ui/privacy). Core modules and tests set OSPREY_SEES_INTERNALS and keep the core/ root.
set(OSPREY_PUBLIC_INCLUDE_DIR ${CMAKE_BINARY_DIR}/osprey-include)
set(OSPREY_UI_INCLUDE_DIR ${CMAKE_BINARY_DIR}/osprey-ui-include)
set(OSPREY_SEES_INTERNALS "$<BOOL:$<TARGET_PROPERTY:OSPREY_SEES_INTERNALS>>")

# Links core/<name>'s public headers into the public root; links whose header is gone are removed.
function(osprey_link_headers name)
    set(public ${OSPREY_PUBLIC_INCLUDE_DIR}/${name})
    file(MAKE_DIRECTORY ${public})
    file(GLOB headers CONFIGURE_DEPENDS ${OSPREY_SOURCE_DIR}/core/${name}/*.h)
    set(wanted)
    foreach(header ${headers})
        get_filename_component(file ${header} NAME)
        if(NOT file MATCHES "_impl\\.h$")
            file(CREATE_LINK ${header} ${public}/${file} SYMBOLIC)
            list(APPEND wanted ${file})
        endif()
    endforeach()
    file(GLOB existing LIST_DIRECTORIES false ${public}/*)
    foreach(link ${existing})
        get_filename_component(file ${link} NAME)
        if(NOT file IN_LIST wanted)
            file(REMOVE ${link})
        endif()
    endforeach()
endfunction()

# osprey_core_module(<name> SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...] [TORCH_PCH])
# Creates target osprey_<name> (alias osprey::<name>) from core/<name>. Headers are included as
# "<module>/header.h".
function(osprey_core_module name)
    cmake_parse_arguments(ARG "TORCH_PCH" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
    set(target osprey_${name})
    add_library(${target} STATIC ${ARG_SOURCES})
    add_library(osprey::${name} ALIAS ${target})
    osprey_link_headers(${name})
    set_target_properties(${target} PROPERTIES OSPREY_SEES_INTERNALS ON)
    # Consumers that see internals get the core/ root, the others only the public root.
    target_include_directories(${target}
        PRIVATE ${OSPREY_SOURCE_DIR}/core
        INTERFACE $<IF:${OSPREY_SEES_INTERNALS},${OSPREY_SOURCE_DIR}/core,${OSPREY_PUBLIC_INCLUDE_DIR}>)
    target_compile_options(${target} PRIVATE ${OSPREY_WARNINGS})
    target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
    # Core is Qt-free: no moc, uic or rcc steps there.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON AUTOMOC OFF AUTOUIC OFF AUTORCC OFF)
    if(ARG_TORCH_PCH)
        # Torch headers dominate compile time; one precompiled header per torch module.
        target_precompile_headers(${target} PRIVATE <torch/torch.h>)
    endif()
endfunction()

# osprey_ui_module(<name> SOURCES ... [DEPS ...]) creates osprey_ui_<name> from ui/<name>. ui headers are
# included as "ui/<feature>/x.h" from a root that holds only ui/ (a link to it), so neither app/ nor core
# sources are reachable; core headers come from the public root.
function(osprey_ui_module name)
    cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
    set(target osprey_ui_${name})
    add_library(${target} STATIC ${ARG_SOURCES})
    add_library(osprey::ui_${name} ALIAS ${target})
    if(NOT EXISTS ${OSPREY_UI_INCLUDE_DIR}/ui)
        file(MAKE_DIRECTORY ${OSPREY_UI_INCLUDE_DIR})
        file(CREATE_LINK ${OSPREY_SOURCE_DIR}/ui ${OSPREY_UI_INCLUDE_DIR}/ui SYMBOLIC)
    endif()
    target_include_directories(${target}
        PRIVATE ${OSPREY_UI_INCLUDE_DIR}
        INTERFACE $<${OSPREY_SEES_INTERNALS}:${OSPREY_SOURCE_DIR}> $<${OSPREY_SEES_INTERNALS}:${OSPREY_SOURCE_DIR}/core>
                  $<$<NOT:${OSPREY_SEES_INTERNALS}>:${OSPREY_UI_INCLUDE_DIR}>)
    target_compile_options(${target} PRIVATE ${OSPREY_WARNINGS})
    target_link_libraries(${target} PUBLIC Qt6::Widgets ${ARG_DEPS})
    set_target_properties(${target} PROPERTIES AUTOMOC ON AUTORCC ON)
endfunction()
