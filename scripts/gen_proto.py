"""Generate the Python wire code from proto/standoff/v1/*.proto (the only way it is produced).

    python scripts/gen_proto.py           # regenerate in place
    python scripts/gen_proto.py --check   # exit 1 if the committed code differs (CI/test)

Uses grpcio-tools at the version pinned in pyproject.toml's `dev` extra, so that the output is
reproducible. Writes *_pb2.py, *_pb2.pyi and *_pb2_grpc.py next to the .proto files.
"""

from __future__ import annotations

import argparse
import difflib
import pathlib
import shutil
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
PACKAGE_DIR = PROTO_ROOT / "standoff" / "v1"
PINNED_TOOLS = "1.85.1"


def generate(out_dir: pathlib.Path) -> list[pathlib.Path]:
    from grpc_tools import protoc  # imported here: only this script needs grpcio-tools

    import grpc_tools

    include = pathlib.Path(grpc_tools.__file__).parent / "_proto"
    protos = sorted(PACKAGE_DIR.glob("*.proto"))
    args = [
        "protoc",
        f"-I{PROTO_ROOT}",
        f"-I{include}",
        f"--python_out={out_dir}",
        f"--pyi_out={out_dir}",
        f"--grpc_python_out={out_dir}",
        *(str(p.relative_to(PROTO_ROOT)) for p in protos),
    ]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    return sorted((out_dir / "standoff" / "v1").glob("*_pb2*.py*"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", action="store_true", help="only compare with the committed code")
    args = parser.parse_args()
    from importlib.metadata import version

    tools = version("grpcio-tools")
    if tools != PINNED_TOOLS:
        print(f"grpcio-tools {tools} installed; the committed code is made with {PINNED_TOOLS}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        generated = generate(pathlib.Path(tmp))
        differ = []
        for path in generated:
            target = PACKAGE_DIR / path.name
            new = path.read_text()
            old = target.read_text() if target.exists() else ""
            if new != old:
                differ.append(target)
                if args.check:
                    sys.stdout.writelines(
                        difflib.unified_diff(old.splitlines(True), new.splitlines(True), str(target), "generated")
                    )
                else:
                    shutil.copyfile(path, target)
        stale = {p.name for p in PACKAGE_DIR.glob("*_pb2*.py*")} - {p.name for p in generated}
        if args.check and (differ or stale):
            print(f"generated code is out of date: {[p.name for p in differ] + sorted(stale)}", file=sys.stderr)
            return 1
        for name in sorted(stale):
            if not args.check:
                (PACKAGE_DIR / name).unlink()
    if not args.check:
        print(f"generated {len(generated)} files in {PACKAGE_DIR.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
