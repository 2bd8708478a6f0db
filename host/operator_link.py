# A host tool's end of a table's operator's link (tapis recall, events, meters, verify, clear
# --port; the pit's boards): in a session under the table's device key when the table keys it
# (firmware/hostlink.py: `tapis table --host-port`, a board built with it), else the unkeyed
# link of its own that tables built the old way answer. One place for --table-key's meaning.
import os


def add_option(p):
    p.add_argument("--table-key", metavar="DEVICE|FILE", type=_key,
                   help="with --port: the table's device key (a device name in the host's key store, "
                   "or a key file, hex) when its operator's link is keyed; the tool then speaks in a "
                   "session under it (default: the unkeyed link of its own)")


def key_of(spec):
    """The device key `spec` names: a key file's path, else a device in the key store;
    None for None. FlashError when it is not there."""
    from tapis.host.flash_keys import load_key
    if spec is None:
        return None
    return load_key(None, spec) if os.path.exists(spec) else load_key(spec)


def _key(spec):
    import argparse
    from tapis.host.flash_errors import FlashError
    try:
        return key_of(spec)
    except FlashError as e:
        raise argparse.ArgumentTypeError(str(e))


def open_link(port, serial, key=None, **kw):
    """The tool's Link on `port` (read()/write()), named `serial` (what the table logs as
    who asked), keyed with the table's device key (bytes, --table-key's; None: unkeyed)."""
    from tapis.firmware.hostlink import host_end
    return host_end(port, serial, key, **kw)
