// Draws the Laneway icon (four sequencing lanes on a blue tile) as a 1024x1024 PNG with no
// image tooling: electron-builder derives the .ico and .icns from it. Run: node build/make-icon.mjs
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const N = 1024;
const px = Buffer.alloc(N * N * 4);
const lanes = [
  [0x7d, 0xd3, 0xfc],
  [0xa7, 0xf3, 0xd0],
  [0xfd, 0xe6, 0x8a],
  [0xfc, 0xa5, 0xa5],
];
for (let y = 0; y < N; y++) {
  for (let x = 0; x < N; x++) {
    const i = (y * N + x) * 4;
    const r = 200;
    const cx = Math.min(Math.max(x, r), N - r);
    const cy = Math.min(Math.max(y, r), N - r);
    const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
    if (!inside) continue;
    let c = [0x1f, 0x6f, 0xeb];
    const lane = Math.floor((x - 192) / 160);
    const inLane = x >= 192 && x < 832 && (x - 192) % 160 < 112 && y >= 200 && y < 824;
    if (inLane) {
      const bar = Math.floor((y - 200) / 48) % 3 !== 2;
      if (bar) c = lanes[lane];
    }
    px[i] = c[0];
    px[i + 1] = c[1];
    px[i + 2] = c[2];
    px[i + 3] = 255;
  }
}
const raw = Buffer.alloc(N * (N * 4 + 1));
for (let y = 0; y < N; y++) px.copy(raw, y * (N * 4 + 1) + 1, y * N * 4, (y + 1) * N * 4);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const c = Buffer.alloc(4);
  c.writeUInt32BE(crc(td));
  return Buffer.concat([len, td, c]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(N, 0);
ihdr.writeUInt32BE(N, 4);
ihdr[8] = 8;
ihdr[9] = 6;
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('./icon.png', import.meta.url), png);
writeFileSync(new URL('../resources/icons/icon.png', import.meta.url), png);
console.log(`icon.png: ${png.length} bytes`);
