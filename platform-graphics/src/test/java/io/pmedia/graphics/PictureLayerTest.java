package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

import javax.imageio.ImageIO;

import org.jetbrains.skia.Bitmap;
import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.ColorAlphaType;
import org.jetbrains.skia.ColorType;
import org.jetbrains.skia.EncodedImageFormat;
import org.jetbrains.skia.Image;
import org.jetbrains.skia.ImageInfo;
import org.jetbrains.skia.SurfaceProps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.draw.PictureFile;
import io.pmedia.graphics.error.SceneException;
import io.pmedia.graphics.motion.Easing;
import io.pmedia.graphics.motion.Keyframe;
import io.pmedia.graphics.motion.Keyframes;
import io.pmedia.graphics.text.FontChain;

/**
 * A picture layer: decoded once, fitted into its box, moved and faded by its keyframes as the other layers are
 * (measured in the frames the engine hands FFmpeg), and a hostile file refused by name before a pixel is decoded.
 */
class PictureLayerTest {

    static final int WIDTH = 640;
    static final int HEIGHT = 120;
    static final double FPS = 25;

    @TempDir
    Path dir;

    @Test
    void aKeyframedPictureIsWhereAndAsOpaqueAsItsKeyframesSay() throws IOException {
        // a white 40x40 picture in the box at (20, 40): from x +0 at 0.2 s to x +500 at 1.2 s (20 px a frame), opacity
        // 0 -> 1 meanwhile
        Path file = write("white.png", encode(solid(80, 80, 0xffffffff), EncodedImageFormat.PNG));
        Keyframes keyframes = Keyframes.of(List.of(
                new Keyframe(0.2, 0.0, null, null, null, 0.0, null, null, Easing.LINEAR),
                new Keyframe(1.2, 500.0, null, null, null, 1.0, null, null, null)), 2, "keyframes");
        PictureLayer picture = new PictureLayer(new Timing(0, 2, 0, 0), "layers[0]", file, 20, 40, 40, 40, null,
                keyframes);

        try (FrameRenderer renderer = new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(picture)),
                FontChain.of(Map.of()))) {
            for (int frame : new int[]{0, 5, 10, 15, 20, 25, 30, 40, 49}) {
                double time = frame / FPS;
                byte[] rgba = renderer.render(frame);
                double progress = Math.max(0, Math.min(1, time - 0.2));
                if (progress > 0.05) {
                    assertThat(leftEdge(rgba)).as("left edge at frame %d", frame)
                            .isCloseTo(20 + 500 * progress, within(500 / FPS));
                    assertThat(width(rgba)).as("width at frame %d", frame).isEqualTo(40);
                }
                assertThat(alpha(rgba)).as("opacity at frame %d", frame)
                        .isCloseTo(progress, within(1 / FPS + 1 / 255.0));
            }
        }
    }

    @Test
    void aPictureFitsItsBoxAsFfmpegFitsIt() throws IOException {
        // 200x100 into a 60x60 box at (100, 10): contain is 60x30 centred (y 25 to 55), cover fills the box
        Path file = write("wide.png", encode(solid(200, 100, 0xffffffff), EncodedImageFormat.PNG));
        for (Fit fit : Fit.values()) {
            PictureLayer picture = new PictureLayer(new Timing(0, 1, 0, 0), "p", file, 100, 10, 60, 60, fit, null);
            try (FrameRenderer renderer = new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(picture)),
                    FontChain.of(Map.of()))) {
                byte[] rgba = renderer.render(0);
                assertThat(column(rgba, 130)).as("%s: rows drawn in the middle column", fit)
                        .isEqualTo(fit == Fit.CONTAIN ? new int[]{25, 55} : new int[]{10, 70});
            }
        }
    }

    @Test
    void aCoveringPictureKeepsWhatShowsInItsBoxItsMiddle() throws IOException {
        // 4000x10, red left half, blue right half, covering a 100x100 box: scaled 10 times, only its middle 10x10
        // shows (FFmpeg's crop), red on the box's left, blue on its right
        Bitmap bitmap = new Bitmap();
        bitmap.allocPixels(new ImageInfo(4000, 10, ColorType.RGBA_8888, ColorAlphaType.PREMUL));
        try (Canvas canvas = new Canvas(bitmap, new SurfaceProps());
                org.jetbrains.skia.Paint blue = new org.jetbrains.skia.Paint()) {
            canvas.clear(0xffff0000);
            blue.setColor(0xff0000ff);
            canvas.drawRect(org.jetbrains.skia.Rect.Companion.makeLTRB(2000, 0, 4000, 10), blue);
        }
        Path file = write("band.png", encode(Image.Companion.makeFromBitmap(bitmap), EncodedImageFormat.PNG));
        PictureLayer picture = new PictureLayer(new Timing(0, 1, 0, 0), "p", file, 200, 10, 100, 100, Fit.COVER,
                null);

        try (FrameRenderer renderer = new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(picture)),
                FontChain.of(Map.of()))) {
            byte[] rgba = renderer.render(0);
            int left = (60 * WIDTH + 220) * 4;
            int right = (60 * WIDTH + 280) * 4;
            assertThat(rgba[left] & 0xff).as("red on the left").isGreaterThan(240);
            assertThat(rgba[right + 2] & 0xff).as("blue on the right").isGreaterThan(240);
            assertThat(column(rgba, 250)).as("the box, filled").isEqualTo(new int[]{10, 110});
            assertThat(rgba[(60 * WIDTH + 199) * 4 + 3]).as("nothing outside the box").isZero();
        }
    }

    @Test
    void everyFormatTheFfmpegPathTakesIsDecodedAGifByItsFirstFrame() throws IOException {
        byte[] png = encode(solid(30, 20, 0xff3366cc), EncodedImageFormat.PNG);
        assertThat(PictureFile.check(png, "p")).isEqualTo(new PictureFile.Header("PNG", 30, 20));
        assertThat(PictureFile.check(encode(solid(30, 20, 0xff3366cc), EncodedImageFormat.JPEG), "p").format())
                .isEqualTo("JPEG");
        assertThat(PictureFile.check(encode(solid(30, 20, 0xff3366cc), EncodedImageFormat.WEBP), "p").format())
                .isEqualTo("WebP");
        assertThat(PictureFile.check(awt(30, 20, "bmp"), "p").format()).isEqualTo("BMP");
        byte[] gif = awt(30, 20, "gif");
        assertThat(PictureFile.check(gif, "p").format()).isEqualTo("GIF");
        try (Image image = PictureFile.decode(gif, "p")) {
            assertThat(image.getWidth()).isEqualTo(30);
        }
    }

    @Test
    void aHeaderOfTooManyPixelsIsRefusedBeforeDecoding() throws IOException {
        // a 100-byte file that says 10000x5000: 50,000,000 pixels, over the bound, never decoded
        byte[] bomb = pngHeader(10_000, 5_000);
        assertThat(bomb.length).isLessThan(100);
        assertThatThrownBy(() -> PictureFile.check(bomb, "segments[0].layers[2]"))
                .isInstanceOfSatisfying(SceneException.class, e -> {
                    assertThat(e.path()).isEqualTo("segments[0].layers[2]");
                    assertThat(e.reason()).isEqualTo("a 10000x5000 picture: at most 40,000,000 pixels");
                });
        PictureLayer picture = new PictureLayer(new Timing(0, 1, 0, 0), "segments[0].layers[2]",
                write("bomb.png", bomb), 0, 0, 40, 40, null, null);
        assertThatThrownBy(() -> new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(picture)),
                FontChain.of(Map.of()))).isInstanceOf(SceneException.class).hasMessageContaining("10000x5000");
        assertThat(PictureFile.check(pngHeader(8_000, 5_000), "p").width()).as("40,000,000 exactly").isEqualTo(8000);
    }

    @Test
    void bytesThatAreNoPictureOrDoNotDecodeAreRefusedByName() throws IOException {
        assertThatThrownBy(() -> PictureFile.check("<svg xmlns='http://www.w3.org/2000/svg'/>"
                .getBytes(StandardCharsets.UTF_8), "layers[1]")).isInstanceOf(SceneException.class)
                .hasMessage("layers[1]: not a PNG, JPEG, WebP, GIF or BMP picture (its header cannot be read)");
        byte[] tiff = {'I', 'I', 42, 0, 8, 0, 0, 0, 0, 0};
        assertThatThrownBy(() -> PictureFile.check(tiff, "layers[1]")).isInstanceOf(SceneException.class);
        // a PNG cut short: its header is sound, its pixels are not all there
        byte[] png = encode(noise(64, 64), EncodedImageFormat.PNG);
        byte[] cut = Arrays.copyOf(png, png.length / 2);
        assertThat(PictureFile.check(cut, "layers[1]").width()).isEqualTo(64);
        assertThatThrownBy(() -> PictureFile.decode(cut, "layers[1]")).isInstanceOf(SceneException.class)
                .hasMessageStartingWith("layers[1]: the PNG picture cannot be decoded");
        PictureLayer picture = new PictureLayer(new Timing(0, 1, 0, 0), "layers[1]", dir.resolve("missing.png"),
                0, 0, 40, 40, null, null);
        assertThatThrownBy(() -> new FrameRenderer(new Scene(WIDTH, HEIGHT, FPS, List.of(picture)),
                FontChain.of(Map.of()))).isInstanceOf(SceneException.class)
                .hasMessage("layers[1]: the picture's file cannot be read");
    }

    private Path write(String name, byte[] bytes) throws IOException {
        return Files.write(dir.resolve(name), bytes);
    }

    static Image solid(int width, int height, int argb) {
        Bitmap bitmap = new Bitmap();
        bitmap.allocPixels(new ImageInfo(width, height, ColorType.RGBA_8888, ColorAlphaType.PREMUL));
        try (Canvas canvas = new Canvas(bitmap, new SurfaceProps())) {
            canvas.clear(argb);
        }
        return Image.Companion.makeFromBitmap(bitmap);
    }

    private static Image noise(int width, int height) {
        byte[] pixels = new byte[width * height * 4];
        new java.util.Random(7).nextBytes(pixels);
        for (int i = 3; i < pixels.length; i += 4) {
            pixels[i] = (byte) 0xff;
        }
        return Image.Companion.makeRaster(new ImageInfo(width, height, ColorType.RGBA_8888, ColorAlphaType.PREMUL),
                pixels, width * 4);
    }

    static byte[] encode(Image image, EncodedImageFormat format) {
        try (image) {
            return image.encodeToData(format, 90, 0).getBytes();
        }
    }

    private static byte[] awt(int width, int height, String format) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(image, format, out);
        return out.toByteArray();
    }

    /** A PNG's signature, its IHDR (8-bit RGBA) with the size it claims, an empty IDAT and IEND. */
    static byte[] pngHeader(int width, int height) {
        ByteBuffer ihdr = ByteBuffer.allocate(13).putInt(width).putInt(height).put((byte) 8).put((byte) 6)
                .put((byte) 0).put((byte) 0).put((byte) 0);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[]{(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'});
        chunk(out, "IHDR", ihdr.array());
        chunk(out, "IDAT", new byte[]{0x78, (byte) 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01});
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] name = type.getBytes(StandardCharsets.US_ASCII);
        CRC32 crc = new CRC32();
        crc.update(name);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(name);
        out.writeBytes(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }

    /** The first column (from the left) on the picture's middle row with any alpha. */
    private static double leftEdge(byte[] rgba) {
        for (int x = 0; x < WIDTH; x++) {
            if ((rgba[(60 * WIDTH + x) * 4 + 3] & 0xff) > 0) {
                return x;
            }
        }
        return -1;
    }

    /** How many columns of the middle row have any alpha. */
    private static int width(byte[] rgba) {
        int count = 0;
        for (int x = 0; x < WIDTH; x++) {
            count += (rgba[(60 * WIDTH + x) * 4 + 3] & 0xff) > 0 ? 1 : 0;
        }
        return count;
    }

    /** The highest alpha on the middle row: the picture's opacity. */
    private static double alpha(byte[] rgba) {
        int max = 0;
        for (int x = 0; x < WIDTH; x++) {
            max = Math.max(max, rgba[(60 * WIDTH + x) * 4 + 3] & 0xff);
        }
        return max / 255.0;
    }

    /** The first and one past the last row of column {@code x} with any alpha. */
    private static int[] column(byte[] rgba, int x) {
        int first = -1;
        int last = -1;
        for (int y = 0; y < HEIGHT; y++) {
            if ((rgba[(y * WIDTH + x) * 4 + 3] & 0xff) > 0) {
                first = first < 0 ? y : first;
                last = y + 1;
            }
        }
        return new int[]{first, last};
    }
}
