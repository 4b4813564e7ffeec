// Draws images/icon.png (128×128, the extension's icon): a lens over three turn bars, the last one
// checked. Plain node + zlib (4× supersampled), so it needs no image tool: `node images/icon.mjs`.
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const SIZE = 128, SS = 4;
const bg = [24, 33, 56], lens = [94, 234, 212], bar = [148, 163, 184], ok = [74, 222, 128];
const dist = (x, y, x0, y0) => Math.hypot(x - x0, y - y0);
const inRoundRect = (x, y, x0, y0, x1, y1, r) => {
  const cx = Math.min(Math.max(x, x0 + r), x1 - r), cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return x >= x0 && x <= x1 && y >= y0 && y <= y1 && dist(x, y, cx, cy) <= r;
};
const onSegment = (x, y, ax, ay, bx, by, w) => {
  const t = Math.max(0, Math.min(1, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
  return dist(x, y, ax + t * (bx - ax), ay + t * (by - ay)) <= w / 2;
};
/** The colour at (x, y) in 0..128 coordinates, or null outside the icon. */
function paint(x, y) {
  if (!inRoundRect(x, y, 4, 4, 124, 124, 24)) return null;
  let c = bg;
  // three turns as bars; the lens magnifies the middle one
  if (inRoundRect(x, y, 22, 30, 82, 40, 5)) c = bar;
  if (inRoundRect(x, y, 22, 56, 70, 66, 5)) c = bar;
  if (inRoundRect(x, y, 22, 82, 58, 92, 5)) c = bar;
  const d = dist(x, y, 74, 60);
  if (d <= 25 && d >= 17) c = lens;
  if (onSegment(x, y, 92, 78, 108, 94, 11)) c = lens;
  if (onSegment(x, y, 64, 60, 71, 67, 6) || onSegment(x, y, 71, 67, 84, 52, 6)) c = ok;
  return c;
}
const rgba = Buffer.alloc(SIZE * SIZE * 4);
for (let py = 0; py < SIZE; py++)
  for (let px = 0; px < SIZE; px++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++)
      for (let sx = 0; sx < SS; sx++) {
        const c = paint((px * SS + sx + 0.5) / SS, (py * SS + sy + 0.5) / SS);
        if (c) { r += c[0]; g += c[1]; b += c[2]; a++; }
      }
    const o = (py * SIZE + px) * 4;
    if (a) { rgba[o] = r / a; rgba[o + 1] = g / a; rgba[o + 2] = b / a; rgba[o + 3] = (255 * a) / (SS * SS); }
  }
const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
const crc = (buf) => { let c = 0xffffffff; for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; };
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type), data]);
  const sum = Buffer.alloc(4); sum.writeUInt32BE(crc(body));
  return Buffer.concat([len, body, sum]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0); ihdr.writeUInt32BE(SIZE, 4); ihdr[8] = 8; ihdr[9] = 6; // 8-bit RGBA
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
for (let y = 0; y < SIZE; y++) rgba.copy(raw, y * (SIZE * 4 + 1) + 1, y * SIZE * 4, (y + 1) * SIZE * 4);
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
writeFileSync(new URL("icon.png", import.meta.url), png);
console.log(`images/icon.png: ${png.length} bytes`);
