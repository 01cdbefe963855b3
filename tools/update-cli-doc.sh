#!/usr/bin/env bash
# Rewrites the command-line reference in docs/cli.md (the block between "<!-- BEGIN osprey-cli help -->"
# and "<!-- END osprey-cli help -->") from the built program's own help: `osprey-cli help` for the verbs,
# `osprey-cli help VERB` for each verb's keys. Run it after changing a verb or a key, then commit
# docs/cli.md; the fast test tst_cli_doc fails while the committed block differs from the program.
#   tools/update-cli-doc.sh BUILD_DIR      (e.g. tools/update-cli-doc.sh build)
set -euo pipefail
if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR   (the build folder that holds app/osprey-cli)" >&2
    exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
cli="$1/app/osprey-cli"
if [ ! -x "$cli" ]; then
    echo "$0: $cli not found; build it first: cmake --build $1 --target osprey-cli" >&2
    exit 1
fi
exec python3 "$root/tools/cli_doc.py" write "$cli" "$root/docs/cli.md"
