package io.pmedia.graphics.draw;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.jetbrains.skia.Bitmap;
import org.jetbrains.skia.Codec;
import org.jetbrains.skia.ColorAlphaType;
import org.jetbrains.skia.ColorType;
import org.jetbrains.skia.Data;
import org.jetbrains.skia.EncodedImageFormat;
import org.jetbrains.skia.Image;
import org.jetbrains.skia.ImageInfo;

import io.pmedia.graphics.error.SceneException;

/**
 * A picture file from a vendor, treated as hostile: its header is read first (Skia's codec reads the format and the
 * size without decoding a pixel), then only a PNG, JPEG, WebP, GIF (its first frame) or BMP of at most
 * {@value #MAX_PIXELS} pixels is decoded, the bound and the formats of the FFmpeg path for pictures. Every refusal
 * is a {@link SceneException} whose path is the {@code name} the caller gave the picture (its layer).
 */
public final class PictureFile {

    /** The most pixels a picture may have (about 8K x 5K): a small file must not unpack into gigabytes. */
    public static final long MAX_PIXELS = 40_000_000L;

    private static final Map<EncodedImageFormat, String> FORMATS = Map.of(EncodedImageFormat.PNG, "PNG",
            EncodedImageFormat.JPEG, "JPEG", EncodedImageFormat.WEBP, "WebP", EncodedImageFormat.GIF, "GIF",
            EncodedImageFormat.BMP, "BMP");
    private static final String TAKEN = "a PNG, JPEG, WebP, GIF or BMP picture";
    private static final String PIXELS = ": at most " + String.format(Locale.ROOT, "%,d", MAX_PIXELS) + " pixels";

    private PictureFile() {
    }

    /**
     * What the header says: the format (as {@link #FORMATS} names it; null for a format not taken) and the size in
     * pixels.
     */
    public record Header(String format, int width, int height) {

        /** Whether the size is outside the bound of every picture: no pixel, or more than {@value #MAX_PIXELS}. */
        public boolean tooLarge() {
            return width < 1 || height < 1 || (long) width * height > MAX_PIXELS;
        }

        /** The bound in a refusal's words: "a 9000x9000 picture: at most 40,000,000 pixels". */
        public String sizeRefusal() {
            return "a " + width + "x" + height + " picture" + PIXELS;
        }
    }

    /**
     * The header of {@code encoded} as it is, unchecked, or empty when no header can be read (not a picture file Skia
     * knows). Only the header is read, never a pixel.
     */
    public static Optional<Header> read(byte[] encoded) {
        try (Data data = Data.Companion.makeFromBytes(encoded, 0, encoded.length)) {
            Codec codec;
            try {
                codec = Codec.Companion.makeFromData(data);
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
            try (codec) {
                return Optional.of(new Header(FORMATS.get(codec.getEncodedImageFormat()), codec.getWidth(),
                        codec.getHeight()));
            }
        }
    }

    /** The header of {@code encoded}, checked: a format taken and at most {@value #MAX_PIXELS} pixels. */
    public static Header check(byte[] encoded, String name) {
        try (Data data = Data.Companion.makeFromBytes(encoded, 0, encoded.length);
                Codec codec = open(data, name)) {
            return header(codec, name);
        }
    }

    /**
     * The picture decoded once, premultiplied RGBA, after its header passed {@link #check}; a GIF's first frame. A
     * file whose pixels do not decode (cut short, corrupt) is refused, not drawn in part.
     */
    public static Image decode(byte[] encoded, String name) {
        try (Data data = Data.Companion.makeFromBytes(encoded, 0, encoded.length);
                Codec codec = open(data, name)) {
            Header header = header(codec, name);
            Bitmap bitmap = new Bitmap();
            try {
                if (!bitmap.allocPixels(new ImageInfo(header.width(), header.height(), ColorType.RGBA_8888,
                        ColorAlphaType.PREMUL))) {
                    throw new SceneException(name, "no memory for a " + header.width() + "x" + header.height()
                            + " picture");
                }
                codec.readPixels(bitmap, 0);
                bitmap.setImmutable();
                return Image.Companion.makeFromBitmap(bitmap);
            } catch (IllegalArgumentException | UnsupportedOperationException e) {
                if (e instanceof SceneException scene) {
                    throw scene;
                }
                throw new SceneException(name, "the " + header.format() + " picture cannot be decoded ("
                        + e.getMessage().toLowerCase(Locale.ROOT) + ")");
            } finally {
                bitmap.close();
            }
        }
    }

    private static Codec open(Data data, String name) {
        try {
            return Codec.Companion.makeFromData(data);
        } catch (IllegalArgumentException e) {
            throw new SceneException(name, "not " + TAKEN + " (its header cannot be read)");
        }
    }

    private static Header header(Codec codec, String name) {
        String format = FORMATS.get(codec.getEncodedImageFormat());
        if (format == null) {
            throw new SceneException(name, "a " + codec.getEncodedImageFormat() + " file, not " + TAKEN);
        }
        Header header = new Header(format, codec.getWidth(), codec.getHeight());
        if (header.tooLarge()) {
            throw new SceneException(name, header.sizeRefusal());
        }
        return header;
    }
}
