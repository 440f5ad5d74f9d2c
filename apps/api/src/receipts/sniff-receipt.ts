/** The media types a receipt may be (API.md §16), as sniffed from the file's first bytes. */
export type ReceiptMediaType = 'image/jpeg' | 'image/png' | 'image/webp' | 'image/heic' | 'application/pdf';

export const RECEIPT_MEDIA_TYPES: readonly ReceiptMediaType[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'application/pdf',
];

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

/** ISO-BMFF brands of HEIC (HEVC-coded HEIF) images; AVIF (`avif`) is not one. */
const HEIC_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs']);

/** `ftyp` box: a HEIC brand as the major brand, or `mif1`/`msf1` with a HEIC brand among the compatible ones. */
function isHeic(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const size = Math.min(
    (bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!,
    bytes.length,
    256,
  );
  const major = ascii(bytes, 8, 12);
  if (HEIC_BRANDS.has(major)) return true;
  if (major !== 'mif1' && major !== 'msf1') return false;
  for (let at = 16; at + 4 <= size; at += 4) if (HEIC_BRANDS.has(ascii(bytes, at, at + 4))) return true;
  return false;
}

/**
 * What the file is, by its magic bytes alone (the request's `Content-Type` is not believed):
 * JPEG `FF D8 FF`, PNG's 8-byte signature, WebP `RIFF….WEBP`, HEIC's `ftyp` brands, PDF `%PDF-`.
 * Undefined for anything else.
 */
export function sniffReceipt(bytes: Uint8Array): ReceiptMediaType | undefined {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP')
    return 'image/webp';
  if (isHeic(bytes)) return 'image/heic';
  if (bytes.length >= 5 && ascii(bytes, 0, 5) === '%PDF-') return 'application/pdf';
  return undefined;
}
