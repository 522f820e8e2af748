"""``minichess variants``: the variants minichess knows."""

from __future__ import annotations

import argparse
import json

from minichess.variants import VARIANTS, VariantDefinition


def register(commands: argparse._SubParsersAction) -> None:
    """Add the ``variants`` command."""
    parser = commands.add_parser(
        "variants",
        help="list the variants",
        description="List each variant's name, aliases, board size (files x ranks) and title.",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> None:
    """Print the list."""
    entries = [describe(variant) for variant in VARIANTS.values()]
    if args.json:
        print(json.dumps(entries, indent=2))
        return
    width = max(len(entry["name"]) for entry in entries)
    for entry in entries:
        aliases = ", ".join(entry["aliases"]) or "-"
        print(f"{entry['name']:<{width}}  {entry['size']:<3}  {entry['title']}"
              f"  (aliases: {aliases})")


def describe(variant: VariantDefinition) -> dict:
    """A variant as plain data: name, aliases, files, ranks, size and title."""
    return {
        "name": variant.name,
        "aliases": list(variant.aliases),
        "files": variant.files,
        "ranks": variant.ranks,
        "size": f"{variant.files}x{variant.ranks}",
        "title": variant.title,
    }
