import { createHash } from 'node:crypto';
import { AppError, limitExceeded } from '@tally/http-kit';
import sharp, { type Sharp } from 'sharp';
import type { DecodeGate } from './decode-gate';
import { decodeHeic, HEIC_DECODE_TIMEOUT_MS } from './heic-worker';
import { type ReceiptMediaType, sniffReceipt } from './sniff-receipt';

/** @default 40,000,000 (a 12 MP phone photo is 12,000,000) */
export const RECEIPT_MAX_PIXELS = 40_000_000;
/** The longest side a stored image keeps (larger ones are scaled down). */
export const RECEIPT_MAX_SIDE = 4096;
/** The longest side of a thumbnail (WebP). */
export const THUMBNAIL_SIDE = 320;

/** A receipt ready to store: the file as kept, what it is, and an image's thumbnail. */
export type ProcessedReceipt = {
  /** What is stored (a HEIC is stored as JPEG). */
  mediaType: Exclude<ReceiptMediaType, 'image/heic'>;
  /** What the upload was, by its bytes. */
  uploadedAs: ReceiptMediaType;
  bytes: Buffer;
  /** SHA-256 (hex) of `bytes`: the file's name in the storage. */
  sha256: string;
  width: number | null;
  height: number | null;
  thumbnail: Buffer | undefined;
};

const unsupported = () =>
  new AppError(
    'unsupported_media_type',
    415,
    'A receipt must be a JPEG, PNG, WebP or HEIC image or a PDF (by its content; the Content-Type header is not believed).',
  );
const unreadable = () =>
  new AppError('receipt_unreadable', 422, 'The file looks like an image but cannot be decoded.');
const tooManyPixels = (width: number, height: number) =>
  limitExceeded(
    'receiptPixels',
    RECEIPT_MAX_PIXELS,
    `The image is ${width}×${height} pixels (at most ${RECEIPT_MAX_PIXELS}: \`receiptPixels\`).`,
  );

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/**
 * Re-encodes an image: decoded (sharp; `limitInputPixels`), turned upright by its EXIF orientation,
 * scaled to `RECEIPT_MAX_SIDE` at most, and encoded again WITHOUT any metadata (sharp writes none
 * unless asked: EXIF with its GPS location, XMP, IPTC and comments are gone), plus a WebP thumbnail.
 */
async function reencode(
  input: Sharp,
  format: 'jpeg' | 'png' | 'webp',
): Promise<{ bytes: Buffer; width: number; height: number; thumbnail: Buffer }> {
  const upright = input.rotate().resize({
    width: RECEIPT_MAX_SIDE,
    height: RECEIPT_MAX_SIDE,
    fit: 'inside',
    withoutEnlargement: true,
  });
  const encoded =
    format === 'jpeg'
      ? upright.clone().jpeg({ quality: 85 })
      : format === 'png'
        ? upright.clone().png()
        : upright.clone().webp({ quality: 85 });
  const [{ data, info }, thumbnail] = await Promise.all([
    encoded.toBuffer({ resolveWithObject: true }),
    upright
      .clone()
      .resize({ width: THUMBNAIL_SIDE, height: THUMBNAIL_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer(),
  ]);
  return { bytes: data, width: info.width, height: info.height, thumbnail };
}

const isPixelLimit = (error: unknown) => /pixel limit/i.test(String((error as Error)?.message));

/**
 * The upload as it will be stored (API.md §16): its type sniffed from its bytes (415 for anything
 * else), an image decoded and re-encoded through `gate` (422 `receipt_unreadable`, 422
 * `limit_exceeded` over `RECEIPT_MAX_PIXELS`), a PDF kept byte for byte.
 */
export async function processReceipt(upload: Buffer, gate: DecodeGate): Promise<ProcessedReceipt> {
  const uploadedAs = sniffReceipt(upload);
  if (uploadedAs === undefined) throw unsupported();
  if (uploadedAs === 'application/pdf') {
    return {
      mediaType: uploadedAs,
      uploadedAs,
      bytes: upload,
      sha256: sha256Of(upload),
      width: null,
      height: null,
      thumbnail: undefined,
    };
  }
  return gate(async () => {
    let image: Sharp;
    let format: 'jpeg' | 'png' | 'webp';
    if (uploadedAs === 'image/heic') {
      // sharp's prebuilt libvips reads HEIF's AVIF only (no HEVC decoder): libheif in a worker does.
      const decoded = await decodeHeic(upload, RECEIPT_MAX_PIXELS);
      if (decoded.kind === 'too_large') throw tooManyPixels(decoded.width, decoded.height);
      if (decoded.kind === 'unreadable') throw unreadable();
      if (decoded.kind === 'too_slow') {
        throw new AppError(
          'receipt_unreadable',
          422,
          `This HEIC took over ${HEIC_DECODE_TIMEOUT_MS / 1000} s to decode; send it as a JPEG.`,
        );
      }
      image = sharp(decoded.rgba, { raw: { width: decoded.width, height: decoded.height, channels: 4 } });
      format = 'jpeg';
    } else {
      const metadata = await sharp(upload, { limitInputPixels: false })
        .metadata()
        .catch(() => undefined);
      if (metadata?.width === undefined || metadata.height === undefined) throw unreadable();
      if (metadata.width * metadata.height > RECEIPT_MAX_PIXELS)
        throw tooManyPixels(metadata.width, metadata.height);
      image = sharp(upload, { limitInputPixels: RECEIPT_MAX_PIXELS, failOn: 'error' });
      format = uploadedAs === 'image/jpeg' ? 'jpeg' : uploadedAs === 'image/png' ? 'png' : 'webp';
    }
    let out: Awaited<ReturnType<typeof reencode>>;
    try {
      out = await reencode(image, format);
    } catch (error) {
      if (isPixelLimit(error)) throw tooManyPixels(0, 0);
      throw unreadable();
    }
    const mediaType = `image/${format}` as const;
    return {
      mediaType,
      uploadedAs,
      bytes: out.bytes,
      sha256: sha256Of(out.bytes),
      width: out.width,
      height: out.height,
      thumbnail: out.thumbnail,
    };
  });
}
