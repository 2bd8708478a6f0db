# The third-party source `tapis image build` builds from (issue 32): MicroPython v1.27.0 with
# the submodules its rp2 and unix ports need, and picotool 2.1.1 (pico-sdk's build wants it
# to make the UF2). Each is a source tree or a .tar.gz archive, given by path or environment
# variable, never copied into the project; an archive is unpacked once into the cache,
# under its SHA-256. The build tools are Debian's (gcc-arm-none-eabi, libnewlib-arm-none-eabi,
# cmake, gcc-multilib for the 32-bit unix port): `make install` installs them where missing.
import contextlib
import hashlib
import os
import shutil
import subprocess
import tarfile
from pathlib import Path

from tapis.simulator.boards.micropython import cache_dir

MICROPYTHON_ENV = "TAPIS_MICROPYTHON_SRC"
PICOTOOL_ENV = "TAPIS_PICOTOOL_SRC"
WHERE = {
    MICROPYTHON_ENV: ("MicroPython's source: git clone --branch v1.27.0 https://github.com/micropython/micropython "
                      "&& make -C micropython/ports/rp2 submodules, then --source micropython (or $%s)"
                      % MICROPYTHON_ENV),
    PICOTOOL_ENV: ("picotool's source: git clone --branch 2.1.1 https://github.com/raspberrypi/picotool, "
                   "then --picotool picotool (or $%s)" % PICOTOOL_ENV),
}
TOOLS = {"make": "make", "cmake": "cmake", "arm-none-eabi-gcc": "gcc-arm-none-eabi"}


class SourceError(Exception):
    """No usable source or tool: the message says where to get it (exit 2)."""


class BuildError(Exception):
    """A build step failed: the message holds the end of its output (exit 1)."""


def image_cache():
    return cache_dir() / "image"


@contextlib.contextmanager
def one_build_at_a_time():
    """Hold the cache's lock: builds (and unpacking) from two processes (pytest's workers)
    never share a folder half-written, and a shared machine runs one build at a time."""
    import fcntl  # here: `tapis` itself imports this module on Windows too (no fcntl there)

    image_cache().mkdir(parents=True, exist_ok=True)
    with open(image_cache() / "build.lock", "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class Source:
    """A source tree ready to build in: `tree`, and what identifies it (`ident`: the
    archive's SHA-256, or the tree's git commit, for the image's manifest)."""

    def __init__(self, tree, ident, epoch):
        self.tree, self.ident, self.epoch = Path(tree), ident, epoch

    @property
    def key(self):
        """A short name for this source in the cache's directory names."""
        return hashlib.sha256(repr(sorted(self.ident.items())).encode()).hexdigest()[:16]


def given_path(given, env, marker):
    """The path of the source given (else $env), checked without writing anything: a folder
    holding `marker`, or a file tar can read. SourceError saying what is wrong."""
    path = given if given is not None else os.environ.get(env)
    if not path or not path.strip():
        raise SourceError("no %s given. Get %s" % (_what(env), WHERE[env]))
    path = Path(path).expanduser().resolve()
    if path.is_dir():
        if not (path / marker).exists():
            raise SourceError("%s is not %s (no %s in it). Get %s" % (path, _what(env), marker, WHERE[env]))
        return path
    if not path.is_file():
        raise SourceError("%s does not exist. Get %s" % (path, WHERE[env]))
    try:
        if not tarfile.is_tarfile(path):
            raise SourceError("%s is not a .tar.gz of %s. Get %s" % (path, _what(env), WHERE[env]))
    except OSError as e:
        raise SourceError("cannot read %s: %s" % (path, e.strerror or e)) from None
    return path


def find(given, env, marker):
    """The Source given by path (else $env): a tree holding `marker`, or a .tar.gz of one."""
    path = given_path(given, env, marker)
    if path.is_dir():
        return Source(path, *_git_ident(path))
    return _unpack(path, marker, env)


def _what(env):
    return "MicroPython source" if env == MICROPYTHON_ENV else "picotool source"


def _git_ident(tree):
    """({"commit", "dirty"} of a git checkout, else {"tree": its path}; the build's date)."""
    try:
        commit = _git(tree, "rev-parse", "HEAD")
        top = Path(_git(tree, "rev-parse", "--show-toplevel")).resolve()
        if top == tree:
            dirty = bool(_git(tree, "status", "--porcelain", "--untracked-files=no"))
            return {"commit": commit, "dirty": dirty}, int(_git(tree, "log", "-1", "--format=%ct"))
    except (OSError, subprocess.CalledProcessError):
        pass
    return {"tree": str(tree)}, int((tree / "py" / "mpconfig.h").stat().st_mtime) if (tree / "py").is_dir() else 0


def _git(tree, *args):
    return subprocess.run(["git", "-C", str(tree), *args], check=True, capture_output=True, text=True).stdout.strip()


def _unpack(archive, marker, env):
    """The archive unpacked once into the cache (under its SHA-256), atomically."""
    try:
        digest = sha256_file(archive)
    except OSError as e:
        raise SourceError("cannot read %s: %s" % (archive, e.strerror or e)) from None
    dest = image_cache() / ("src-" + digest[:16])
    try:
        tar = tarfile.open(archive)
    except tarfile.TarError:
        raise SourceError("%s is not a .tar.gz of %s. Get %s" % (archive, _what(env), WHERE[env])) from None
    with tar:
        members = tar.getmembers()
        epoch = max((m.mtime for m in members), default=0)
        if not dest.exists():
            tmp = dest.with_name(dest.name + ".tmp%d" % os.getpid())
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            tar.extractall(tmp, filter="tar")
            os.replace(tmp, dest)
    tree = dest
    if not (tree / marker).exists():  # an archive with one top folder
        subs = [p for p in tree.iterdir() if p.is_dir()]
        if len(subs) == 1 and (subs[0] / marker).exists():
            tree = subs[0]
        else:
            raise SourceError("%s does not hold %s (no %s in it). Get %s" % (archive, _what(env), marker, WHERE[env]))
    return Source(tree, {"archive_sha256": digest}, epoch)


def check_tools(m32=False):
    """Refuse early, naming the Debian packages, when a build tool is missing."""
    missing = sorted({pkg for tool, pkg in TOOLS.items() if not shutil.which(tool)})
    if m32 and not _has_m32():
        missing.append("gcc-multilib")
    if missing:
        raise SourceError("the build tools are missing: apt-get install %s (make install does it)" % " ".join(missing))


def _has_m32():
    p = subprocess.run(["gcc", "-m32", "-x", "c", "-", "-o", os.devnull], input=b"int main(void){return 0;}",
                       capture_output=True)
    return p.returncode == 0


def run(argv, log, cwd=None, env=None):
    """Run one build step, its output appended to `log`; BuildError with its tail if it fails."""
    with open(log, "ab") as out:
        out.write(("$ %s\n" % " ".join(map(str, argv))).encode())
        out.flush()
        p = subprocess.run(list(map(str, argv)), cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
    if p.returncode:
        tail = Path(log).read_text(errors="replace").splitlines()[-25:]
        raise BuildError("%s failed (exit %d); the end of %s:\n%s" % (argv[0], p.returncode, log, "\n".join(tail)))


def picotool(mp, given=None, log=os.devnull):
    """picotool built (once per source) against mp's pico-sdk, without USB (it only makes
    UF2 files here): the folder to give pico-sdk as picotool_ROOT."""
    src = find(given, PICOTOOL_ENV, "CMakeLists.txt")
    home = image_cache() / ("picotool-%s-%s" % (src.key, mp.key))
    done = home / "install" / "picotool"
    if not (done / "picotool").exists():
        run(["cmake", "-S", src.tree, "-B", home / "build", "-DPICO_SDK_PATH=%s" % (mp.tree / "lib" / "pico-sdk"),
             "-DPICOTOOL_NO_LIBUSB=1", "-DPICOTOOL_FLAT_INSTALL=1", "-DCMAKE_INSTALL_PREFIX=%s" % (home / "install")], log)
        run(["make", "-C", home / "build", "-j2", "install"], log)
    return done, src
