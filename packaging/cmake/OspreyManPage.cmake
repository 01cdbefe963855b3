# Writes the osprey-cli(1) man page from the program's own help, so the page lists exactly the verbs and
# keys the binary has: `osprey-cli help` for the verbs, `osprey-cli help VERB` for each verb's keys.
# cmake -DCLI=path/to/osprey-cli -DVERSION=x.y.z -DOUT=osprey-cli.1 -P OspreyManPage.cmake

function(roff_escape text out)
    string(REPLACE "\\" "\\e" text "${text}")
    string(REPLACE "-" "\\-" text "${text}")
    # A line may not start with a control character.
    string(REGEX REPLACE "^([.'])" "\\\\&\\1" text "${text}")
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(run_help out)
    execute_process(COMMAND ${CLI} help ${ARGN} OUTPUT_VARIABLE text ERROR_VARIABLE error RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${CLI} help ${ARGN} failed (${rc}): ${error}")
    endif()
    set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(split_lines text out)
    string(REPLACE ";" "\\;" text "${text}")
    string(REPLACE "\n" ";" lines "${text}")
    set(${out} "${lines}" PARENT_SCOPE)
endfunction()

run_help(overview)
split_lines("${overview}" lines)
set(verbs "")
set(in_verbs FALSE)
set(page "")
foreach(line IN LISTS lines)
    if(line STREQUAL "Verbs:")
        set(in_verbs TRUE)
    elseif(in_verbs AND line MATCHES "^  ([a-z][a-z ]*[a-z])  +(.*)$")
        list(APPEND verbs "${CMAKE_MATCH_1}")
        set(summary_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    elseif(in_verbs AND line STREQUAL "")
        set(in_verbs FALSE)
    endif()
endforeach()
list(LENGTH verbs count)
if(count LESS 5)
    message(FATAL_ERROR "${CLI} help lists ${count} verbs; expected the 'Verbs:' section")
endif()

string(TIMESTAMP today "%Y-%m-%d" UTC) # honours SOURCE_DATE_EPOCH for a reproducible page
string(APPEND page ".TH OSPREY\\-CLI 1 \"${today}\" \"Osprey ${VERSION}\" \"User Commands\"\n"
       ".SH NAME\nosprey\\-cli \\- build object detectors from the command line\n"
       ".SH SYNOPSIS\n.B osprey\\-cli\n.I VERB\n[\\fIkey\\fR=\\fIvalue\\fR ...]\n.br\n"
       ".B osprey\\-cli help\n[\\fIVERB\\fR]\n.br\n.B osprey\\-cli \\-\\-version\n"
       ".SH DESCRIPTION\n"
       "\\fBosprey\\-cli\\fR is the headless tool of Osprey: it creates and imports projects, checks and "
       "splits datasets, trains and validates YOLO detectors, runs them on images and videos, and "
       "pre\\-labels images, with the same engine as the \\fBosprey\\fR(1) application. Arguments are "
       "Ultralytics\\-style \\fIkey\\fR=\\fIvalue\\fR pairs (\\fB\\-\\-key\\fR \\fIvalue\\fR works too); "
       "unknown keys are rejected with a suggestion.\n"
       ".SH VERBS\n")
foreach(verb IN LISTS verbs)
    roff_escape("${summary_${verb}}" summary)
    roff_escape("${verb}" verb_roff)
    string(APPEND page ".SS ${verb_roff}\n${summary}\n")
    string(REPLACE " " ";" verb_args "${verb}")
    run_help(help ${verb_args})
    split_lines("${help}" help_lines)
    set(in_keys FALSE)
    foreach(line IN LISTS help_lines)
        if(line MATCHES "^Keys")
            set(in_keys TRUE)
        elseif(in_keys AND line MATCHES "^  ([A-Za-z0-9_]+)  +(.*)$")
            roff_escape("${CMAKE_MATCH_1}" key)
            roff_escape("${CMAKE_MATCH_2}" text)
            string(APPEND page ".TP\n.B ${key}\n${text}\n")
        elseif(in_keys AND line MATCHES "^[^ ]")
            set(in_keys FALSE)
            roff_escape("${line}" text)
            string(APPEND page ".PP\n${text}\n")
        endif()
    endforeach()
endforeach()
string(APPEND page ".SH EXIT STATUS\n0 on success, 1 on failure; \\fBimport\\fR returns 3 when items were "
       "skipped and \\fBvalidate\\fR 4 when errors were found.\n"
       ".SH EXAMPLES\n.nf\nosprey\\-cli demo path=demo\nosprey\\-cli stats project=demo\n"
       "osprey\\-cli train project=demo model=yolov8n epochs=50 imgsz=320 batch=16 device=cpu\n.fi\n"
       ".SH SEE ALSO\n\\fBosprey\\fR(1)\n")
file(WRITE "${OUT}" "${page}")
