// An ATECC608 on the emulated Pico's I2C0 (GP8 SDA, GP9 SCL: firmware/link/boards.py), attached
// through rp2040js's I2C hooks: the same part as firmware/offboard/atecc608.py, whose header
// says what it does byte by byte (the CPython and virtual boards' emulation); tests/
// test_counter_pico.py holds the two to the same bytes. Its two counters are kept in a file of
// their own (pico.mjs --atecc FILE: 8 bytes, two little-endian u32), never in the flash file,
// so a flash put back does not roll them back. Time is the chip's emulated clock: rp2040js
// moves a byte on the bus in no time, so tWHI, the execution time and the watchdog are
// counted on it, and the wake's SDA-low time from the bus's SCL periods at clk_sys.
import fs from "node:fs";

export const ADDRESS = 0x60, LIMIT = 2097151, OPCODE = 0x24;
const WAKE_REPLY = [0x04, 0x11, 0x33, 0x43];
const WAKE_LOW_US = 60, WAKE_US = 1500, WATCHDOG_US = 1300000, EXEC_US = 5000;
const CLK_SYS = 125e6; // the RP2040's clk_sys under MicroPython, when rp2040js does not say it

/** The part's CRC-16 (polynomial 0x8005, initial 0, each byte's bits lowest first). */
export function crc16(bytes) {
  let crc = 0;
  for (const b of bytes) {
    for (let i = 0; i < 8; i++) {
      const flip = ((b >> i) & 1) !== (crc >> 15);
      crc = (crc << 1) & 0xffff;
      if (flip) crc ^= 0x8005;
    }
  }
  return crc;
}

/** These bytes with their count in front and their CRC behind (low byte first). */
export function packet(body) {
  const head = [body.length + 3, ...body], c = crc16(head);
  return [...head, c & 0xff, c >> 8];
}

const le32 = (v) => [v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >>> 24) & 0xff];

export class ATECC608 {
  /** path: the counters' file (null: in memory); clockUs: the bus's time in microseconds. */
  constructor(path, clockUs, address = ADDRESS) {
    this.path = path;
    this.clockUs = clockUs;
    this.address = address;
    this.counters = [0, 0];
    if (path) {
      if (fs.existsSync(path)) {
        const raw = fs.readFileSync(path);
        this.counters = [raw.readUInt32LE(0), raw.readUInt32LE(4)];
      } else this.save();
    }
    this.woke = null; // when the wake began (null: asleep)
    this.busyUntil = 0;
    this.word = null; // the word address of the write under way
    this.command = [];
    this.out = [];
    this.at = 0;
  }

  save() {
    if (!this.path) return;
    const tmp = this.path + ".tmp";
    fs.writeFileSync(tmp, Uint8Array.from([...le32(this.counters[0]), ...le32(this.counters[1])]));
    fs.renameSync(tmp, this.path); // the part never loses a count: the file is whole or old
  }

  ready(now) {
    if (this.woke !== null && now - this.woke >= WATCHDOG_US) this.sleep();
    return this.woke !== null && now - this.woke >= WAKE_US && now >= this.busyUntil;
  }

  sleep() { this.woke = null; this.command = []; this.out = []; this.at = 0; }

  /** A start and this address byte (SDA held low lowUs through it): true to ACK. */
  connect(address, read, lowUs) {
    const now = this.clockUs();
    if (address === 0 && !read) {
      if (this.woke === null && lowUs >= WAKE_LOW_US) { this.woke = now; this.out = WAKE_REPLY; this.at = 0; }
      return false; // the general call is not the part's to ACK
    }
    if (address !== this.address || !this.ready(now)) return false;
    this.word = null;
    return true;
  }

  write(b) {
    if (this.word === null) {
      this.word = b;
      if (b === 0x00) this.at = 0;
      else if (b === 0x03) this.command = [];
      return b <= 0x03;
    }
    if (this.word !== 0x03 || this.command.length >= 155) return false;
    this.command.push(b);
    return true;
  }

  read() { const at = this.at++; return at < this.out.length ? this.out[at] : 0xff; }

  stop() {
    const word = this.word;
    this.word = null;
    if (word === 0x01 || word === 0x02) this.sleep();
    else if (word === 0x03 && this.command.length) {
      this.out = this.execute(this.command);
      this.at = 0;
      this.command = [];
      this.busyUntil = this.clockUs() + EXEC_US;
    }
  }

  execute(cmd) {
    const n = cmd[0];
    if (n !== cmd.length || n < 7 || crc16(cmd.slice(0, -2)) !== (cmd[n - 2] | (cmd[n - 1] << 8))) return packet([0xff]);
    const op = cmd[1], mode = cmd[2], which = cmd[3] | (cmd[4] << 8);
    if (op !== OPCODE || n !== 7 || mode > 1 || which > 1) return packet([0x03]);
    if (mode === 1) {
      if (this.counters[which] >= LIMIT) return packet([0x0f]);
      this.counters[which]++;
      this.save();
    }
    return packet(le32(this.counters[which]));
  }
}

/** The part on an rp2040js I2C peripheral: its hooks answered as the part answers. */
export function attach(i2c, part) {
  i2c.onStart = () => i2c.completeStart();
  i2c.onConnect = (address, mode) => {
    // the address byte's 8 bits, each an SCL period (high + low counts at clk_sys)
    const clk = (i2c.rp2040 && i2c.rp2040.clkSys) || CLK_SYS;
    const lowUs = address === 0 ? 8 * (i2c.sclHighPeriod + i2c.sclLowPeriod) * 1e6 / clk : 0;
    i2c.completeConnect(part.connect(address, mode === 1, lowUs));
  };
  i2c.onWriteByte = (value) => i2c.completeWrite(part.write(value));
  i2c.onReadByte = () => i2c.completeRead(part.read());
  i2c.onStop = () => { part.stop(); i2c.completeStop(); };
}
