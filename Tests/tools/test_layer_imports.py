"""The layers' imports, as Package.swift declares them (README, Architecture).

A target's dependencies in Package.swift keep most of the rule, but SwiftPM lets a target import
the C modules its dependencies depend on (`import CLwsShim` in DrawServer compiles, since
DrawTransport depends on it; `--explicit-target-dependency-import-check` does not catch that
either). So the imports each target may write are listed here, and a new one fails this test
until it is added on purpose: DrawServer never reaches libwebsockets or epoll but through
DrawTransport, nor the adapters of DrawData; DrawCore stays pure.
"""
import re
from pathlib import Path

SOURCES = Path(__file__).resolve().parents[2] / "Sources"

# The system's own modules any target may use (Glibc, Foundation, Dispatch; Darwin on macOS).
SYSTEM = {"Foundation", "Glibc", "Darwin", "Dispatch"}

ALLOWED = {
    "DrawCore": {"Crypto"},
    "DrawData": {"DrawCore", "CCurl", "CCurlShim", "CSQLite", "CHiredisShim"},
    "DrawPresentation": {"DrawCore"},
    "DrawTransport": {"CLwsShim", "CSysShim", "Logging"},
    "DrawServer": {"DrawCore", "DrawPresentation", "DrawTransport", "CQRShim", "Logging", "CoreMetrics"},
    "LiveDrawCLI": {"DrawCore", "DrawData", "DrawServer", "ArgumentParser", "Logging"},
    "LiveDraw": {"DrawCore", "DrawData", "DrawPresentation", "DrawServer", "LiveDrawCLI", "Logging",
                 "CoreMetrics", "Prometheus"},
}

IMPORT = re.compile(r"^\s*(?:@testable\s+|@_exported\s+)?import\s+(?:(?:struct|class|enum|func)\s+)?([A-Za-z_]\w*)", re.M)


def imports_of(target: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in (SOURCES / target).rglob("*.swift"):
        for module in IMPORT.findall(path.read_text()):
            found.setdefault(module, set()).add(str(path.relative_to(SOURCES)))
    return found


def test_every_swift_target_is_listed():
    targets = {p.name for p in SOURCES.iterdir() if p.is_dir() and any(p.rglob("*.swift"))}
    assert targets == set(ALLOWED), f"targets to list (or to drop) here: {targets ^ set(ALLOWED)}"


def test_each_target_imports_only_its_layers():
    wrong = {}
    for target, allowed in ALLOWED.items():
        for module, files in imports_of(target).items():
            if module not in allowed | SYSTEM:
                wrong[f"{target} imports {module}"] = sorted(files)
    assert not wrong, f"imports outside the layer rule: {wrong}"


def test_the_check_sees_an_import_it_must_refuse(tmp_path, monkeypatch):
    """The rule can fail: a DrawServer file importing the libwebsockets shim is caught."""
    fake = tmp_path / "Sources"
    (fake / "DrawServer").mkdir(parents=True)
    (fake / "DrawServer" / "Leak.swift").write_text("import DrawCore\nimport CLwsShim\n")
    monkeypatch.setattr(__import__(__name__), "SOURCES", fake)
    assert "CLwsShim" in imports_of("DrawServer")
    assert "CLwsShim" not in ALLOWED["DrawServer"]
