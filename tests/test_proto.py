"""The wire contract: generated code matches the .proto files, buf lint is clean, and the .proto
files ship with the package."""

from __future__ import annotations

import importlib.resources
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_generated_code_is_up_to_date():
    pytest.importorskip("grpc_tools", reason="grpcio-tools (dev extra) generates the wire code")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_proto.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr


def test_buf_lint_is_clean():
    buf = shutil.which("buf") or (pathlib.Path(sys.executable).parent / "buf")
    if not pathlib.Path(buf).exists():
        pytest.skip("buf (buf-bin, dev extra) is not installed")
    out = subprocess.run([str(buf), "lint"], cwd=ROOT / "proto", capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr


def test_proto_files_ship_with_the_package():
    files = {p.name for p in importlib.resources.files("standoff.v1").iterdir()}
    assert {"referee.proto", "views.proto", "referee_pb2.py", "views_pb2.py"} <= files


def test_the_wheel_contains_the_proto_files(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    import zipfile

    (wheel,) = tmp_path.glob("standoff-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"standoff/v1/referee.proto", "standoff/v1/views.proto", "standoff/v1/referee_pb2.py"} <= names
    assert "standoff/server/games/schotten_totten/steps.py" in names
    assert not any(n.startswith("tests/") for n in names)


def test_enums_start_with_unspecified():
    from standoff.v1 import referee_pb2

    for enum in referee_pb2.DESCRIPTOR.enum_types_by_name.values():
        assert enum.values[0].number == 0 and enum.values[0].name.endswith("_UNSPECIFIED")
