// Run the official MicroPython RPI_PICO image on an emulated Raspberry Pi Pico (emulator.mjs),
// spoken to over stdin/stdout in a binary envelope (simulator/pico_board.py is the other end).
//
//   node pico.mjs --image RPI_PICO.uf2 --bootrom B1.bin [--flash FILE] [--id HEX16] [--gate UART:GPIO]...
//                 [--instant-flash] [--entropy N] [--watchdog-reason 1|2] [--poke OFFSET:HEX]... [--atecc FILE]
//
// --bootrom: the RP2040 B1 bootrom, 16 KB of little-endian words. --flash: the 2 MB flash
// chip, loaded at start when the file exists (the UF2 is then written over it, as flashing it
// does; the filesystem stays), saved on request and at exit. --gate 1:6: UART1's TX reaches
// the wire only while GPIO6 is high (the RS-485 driver enable). --id: the flash chip's unique
// ID (machine.unique_id()), 8 bytes in hex; zeros by default. --instant-flash: erase and
// program take no emulated time (by default they take a W25Q16JV's typical times). --entropy:
// the seed of the ring oscillator's random bits (os.urandom): the host changes it at each boot.
// --poke 4096:ff00: these bytes written into the flash array at that offset after the UF2 (an
// offline flash editor's change, made again at each start since the UF2 is written each time).
// --atecc FILE: an ATECC608 on I2C0 (GP8/GP9; atecc608.mjs), its counters kept in FILE, off the
// flash file; without it no part answers on the bus.
//
// Lockstep (the default): each request runs a slice of emulated time, so runs are
// deterministic. Big-endian; "n0 n1 nu" are byte counts for UART0, UART1 and USB CDC:
//   host -> pico  "S" us:u32 n0:u32 n1:u32 nu:u32 bytes...  feed these (each UART's at its line
//                                                        rate), run `us` µs; reply "R"
//                 "I" n0:u32 n1:u32 nu:u32 bytes...     feed only, no reply (free-running input)
//                 "F"                                    free-run: "R" frames come unasked, when
//                                                        there is output or every 50 ms, paced
//                                                        to at most real time
//                 "L"                                    back to lockstep; reply "R", then "A"
//                 "P" offset:u32 n:u32 bytes...          these bytes written into the flash while it
//                                                        runs (a flash editor's change, or a fault's);
//                                                        reply "A"
//                 "C" at:u32 torn:u8                     the power cut at the at-th flash erase or
//                                                        program from now (torn: half done); reply
//                                                        "A"; the "R" of the slice it falls in has
//                                                        flags 1 (a reset, reason 0: power-on)
//                 "W"  save the flash file; reply "A"    "T"  reply "J" with counters
//                 "Q"  save the flash file, reply "A", exit
//   pico -> host  "J" n:u32 json                         at start (ready) and for "T"
//                 "R" t_ns:u64 flags:u8 n0:u32 n1:u32 nu:u32 bytes...  what each sent, and the
//                    emulated time; flags bit 0: the watchdog reset the chip (the runner saves
//                    the flash and exits 3: the host restarts it, as the chip restarts, with
//                    --watchdog-reason set from bits 1-2: 1 timeout, 2 forced)
//                 "A" t_ns:u64
import fs from "node:fs";
import { Pico, saveFlash } from "./emulator.mjs";

const USAGE = "usage: node pico.mjs --image UF2 --bootrom BIN [--flash FILE] [--id HEX16] [--gate UART:GPIO]... [--instant-flash] [--entropy N] [--watchdog-reason 1|2] [--poke OFFSET:HEX]... [--atecc FILE]\n";
const die = (msg) => { fs.writeSync(2, msg); process.exit(2); };
const opts = { gate: {}, pokes: [] };
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i], val = () => (i + 1 < args.length ? args[++i] : die(`${a} needs a value\n${USAGE}`));
  if (a === "--image") opts.image = val();
  else if (a === "--bootrom") opts.bootrom = val();
  else if (a === "--flash") opts.flash = val();
  else if (a === "--atecc") opts.atecc = val();
  else if (a === "--instant-flash") opts.instantFlash = true;
  else if (a === "--poke") {
    const m = /^(\d+):((?:[0-9a-fA-F]{2})+)$/.exec(val());
    if (!m) die(`--poke wants OFFSET:HEX, like 4096:ff00\n${USAGE}`);
    opts.pokes.push([Number(m[1]), Uint8Array.from(Buffer.from(m[2], "hex"))]);
  }
  else if (a === "--watchdog-reason") opts.watchdogReason = Number(val()) & 3;
  else if (a === "--entropy") {
    const v = val();
    if (!/^\d+$/.test(v) || Number(v) > 0xffffffff) die(`--entropy wants a number 0..2^32-1\n${USAGE}`);
    opts.entropy = Number(v);
  }
  else if (a === "--id") {
    const v = val();
    if (!/^[0-9a-fA-F]{16}$/.test(v)) die(`--id wants 16 hex digits (the flash's 8-byte unique ID)\n${USAGE}`);
    opts.id = Uint8Array.from(Buffer.from(v, "hex"));
  }
  else if (a === "--gate") {
    const m = /^([01]):(\d+)$/.exec(val());
    if (!m) die(`--gate wants UART:GPIO, like 1:6\n${USAGE}`);
    opts.gate[Number(m[1])] = Number(m[2]);
  } else die(`unknown argument ${a}\n${USAGE}`);
}
if (!opts.image || !opts.bootrom) die(USAGE);
const readOrDie = (path, what) => {
  try { return fs.readFileSync(path); } catch (e) { die(`cannot read the ${what} ${path}: ${e.code}\n`); }
};
const bootrom = readOrDie(opts.bootrom, "bootrom");
if (bootrom.length !== 16384) die(`${opts.bootrom}: a bootrom is 16384 bytes, this is ${bootrom.length}\n`);
const uf2 = readOrDie(opts.image, "image");
const flashImage = opts.flash && fs.existsSync(opts.flash) ? fs.readFileSync(opts.flash) : null;
let pico;
try { pico = new Pico({ bootrom, uf2, flashImage, gate: opts.gate, uniqueId: opts.id, flashTiming: !opts.instantFlash,
  entropy: opts.entropy, watchdogReason: opts.watchdogReason, pokes: opts.pokes, atecc: opts.atecc ?? null }); } catch (e) { die(`${opts.image}: ${e.message}\n`); }

// ---- stdin: one buffer over a blocking and a non-blocking descriptor of the same pipe ----------
const nap = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const chunk = Buffer.alloc(65536);
let inbuf = Buffer.alloc(0), nonblockFd = null, eof = false;
function fill(block) {
  let fd = 0;
  if (!block) {
    if (nonblockFd === null) nonblockFd = fs.openSync("/dev/stdin", fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    fd = nonblockFd;
  }
  for (;;) {
    try {
      const n = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) eof = true;
      else inbuf = Buffer.concat([inbuf, chunk.subarray(0, n)]);
      return;
    } catch (e) {
      if (e.code !== "EAGAIN") throw e;
      if (!block) return;
      nap(1);
    }
  }
}
/** The next whole request in the buffer, or null. */
function parse() {
  if (!inbuf.length) return null;
  const op = String.fromCharCode(inbuf[0]);
  const head = op === "S" ? 17 : op === "I" ? 13 : op === "P" ? 9 : op === "C" ? 6 : op === "G" ? 3 : 1;
  if (inbuf.length < head) return null;
  const req = { op };
  if (op === "G") { req.pin = inbuf[1]; req.value = inbuf[2]; inbuf = inbuf.subarray(3); return req; }
  if (op === "C") { req.at = inbuf.readUInt32BE(1); req.torn = !!inbuf[5]; inbuf = inbuf.subarray(6); return req; }
  if (op === "P") {
    req.offset = inbuf.readUInt32BE(1);
    const n = inbuf.readUInt32BE(5);
    if (inbuf.length < 9 + n) return null;
    req.bytes = Uint8Array.from(inbuf.subarray(9, 9 + n));
    inbuf = inbuf.subarray(9 + n);
    return req;
  }
  if (head > 1) {
    let p = 1;
    if (op === "S") { req.us = inbuf.readUInt32BE(p); p += 4; }
    const ns = [0, 1, 2].map((k) => inbuf.readUInt32BE(p + 4 * k));
    p += 12;
    if (inbuf.length < p + ns[0] + ns[1] + ns[2]) return null;
    req.data = ns.map((n) => { const d = inbuf.subarray(p, p + n); p += n; return Uint8Array.from(d); });
    inbuf = inbuf.subarray(p);
  } else {
    inbuf = inbuf.subarray(1);
  }
  return req;
}
function nextRequest() {
  for (;;) {
    const req = parse();
    if (req) return req;
    if (eof) return { op: "Q", eof: true };
    fill(true);
  }
}

// ---- stdout ------------------------------------------------------------------------------------
function send(buf) {
  for (let done = 0; done < buf.length;) {
    try { done += fs.writeSync(1, buf, done, buf.length - done); }
    catch (e) { if (e.code !== "EAGAIN") throw e; nap(1); }
  }
}
const u64 = (v) => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(Math.round(v))); return b; };
function reply() {
  const out = pico.take(), head = Buffer.alloc(13);
  head.writeUInt8(pico.resetRequested ? 1 | (pico.watchdog.reason << 1) : 0, 0);
  out.forEach((d, k) => head.writeUInt32BE(d.length, 1 + 4 * k));
  send(Buffer.concat([Buffer.from("R"), u64(pico.nanos), head, ...out.map((d) => Buffer.from(d))]));
}
const ack = () => send(Buffer.concat([Buffer.from("A"), u64(pico.nanos)]));
function json(obj) {
  const body = Buffer.from(JSON.stringify(obj)), n = Buffer.alloc(4);
  n.writeUInt32BE(body.length);
  send(Buffer.concat([Buffer.from("J"), n, body]));
}
const stats = () => ({ nanos: pico.nanos, instructions: pico.instructions, uf2_blocks: pico.uf2Blocks,
  uart_lost_rx: pico.lines.map((l) => l.lost), uart_overruns: pico.lines.map((l) => l.overruns),
  uart_rx_bytes: pico.lines.map((l) => l.received), flash: pico.flashOps, uart_dropped_tx: pico.dropped, usb_queued: pico.usbIn.length,
  wire_queued: pico.lines.map((l) => l.wire.length), flash_loaded: !!flashImage,
  watchdog_feeds: pico.feeds.count, watchdog_longest_unfed_ms: Math.round(pico.feeds.longestNanos / 1e4) / 100 });
const save = () => { if (opts.flash) saveFlash(opts.flash, pico.flashImage()); };
function feed(data) { pico.feed(0, data[0]); pico.feed(1, data[1]); pico.feedUsb(data[2]); }
function afterReset() { reply(); save(); process.exit(3); }

// ---- the loop ---------------------------------------------------------------------------------
const FREE_SLICE_NS = 100e3; // free-running: output goes every 0.1 ms emulated, input is read every 1 ms
json(stats());
let free = false, wall0 = 0, emu0 = 0, last = 0, polled = 0;
for (;;) {
  const req = free ? parse() : nextRequest();
  if (req) {
    if (req.op === "S") {
      feed(req.data);
      pico.runUntil(pico.nanos + req.us * 1000);
      if (pico.resetRequested) afterReset();
      reply();
    } else if (req.op === "I") feed(req.data);
    else if (req.op === "G") pico.setInput(req.pin, req.value); // an input pin driven (the door's switch)
    else if (req.op === "F") { free = true; wall0 = performance.now(); emu0 = last = pico.nanos; }
    else if (req.op === "L") { free = false; reply(); ack(); }
    else if (req.op === "C") { pico.cutPower(req.at, req.torn); ack(); }
    else if (req.op === "P") {
      if (req.offset + req.bytes.length > pico.flashImage().length) die(`poke past the flash's end at ${req.offset}\n`);
      pico.flashImage().set(req.bytes, req.offset);
      ack();
    } else if (req.op === "W") { save(); ack(); }
    else if (req.op === "T") json(stats());
    else if (req.op === "Q") {
      save();
      if (!req.eof) ack();
      process.exit(0);
    } else die(`bad request ${JSON.stringify(req.op)}\n`);
    continue;
  }
  // free-running: slices of FREE_SLICE_NS, never ahead of the wall clock
  if (eof) { save(); process.exit(0); }
  const allowed = emu0 + (performance.now() - wall0) * 1e6;
  if (pico.nanos >= allowed) { fill(false); if (!inbuf.length) nap(1); continue; }
  pico.runUntil(Math.min(allowed, pico.nanos + FREE_SLICE_NS));
  if (pico.resetRequested) afterReset();
  if (pico.out.some((o) => o.length) || pico.nanos - last >= 50e6) { reply(); last = pico.nanos; }
  if (pico.nanos - polled >= 1e6) { fill(false); polled = pico.nanos; } // a failed read costs: not each slice
}
