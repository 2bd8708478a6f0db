# Issue 33.4: each simulated table is a device of its own. `tapis table --journal` names, in a
# new journal's head, a device made with that journal (its key in the host's key store), so
# `tapis recall --verify` holds each journal against its own last head: any number of
# simulated journals verify, and a rollback of any one of them is still caught.
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(tmp_path, *args):
    env = dict(os.environ, TAPIS_KEY_DIR=str(tmp_path / "keys"))
    return subprocess.run([sys.executable, "-m", "tapis"] + list(args), cwd=ROOT, capture_output=True,
                          text=True, timeout=300, env=env)


def table(tmp_path, path, seed, deals, game="ecarte"):
    r = run(tmp_path, "table", "--game", game, "--seed", str(seed), "--deals", str(deals),
            "--journal", str(path), "--json")
    assert r.returncode == 0, r.stderr
    return r


def verify(tmp_path, path):
    return run(tmp_path, "recall", "--journal", str(path), "--verify", "--quiet")


def device(path):
    data = open(path, "rb").read()
    n = data[1] << 8 | data[2]
    return json.loads(data[4:4 + n])["d"]


def test_several_simulated_journals_each_verify(tmp_path):
    """Measured on main (f43841d): the second journal's --verify said "no longer reaches the head
    verified before … truncated or rolled back", both chained under the one device tapis-table."""
    paths = [tmp_path / ("t%d.bin" % i) for i in range(3)]
    for i, p in enumerate(paths):
        table(tmp_path, p, 5 + i, 4, ("ecarte", "piquet", "club")[i])
        r = verify(tmp_path, p)
        assert r.returncode == 0, r.stderr
    names = [device(p) for p in paths]
    assert len(set(names)) == 3 and all(n.startswith("tapis-table-") for n in names), names
    for p, n in zip(paths, names):  # again, in any order: each against its own head
        r = verify(tmp_path, p)
        assert r.returncode == 0 and "device %s" % n in r.stderr, r.stderr
        assert (tmp_path / "keys" / ("%s.key" % n)).exists() and (tmp_path / "keys" / ("%s.head" % n)).exists()


def test_a_resumed_journal_keeps_its_device_and_verifies(tmp_path):
    p = tmp_path / "t.bin"
    table(tmp_path, p, 5, 2)
    n = device(p)
    assert verify(tmp_path, p).returncode == 0
    table(tmp_path, p, 6, 2)  # resumes the unfinished game in it: the same device
    assert device(p) == n
    r = verify(tmp_path, p)
    assert r.returncode == 0 and "reaching the head verified before" in r.stderr, r.stderr


def test_a_rollback_of_any_simulated_journal_is_still_caught(tmp_path):
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    table(tmp_path, a, 5, 12)
    table(tmp_path, b, 7, 3)
    old = tmp_path / "a-old.bin"
    shutil.copy(a, old)
    assert verify(tmp_path, a).returncode == 0
    table(tmp_path, a, 8, 2)  # a plays on, and is verified there
    assert verify(tmp_path, b).returncode == 0
    assert verify(tmp_path, a).returncode == 0
    shutil.copy(old, a)  # then rolled back to the copy
    r = verify(tmp_path, a)
    assert r.returncode == 2 and "truncated or rolled back" in r.stderr, r.stderr
    assert verify(tmp_path, b).returncode == 0  # the other table's journal is not held against it


def test_a_head_naming_a_device_outside_the_key_store_is_refused(tmp_path):
    """The head's device is a file name in the key store: a journal cannot name its way out."""
    p = tmp_path / "t.bin"
    payload = json.dumps({"k": "h", "d": "../../elsewhere", "p": []}).encode()
    n = len(payload)
    p.write_bytes(bytes((0x4C, n >> 8, n & 255, (n >> 8) ^ (n & 255) ^ 0x5A)) + payload + bytes(8))
    r = run(tmp_path, "table", "--seed", "1", "--deals", "1", "--journal", str(p), "--json")
    assert r.returncode == 2 and "not a name the key store holds" in r.stderr, r.stderr
    assert not (tmp_path / "elsewhere.key").exists()


def test_a_power_cut_at_a_tables_first_start_after_its_log_and_before_its_journal_resumes(tmp_path):
    """Issue 44: the power cut between the first start's event log entry and the journal's
    first write left a log under a new device and no journal; every later start made another
    device and exited 2, "event log corrupt at entry 0". The log's head names the device."""
    path = tmp_path / "t.bin"
    table(tmp_path, path, 3, 1)
    events = open(str(path) + ".events", "rb").read()
    os.remove(path)  # the journal not yet written: the first start cut after its log was
    for _ in range(2):
        r = run(tmp_path, "table", "--seed", "4", "--deals", "1", "--journal", str(path), "--quiet")
        assert r.returncode == 0, r.stderr
    assert open(str(path) + ".events", "rb").read().startswith(events)
    assert device(path) == device(str(path) + ".events")
