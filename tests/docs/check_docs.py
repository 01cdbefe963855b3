#!/usr/bin/env python3
"""Checks the documentation: every relative link resolves, CI runs the README's test command, and the CLI
reference lists every verb.

    check_docs.py SOURCE_DIR [OSPREY_CLI]
        Reads README.md, docs/*.md and every Markdown file under core/. Each relative link (inline
        [text](target), images, reference definitions) must name a file or folder of the checkout, and
        a #anchor must name a heading of its target, by GitHub's anchor rules. The README's test command
        (the code block of its "Tests" section) must be a line of .ci/run, which says it runs exactly
        that. With OSPREY_CLI, every verb that `OSPREY_CLI help` lists must have its heading
        "`osprey-cli VERB`" in docs/cli.md.
    check_docs.py --self-test
        Runs the checker on a small tree of good and broken links and checks that it finds exactly the
        broken ones.

Exit 0 when all is well; 1 with one line per problem ("file:line: ...") otherwise.
"""

import os
import re
import subprocess
import sys
import tempfile
import urllib.parse

FENCE = re.compile(r"^\s{0,3}(```|~~~)")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INLINE_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
VERB_LINE = re.compile(r"^  ([a-z][a-z ]*[a-z])  +(.*)$")


def markdown_files(root):
    """README.md, docs/*.md and core/**/*.md, relative to root."""
    found = ["README.md"]
    docs = os.path.join(root, "docs")
    if os.path.isdir(docs):
        found += sorted("docs/" + name for name in os.listdir(docs) if name.endswith(".md"))
    for folder, _, names in sorted(os.walk(os.path.join(root, "core"))):
        found += sorted(os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith(".md"))
    return found


def prose_lines(text):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, line


def slug(heading):
    """GitHub's anchor of a heading's text: the rendered text, lower case, without punctuation, spaces
    turned into hyphens."""
    text = INLINE_LINK.sub(lambda m: "" if m.group(0).startswith("!") else m.group(1), heading)
    text = CODE_SPAN.sub(lambda m: m.group(2), text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[*~]", "", text)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(text):
    """Every anchor of a Markdown text's headings; repeated headings get -1, -2, ... as on GitHub."""
    seen = {}
    result = set()
    for _, line in prose_lines(text):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(2))
        anchor = base if base not in seen else f"{base}-{seen[base]}"
        seen[base] = seen.get(base, 0) + 1
        result.add(anchor)
    return result


def links(text):
    """(line number, target) of every link outside code."""
    for number, line in prose_lines(text):
        bare = CODE_SPAN.sub(lambda m: "x" * len(m.group(0)), line)
        definition = REFERENCE_DEF.match(bare)
        if definition:
            yield number, definition.group(1).strip("<>")
            continue
        for match in INLINE_LINK.finditer(bare):
            yield number, match.group(2).strip("<>")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def check_links(root):
    problems = []
    root = os.path.realpath(root)
    anchor_cache = {}

    def anchors_of(path):
        if path not in anchor_cache:
            anchor_cache[path] = anchors(read(path))
        return anchor_cache[path]

    for relative in markdown_files(root):
        source = os.path.join(root, relative)
        if not os.path.exists(source):
            problems.append(f"{relative}: missing")
            continue
        for number, target in links(read(source)):
            if SCHEME.match(target) or target.startswith("//"):
                continue  # a URL: not checked offline
            path_part, _, fragment = target.partition("#")
            path_part = urllib.parse.unquote(path_part)
            where = f"{relative}:{number}: link '{target}'"
            if path_part:
                resolved = os.path.realpath(os.path.join(os.path.dirname(source), path_part))
                if os.path.commonpath([resolved, root]) != root:
                    problems.append(f"{where} leaves the checkout")
                    continue
                if not os.path.exists(resolved):
                    problems.append(f"{where}: no such file {os.path.relpath(resolved, root)}")
                    continue
            else:
                resolved = source
            if fragment:
                if not resolved.endswith(".md") or os.path.isdir(resolved):
                    problems.append(f"{where}: an anchor into a file that is not Markdown")
                elif urllib.parse.unquote(fragment) not in anchors_of(resolved):
                    problems.append(f"{where}: no heading '#{fragment}' in {os.path.relpath(resolved, root)}")
    return problems


def check_ci_command(root):
    """The README's test command is the command .ci/run runs."""
    readme = read(os.path.join(root, "README.md")).splitlines()
    try:
        start = readme.index("## Tests")
        fence = next(i for i in range(start, len(readme)) if readme[i].startswith("```"))
    except (ValueError, StopIteration):
        return ["README.md: no '## Tests' section with the test command in a code block"]
    command = readme[fence + 1]
    ci = os.path.join(root, ".ci", "run")
    if not os.path.exists(ci):
        return []  # a checkout without CI
    if command not in read(ci).splitlines():
        return [f"README.md:{fence + 2}: the test command is not a line of .ci/run, which runs exactly the "
                f"README's test command: {command}"]
    return []


def check_verbs(root, cli):
    result = subprocess.run([cli, "help"], capture_output=True, text=True)
    if result.returncode != 0:
        return [f"{cli} help failed ({result.returncode}): {result.stderr.strip()}"]
    verbs = []
    in_verbs = False
    for line in result.stdout.splitlines():
        if line == "Verbs:":
            in_verbs = True
        elif in_verbs and not line:
            break
        elif in_verbs and VERB_LINE.match(line):
            verbs.append(VERB_LINE.match(line).group(1))
    if len(verbs) < 5:
        return [f"{cli} help lists {len(verbs)} verbs; expected its 'Verbs:' section"]
    documented = anchors(read(os.path.join(root, "docs", "cli.md")))
    return [f"docs/cli.md: verb '{verb}' of `osprey-cli help` has no heading `osprey-cli {verb}` "
            "(run tools/update-cli-doc.sh BUILD_DIR)"
            for verb in verbs if slug(f"`osprey-cli {verb}`") not in documented]


def self_test():
    """The checker on a tree whose broken links are known."""
    files = {
        "README.md": "# Title\n\nSee [docs](docs/a.md), [a heading](docs/a.md#a-b-c), [twice](docs/a.md#same-1),\n"
                     "[gone](docs/missing.md), [bad anchor](docs/a.md#nope), ![shot](pic.png),\n"
                     "[outside](../elsewhere.md), [web](https://example.org/x.md), `[code](nowhere.md)`\n"
                     "```\n[fenced](nowhere.md)\n```\n[self](#title) [self bad](#titl)\n",
        "docs/a.md": "# A `b` (c)\n\n## Same\n\n## Same\n\n[up](../README.md#title) [def]\n\n"
                     "[def]: ../core/x/NOTES.md#notes\n",
        "core/x/NOTES.md": "# Notes\n\n[broken](../../docs/a.md#same-2)\n",
        "pic.png": "",
    }
    expected = {
        "README.md:4: link 'docs/missing.md': no such file docs/missing.md",
        "README.md:4: link 'docs/a.md#nope': no heading '#nope' in docs/a.md",
        "README.md:5: link '../elsewhere.md' leaves the checkout",
        "README.md:9: link '#titl': no heading '#titl' in README.md",
        "core/x/NOTES.md:3: link '../../docs/a.md#same-2': no heading '#same-2' in docs/a.md",
    }
    with tempfile.TemporaryDirectory() as root:
        for name, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(text)
        found = set(check_links(root))
        with open(os.path.join(root, "README.md"), "a", encoding="utf-8") as f:
            f.write("\n## Tests\n\n```sh\nmake && make test\n```\n")
        os.makedirs(os.path.join(root, ".ci"))
        with open(os.path.join(root, ".ci", "run"), "w", encoding="utf-8") as f:
            f.write("set -e\nmake && make test -j2\n")
        ci_differs = check_ci_command(root)
        with open(os.path.join(root, ".ci", "run"), "w", encoding="utf-8") as f:
            f.write("set -e\nmake && make test\n")
        ci_same = check_ci_command(root)
    slugs = {
        "Data-parallel training (several GPUs, several machines)":
            "data-parallel-training-several-gpus-several-machines",
        "Streaming a training run: `remote=user/proj`": "streaming-a-training-run-remoteuserproj",
        "Outbox tables (core/remote)": "outbox-tables-coreremote",
        "`osprey-cli model info`": "osprey-cli-model-info",
        "[Linked](x.md) **bold** 中文": "linked-bold-中文",
    }
    wrong = [f"slug({h!r}) = {slug(h)!r}, expected {s!r}" for h, s in slugs.items() if slug(h) != s]
    if len(ci_differs) != 1 or ci_same:
        wrong.append(f"the .ci/run check found {ci_differs} for another command and {ci_same} for the same")
    if found != expected or wrong:
        for line in sorted(expected - found):
            print(f"self-test: not reported: {line}")
        for line in sorted(found - expected):
            print(f"self-test: reported wrongly: {line}")
        for line in wrong:
            print(f"self-test: {line}")
        return 1
    print(f"self-test: the {len(expected)} broken links found, no other; {len(slugs)} anchors as GitHub makes "
          "them; a .ci/run without the README's test command found")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    problems = check_links(root) + check_ci_command(root)
    if len(argv) == 3:
        problems += check_verbs(root, argv[2])
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in the documentation", file=sys.stderr)
        return 1
    print(f"{len(markdown_files(root))} Markdown files: every relative link resolves; .ci/run runs the README's "
          "test command" + ("; docs/cli.md has every verb" if len(argv) == 3 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
