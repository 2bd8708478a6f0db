# The firmware's modules compiled once per process (issue 33.3). A board loads a module
# needed for a moment (deckcount.py at each pack counted, hello.py at a pairing) and
# unloads it after (compat.unload): on a host each load finds the file again and, without
# bytecode files (PYTHONDONTWRITEBYTECODE), compiles it again: a fifth of an emulated
# écarté deal. Here the same source gives the same code object, kept: the module is still
# made anew and run from the top at each import, as on a board, so nothing but the time
# changes.
import sys
from importlib.machinery import PathFinder, SourceFileLoader

PREFIX = "tapis.firmware."


class _Loader(SourceFileLoader):
    codes = {}  # (path, mtime, size): the code object compiled from it

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        st = self.path_stats(path)
        key = (path, st["mtime"], st.get("size"))
        code = self.codes.get(key)
        if code is None:
            code = self.codes[key] = SourceFileLoader.get_code(self, fullname)
        return code


class _Finder:
    @staticmethod
    def find_spec(fullname, path=None, target=None):
        if not fullname.startswith(PREFIX):
            return None
        spec = PathFinder.find_spec(fullname, path, target)
        if spec is not None and type(spec.loader) is SourceFileLoader:
            spec.loader = _Loader(spec.loader.name, spec.loader.path)
        return spec

    @staticmethod
    def invalidate_caches():
        pass


def install():
    """The finder put first on sys.meta_path, once."""
    if not any(f is _Finder for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder)
