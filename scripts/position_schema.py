"""Write the JSON Schema of position files to sdk/position.schema.json (shipped in the package).

    python scripts/position_schema.py           # regenerate in place
    python scripts/position_schema.py --check   # exit 1 if the committed file differs

The schema is assembled from each built-in game's own (``PositionFormat.schema``, made from its
position module's field types; standoff.server.positions.position_schema), so that the engine's steps and the schema cannot drift apart.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from standoff.server.positions import position_schema

TARGET = pathlib.Path(__file__).resolve().parent.parent / "sdk" / "position.schema.json"


def render() -> str:
    return json.dumps(position_schema(), indent=1, sort_keys=True) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the committed file differs")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET} is out of date: run python scripts/position_schema.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
