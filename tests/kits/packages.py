"""Python packages made on the spot, with no build tool and no network: wheels written directly
(:func:`write_wheel`), and project folders and sdists whose build backend is a file of their own
(:data:`BACKEND`, ``backend-path = ["."]``, no build requirement), so pip builds them with
``--no-index`` too. For the submission tests (tests/test_submissions.py).
"""

from __future__ import annotations

import tarfile
import textwrap
from pathlib import Path

#: A PEP 517 build backend in one file: builds a wheel of the packages named in
#: ``[tool.tinybackend] packages`` and an sdist of the folder. Its ``make_wheel`` is the one
#: :func:`write_wheel` uses.
BACKEND = r'''
import base64, hashlib, os, tarfile, tomllib, zipfile


def _project():
    with open("pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    return data["project"], data.get("tool", {}).get("tinybackend", {}).get("packages", [])


def make_wheel(directory, name, version, files, requires=(), entry_points=None):
    """Write NAME-VERSION-py3-none-any.whl into directory; files: {archive path: text}."""
    dist = name.replace("-", "_")
    info = f"{dist}-{version}.dist-info"
    meta = [f"Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Dist: {r}" for r in requires]
    files = dict(files)
    files[f"{info}/METADATA"] = "\n".join(meta) + "\n"
    files[f"{info}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: tinybackend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    if entry_points:
        text = ""
        for group, items in entry_points.items():
            text += f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in items.items())
        files[f"{info}/entry_points.txt"] = text
    record = []
    for path, text in files.items():
        data = text.encode()
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = "\n".join(record) + "\n"
    filename = f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, filename), "w") as z:
        for path, text in files.items():
            z.writestr(path, text)
    return filename


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    project, packages = _project()
    files = {}
    for package in packages:
        for root, _, names in os.walk(package):
            for n in sorted(names):
                if n.endswith(".py"):
                    path = os.path.join(root, n)
                    with open(path, encoding="utf-8") as f:
                        files[path.replace(os.sep, "/")] = f.read()
    return make_wheel(wheel_directory, project["name"], project["version"], files,
                      project.get("dependencies", ()), project.get("entry-points"))


def build_sdist(sdist_directory, config_settings=None):
    project, _ = _project()
    base = f"{project['name'].replace('-', '_')}-{project['version']}"
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        for root, dirs, names in os.walk("."):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            for n in sorted(names):
                path = os.path.join(root, n)
                tar.add(path, arcname=os.path.join(base, os.path.relpath(path, ".")))
    return filename
'''

_namespace: dict = {}
exec(compile(BACKEND, "tinybackend.py", "exec"), _namespace)


def write_wheel(directory: Path, name: str, version: str, files: dict[str, str], requires=(),
                entry_points: dict | None = None) -> Path:
    """A wheel of ``files`` ({archive path: text}) in ``directory``; its path."""
    directory.mkdir(parents=True, exist_ok=True)
    return directory / _namespace["make_wheel"](str(directory), name, version, files, requires, entry_points)


def bot_module(bot_name: str, games=("schotten-totten",), body: str = "return self.rng.randrange(len(decision.options))",
               imports: str = "") -> str:
    """The source of a plugin module with one bot ``bot_name`` whose ``choose`` runs ``body``
    (lines without indentation of their own)."""
    template = textwrap.dedent(f"""\
        from standoff.sdk import Bot, BotSpec, hookimpl
        {imports}

        class SubmittedBot(Bot):
            name = {bot_name!r}
            games = {tuple(games)!r}

            def choose(self, decision, view):
        BODY

        @hookimpl
        def standoff_bots():
            return [BotSpec.from_class(SubmittedBot)]
        """)
    return template.replace("BODY\n", textwrap.indent(body.rstrip("\n") + "\n", " " * 8))


def bot_files(package: str, source: str) -> dict[str, str]:
    return {f"{package}/__init__.py": source}


def bot_entry_points(package: str, name: str = "bot") -> dict:
    return {"standoff.bots": {name: package}}


def write_project(folder: Path, name: str, version: str, package: str, source: str, requires=()) -> Path:
    """A project folder built by :data:`BACKEND`: package ``package`` (its ``__init__`` is
    ``source``) registered in ``standoff.bots``."""
    (folder / package).mkdir(parents=True, exist_ok=True)
    (folder / package / "__init__.py").write_text(source)
    (folder / "tinybackend.py").write_text(BACKEND)
    deps = ", ".join(f'"{r}"' for r in requires)
    (folder / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [build-system]
        requires = []
        build-backend = "tinybackend"
        backend-path = ["."]

        [project]
        name = "{name}"
        version = "{version}"
        dependencies = [{deps}]

        [project.entry-points."standoff.bots"]
        bot = "{package}"

        [tool.tinybackend]
        packages = ["{package}"]
        """))
    return folder


def write_sdist(project: Path, directory: Path) -> Path:
    """The sdist of a :func:`write_project` folder (as its backend makes it), in ``directory``."""
    import os

    directory.mkdir(parents=True, exist_ok=True)
    here = os.getcwd()
    try:
        os.chdir(project)
        return directory / _namespace["build_sdist"](str(directory))
    finally:
        os.chdir(here)


def write_tar(project: Path, path: Path) -> Path:
    """``project`` packed as ``path`` (a .tar.gz), for tests of what is not an sdist."""
    with tarfile.open(path, "w:gz") as tar:
        tar.add(project, arcname=project.name)
    return path
