#!/usr/bin/env python3
"""Prints every option name of the installed upstream `aiperf profile`, grouped as its help groups them.

Run with the upstream venv's Python (bench/upstream/install.sh prints its path):
    $VENV/bin/python bench/upstream/profile-options.py > engine/src/test/resources/upstream-0.13-profile-options.txt
The output is data only (names), read from the installed command's argument collection.
"""
import importlib.metadata
import sys

from aiperf.cli import app


def main() -> int:
    profile = app["profile"]
    groups: dict[str, list[str]] = {}
    for arg in profile.assemble_argument_collection():
        if not arg.parse or arg.children or not arg.names:
            continue
        names = [n for n in arg.names if n.startswith("-")]
        if not names:
            continue
        group = arg.parameter.group[0].name if arg.parameter.group else "Parameters"
        groups.setdefault(group, []).append(" ".join(names))
    version = importlib.metadata.version("aiperf")
    total = sum(len(line.split()) for lines in groups.values() for line in lines)
    print("# Every option name and alias of upstream AIPerf's `aiperf profile`, one option a line, grouped as its help")
    print(f"# groups them. Generated from the installed aiperf {version} by bench/upstream/profile-options.py;")
    print(f"# {total} names. CliCompatibilityTest checks each is accepted or refused in one line with its reason.")
    for group, lines in groups.items():
        print(f"[{group}]")
        for line in lines:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
