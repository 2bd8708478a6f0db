# The Cython core is optional: without a compiler the build warns and the host
# uses the pure twins (cython_core/twins.py). TAPIS_PURE=1 forces them at run time.
#
# One import package, `tapis`: the repository's top-level folders are its subpackages
# (firmware/ is tapis.firmware, and so on), so the wheel installs nothing else at the top.
import glob
import os
import shutil
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

PARTS = ("firmware", "cython_core", "simulator", "host")


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            build_ext.run(self)
        except Exception as e:  # no compiler, no Cython, no headers
            _warn(e)

    def build_extension(self, ext):
        if not self.inplace and self._reuse(ext):
            return
        try:
            build_ext.build_extension(self, ext)
        except Exception as e:
            _warn(e)

    def _reuse(self, ext):
        """A wheel built in a checkout takes the core `make install` already compiled in place
        (cython_core/X.cpython-3xx-*.so: this interpreter's ABI, newer than its .pyx and .c)
        instead of compiling it again."""
        target = self.get_ext_fullpath(ext.name)
        built = os.path.join("cython_core", os.path.basename(target))
        pyx = os.path.join("cython_core", ext.name.rsplit(".", 1)[-1] + ".pyx")
        if not os.path.isfile(built) or any(
                os.path.isfile(src) and os.path.getmtime(src) > os.path.getmtime(built)
                for src in [pyx] + list(ext.sources)):
            return False
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(built, target)
        return True


def _warn(e):
    sys.stderr.write(
        "\nWARNING: the Cython core could not be built (%s).\n"
        "Tapis will run on the pure-Python twins: correct, but slower.\n\n" % (e,))


def packages():
    found = {"tapis": "tapis"}
    for part in PARTS:
        for d, _dirs, files in os.walk(part):
            if "__init__.py" in files and "node_modules" not in d:
                found["tapis." + d.replace(os.sep, ".")] = d
    return found


def extensions():
    try:
        from Cython.Build import cythonize
    except ImportError as e:
        _warn(e)
        return []
    exts = [Extension("tapis.cython_core." + os.path.basename(p)[:-4], [p])
            for p in sorted(glob.glob("cython_core/*.pyx"))]
    return cythonize(exts, language_level=3, quiet=True)


_packages = packages()
setup(packages=sorted(_packages), package_dir=_packages, ext_modules=extensions(),
      cmdclass={"build_ext": OptionalBuildExt})
