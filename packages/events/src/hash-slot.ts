/** CRC16-CCITT (XMODEM) table, the checksum Redis Cluster hashes keys with. */
const TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

const encoder = new TextEncoder();

/**
 * The Redis Cluster hash slot of a key or sharded channel (0–16383), as `CLUSTER KEYSLOT` computes
 * it: CRC16 of the key, or of its hash tag, the text between the first `{` and the next `}` when
 * that is not empty. So `tally:group:{grp_1}` and `presence:{grp_1}` share a slot.
 */
export function hashSlot(key: string): number {
  let bytes = encoder.encode(key);
  const open = bytes.indexOf(0x7b);
  if (open !== -1) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) bytes = bytes.subarray(open + 1, close);
  }
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc & 0x3fff;
}
