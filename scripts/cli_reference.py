"""docs/cli.md: every `standoff` command and option, generated from the argparse definitions.

    python scripts/cli_reference.py          # rewrite docs/cli.md
    python scripts/cli_reference.py --check  # exit 1 if it is out of date (the test suite runs this)
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "cli.md"


def render() -> str:
    os.environ["COLUMNS"] = "100"  # argparse wraps help text to the terminal: a fixed width
    from standoff.tournaments.cli import build_parser

    parser = build_parser()
    parser.prog = "standoff"
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {choice.dest: choice.help for choice in sub._choices_actions}
    lines = [
        "# The `standoff` command line",
        "",
        "Generated from the argparse definitions by `python scripts/cli_reference.py` (a test checks",
        "it is current). Every mistake (a bad path, value, token, a broken file) is one line on",
        "stderr and exit status 2; Ctrl-C is exit status 130. A bot's own fault is exit status 3",
        "(`play`: a fault was counted; `bot run`: the bot raised, one line naming its file:line).",
        "",
        "| command | what it does |",
        "| --- | --- |",
    ]
    lines += [f"| [`{name}`](#standoff-{name}) | {helps.get(name) or ''} |" for name in sub.choices]
    for name, command in sub.choices.items():
        command.prog = f"standoff {name}"
        lines += ["", f"## standoff {name}", "", "```text", command.format_help().rstrip(), "```"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not DOC.exists() or DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC.relative_to(ROOT)} is out of date: run python scripts/cli_reference.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
