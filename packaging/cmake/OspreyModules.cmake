# Helpers that declare Osprey's library targets. Each core module is one static library whose link
# list states what it may use, so the build enforces the layer rule in DESIGN.md.

# Header privacy. A core module's headers come in three kinds: public (core/<m>/*.h), its torch
# interface (*_torch_impl.h: LibTorch types, for the modules that link LibTorch) and private (the other
# *_impl.h). The public headers of every module are linked (symlinks, nothing copied) into one public
# root, ${OSPREY_PUBLIC_INCLUDE_DIR}/<m>/x.h, and the torch interfaces into ${OSPREY_TORCH_INCLUDE_DIR}. A
# core module sees the public root, its own folder through a private root holding only itself, and, with
# TORCH_PCH, the torch root; ui/ and app/ see the public root only. Including another module's *_impl.h,
# torch headers from ui/, or app/ from ui/ therefore fails to compile (tests/ui/privacy). Tests and
# benchmarks set OSPREY_SEES_INTERNALS and keep the whole core/ root.
set(OSPREY_PUBLIC_INCLUDE_DIR ${CMAKE_BINARY_DIR}/osprey-include)
set(OSPREY_TORCH_INCLUDE_DIR ${CMAKE_BINARY_DIR}/osprey-torch-include)
set(OSPREY_PRIVATE_INCLUDE_DIR ${CMAKE_BINARY_DIR}/osprey-private)
set(OSPREY_UI_INCLUDE_DIR ${CMAKE_BINARY_DIR}/osprey-ui-include)
set(OSPREY_SEES_INTERNALS "$<BOOL:$<TARGET_PROPERTY:OSPREY_SEES_INTERNALS>>")

# Links core/<folder>'s public headers and torch interfaces into their roots (stale links are removed),
# and the folder itself into its private root (<private>/<folder>/<folder> -> core/<folder>).
function(osprey_link_headers folder)
    file(GLOB headers CONFIGURE_DEPENDS ${OSPREY_SOURCE_DIR}/core/${folder}/*.h)
    foreach(kind public torch)
        if(kind STREQUAL "public")
            set(root ${OSPREY_PUBLIC_INCLUDE_DIR}/${folder})
        else()
            set(root ${OSPREY_TORCH_INCLUDE_DIR}/${folder})
        endif()
        file(MAKE_DIRECTORY ${root})
        set(wanted)
        foreach(header ${headers})
            get_filename_component(file ${header} NAME)
            if(file MATCHES "_torch_impl\\.h$")
                set(headerKind torch)
            elseif(file MATCHES "_impl\\.h$")
                continue()
            else()
                set(headerKind public)
            endif()
            if(headerKind STREQUAL kind)
                file(CREATE_LINK ${header} ${root}/${file} SYMBOLIC)
                list(APPEND wanted ${file})
            endif()
        endforeach()
        file(GLOB existing LIST_DIRECTORIES false ${root}/*)
        foreach(link ${existing})
            get_filename_component(file ${link} NAME)
            if(NOT file IN_LIST wanted)
                file(REMOVE ${link})
            endif()
        endforeach()
    endforeach()
    if(NOT EXISTS ${OSPREY_PRIVATE_INCLUDE_DIR}/${folder}/${folder})
        file(MAKE_DIRECTORY ${OSPREY_PRIVATE_INCLUDE_DIR}/${folder})
        file(CREATE_LINK ${OSPREY_SOURCE_DIR}/core/${folder} ${OSPREY_PRIVATE_INCLUDE_DIR}/${folder}/${folder}
            SYMBOLIC)
    endif()
endfunction()

# osprey_core_module(<name> SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...] [FOLDER f] [TORCH_PCH])
# Creates target osprey_<name> (alias osprey::<name>) from core/<name> (or core/<f>, for a second
# target of one folder). Headers are included as "<module>/header.h". TORCH_PCH: the module uses
# LibTorch (a precompiled torch header, and the torch interfaces of the modules it links).
function(osprey_core_module name)
    cmake_parse_arguments(ARG "TORCH_PCH" "FOLDER" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
    set(target osprey_${name})
    set(folder ${name})
    if(ARG_FOLDER)
        set(folder ${ARG_FOLDER})
    endif()
    add_library(${target} STATIC ${ARG_SOURCES})
    add_library(osprey::${name} ALIAS ${target})
    osprey_link_headers(${folder})
    target_include_directories(${target}
        PRIVATE ${OSPREY_PRIVATE_INCLUDE_DIR}/${folder}
        INTERFACE $<IF:${OSPREY_SEES_INTERNALS},${OSPREY_SOURCE_DIR}/core,${OSPREY_PUBLIC_INCLUDE_DIR}>)
    if(ARG_TORCH_PCH)
        target_include_directories(${target} PRIVATE ${OSPREY_TORCH_INCLUDE_DIR})
    endif()
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
        INTERFACE $<${OSPREY_SEES_INTERNALS}:${OSPREY_SOURCE_DIR}>
                  $<${OSPREY_SEES_INTERNALS}:${OSPREY_SOURCE_DIR}/core>
                  $<$<NOT:${OSPREY_SEES_INTERNALS}>:${OSPREY_UI_INCLUDE_DIR}>)
    target_compile_options(${target} PRIVATE ${OSPREY_WARNINGS})
    target_link_libraries(${target} PUBLIC Qt6::Widgets ${ARG_DEPS})
    set_target_properties(${target} PROPERTIES AUTOMOC ON AUTORCC ON)
endfunction()
