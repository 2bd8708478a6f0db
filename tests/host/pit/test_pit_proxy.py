"""tapis pit behind a reverse proxy (issue 45.5): Debian's nginx with docs/pit.md's own site
(taken from the document, its ports and certificate files the test's), terminating TLS in front
of a pit on the loopback. Through it an operator signs in (a Secure cookie: the pit believes
the proxy's X-Forwarded-Proto), reads the floor and the live stream; a wrong password is
counted against the operator's address (X-Forwarded-For), not the proxy's; and a client that
reaches the pit directly, not from --trusted-proxy, cannot pass for another address with a
forged X-Forwarded-For. Skipped, saying why, only where nginx is not installed (make install
installs Debian's nginx-light)."""
import json
import os
import re
import shutil
import socket
import subprocess
import time

import httpx
import pytest
from sqlalchemy import create_engine, text

from pit_rig import ADMIN, CREDENTIAL, ROOT, PitProcess

NAME = "pit.casino.example"


def site():
    """docs/pit.md's nginx site, as written there."""
    doc = (ROOT / "docs" / "pit.md").read_text()
    m = re.search(r"\n    server \{\n.*?\n    \}\n", doc, re.S)
    assert m, "docs/pit.md has no nginx site"
    return "\n".join(line[4:] for line in m.group(0).strip("\n").split("\n"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def nginx(tmp_path):
    """start(pit's port): nginx on a free port of the loopback with docs/pit.md's site in front
    of it; its port."""
    exe = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    if exe is None:
        pytest.skip("nginx is not installed (Debian's nginx-light: make install installs it)")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=" + NAME,
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    procs = []

    def start(pit_port):
        port = free_port()
        s = site()
        for old, new in (("listen 443 ssl", "listen 127.0.0.1:%d ssl" % port), ("/etc/ssl/pit/cert.pem", str(cert)),
                         ("/etc/ssl/pit/key.pem", str(key)), ("127.0.0.1:8031", "127.0.0.1:%d" % pit_port)):
            assert old in s, old
            s = s.replace(old, new)
        for d in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
            (tmp_path / d).mkdir(exist_ok=True)
        conf = tmp_path / "nginx.conf"
        conf.write_text("%sworker_processes 1;\nerror_log %s/error.log;\npid %s/nginx.pid;\nevents {}\nhttp {\n"
                        "access_log off;\nclient_body_temp_path %s/body;\nproxy_temp_path %s/proxy;\n"
                        "fastcgi_temp_path %s/fastcgi;\nuwsgi_temp_path %s/uwsgi;\nscgi_temp_path %s/scgi;\n%s\n}\n"
                        % (("user root;\n" if os.geteuid() == 0 else ""), tmp_path, tmp_path, tmp_path, tmp_path,
                           tmp_path, tmp_path, tmp_path, s))
        p = subprocess.Popen([exe, "-p", str(tmp_path), "-c", str(conf), "-g", "daemon off;"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append(p)
        end = time.time() + 30
        while time.time() < end:
            try:
                socket.create_connection(("127.0.0.1", port), 1).close()
                return port
            except OSError:
                assert p.poll() is None, p.stderr.read()
                time.sleep(0.1)
        raise AssertionError("nginx did not listen in 30 s")

    yield start
    for p in procs:
        p.terminate()
        p.wait(10)


def client(port, local="127.0.0.1"):
    """An operator's browser reaching the proxy from `local`, by the pit's public name."""
    return httpx.Client(base_url="https://127.0.0.1:%d" % port, verify=False, timeout=20,
                        headers={"Host": "%s:%d" % (NAME, port)},
                        transport=httpx.HTTPTransport(local_address=local, verify=False))


def test_the_pit_behind_nginx_believes_the_proxy_and_no_one_else(nginx, tmp_path):
    path = tmp_path / "pit.db"
    pit = PitProcess("--floor", "1", "--pace", "0.2", "--host", "127.0.0.1", "--allowed-host", NAME,
                     "--trusted-proxy", "127.0.0.1", db=str(path), login=False)
    try:
        port = nginx(int(pit.url.rsplit(":", 1)[1].strip("/")))
        with client(port) as c:
            r = c.post("/login", data={"name": ADMIN, "password": CREDENTIAL})
            assert r.status_code == 303, (r.status_code, r.text[:300])
            cookie = r.headers["set-cookie"].lower()
            assert "secure" in cookie and "httponly" in cookie  # https as the proxy says, to the operator
            end = time.time() + 60
            while not c.get("/api/floor").json()["tables"]:
                assert time.time() < end, "no table on the floor through the proxy"
                time.sleep(0.5)
            with c.stream("GET", "/api/stream") as s:  # live through the proxy: not buffered
                assert s.headers["content-type"].startswith("text/event-stream")
                m = next(json.loads(x[6:]) for x in s.iter_lines() if x.startswith("data: "))
            assert m["type"] == "table"
        with client(port, "127.0.0.3") as c:  # an operator at 127.0.0.3 mistypes twice
            for _ in range(2):
                assert c.post("/login", data={"name": ADMIN, "password": "wrong"}).status_code == 401
        direct = httpx.Client(base_url=pit.url, timeout=20,
                              transport=httpx.HTTPTransport(local_address="127.0.0.5"))
        with direct:  # a client at 127.0.0.5, not the proxy, passing for another address
            r = direct.post("/login", data={"name": ADMIN, "password": "wrong"},
                            headers={"X-Forwarded-For": "10.6.6.6", "X-Forwarded-Proto": "https"})
            assert r.status_code == 401
        with client(port, "127.0.0.1") as c:  # the proxy's own address is no one's: still allowed in
            assert c.post("/login", data={"name": ADMIN, "password": CREDENTIAL}).status_code == 303
    finally:
        assert pit.stop() == 130, pit.stderr
    with create_engine("sqlite:///%s" % path).connect() as c:
        refused = dict(((a, k), n) for a, k, n in c.execute(text("select address, kind, count from pit_refusal")))
    assert refused == {("127.0.0.3", "login"): 2, ("127.0.0.5", "login"): 1}, refused
