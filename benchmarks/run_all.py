"""Run every benchmark in this folder, one after another (make bench)."""
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    failed = 0
    for script in sorted(HERE.glob("*.py")):
        if script.name == Path(__file__).name or script.name.startswith("_"):
            continue
        print("== %s" % script.name, flush=True)
        failed |= subprocess.call([sys.executable, str(script)], cwd=HERE.parent) != 0
    sys.exit(1 if failed else 0)
