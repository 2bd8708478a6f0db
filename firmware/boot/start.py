# The product image's start-up (issue 32; docs/security.md, "Firmware"). `tapis image build`
# freezes a boot.py and a main.py of a few lines that call boot() and main() here; the
# rp2 port runs a frozen boot.py or main.py in place of the filesystem's (MicroPython's
# pyexec_file_if_exists looks in the frozen modules first), so no file of the filesystem
# runs before the check: the generated boot.py puts the frozen modules alone on sys.path
# before it imports this, and the check (manifest.py, its imports made with the filesystem
# off the path) verifies under the public key baked into the image (tapis_image.PUBLIC_KEY,
# never manifest.pub) that the image as the board reads it (xip.py) and every file are
# exactly what the host signed. A boot.py, main.py or lib/ file on the filesystem runs only
# when that manifest signs it. Each boot that verifies records the manifest's version and
# the image's SHA-256 it saw in SEEN when they change (the host keeps the images it built:
# host/image/uf2.py record()).
import sys

SEEN = "/image.seen"
verified = None  # (the line it says, ok): boot() sets it, main() reads it (the same interpreter)


def boot(public_key):
    """The check under public_key (tapis_image.PUBLIC_KEY, handed in by the generated boot.py),
    then a signed boot.py."""
    global verified
    sys.path[:] = [".frozen"]  # (the generated boot.py did it already: this module is frozen)
    if public_key is None:
        ok, message = False, "the image has no signing public key baked in (tapis image build --device)"
    else:
        from ..verify.manifest import check

        ok, message = check("/", public_key, True)
    from ..compat import unload

    unload("verify.manifest", "verify.wots", "verify.xip", "verify")
    verified = "tapis: " + (message if ok else "REFUSING TO RUN: " + message), ok
    if not ok:
        return
    files = signed()
    _seen()
    if any(p.startswith("lib/") for p in files):
        sys.path.append("/lib")
    if "boot.py" in files:
        _run("/boot.py")


def main():
    """The verdict said (here: boot.py runs before the USB console is up, and what it
    printed is lost), then the table (firmware.boot.main), or the signed main.py in its place;
    nothing when the check refused (the REPL follows, for the operator to flash again)."""
    if verified is None:  # boot() was interrupted (Ctrl-C): no verdict, nothing runs
        return
    print(verified[0])
    if not verified[1]:
        return
    if "main.py" in signed():
        _run("/main.py")
    else:
        __import__("firmware.boot.main")


def signed():
    """{path: sha256} of the files the verified manifest lists."""
    import json

    with open("/manifest.json") as f:
        return json.loads(f.read())["files"]


def _run(path):
    with open(path) as f:
        code = f.read()
    exec(code, {"__name__": "__main__"})


def _seen():
    """Append "version image-sha256" to SEEN when this boot's differ from the last line's."""
    import json

    try:
        with open("/manifest.json") as f:
            m = json.loads(f.read())
        line = "%d %s\n" % (m["version"], m["image"]["sha256"])
        last = ""
        try:
            with open(SEEN) as f:
                for last in f:
                    pass
        except OSError:
            pass
        if last != line:
            with open(SEEN, "a") as f:
                f.write(line)
    except (OSError, ValueError, KeyError):
        pass  # a full filesystem: the record waits for the next boot
