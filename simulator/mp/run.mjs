// Run Python under the official MicroPython webassembly port, from Node.
//
//   node run.mjs --root DIR [--root-as NAME] [--path P]... [--stdin nonblock] SCRIPT.py [args...]
//   node run.mjs --root DIR ... -c "python code" [args...]
//   node run.mjs --micropython PKG_DIR ...   the port's package where it was installed
//                                            (`tapis setup`); default: this folder's node_modules
//
// Each --root DIR has its .py files copied into the in-memory FS as /NAME/... (NAME is
// --root-as, given after its --root, or the directory's basename), and "/" is put on sys.path,
// so `--root firmware` gives `import firmware.cards`. --path adds more FS paths to sys.path.
// Code runs with runPythonAsync, so top-level `await main()` works (the port has no asyncio.run).
// The exit status is non-zero on an uncaught Python exception (traceback on stderr), or the
// SystemExit code. The port's own CLI always exits 0, hence this runner.
// The GC heap grows on demand (split heap): `heapsize` is only the first chunk, so a board's
// RAM limit cannot be emulated here. input() hangs in this port: use sys.stdin.readline().
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";

const USAGE = "usage: node run.mjs [--micropython PKG_DIR] [--root DIR [--root-as NAME]]... [--path P]... " +
  "[--stdin block|nonblock] (SCRIPT.py | -c CODE) [args...]\n";
const die = (msg) => { fs.writeSync(2, msg); process.exit(2); };

// ---- arguments -------------------------------------------------------------------------------
const roots = [], paths = [];
let stdinMode = "block", code = null, script = null, argv = [], pkgDir = null;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i], val = () => (i + 1 < args.length ? args[++i] : die(`${a} needs a value\n${USAGE}`));
  if (a === "--root") {
    const d = path.resolve(val());
    if (!fs.statSync(d, { throwIfNoEntry: false })?.isDirectory()) die(`--root ${d}: not a directory\n`);
    roots.push({ dir: d, name: path.basename(d) });
  }
  else if (a === "--root-as") { if (!roots.length) die("--root-as must follow a --root\n"); roots.at(-1).name = val(); }
  else if (a === "--path") paths.push(val());
  else if (a === "--micropython") pkgDir = path.resolve(val());
  else if (a === "--stdin") { stdinMode = val(); if (!["block", "nonblock"].includes(stdinMode)) die(USAGE); }
  else if (a === "-c") { code = val(); argv = ["-c", ...args.slice(i + 1)]; break; }
  else if (a === "-h" || a === "--help") { fs.writeSync(1, USAGE); process.exit(0); }
  else if (a.startsWith("-")) die(`unknown option ${a}\n${USAGE}`);
  else { script = a; code = fs.readFileSync(a, "utf8"); argv = args.slice(i); break; }
}
if (code === null) die(USAGE);

// ---- stdio -----------------------------------------------------------------------------------
const nap = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1); // sleep 1 ms
// Write a whole chunk, retrying if the fd happens to be non-blocking and full.
function writeAll(fd, buf, off, len) {
  for (let done = 0; done < len;) {
    try { done += fs.writeSync(fd, buf, off + done, len - done); }
    catch (e) { if (e.code !== "EAGAIN") throw e; nap(); }
  }
  return len;
}

// The stdin callback is synchronous and returns one byte per call: a number, null at EOF, or
// undefined for "no data yet": the read then raises OSError in Python, with Emscripten's errno
// numbering (6), which is not errno.EAGAIN (11): catch OSError, do not compare errnos.
// We open /dev/stdin ourselves (a fresh open file description, so its O_NONBLOCK does not leak
// to the parent's pipe) lazily, on the first read, so a closed stdin costs nothing.
function makeStdin(nonblock) {
  const buf = Buffer.alloc(4096);
  let fd = null, pos = 0, end = 0, eof = false;
  return () => {
    if (pos < end) return buf[pos++];
    if (eof) return null;
    if (fd === null) {
      const flags = fs.constants.O_RDONLY | (nonblock ? fs.constants.O_NONBLOCK : 0);
      try { fd = fs.openSync("/dev/stdin", flags); } catch { fd = 0; } // a socket: fd 0 as it is
    }
    for (;;) {
      try { end = fs.readSync(fd, buf, 0, buf.length, null); break; }
      catch (e) {
        if (e.code === "EOF") { end = 0; break; }
        if (e.code !== "EAGAIN") throw e;
        if (nonblock) return undefined;
        nap(); // fd 0 itself was non-blocking
      }
    }
    if (end === 0) { eof = true; return null; }
    pos = 0;
    return buf[pos++];
  };
}

// ---- load MicroPython ------------------------------------------------------------------------
// The package does not `export` anything: importing it sets globalThis.loadMicroPython.
const require = createRequire(import.meta.url);
const PORT = "@micropython/micropython-webassembly-pyscript";
await import(pkgDir ? pathToFileURL(path.join(pkgDir, "micropython.mjs")).href : require.resolve(PORT));
const mp = await globalThis.loadMicroPython({
  linebuffer: false,
  stdin: makeStdin(stdinMode === "nonblock"),
  stdout: (b) => writeAll(1, b, 0, b.length),
  stderr: (b) => writeAll(2, b, 0, b.length),
});
// The stdout/stderr callbacks above get one byte per call (10x slower on bulk output), so
// replace the device's write op with one that writes the whole chunk, still unbuffered.
for (const fd of [1, 2]) {
  const s = mp.FS.getStream(fd);
  s.stream_ops = { ...s.stream_ops, write: (_s, buf, off, len) => {
    try { return writeAll(fd, buf, off, len); } catch { throw new mp.FS.ErrnoError(29); } // EIO
  } };
}

// Copy the roots' .py files into the FS.
function copyTree(src, dst) {
  mp.FS.mkdirTree(dst);
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    if (e.name.startsWith(".") || e.name === "__pycache__" || e.name === "node_modules") continue;
    const s = path.join(src, e.name), d = `${dst}/${e.name}`;
    if (e.isDirectory()) copyTree(s, d);
    else if (e.name.endsWith(".py")) mp.FS.writeFile(d, fs.readFileSync(s));
  }
}
for (const r of roots) copyTree(r.dir, `/${r.name}`);

// ---- run -------------------------------------------------------------------------------------
const q = (v) => JSON.stringify(JSON.stringify(v)); // a Python str literal holding JSON
const crypto = globalThis.crypto;
mp.registerJsModule("_tapis_node", {
  urandom: (n) => crypto.getRandomValues(new Uint8Array(n)),
});
function fail(err) {
  if (err?.name !== "PythonError") throw err; // a bug in the runner or the port: Node prints it
  let msg = err.message;
  if (script) msg = msg.replaceAll('File "<stdin>"', `File ${JSON.stringify(script)}`);
  if (err.type === "SystemExit") { // the traceback's last line is "SystemExit: <arg>"
    const arg = msg.trimEnd().split("\n").at(-1).replace(/^SystemExit:? ?/, "");
    if (arg === "" || arg === "None") return 0;
    if (/^-?\d+$/.test(arg)) return Number(arg) & 0xff;
    fs.writeSync(2, arg + "\n");
    return 1;
  }
  fs.writeSync(2, msg);
  return 1;
}
let status = 0;
try {
  // The port lacks os.urandom; os is a frozen Python package here, so it can take an attribute.
  mp.runPython([
    "import sys, os, json",
    `sys.path[:] = ['', '/'] + json.loads(${q(paths)}) + [p for p in sys.path if p not in ('', '/')]`,
    `sys.argv[:] = json.loads(${q(argv)})`,
    "if not hasattr(os, 'urandom'):",
    "    import _tapis_node",
    "    os.urandom = lambda n: bytes(_tapis_node.urandom(n))",
    "del sys, os, json",
  ].join("\n"));
  if (script) mp.globals.set("__file__", script);
  await mp.runPythonAsync(code);
} catch (err) {
  status = fail(err);
}
process.exit(status);
