import os
import sys

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)  # the shared drivers in tests/ (ecarte_driver) import plainly
# The tests mirror the source (tests/firmware/link/test_frames.py, ...): a test module imports
# another by its name alone (from test_tilts import rig) wherever either sits, so every folder
# of tests is on the path (their names are unique below tests/: pytest's rootdir-less import).
for _dir, _dirs, _files in sorted(os.walk(HERE)):
    _dirs[:] = sorted(d for d in _dirs if d not in ("__pycache__", "golden"))
    if _dir != HERE and any(f.startswith("test_") and f.endswith(".py") for f in _files):
        sys.path.append(_dir)
pytest_plugins = ["twin_select"]  # make test: which tests run again on the pure twins

# `tapis table --journal` makes a device and its key with each new journal (host/table/identity.py,
# issue 33.4): the suite's go to a key store of its own, not the user's (a test may set another)
if "TAPIS_KEY_DIR" not in os.environ:
    import atexit
    import shutil
    import tempfile
    os.environ["TAPIS_KEY_DIR"] = tempfile.mkdtemp(prefix="tapis-test-keys-")
    atexit.register(shutil.rmtree, os.environ["TAPIS_KEY_DIR"], True)
