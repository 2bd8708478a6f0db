# The Cython core is optional: without a compiler the build warns and the host
# uses the pure twins (host/core.py). TAPIS_PURE=1 forces them at run time.
import glob
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    def run(self):
        try:
            build_ext.run(self)
        except Exception as e:  # no compiler, no Cython, no headers
            _warn(e)

    def build_extension(self, ext):
        try:
            build_ext.build_extension(self, ext)
        except Exception as e:
            _warn(e)


def _warn(e):
    sys.stderr.write(
        "\nWARNING: the Cython core could not be built (%s).\n"
        "Tapis will run on the pure-Python twins: correct, but slower.\n\n" % (e,))


def extensions():
    try:
        from Cython.Build import cythonize
    except ImportError as e:
        _warn(e)
        return []
    return cythonize(sorted(glob.glob("cython_core/*.pyx")), language_level=3, quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
