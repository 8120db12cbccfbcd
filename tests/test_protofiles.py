"""The shipped .proto files (``standoff proto --out DIR``) and the ``buf breaking`` guard of the
``standoff.v1`` contract against ``proto/baseline.binpb``."""

from __future__ import annotations

import pathlib
import shutil
import subprocess
import sys

import pytest

from standoff.server.protofiles import ProtoCopyError, copy_protos, proto_files

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"
SOURCES = PROTO_ROOT / "standoff" / "v1"
BASELINE = PROTO_ROOT / "baseline.binpb"
NAMES = ["referee.proto", "views.proto"]


def _buf() -> str:
    buf = shutil.which("buf") or str(pathlib.Path(sys.executable).parent / "buf")
    if not pathlib.Path(buf).exists():
        pytest.skip("buf (buf-bin, dev extra) is not installed")
    return buf


# -- proto_files / copy_protos -------------------------------------------------------------------


def test_proto_files_are_the_shipped_protos():
    found = proto_files()
    assert [f.name for f in found] == NAMES == sorted(p.name for p in SOURCES.glob("*.proto"))
    for entry in found:
        assert entry.read_bytes() == (SOURCES / entry.name).read_bytes()


def test_copy_writes_the_import_layout_and_equals_the_sources(tmp_path):
    written = copy_protos(tmp_path / "out")
    assert written == [tmp_path / "out" / "standoff" / "v1" / name for name in NAMES]
    for path in written:
        assert path.read_bytes() == (SOURCES / path.name).read_bytes()
    assert sorted(p.relative_to(tmp_path / "out").as_posix() for p in (tmp_path / "out").rglob("*") if p.is_file()) == [
        f"standoff/v1/{name}" for name in NAMES
    ]
    # The import lines of the files resolve inside the copied tree.
    assert 'import "standoff/v1/views.proto";' in written[0].read_text()


def test_copy_again_is_a_no_op_and_accepts_a_str(tmp_path):
    first = copy_protos(str(tmp_path))
    mtimes = [p.stat().st_mtime_ns for p in first]
    assert copy_protos(str(tmp_path)) == first
    assert [p.stat().st_mtime_ns for p in first] == mtimes


def test_copy_refuses_to_overwrite_a_different_file(tmp_path):
    target = tmp_path / "standoff" / "v1"
    target.mkdir(parents=True)
    (target / "views.proto").write_text("// my edited copy\n")
    with pytest.raises(ProtoCopyError, match=r"refusing to overwrite .*views\.proto.*overwrite=True"):
        copy_protos(tmp_path)
    # Nothing was written: not even the file that did not conflict.
    assert (target / "views.proto").read_text() == "// my edited copy\n"
    assert not (target / "referee.proto").exists()
    written = copy_protos(tmp_path, overwrite=True)
    for path in written:
        assert path.read_bytes() == (SOURCES / path.name).read_bytes()


def test_copy_reports_a_file_in_the_way(tmp_path):
    (tmp_path / "standoff").write_text("not a directory")
    with pytest.raises(ProtoCopyError, match="in the way"):
        copy_protos(tmp_path)


def test_protoc_compiles_the_copied_tree(tmp_path):
    protoc = pytest.importorskip("grpc_tools.protoc", reason="grpcio-tools (dev extra) bundles protoc")
    root = tmp_path / "protos"
    copy_protos(root)
    out = tmp_path / "gen"
    out.mkdir()
    descriptor = tmp_path / "standoff.binpb"
    status = protoc.main([
        "protoc", f"-I{root}", f"--python_out={out}", f"--descriptor_set_out={descriptor}", "--include_imports",
        "standoff/v1/referee.proto", "standoff/v1/views.proto",
    ])
    assert status == 0
    assert sorted(p.name for p in (out / "standoff" / "v1").glob("*.py")) == ["referee_pb2.py", "views_pb2.py"]

    from google.protobuf import descriptor_pb2

    from standoff.v1 import referee_pb2

    files = descriptor_pb2.FileDescriptorSet.FromString(descriptor.read_bytes()).file
    compiled = {f.name: f for f in files}
    assert set(compiled) == {"standoff/v1/referee.proto", "standoff/v1/views.proto"}
    referee = compiled["standoff/v1/referee.proto"]
    assert referee.package == "standoff.v1"
    assert [s.name for s in referee.service] == ["RefereeService"]
    # The same messages as the package's own generated code.
    assert {m.name for m in referee.message_type} == set(referee_pb2.DESCRIPTOR.message_types_by_name)


# -- buf breaking ---------------------------------------------------------------------------------


def _buf_breaking(buf: str, input_dir: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [buf, "breaking", str(input_dir), "--against", str(BASELINE)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )


def test_the_contract_is_compatible_with_the_baseline():
    buf = _buf()
    assert BASELINE.is_file(), "proto/baseline.binpb is missing: see proto/README.md"
    out = _buf_breaking(buf, PROTO_ROOT)
    assert out.returncode == 0, (
        "standoff.v1 changed incompatibly (only add fields/messages/enum values; never renumber, "
        "retype or remove):\n" + out.stdout + out.stderr
    )


def _mutated_copy(tmp_path: pathlib.Path, name: str, old: str, new: str) -> pathlib.Path:
    root = tmp_path / "proto"
    root.mkdir()
    shutil.copy(PROTO_ROOT / "buf.yaml", root / "buf.yaml")
    copy_protos(root)
    path = root / "standoff" / "v1" / name
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} not found once in {name}: update this test"
    path.write_text(text.replace(old, new))
    return root


@pytest.mark.parametrize(
    ("name", "old", "new", "expected"),
    [
        pytest.param("referee.proto", "uint32 option_index = 3;", "uint32 option_index = 7;", "option_index",
                     id="renumbered-field"),
        pytest.param("referee.proto", "uint32 option_index = 3;", "string option_index = 3;", "option_index",
                     id="changed-type"),
        pytest.param("views.proto", "  repeated string hand = 6;\n", "", "hand", id="removed-field"),
        pytest.param("referee.proto", "  ERROR_CODE_TIMEOUT = 5;\n", "", "ErrorCode",
                     id="removed-enum-value"),
    ],
)
def test_buf_breaking_catches_an_incompatible_change(tmp_path, name, old, new, expected):
    buf = _buf()
    out = _buf_breaking(buf, _mutated_copy(tmp_path, name, old, new))
    assert out.returncode != 0, "buf breaking accepted an incompatible change"
    assert expected in out.stdout + out.stderr


def test_buf_breaking_accepts_an_added_field(tmp_path):
    buf = _buf()
    root = _mutated_copy(
        tmp_path, "referee.proto", "  uint64 think_us = 4;\n",
        "  uint64 think_us = 4;\n  // A later, compatible addition.\n  string note = 5;\n",
    )
    out = _buf_breaking(buf, root)
    assert out.returncode == 0, out.stdout + out.stderr


# -- docs/protocol.md stays in step with the contract ---------------------------------------------


def test_protocol_doc_names_every_step_error_code_and_message():
    from standoff.server.games.schotten_totten.steps import STEPS
    from standoff.v1 import referee_pb2, views_pb2

    doc = (ROOT / "docs" / "protocol.md").read_text()
    asking = set(STEPS) - {"turn", "end_turn"}  # these never ask a decision
    missing = [name for name in sorted(asking) if f"| `{name}` |" not in doc]
    assert not missing, f"docs/protocol.md lacks Schotten Totten steps {missing}"
    for value in referee_pb2.ErrorCode.DESCRIPTOR.values[1:]:
        assert f"`{value.name}` ({value.number})" in doc, value.name
    for message in ("Hello", "Welcome", "MatchStarted", "Decision", "Choice", "MatchEnded", "Error"):
        assert f"### `{message}`" in doc, message
    for field in views_pb2.SchottenTottenView.DESCRIPTOR.fields:
        assert f"| `{field.name}` |" in doc, field.name
