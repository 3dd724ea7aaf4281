# The README's snippets run as written (sdks/python/README.md): the install command into a
# temporary folder (Debian's pip, offline), then every Python block in order in one namespace, as a
# reader would, against the real Paraph with a fresh account; the webhook handler it defines is
# then given a real delivery, and the same delivery with one byte changed.
from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import BASE_URL, PDF_PATH, Receiver, fresh_key, work

from paraph import Paraph

SDK = Path(__file__).resolve().parent.parent
README = (SDK / "README.md").read_text("utf-8")


def blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", README, flags=re.S | re.M)


def test_the_install_command_installs_the_package(tmp_path: Path) -> None:
    [install] = blocks("sh")
    assert install.strip() == "pip install ./sdks/python"
    target = tmp_path / "site"
    # A copy of the folder, as a clone has it (the build writes build/ and *.egg-info beside the sources).
    source = tmp_path / "sdks" / "python"
    shutil.copytree(SDK, source, ignore=shutil.ignore_patterns("tests", "*.ts", "__pycache__", ".mypy_cache"))
    # The same command, offline: no index, the build backend Debian ships (python3-setuptools).
    run = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-index", "--no-build-isolation", "--no-deps",
         "--target", str(target), "./sdks/python"],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert (target / "paraph" / "py.typed").exists()
    assert (target / "paraph" / "_generated.py").exists()
    probe = subprocess.run(
        [sys.executable, "-c", "import paraph, sys; print(paraph.__file__, paraph.__version__)"],
        capture_output=True, text=True, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(target)},
    )
    assert probe.returncode == 0 and probe.stdout.startswith(str(target)), probe.stderr


def test_every_python_block_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, receiver: Receiver) -> None:
    key = fresh_key()
    endpoint = Paraph(key, base_url=BASE_URL).create_webhook_endpoint(
        {"url": receiver.url, "events": ["submission.created"]}
    )
    monkeypatch.setenv("PARAPH_API_KEY", key)
    monkeypatch.setenv("PARAPH_BASE_URL", BASE_URL)
    monkeypatch.setenv("PARAPH_WEBHOOK_SECRET", endpoint["secret"])
    shutil.copy(PDF_PATH, tmp_path / "contract.pdf")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": "readme"}
    printed = io.StringIO()
    snippets = blocks("python")
    assert len(snippets) >= 6
    with contextlib.redirect_stdout(printed):
        for snippet in snippets:
            exec(compile(snippet, "README.md", "exec"), namespace)
    out = printed.getvalue()
    assert "404 resource_not_found req_" in out
    assert "invalid_request submitters[0].email" in out
    made = {s["id"] for s in Paraph(key, base_url=BASE_URL).list_submissions()}
    assert len(made) == 4, "first call, PDF, retries, async: one submission each"
    assert all(m in out for m in made)

    work()
    assert len(receiver.deliveries) == 4
    raw, header = receiver.deliveries[0]
    assert namespace["on_delivery"](raw, header) == 200
    one_byte_changed = raw[:-1] + bytes([raw[-1] ^ 0x01])
    assert namespace["on_delivery"](one_byte_changed, header) == 400
