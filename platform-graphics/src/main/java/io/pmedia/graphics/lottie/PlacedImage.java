package io.pmedia.graphics.lottie;

import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.FilterMipmap;
import org.jetbrains.skia.FilterMode;
import org.jetbrains.skia.Image;
import org.jetbrains.skia.MipmapMode;
import org.jetbrains.skia.Rect;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An embedded image layer, drawn filling its asset's box as lottie-web's SVG renderer fills it
 * ({@code xMidYMid slice}: scaled to cover the box, centred, the overflow cut).
 */
final class PlacedImage extends Placed {

    private final Image image;
    private final float width;
    private final float height;

    private PlacedImage(int index, JsonNode layer, Image image, float width, float height) {
        super(index, layer);
        this.image = image;
        this.width = width;
        this.height = height;
    }

    /** The layer placed, or null when its asset is not an embedded image Skia decodes (then nothing is drawn). */
    static PlacedImage of(int index, JsonNode layer, JsonNode root) {
        JsonNode asset = asset(root, layer.path("refId").asText());
        String uri = asset == null ? "" : asset.path("p").asText();
        if (!uri.startsWith("data:")) {
            return null;
        }
        byte[] encoded = EmbeddedImages.bytes(uri).orElse(null);
        if (encoded == null) {
            return null; // not base64: drawn as Skottie draws it, not at all
        }
        String what = "the image of asset '" + asset.path("id").asText() + "'";
        // a file registered before its pictures were bounded, held to the bound here: its header before its pixels
        EmbeddedImages.checkSize(encoded, "/layers/" + index + "/refId", what);
        Image image;
        try {
            image = Image.Companion.makeFromEncoded(encoded);
        } catch (RuntimeException e) {
            return null; // not an image Skia decodes: drawn as Skottie draws it, not at all
        }
        return new PlacedImage(index, layer, image, (float) asset.path("w").asDouble(image.getWidth()),
                (float) asset.path("h").asDouble(image.getHeight()));
    }

    @Override
    void draw(Canvas canvas) {
        float cover = Math.max(width / image.getWidth(), height / image.getHeight());
        float sw = width / cover;
        float sh = height / cover;
        Rect source = Rect.Companion.makeXYWH((image.getWidth() - sw) / 2, (image.getHeight() - sh) / 2, sw, sh);
        canvas.drawImageRect(image, source, Rect.Companion.makeWH(width, height),
                new FilterMipmap(FilterMode.LINEAR, MipmapMode.NONE), null, true);
    }

    @Override
    public void close() {
        image.close();
    }
}
