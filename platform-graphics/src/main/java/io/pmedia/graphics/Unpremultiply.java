package io.pmedia.graphics;

/**
 * Premultiplied RGBA to straight, in place, as Skia converts it (the same bytes: {@code UnpremultiplyTest} compares
 * every value with Skia's own conversion), but only where it changes anything: a pixel with an alpha of 0 (its colour
 * is 0 premultiplied and straight) or 255 is left alone. A frame of the engine is mostly those (what is not drawn on,
 * and the insides of what is), so this costs a scan of the alpha bytes and a table look-up at the edges; Skia's
 * conversion computes every pixel, about ten times a copy.
 */
final class Unpremultiply {

    /** The straight value of a premultiplied {@code c} under alpha {@code a}, at {@code a << 8 | c}. */
    private static final byte[] TABLE = new byte[256 * 256];

    static {
        for (int a = 1; a < 256; a++) {
            // Skia's raster pipeline: bytes to floats (x 1/255), multiplied by 1/alpha, clamped, to bytes (x 255, rounded
            // half to even, as the processor's conversion does)
            float alpha = a * (1 / 255f);
            float scale = 1.0f / alpha;
            for (int c = 0; c < 256; c++) {
                float straight = Math.min(Math.max(0f, c * (1 / 255f) * scale), 1f);
                TABLE[a << 8 | c] = (byte) (int) Math.rint(straight * 255f);
            }
        }
    }

    private Unpremultiply() {
    }

    /** Converts the pixels of {@code rgba} (premultiplied, 4 bytes a pixel) to straight alpha. */
    static void inPlace(byte[] rgba) {
        for (int i = 3; i < rgba.length; i += 4) {
            int a = rgba[i] & 0xff;
            if (a != 0 && a != 255) {
                int row = a << 8;
                rgba[i - 3] = TABLE[row | rgba[i - 3] & 0xff];
                rgba[i - 2] = TABLE[row | rgba[i - 2] & 0xff];
                rgba[i - 1] = TABLE[row | rgba[i - 1] & 0xff];
            }
        }
    }
}
