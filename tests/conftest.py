import os
import sys

HERE = os.path.dirname(__file__)
sys.path.insert(0, HERE)  # the shared drivers in tests/ (ecarte_driver) import plainly
pytest_plugins = ["twin_select"]  # make test: which tests run again on the pure twins

# `tapis table --journal` makes a device and its key with each new journal (host/table/identity.py,
# issue 33.4): the suite's go to a key store of its own, not the user's (a test may set another)
if "TAPIS_KEY_DIR" not in os.environ:
    import atexit
    import shutil
    import tempfile
    os.environ["TAPIS_KEY_DIR"] = tempfile.mkdtemp(prefix="tapis-test-keys-")
    atexit.register(shutil.rmtree, os.environ["TAPIS_KEY_DIR"], True)
