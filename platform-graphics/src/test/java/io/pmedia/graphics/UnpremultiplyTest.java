package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import org.jetbrains.skia.Bitmap;
import org.jetbrains.skia.ColorAlphaType;
import org.jetbrains.skia.ColorType;
import org.jetbrains.skia.ImageInfo;
import org.junit.jupiter.api.Test;

/** {@link Unpremultiply} gives Skia's straight bytes for every premultiplied value, so frames are the same. */
class UnpremultiplyTest {

    @Test
    void everyPremultipliedValueBecomesWhatSkiaMakesOfIt() {
        // one row per alpha, one pixel per colour value (red, green and blue each that value, or 255 - it)
        byte[] premultiplied = new byte[256 * 256 * 4];
        for (int a = 0; a < 256; a++) {
            for (int c = 0; c < 256; c++) {
                int p = 4 * (a * 256 + c);
                premultiplied[p] = (byte) Math.min(c, a);
                premultiplied[p + 1] = (byte) Math.min(255 - c, a);
                premultiplied[p + 2] = (byte) Math.min(c / 2, a);
                premultiplied[p + 3] = (byte) a;
            }
        }
        byte[] skia;
        try (Bitmap bitmap = new Bitmap()) {
            ImageInfo premul = new ImageInfo(256, 256, ColorType.RGBA_8888, ColorAlphaType.PREMUL);
            assertThat(bitmap.installPixels(premul, premultiplied.clone(), 256 * 4)).isTrue();
            skia = bitmap.readPixels(new ImageInfo(256, 256, ColorType.RGBA_8888, ColorAlphaType.UNPREMUL), 256 * 4,
                    0, 0);
        }
        byte[] ours = premultiplied.clone();
        Unpremultiply.inPlace(ours);

        for (int p = 0; p < ours.length; p++) {
            int pixel = p / 4;
            assertThat(ours[p] & 0xff).as("alpha %d, value %d, byte %d", pixel / 256, premultiplied[p] & 0xff, p % 4)
                    .isEqualTo(skia[p] & 0xff);
        }
    }
}
