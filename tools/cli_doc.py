#!/usr/bin/env python3
"""The command-line reference of docs/cli.md, written from the program's own help.

`osprey-cli help` gives the verbs and their summaries (the "Verbs:" section, as the man page reads it in
packaging/cmake/OspreyManPage.cmake), `osprey-cli help VERB` each verb's keys. The block between the
BEGIN and END markers of docs/cli.md is a table of the verbs followed by every verb's help, verbatim.

    cli_doc.py write CLI DOC   rewrite the block in DOC from CLI (tools/update-cli-doc.sh does this)
    cli_doc.py check CLI DOC   exit 1, with a diff, when the block in DOC is not what CLI prints now
"""

import concurrent.futures
import difflib
import os
import re
import subprocess
import sys

BEGIN = "<!-- BEGIN osprey-cli help -->"
END = "<!-- END osprey-cli help -->"
VERB_LINE = re.compile(r"^  ([a-z][a-z ]*[a-z])  +(.*)$")


def run_help(cli, *args):
    result = subprocess.run([cli, "help", *args], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{cli} help {' '.join(args)} failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def verbs(cli):
    """[(verb, summary)] in the order `osprey-cli help` lists them."""
    found = []
    in_verbs = False
    for line in run_help(cli).splitlines():
        if line == "Verbs:":
            in_verbs = True
        elif in_verbs and not line:
            break
        elif in_verbs:
            match = VERB_LINE.match(line)
            if not match:
                sys.exit(f"{cli} help: unexpected line in the 'Verbs:' section: {line!r}")
            found.append((match.group(1), match.group(2)))
    if len(found) < 5:
        sys.exit(f"{cli} help lists {len(found)} verbs; expected the 'Verbs:' section")
    return found


def anchor(verb):
    """GitHub's anchor of the heading "`osprey-cli VERB`"."""
    return "osprey-cli-" + verb.replace(" ", "-")


def block(cli):
    """The generated text between the markers, markers included."""
    listed = verbs(cli)
    out = [BEGIN,
           "<!-- Written by tools/update-cli-doc.sh from `osprey-cli help`; edit the verbs, not this. -->",
           "", "## Verbs", "", "| verb | what |", "|---|---|"]
    for verb, summary in listed:
        cell = summary.replace("|", r"\|")
        out.append(f"| [`{verb}`](#{anchor(verb)}) | {cell} |")
    # One process per verb (each loads the program's libraries), as many at once as there are cores.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        texts = pool.map(lambda verb: run_help(cli, *verb.split(" ")), [verb for verb, _ in listed])
        for (verb, _), text in zip(listed, texts):
            out += ["", f"### `osprey-cli {verb}`", "", "```text", text.rstrip("\n"), "```"]
    out.append(END)
    return "\n".join(out)


def split_doc(path):
    """(before, block, after) of the file at `path`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start = text.find(BEGIN)
    end = text.find(END)
    if start < 0 or end < start:
        sys.exit(f"{path}: no '{BEGIN}' ... '{END}' block")
    end += len(END)
    return text[:start], text[start:end], text[end:]


def main(argv):
    if len(argv) != 4 or argv[1] not in ("write", "check"):
        sys.exit(__doc__)
    mode, cli, doc = argv[1:]
    before, current, after = split_doc(doc)
    wanted = block(cli)
    if mode == "write":
        if current != wanted:
            with open(doc, "w", encoding="utf-8") as f:
                f.write(before + wanted + after)
            print(f"{doc}: the osprey-cli help block was rewritten")
        else:
            print(f"{doc}: the osprey-cli help block is current")
        return 0
    if current == wanted:
        print(f"{doc}: the osprey-cli help block matches {cli}")
        return 0
    diff = difflib.unified_diff(current.splitlines(), wanted.splitlines(), f"{doc} (committed)",
                                f"{cli} help (now)", lineterm="")
    print("\n".join(diff))
    print(f"\n{doc} does not match what {cli} prints. Run: tools/update-cli-doc.sh BUILD_DIR "
          "(e.g. tools/update-cli-doc.sh build) and commit docs/cli.md.", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
