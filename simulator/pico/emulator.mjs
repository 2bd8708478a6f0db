// A Raspberry Pi Pico on rp2040js, with the fixes the official MicroPython image needs
// (shared/boards/README.md lists what was measured):
//   1. flash writes: rp2040js's SSI only answers "read status", so the ROM's flash_range_erase
//      and flash_range_program do nothing. Their entries (found through the ROM function
//      table, 'RE' and 'RP') become BKPT traps that erase (fill 0xFF) and program (AND in,
//      as NOR flash does) the flash array here, costing the emulated time a W25Q16JV takes;
//      'IF', 'EX', 'FC' and 'CX' return at once.
//   2. UART TX: rp2040js sends a byte the instant it is written and re-raises the TX
//      interrupt whenever it is cleared (an endless handler once MicroPython opens a UART).
//      Here each UART has a 32-byte TX FIFO that shifts out at its baud rate (10 bits a byte
//      at 8N1), with BUSY/TXFF/TXFE flags, and raises the TX interrupt once per byte sent.
//      Bytes fed to RX go through a wire that takes the same line time per byte.
//   3. the bootrom must be loaded with loadBootrom(), which resets the core and blanks the
//      flash: so the flash file and the UF2 are loaded after it.
//   4. the flash's unique ID (command 0x4B, which the SDK reads for machine.unique_id()): the
//      SSI answers it with the 8 bytes given, rp2040js with zeros.
//   5. the ring oscillator's RANDOMBIT (os.urandom, random's seed): rp2040js has no ROSC and reads
//      all ones, so every boot drew the same "random" numbers (and the firmware's link session,
//      meant to differ at each boot, did not). Here it is a xorshift stream from a seed the host
//      gives: deterministic per seed, different per boot when the host varies it.
//   6. USB CDC: the emulated host answers an armed OUT endpoint with an empty packet when it
//      has nothing to send, so the device spins on empty packets; here the read waits for data.
//   7. I2C (README's 9): an abort (an address not ACKed) empties the TX FIFO without raising TX_EMPTY, so the
//      SDK's write waited for it until its timeout (ETIMEDOUT, 50 ms) and left the abort pending
//      for the next transfer (EIO); here the abort raises it, as the chip's level-driven flag is.
import fs from "node:fs";
import { RP2040, USBCDC, GPIOPinState } from "rp2040js";
import { ATECC608, attach } from "./atecc608.mjs";

export const FLASH_SIZE = 2 * 1024 * 1024; // the Pico's W25Q16JV
const FLASH_BASE = 0x10000000;
const SECTOR = 4096;
// W25Q16JV typical timings (datasheet): page program, 4 KB sector erase, 64 KB and 32 KB block erase.
const PROGRAM_PAGE_NS = 400e3, ERASE_SECTOR_NS = 45e6, ERASE_BLOCK_NS = 150e6, ERASE_BLOCK32_NS = 120e6;
const TRAP_ERASE = 0xe0, TRAP_PROGRAM = 0xe1;
const BKPT = 0xbe00, BX_LR = 0x4770;
const UART_FR = 0x18, UART_DR = 0x00, UART_LCR_H = 0x2c;
const FR_BUSY = 1 << 3, FR_RXFE = 1 << 4, FR_TXFF = 1 << 5, FR_RXFF = 1 << 6, FR_TXFE = 1 << 7;
const TXINTR = 1 << 5;
const WD_CTRL = 0x00, WD_LOAD = 0x04;
const SSI_DR0 = 0x60, CMD_UNIQUE_ID = 0x4b;
const ROSC_BASE = 0x40060, ROSC_RANDOMBIT = 0x1c; // rp2040.peripherals is keyed by address >> 12
const UF2_MAGIC = [0x0a324655, 0x9e5d5157], UF2_END = 0x0ab16f30, UF2_FAMILY_RP2040 = 0xe48bff56;

/** The time the ROM's flash_range_erase(start, end - start, blockSize, blockCmd) keeps the
 *  chip busy: as the ROM does, a block command for each whole aligned block of the range,
 *  a 4 KB sector erase (0x20) for the rest. MicroPython passes (64 KB, 0xD8) with every
 *  4 KB erase: that is one sector erase, 45 ms, not a block's 150 ms. */
export function eraseNanos(start, end, blockSize, blockCmd) {
  const blockNs = blockCmd === 0xd8 && blockSize === 65536 ? ERASE_BLOCK_NS
    : blockCmd === 0x52 && blockSize === 32768 ? ERASE_BLOCK32_NS : 0;
  let ns = 0;
  for (let a = start; a < end;) {
    if (blockNs && a % blockSize === 0 && end - a >= blockSize) { ns += blockNs; a += blockSize; }
    else { ns += ERASE_SECTOR_NS; a += SECTOR; }
  }
  return ns;
}

const code = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8);

/** Each UF2 block's payload written into `flash` (an offset array); the number of blocks. */
export function loadUF2(buf, flash) {
  let blocks = 0;
  for (let off = 0; off + 512 <= buf.length; off += 512) {
    const v = new DataView(buf.buffer, buf.byteOffset + off, 512);
    const word = (i) => v.getUint32(i, true);
    if (word(0) !== UF2_MAGIC[0] || word(4) !== UF2_MAGIC[1] || word(508) !== UF2_END) {
      throw new Error(`not a UF2 image: bad magic in block at byte ${off}`);
    }
    const flags = word(8), addr = word(12), size = word(16);
    if (flags & 1) continue; // "not main flash"
    if ((flags & 0x2000) && word(28) !== UF2_FAMILY_RP2040) continue; // another chip's block
    if (addr < FLASH_BASE || addr + size > FLASH_BASE + flash.length || size > 476) {
      throw new Error(`UF2 block at byte ${off} writes outside the flash (0x${addr.toString(16)})`);
    }
    flash.set(buf.subarray(off + 32, off + 32 + size), addr - FLASH_BASE);
    blocks++;
  }
  if (!blocks) throw new Error("the UF2 image has no RP2040 flash blocks");
  return blocks;
}

/** A UART's TX side shifting out at its line rate, and its RX wire doing the same. */
class UartLine {
  constructor(mcu, uart, onSent) {
    this.mcu = mcu, this.uart = uart, this.onSent = onSent;
    this.tx = [], this.shifting = false, this.wire = [], this.lost = 0, this.overruns = 0, this.received = 0;
    this.txAlarm = mcu.clock.createAlarm(() => this.txDone());
    this.rxAlarm = mcu.clock.createAlarm(() => this.rxArrive());
    const line = this;
    // The TX interrupt is raised by txDone only (rp2040js forces it on in every check).
    uart.checkInterrupts = function () {
      this.rp2040.setInterrupt(this.irq, !!(this.interruptStatus & this.interruptMask));
    };
    Object.defineProperty(uart, "flags", { get() { return line.flags(); } });
    const write = uart.writeUint32.bind(uart);
    uart.writeUint32 = (offset, value) => offset === UART_DR ? line.put(value & 0xff) : write(offset, value);
  }
  byteNanos() {
    const u = this.uart, baud = u.baudDivider ? u.baudRate : 115200;
    const lcr = u.lineCtrlRegister, bits = 1 + u.wordLength + ((lcr >> 3) & 1 ? 2 : 1) + ((lcr >> 1) & 1);
    return bits * 1e9 / baud;
  }
  depth() { return this.uart.fifosEnabled ? 32 : 1; }
  flags() {
    const rx = this.uart.rxFIFO;
    return (rx.full ? FR_RXFF : 0) | (rx.empty ? FR_RXFE : 0) | (this.tx.length >= this.depth() ? FR_TXFF : 0) |
      (this.tx.length === 0 ? FR_TXFE : 0) | (this.shifting || this.tx.length ? FR_BUSY : 0);
  }
  put(byte) {
    if (!this.uart.enabled || !this.uart.txEnabled || this.tx.length >= this.depth()) return; // dropped, as on a chip
    this.tx.push(byte);
    if (!this.shifting) this.shiftNext();
  }
  shiftNext() {
    this.shifting = true;
    this.shiftingByte = this.tx.shift();
    this.txAlarm.schedule(this.byteNanos());
  }
  txDone() {
    this.onSent(this.shiftingByte);
    this.shifting = false;
    if (this.tx.length) this.shiftNext();
    this.uart.interruptStatus |= TXINTR; // once per byte sent: the FIFO has room again
    this.uart.checkInterrupts();
  }
  feed(bytes) {
    const idle = this.wire.length === 0;
    for (const b of bytes) this.wire.push(b);
    if (idle && this.wire.length) this.rxAlarm.schedule(this.byteNanos());
  }
  rxArrive() {
    const b = this.wire.shift(), u = this.uart;
    if (!u.enabled || !u.rxEnabled) this.lost++; // no receiver: the byte is gone, as on a chip
    else if (u.rxFIFO.full) this.overruns++; // the FIFO was not read in time (interrupts off?)
    else { u.feedByte(b); this.received++; }
    if (this.wire.length) this.rxAlarm.schedule(this.byteNanos());
  }
}

export class Pico {
  /** bootrom: 16 KB of little-endian words; flashImage: bytes or null; uf2: bytes.
   *  gate: {uart: gpio}, a UART whose TX reaches the wire only while that GPIO is high
   *  (an RS-485 transceiver's driver enable). */
  constructor({ bootrom, uf2, flashImage = null, gate = {}, uniqueId = new Uint8Array(8), flashTiming = true,
    entropy = 1, watchdogReason = 0, pokes = [], atecc = null }) {
    const mcu = this.mcu = new RP2040();
    mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
    const pico = this;
    // rp2040js's clock.tick, with a bound: an alarm that fires again at the same instant
    // for ever would hang the runner; it says so instead
    mcu.clock.tick = function (deltaNanos) {
      const targetNanos = this.nanosCounter + deltaNanos;
      let alarm = this.nextAlarm, fired = 0;
      while (alarm && alarm.nanos <= targetNanos) {
        if (++fired > 10e6) {
          throw new Error(`an alarm fired 10 million times by ${alarm.nanos} ns: ${String(alarm.callback).slice(0, 200)}`);
        }
        this.nextAlarm = alarm.next;
        this.nanosCounter = alarm.nanos;
        alarm.callback();
        if (pico.resetRequested) return; // the chip reset at this instant: nothing runs after it
        alarm = this.nextAlarm;
      }
      this.nanosCounter = targetNanos;
    };
    mcu.loadBootrom(new Uint32Array(bootrom.buffer, bootrom.byteOffset, bootrom.length / 4));
    this.patchFlashRoutines();
    if (flashImage) mcu.flash.set(flashImage.subarray(0, FLASH_SIZE));
    this.uf2Blocks = loadUF2(uf2, mcu.flash.subarray(0, FLASH_SIZE));
    for (const [off, bytes] of pokes) mcu.flash.set(bytes, off); // an offline editor's bytes (pico.mjs --poke)
    this.out = [[], [], []]; // bytes sent by UART0, UART1, USB CDC since the last take()
    this.dropped = [0, 0]; // bytes a UART sent while its driver was disabled
    this.lines = mcu.uart.map((u, i) => new UartLine(mcu, u, (b) => {
      const pin = gate[i];
      if (pin === undefined || mcu.gpio[pin].value === GPIOPinState.High) this.out[i].push(b);
      else this.dropped[i]++;
    }));
    this.setupUsb();
    for (const i2c of mcu.i2c) {
      const abort = i2c.abort.bind(i2c);
      i2c.abort = (reason) => { abort(reason); i2c.setInterrupts(1 << 4); }; // R_TX_EMPTY
    }
    // the ATECC608 on I2C0 (atecc608.mjs), its counters in their own file (null: no part on the bus)
    this.atecc = atecc === null ? null : new ATECC608(atecc, () => mcu.clock.nanos / 1000);
    if (this.atecc) attach(mcu.i2c[0], this.atecc);
    this.answerUniqueId(uniqueId);
    this.randomBits(entropy);
    this.stall = 0; // emulated nanoseconds a flash operation adds after its instruction
    this.flashTiming = flashTiming; // false: erase and program take no time (to compare)
    this.flashOps = { erases: 0, programs: 0, busyNanos: 0 };
    this.cut = null; // { at, torn }: the power goes at the at-th erase or program from now (cutPower)
    this.resetRequested = false;
    const wd = this.watchdog = Object.values(mcu.peripherals).find((p) => "onWatchdogTrigger" in p);
    if (!wd) throw new Error("rp2040js has no watchdog peripheral");
    // A trigger resets the chip (the runner then exits, and the host restarts it). rp2040js
    // leaves the watchdog counting: its periodic alarm, rescheduled from a counter already at
    // 0, fires again at the same instant for ever (the emulated clock stood still: the
    // 200-deal run's "alarm fired 10 million times"). The reset stops it, as on the chip.
    wd.onWatchdogTrigger = () => {
      this.resetRequested = true;
      wd.alarm.enable = false;
      wd.timer.enable = false;
    };
    // the longest the firmware went without feeding (LOAD) the enabled watchdog, a figure
    this.feeds = { count: 0, longestNanos: 0, last: null };
    const wdWrite = wd.writeUint32.bind(wd);
    wd.writeUint32 = (offset, value) => {
      const f = this.feeds, now = mcu.clock.nanos;
      if (offset === WD_LOAD && wd.enable) {
        f.count++;
        if (f.last !== null) f.longestNanos = Math.max(f.longestNanos, now - f.last);
        f.last = now;
      }
      wdWrite(offset, value);
      if (offset === WD_CTRL && !wd.enable) f.last = null;
      else if (offset === WD_CTRL && f.last === null) f.last = now;
    };
    wd.reason = watchdogReason; // after a watchdog reset, REASON says so (machine.reset_cause())
    mcu.core.PC = FLASH_BASE; // boot2 in place (the ROM cannot read it through this SSI)
    this.instructions = 0;
  }

  patchFlashRoutines() {
    const mcu = this.mcu, rom16 = (a) => mcu.readUint16(a);
    const put16 = (a, v) => {
      const w = mcu.bootrom[a >> 2], sh = (a & 2) * 8;
      mcu.bootrom[a >> 2] = (w & ~(0xffff << sh)) | (v << sh);
    };
    const found = {};
    for (let p = rom16(0x14); rom16(p); p += 4) found[rom16(p)] = rom16(p + 2);
    const at = (name) => {
      const a = found[code(name)];
      if (a === undefined) throw new Error(`the bootrom has no '${name}' function: not an RP2040 B1 bootrom?`);
      return a & ~1;
    };
    put16(at("RE"), BKPT | TRAP_ERASE); put16(at("RE") + 2, BX_LR);
    put16(at("RP"), BKPT | TRAP_PROGRAM); put16(at("RP") + 2, BX_LR);
    for (const name of ["IF", "EX", "FC", "CX"]) put16(at(name), BX_LR);
    mcu.onBreak = (n) => this.trap(n);
  }

  /** The power goes at the at-th flash erase or program from now (1: the next): right after
   * it, or torn (its first half done); the chip stops there and resets as at power-on. */
  cutPower(at, torn) { this.cut = { at, torn, seen: 0 }; }

  trap(n) {
    const r = this.mcu.core.registers, flash = this.mcu.flash;
    const cut = this.cut && (n === TRAP_ERASE || n === TRAP_PROGRAM) && ++this.cut.seen === this.cut.at;
    const torn = cut && this.cut.torn; // the power goes with half of this operation done
    if (cut) {
      this.cut = null;
      this.resetRequested = true; // runUntil stops before the next instruction
      this.watchdog.reason = 0; // the next boot is a power-on's
      this.flashOps.cuts = (this.flashOps.cuts || 0) + 1;
    }
    if (n === TRAP_ERASE) { // flash_range_erase(offset, count, block_size, block_cmd)
      const start = r[0] - (r[0] % SECTOR), end = Math.min(FLASH_SIZE, r[0] + r[1]);
      flash.fill(0xff, start, torn ? Math.min(FLASH_SIZE, r[0] + Math.floor(r[1] / 2)) : Math.ceil(end / SECTOR) * SECTOR);
      this.flashBusy(eraseNanos(start, Math.ceil(end / SECTOR) * SECTOR, r[2], r[3]));
      this.flashOps.erases++;
    } else if (n === TRAP_PROGRAM) { // flash_range_program(offset, data, count)
      const [off, src, count] = [r[0], r[1], torn ? Math.floor(r[2] / 2) : r[2]];
      for (let i = 0; i < count && off + i < FLASH_SIZE; i++) flash[off + i] &= this.mcu.readUint8(src + i);
      this.flashBusy(Math.ceil(count / 256) * PROGRAM_PAGE_NS);
      this.flashOps.programs++;
    } else {
      throw new Error(`the firmware hit a breakpoint (BKPT #${n}) at 0x${(this.mcu.core.PC - 2).toString(16)}`);
    }
  }

  answerUniqueId(id) {
    const ssi = Object.values(this.mcu.peripherals).find((p) => p.constructor.name === "RPSSI");
    if (!ssi) throw new Error("rp2040js has no SSI peripheral");
    const write = ssi.writeUint32.bind(ssi), read = ssi.readUint32.bind(ssi);
    let index = -1; // bytes of a 0x4B command clocked so far (-1: none under way)
    const answers = [];
    ssi.writeUint32 = (offset, value) => {
      if (offset !== SSI_DR0) return write(offset, value);
      if (index < 0 && value === CMD_UNIQUE_ID) index = 0;
      else if (index < 0) return write(offset, value);
      else index++;
      answers.push(index >= 5 ? id[index - 5] : 0); // the command, 4 dummy bytes, then the ID
      if (index === 12) index = -1;
    };
    ssi.readUint32 = (offset) => (offset === SSI_DR0 && answers.length ? answers.shift() : read(offset));
  }

  flashBusy(ns) {
    if (!this.flashTiming) return;
    this.stall += ns; // the core waits on the chip (MicroPython has interrupts off meanwhile)
    this.flashOps.busyNanos += ns;
  }

  randomBits(seed) {
    const rosc = this.mcu.peripherals[ROSC_BASE], read = rosc.readUint32.bind(rosc);
    let x = (seed >>> 0) || 0x9e3779b9;
    rosc.readUint32 = (offset) => {
      if (offset !== ROSC_RANDOMBIT) return read(offset);
      x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
      return x & 1;
    };
  }

  setupUsb() {
    const cdc = this.cdc = new USBCDC(this.mcu.usbCtrl), usb = this.mcu.usbCtrl;
    this.usbIn = []; // bytes for the device not yet in the CDC's 512-byte FIFO
    this.usbWaiting = null; // an OUT read the device armed while there was nothing to send
    cdc.onSerialData = (buf) => { for (const b of buf) this.out[2].push(b); };
    const read = usb.onEndpointRead;
    usb.onEndpointRead = (ep, size) => {
      if (ep !== cdc.outEndpoint) return read(ep, size);
      while (this.usbIn.length && !cdc.txFIFO.full) cdc.txFIFO.push(this.usbIn.shift());
      if (cdc.txFIFO.empty) { this.usbWaiting = size; return; }
      read(ep, size);
    };
    this.usbRead = read;
  }

  feed(i, bytes) { if (bytes.length) this.lines[i].feed(bytes); }
  /** Drive an input pin from outside the chip (a switch): high or low. */
  setInput(pin, value) { this.mcu.gpio[pin].setInputValue(!!value); }
  feedUsb(bytes) {
    for (const b of bytes) this.usbIn.push(b);
    if (this.usbIn.length && this.usbWaiting !== null) {
      const size = this.usbWaiting;
      this.usbWaiting = null;
      this.mcu.usbCtrl.onEndpointRead(this.cdc.outEndpoint, size);
    }
  }
  take() {
    const got = this.out.map((a) => Uint8Array.from(a));
    this.out = [[], [], []];
    return got;
  }
  get nanos() { return this.mcu.clock.nanos; }

  /** Run until the emulated clock reaches `target` ns (or a watchdog reset is asked for). */
  runUntil(target) {
    const { mcu } = this, core = mcu.core, clock = mcu.clock;
    let n = 0, still = 0, at = clock.nanos;
    while (clock.nanos < target && !this.resetRequested) {
      // a chip whose clock stands still would hang the runner (and the host waiting on it,
      // seen once at deal 105 of a 200-deal run): say where it stands instead
      if (clock.nanos !== at) { at = clock.nanos; still = 0; }
      else if (++still > 50e6) {
        throw new Error(`the emulated clock stood still at ${clock.nanos} ns: core ${core.waiting ? "asleep" : "running"}, ` +
          `pc 0x${(core.PC >>> 0).toString(16)}, next alarm ${clock.nextAlarm ? clock.nextAlarm.nanos : "none"}`);
      }
      if (core.waiting) {
        // asleep (WFI/WFE): jump to the next alarm only, as an interrupt it raises wakes the core
        const next = clock.nextAlarm ? clock.nextAlarm.nanos - clock.nanos : Infinity;
        clock.tick(Math.max(0, Math.min(next, target - clock.nanos)));
        continue;
      }
      const cycles = core.executeInstruction();
      n++;
      let dt = cycles * 1e9 / mcu.clkSys;
      if (this.stall) { dt += this.stall; this.stall = 0; }
      clock.tick(dt);
    }
    this.instructions += n;
  }

  flashImage() { return this.mcu.flash.subarray(0, FLASH_SIZE); }
}

export function saveFlash(path, bytes) {
  const tmp = `${path}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, path); // a crash mid-save leaves the previous image whole
}
