"""The property tests of tests/test_properties.py, run long: 25 times the examples of CI.

    .venv/bin/python tests/fuzz/long_run.py [PYTEST ARGS...]

Prints hypothesis's statistics (examples run per property) at the end. About half an hour on
two shared cores.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

if __name__ == "__main__":
    command = [sys.executable, "-m", "pytest", "tests/test_properties.py", "-p", "no:cacheprovider"]
    command += ["--hypothesis-show-statistics", "-q", *sys.argv[1:]]
    environment = {**os.environ, "BREAKLINT_FUZZ_PROFILE": "long"}
    sys.exit(subprocess.run(command, cwd=REPO, env=environment).returncode)
