"""``python -m bot`` without a token: one clear line pointing to ``make demo``, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "LUDO_"))}
    clean.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=clean,
                          capture_output=True, text=True, timeout=60)


def test_missing_token_is_one_line_and_exit_2(tmp_path: Path) -> None:
    proc = _run(tmp_path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN" in lines[0] and "make demo" in lines[0]
    assert "Traceback" not in proc.stderr + proc.stdout


def test_bad_setting_is_one_line(tmp_path: Path) -> None:
    proc = _run(tmp_path, DISCORD_TOKEN="x", LUDO_AI_DELAY="soon")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "LUDO_AI_DELAY must be a number of seconds >= 0, got 'soon'."]
